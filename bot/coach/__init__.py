"""The coach, the whole feature in one tree (docs/ai.md, "Reading a review"; docs/bot.md): game
reviews, a practice table's hints and the endgame puzzles, each part importing only the parts
below it (``pyproject.toml``'s contracts, docs/architecture.md):

- ``commands``: ``/durak review``, ``/durak puzzle`` and the hand's "Hint" button, parts of the
  ``/durak`` cog (``bot.durak_cog`` assembles them);
- ``ui``: a review, a hint and a puzzle's board as Discord messages;
- ``reviews``: the reviews' and hints' worker processes and cache (no Discord);
- ``review_chart``: a review's picture (Pillow, no Discord).

What they compute is ``durak_core.coach``'s; the daily puzzles' records are stored by
``bot.storage`` (``puzzle_queries``).
"""
