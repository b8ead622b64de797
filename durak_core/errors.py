"""Typed errors. Every one is a ``ValueError`` whose message starts with the rule id it enforces."""

from __future__ import annotations


class DurakError(ValueError):
    """Base class of every error the engine raises for bad input."""


class CardNotationError(DurakError):
    """A card token that is not a card (R2)."""


class ActionNotationError(DurakError):
    """Text that is not an action in the notation of :mod:`durak_core.actions`."""


class RulesError(DurakError):
    """An impossible rule set, or one that cannot seat the requested players."""


class IllegalActionError(DurakError):
    """An action the rules forbid in this state; the state is unchanged.

    ``rule`` is the id of the rule that forbids it (e.g. ``"R12"``).
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


class GameOverError(IllegalActionError):
    """Any action after the game ended (R20)."""


class StateFormatError(DurakError):
    """Serialized state that cannot be loaded (bad JSON, wrong schema version, broken invariant)."""


class ReplayError(StateFormatError):
    """A log that does not replay: entry ``index`` (from 0), whose text is ``move``, failed.

    ``rule`` is the rule its error named, when it named one.
    """

    def __init__(self, index: int, move: str, cause: DurakError) -> None:
        super().__init__(f"log entry {index} ({move!r}) does not replay: {cause}")
        self.index = index
        self.move = move
        self.rule: str | None = getattr(cause, "rule", None)


class SeatError(DurakError):
    """A seat number that is not a seat of this table (R3)."""
