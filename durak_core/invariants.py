"""The invariant checker (like python-chess ``Board.status()``): what is wrong with a state.

An empty tuple means the state is consistent. The property tests run it after every action.
"""

from __future__ import annotations

from collections.abc import Callable

from .after_bout import game_over
from .board import Board
from .cards import cards_of


def check(s: Board) -> tuple[str, ...]:
    problems: list[str] = []
    _check_cards(s, problems.append)
    _check_table(s, problems.append)
    _check_roles(s, problems.append)
    return tuple(problems)


def _check_cards(s: Board, bad: Callable[[str], None]) -> None:
    """Every card accounted for exactly once: hands, table, talon, discard."""
    deck = s.rules.deck_mask()
    places = [*s.hands, s.table, s.discard, sum(1 << c for c in s.talon)]
    seen = 0
    for m in places:
        if seen & m:
            bad(f"cards in two places: {' '.join(map(str, cards_of(seen & m)))}")
        seen |= m
    if len(set(s.talon)) != len(s.talon):
        bad("a card is twice in the talon")
    if seen != deck:
        if deck & ~seen:
            bad(f"cards missing: {' '.join(map(str, cards_of(deck & ~seen)))}")
        if seen & ~deck:
            bad(f"cards not in the deck: {' '.join(map(str, cards_of(seen & ~deck)))}")
    bottom = 1 if s.hidden_trump >= 0 else 0
    if s.talon and s.talon[bottom] != s.trump_card:
        bad("the face-up trump is not at the bottom of the talon")
    if s.hidden_trump >= 0 and (len(s.talon) < 2 or s.talon[0] != s.hidden_trump):
        bad("V14: the face-down card is not under the face-up trump")


def _check_table(s: Board, bad: Callable[[str], None]) -> None:
    if len(s.att) != len(s.dfn):
        bad("attack and defence columns differ in length")
    table = 0
    for a, d in zip(s.att, s.dfn, strict=False):
        table |= 1 << a
        if d >= 0:
            table |= 1 << d
            if not s.beat[a] >> d & 1:
                bad(f"R7: {cards_of(1 << d)[0]} does not beat {cards_of(1 << a)[0]}")
    if table != s.table:
        bad("the table mask does not match the table's cards")
    if s.unbeaten != sum(1 for d in s.dfn if d < 0):
        bad("the unbeaten count is wrong")
    if len(s.att) > s.limit:
        bad(f"R12: {len(s.att)} attack cards exceed the limit {s.limit}")
    cap = s.rules.bout_cap(s.discarded_once)
    if cap is not None and s.limit > cap:
        bad(f"R12: the limit {s.limit} exceeds the cap {cap}")
    if s.taken and not s.att:
        bad("R13: take declared with nothing on the table")


def _check_roles(s: Board, bad: Callable[[str], None]) -> None:
    """Roles and players."""
    for t in range(s.n):
        if s.known[t] & ~s.hands[t]:
            bad(f"seat {t}: publicly known cards not in its hand")
        if not s.active >> t & 1 and s.hands[t]:
            bad(f"R18: seat {t} is out but holds cards")
    if s.out and s.talon:
        bad("R18: a player is out while the talon has cards")
    if len(set(s.out)) != len(s.out):
        bad("a seat went out twice")
    if s.finished:
        if not game_over(s):
            bad("R20: finished while several teams hold cards")
        if s.att:
            bad("finished with cards on the table")
    else:
        if game_over(s):
            bad("R20: the game should have ended")
        for role, seat in (("main attacker", s.attacker), ("defender", s.defender)):
            if not s.active >> seat & 1:
                bad(f"R9: the {role} (seat {seat}) is not in the game")
        if s.attacker == s.defender:
            bad("R9: the main attacker defends")
        if s.teams[s.attacker] == s.teams[s.defender]:
            bad("V7: teammates attack each other")
        if s.attackers >> s.defender & 1:
            bad("R9: the defender may throw in")
