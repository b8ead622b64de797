"""Playing: a seat's action (a human's click, an AI's choice) and "done for this bout".

Every action is checked under the table's lock, then applied, saved and announced through
:meth:`TableCore.changed`; the turn timer applies its moves with :func:`apply_action` too.
"""

from __future__ import annotations

from bot.domain import TableStatus
from bot.settings import Settings
from durak_core import Action, SeatView
from durak_core.actions import ATTACK, PASS_ACTION
from durak_core.explain import why_illegal

from .core import TableCore
from .refusals import Refusal, Rejected
from .table import Table


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
    ) -> None:
        """Apply ``action`` for ``seat`` if it is legal now. ``version``: the table version the
        actor saw (None: the caller checked under the lock already). ``user_id``: the human
        acting (None for AI seats and the timer), who must hold ``seat``."""
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
        self, table: Table, seat: int, on: bool, *, version: int | None, user_id: int
    ) -> None:
        """ "Done for this bout" (``on``) or taking it back: only an attacker of the running
        bout (R9) sets it; the table then passes for it whenever passing is legal."""
        async with table.lock:
            if table.status != TableStatus.RUNNING or table.state is None:
                raise Rejected(Refusal.NOT_RUNNING)
            if table.seats[seat].user_id != user_id:
                raise Rejected(Refusal.NOT_YOUR_SEAT)
            if version is not None and version != table.version:
                raise Rejected(Refusal.STALE)
            if on:
                if not may_auto_pass(table.state.view(seat)):
                    raise Rejected(Refusal.NO_AUTO_PASS)
                table.auto_pass[seat] = table.state.bout
                auto_passes(table)
            elif table.auto_pass.pop(seat, None) is None:
                raise Rejected(Refusal.STALE)
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
    """Whether the seat may set "done for this bout": it attacks in the running bout (R9) and
    a card is on the table (before the opening card the main attacker must lead, R10)."""
    return (
        not view.finished
        and bool(view.table)
        and view.seat != view.defender
        and view.seat in view.attackers
        and view.seat in view.active
    )
