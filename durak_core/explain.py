"""Why an action is illegal: the rule id and a sentence, for error messages only.

Legality itself is decided by :func:`durak_core.engine._legal`; this module runs only after it
said no, to name the rule. A property test checks it never claims a legal action is illegal.
"""

from __future__ import annotations

from .actions import ATTACK, DEFEND, EXCHANGE, PASS, TAKE, TRANSFER, Action
from .cards import SAME_RANK, Card, Suit, card_index
from .rules import lowest_trumps
from .state import GameState


def why_illegal(s: GameState, seat: int, action: Action) -> tuple[str, str]:
    """(rule id, message) for an action :func:`~durak_core.engine.verify` rejected."""
    who = f"seat {seat}"
    if not s.active >> seat & 1:
        return "R18", f"{who} is out of the game"
    kind = action.kind
    if kind == EXCHANGE:
        return _exchange(s, seat)
    if kind in (ATTACK, DEFEND, TRANSFER):
        card: Card = action.card  # type: ignore[attr-defined]
        if not s.hands[seat] >> card.index & 1:
            if (s.table | s.discard) >> card.index & 1:
                return "R16", f"{card} was already played"
            return "R24", f"{who} does not hold {card}"
    if not s.att and seat != s.attacker:
        return "R10", (
            f"{who} may not act before the main attacker (seat {s.attacker}) opens the bout"
        )
    if kind == ATTACK:
        return _attack(s, seat, action.card)  # type: ignore[attr-defined]
    if kind == DEFEND:
        return _defend(s, seat, action.attack, action.card)  # type: ignore[attr-defined]
    if kind == TRANSFER:
        return _transfer(s, seat, action.card)  # type: ignore[attr-defined]
    if kind == TAKE:
        if seat != s.defender:
            return "R13", f"only the defender (seat {s.defender}) may take"
        if s.taken:
            return "R14", "the defender has already declared take"
        return "R13", "there is no unbeaten card to take"
    if kind == PASS:
        return _pass(s, seat)
    return "R11", f"{action} is not legal now"  # pragma: no cover


def _attack(s: GameState, seat: int, card: Card) -> tuple[str, str]:
    if seat == s.defender:
        return "R9", "the defender may not attack"
    if not s.attackers >> seat & 1:
        if s.rules.team_size and s.teams[seat] == s.teams[s.defender]:
            return "V7", "teammates never attack each other"
        return "V5", "only the defender's neighbours may throw in"
    if s.passed >> seat & 1:
        return "R15", f"seat {seat} passed; it may throw in again once the table changes"
    if not s.ranks >> card.index & 1:
        return "R11", f"no {card.rank_name()} is on the table to throw in {card} against"
    cap = s.rules.bout_cap(s.discarded_once)
    if cap == 5 and s.limit == 5 and s.rules.hand_size > 5:
        return "V4", "at most 5 attack cards before the first discard"
    return "R12", f"the bout already has its limit of {s.limit} attack cards"


def _defend(s: GameState, seat: int, attack: Card, card: Card) -> tuple[str, str]:
    if seat != s.defender:
        return "R13", f"only the defender (seat {s.defender}) beats cards"
    if s.taken:
        return "R14", "after declaring take the defender plays no more cards"
    slots = [i for i, a in enumerate(s.att) if a == attack.index]
    if not slots or s.dfn[slots[0]] >= 0:
        return "R13", f"{attack} is not an unbeaten attack card on the table"
    return "R7", f"{card} does not beat {attack}"


def _transfer(s: GameState, seat: int, card: Card) -> tuple[str, str]:
    if not s.rules.transfer:
        return "V1", "transfers are not part of these rules"
    if seat != s.defender:
        return "V1", f"only the defender (seat {s.defender}) may transfer"
    if s.taken:
        return "V1", "no transfer after a take"
    if s.unbeaten != len(s.att):
        return "V1", "no transfer once an attack card is beaten"
    if not SAME_RANK[s.att[0]] >> card.index & 1:
        return "V1", f"{card} does not match the rank of the attack cards"
    return "V1", "the next defender would hold fewer cards than the attack cards (or the limit)"


def _pass(s: GameState, seat: int) -> tuple[str, str]:
    if not s.att:  # only the main attacker gets here (see why_illegal)
        return "R10", f"seat {seat} must open the bout with a card; there is nothing to pass on"
    if seat == s.defender:
        return "R15", "only attackers pass; the defender beats or takes"
    if not s.attackers >> seat & 1:
        return "V5", f"seat {seat} may not throw in this bout, so it has nothing to pass"
    if s.passed >> seat & 1:
        return "R15", f"seat {seat} has already passed"
    if s.unbeaten and not s.taken:
        return "R15", "no pass before every attack card is beaten or the defender takes"
    return "R15", f"seat {seat} has nothing to throw in and counts as passed already"


def _exchange(s: GameState, seat: int) -> tuple[str, str]:
    if not s.rules.trump_exchange:
        return "V8", "trump exchange is not part of these rules"
    if s.trump_suit < 0:
        return "V8", "there is no trump this game"
    low = Card.from_index(card_index(s.rules.lowest_rank, s.trump_suit))
    if not s.hands[seat] & lowest_trumps(s.rules, Suit(s.trump_suit)):
        return "V8", f"only the holder of {low} may exchange it"
    return "V8", "the talon must hold more than one card to exchange"
