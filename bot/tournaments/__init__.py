"""Tournaments, the whole feature in one tree (docs/tournaments.md), each part importing only
the parts below it (``pyproject.toml``'s contracts, docs/architecture.md):

- ``commands``: the ``/durak-tournament`` commands and the sign-up buttons' clicks;
- ``messages``: the sign-up, standings and bracket messages, the export, and the runner's
  Discord side (``tournament_host``);
- ``runner``: rounds of tables, deadlines, resuming after a restart (no Discord);
- ``pictures``: the standings and bracket pictures (Pillow, no Discord);
- ``storage``: the stored tournament, its records and queries (no Discord);
- ``logic``: the rules of a tournament, pure: no Discord, no I/O, no clock, no random source.
"""
