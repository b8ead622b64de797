"""Playing: a seat's action (a human's click, an AI's choice) and "done for this bout".

Every action is checked under the table's lock, then applied, saved and announced through
:meth:`TableCore.changed`; the turn timer applies its moves with :func:`apply_action` too.
"""

from __future__ import annotations

from bot.domain import TableStatus
from bot.settings import Settings
from durak_core import Action, PublicView, SeatView
from durak_core.actions import ATTACK, PASS_ACTION, TAKE
from durak_core.explain import why_illegal

from .core import TableCore
from .refusals import Refusal, Rejected
from .table import Table


def check_seen(table: Table, seat: int, action: Action, seen: int) -> None:
    """A human's click on a hand that showed the table at version ``seen`` (docs/bot.md,
    "Clicks on an older hand"): accepted when its action is legal now, whatever else changed
    since in the same bout, except a Take after more cards were thrown in than the hand
    showed: that one is confirmed on the fresh hand first. A hand of an earlier bout is stale:
    the player has not seen this one."""
    state = table.state
    assert state is not None
    if seen == table.version:
        return
    shown = table.attacks_at(seen)
    if shown is None or not state.can(seat, action):
        raise Rejected(Refusal.STALE)
    if action.kind != TAKE:
        return
    pairs = table.public_view().table
    if len(pairs) > shown:
        total = sum(1 if defence is None else 2 for _, defence in pairs)
        raise Rejected(Refusal.TAKE_GREW, {"more": len(pairs) - shown, "n": total})


class Play:
    def __init__(self, core: TableCore) -> None:
        self.core = core

    @property
    def settings(self) -> Settings:
        return self.core.settings

    async def act(
        self,
        table: Table,
        seat: int,
        action: Action,
        *,
        version: int | None,
        user_id: int | None,
        timed_out: bool = False,
        seen: int | None = None,
    ) -> None:
        """Apply ``action`` for ``seat`` if it is legal now. ``version``: the table version an
        AI decided on, which must still be current (None: the caller checked under the lock
        already). ``seen``: instead, the version of the hand a human's click or Activity move
        was made on (:func:`check_seen`). ``user_id``: the human acting (None for AI seats and
        the timer), who must hold ``seat``."""
        async with table.lock:
            if table.status != TableStatus.RUNNING or table.state is None:
                raise Rejected(Refusal.NOT_RUNNING)
            if not 0 <= seat < len(table.seats):
                raise Rejected(Refusal.NOT_SEATED)
            if user_id is not None and table.seats[seat].user_id != user_id:
                raise Rejected(Refusal.NOT_YOUR_SEAT)
            if version is not None and version != table.version:
                raise Rejected(Refusal.STALE)
            state = table.state
            if seen is not None:
                check_seen(table, seat, action, seen)
            if not state.can(seat, action):
                rule, why = why_illegal(state, seat, action)
                raise Rejected(Refusal.ILLEGAL, {"rule": rule, "why": why})
            if action.kind == ATTACK:  # a throw-in takes back "done for this bout"
                table.auto_pass.pop(seat, None)
            apply_action(table, seat, action, timed_out=timed_out)
            if user_id is not None:  # the owner is here: no longer idle
                self.core.human_acted(table)
                if seat in table.away:
                    table.return_to_owner(seat)
                table.expiries.pop(seat, None)
            if table.state.finished:
                await self.core.finish_game(table)
            await self.core.changed(table, actor=user_id)

    async def set_auto_pass(
        self, table: Table, seat: int, on: bool, *, seen: int | None, user_id: int
    ) -> None:
        """ "Done for this bout" (``on``) or taking it back: only an attacker of the running
        bout (R9) sets it; the table then passes for it whenever passing is legal. Judged on
        the table as it is within the bout the clicked hand showed (``seen``, its version;
        None: now): setting it from a hand of an earlier bout is stale; setting it twice, or
        taking back a setting that has lapsed already (its bout ended), changes nothing and
        says so."""
        async with table.lock:
            if table.status != TableStatus.RUNNING or table.state is None:
                raise Rejected(Refusal.NOT_RUNNING)
            if table.seats[seat].user_id != user_id:
                raise Rejected(Refusal.NOT_YOUR_SEAT)
            if on:
                if seen is not None and table.attacks_at(seen) is None:
                    raise Rejected(Refusal.STALE)  # meant for a bout that has ended
                if seat in table.auto_pass:
                    raise Rejected(Refusal.AUTO_PASS_SET)  # a double click
                if not may_auto_pass_at(table.public_view(), seat):
                    raise Rejected(Refusal.NO_AUTO_PASS)
                table.auto_pass[seat] = table.state.bout
                auto_passes(table)
            elif table.auto_pass.pop(seat, None) is None:
                raise Rejected(Refusal.AUTO_PASS_LAPSED)
            self.core.human_acted(table)
            if table.state.finished:
                await self.core.finish_game(table)
            await self.core.changed(table, actor=user_id)


def apply_action(table: Table, seat: int, action: Action, *, timed_out: bool) -> None:
    """Under the lock, ``action`` checked legal: the new state and its events."""
    assert table.state is not None
    state, events = table.state.apply(seat, action)
    table.state = state
    table.events.extend(events)
    if timed_out:
        table.timed_out.append(len(table.events) - len(events))
    auto_passes(table)


def auto_passes(table: Table) -> None:
    """Pass for every seat that is "done for this bout" as soon as passing is legal (R15:
    after each new card the defender beats). A setting of an earlier bout lapses."""
    state = table.state
    assert state is not None
    again = True
    while again and table.auto_pass and not state.finished:
        again = False
        for seat, bout in list(table.auto_pass.items()):
            if bout != state.bout:
                del table.auto_pass[seat]
            elif state.can(seat, PASS_ACTION):
                state, events = state.apply(seat, PASS_ACTION)
                table.state = state
                table.events.extend(events)
                again = True
                break


def may_auto_pass(view: SeatView) -> bool:
    """Whether the seat of ``view`` may set "done for this bout" (:func:`may_auto_pass_at`)."""
    return may_auto_pass_at(view, view.seat)


def may_auto_pass_at(view: PublicView, seat: int) -> bool:
    """Whether ``seat`` may set "done for this bout": it attacks in the running bout (R9) and
    a card is on the table (before the opening card the main attacker must lead, R10). Public
    facts only, so the refresher can tell without a seat's view."""
    return (
        not view.finished
        and bool(view.table)
        and seat != view.defender
        and seat in view.attackers
        and seat in view.active
    )
