"""The coach (docs/ai.md): game reviews (``review``, ``review_game``), a practice table's hint
(``hint``) and the endgame puzzles (``puzzles``, ``puzzle_maker``, ``puzzle_shape``).

It asks the AI (``durak_core.ai``: Hard's search, the endgame solver, Normal's heuristics) and
the engine's public API; the AI never imports it (``pyproject.toml``'s contracts). Like the
players, it sees only a seat's view and the events that seat saw.
"""
