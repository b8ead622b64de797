"""Data files shipped with the engine: ``puzzles.json``, the endgame puzzles of ``/durak
puzzle`` (made by ``durak puzzles generate``; docs/ai.md, "Puzzles: how they are made")."""
