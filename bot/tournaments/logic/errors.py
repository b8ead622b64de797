"""Typed errors of the tournament core.

Each carries a stable ``code`` and its ``params`` so that the bot can answer in the player's
language from its catalogue (``tournament.error.<code>``); ``str(error)`` is the English sentence
for logs and tests.
"""

from __future__ import annotations


class TournamentError(ValueError):
    """Base class: bad input that the tournament refuses; nothing was changed."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class SettingsError(TournamentError):
    """Settings that cannot make a tournament (e.g. single elimination at 4-seat tables)."""


class SignupError(TournamentError):
    """A sign-up step refused: joining twice, leaving after the start, a full list, too few."""


class ResultError(TournamentError):
    """A result that does not fit the table, the match or the bracket it is recorded for."""


class PairingError(TournamentError):
    """A round that cannot be seated (e.g. fewer active players than one table needs)."""
