"""The stored tournament's refusals: an unknown id, and the sign-up steps it refuses (nothing
written). Storage errors like the others (``bot.storage.StorageError``)."""

from __future__ import annotations

from bot.storage.errors import NotFound, StorageError


class TournamentNotFound(NotFound):
    """No stored tournament has this id."""

    what = "tournament"


class SignupRefused(StorageError, ValueError):
    """A sign-up step the stored tournament refuses; nothing was written. ``code`` is the
    tournament core's (``bot.tournaments.SignupError``), so the bot answers both from one
    catalogue key (``tournament.error.<code>``)."""

    code = "signup"

    def __init__(self, tournament_id: str, user_id: int, message: str) -> None:
        super().__init__(f"tournament {tournament_id!r}, user {user_id}: {message}")
        self.tournament_id = tournament_id
        self.user_id = user_id


class AlreadyJoined(SignupRefused):
    code = "already_joined"


class TournamentFull(SignupRefused):
    code = "full"


class SignupClosed(SignupRefused):
    """The tournament takes no more sign-ups: it has started, finished or been cancelled."""

    code = "started"


class LeaveClosed(SignupRefused):
    """Leaving is for the sign-up; after the start a player is withdrawn (results stay)."""

    code = "leave_started"
