# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""What a seat may do now, and which rule says no: each rule of play stated once.

Every check below answers one question about one seat — may it attack, defend, transfer, show
a trump, take, pass or exchange now — with :data:`ALLOWED` or the code of the first rule that
forbids it. The same checks serve both sides, in the spirit of pokerkit's verify / can / do:

- the listing (:func:`durak_core.listing.list_legal`) lists exactly what they allow, card by
  card from the card sets below (:func:`attack_cards`, :func:`defence_cards`,
  :func:`transfer_cards`, :func:`show_cards`);
- :func:`check` runs them for one action, and :func:`reason` turns its code into the rule id and
  a sentence, for ``verify``'s errors and the bot's refusals.

The checks build no strings (the listing asks them for every state); only :func:`reason` does.

>>> from durak_core import RuleSet, new_game, parse_action
>>> g = new_game(RuleSet(), 2, seed=7)  # seat 1 opens against seat 0
>>> refusal(g, 0, parse_action("take"))
('R10', 'seat 0 may not act before the main attacker (seat 1) opens the bout')
>>> g2, _ = g.apply(1, "attack 6C")
>>> refusal(g2, 1, parse_action("take")), refusal(g2, 0, parse_action("take"))
(('R13', 'only the defender (seat 0) may take'), None)
"""

from __future__ import annotations

from typing import Final

from .actions import ATTACK, DEFEND, EXCHANGE, PASS, SHOW, TAKE, TRANSFER, Action
from .bits import lowest_bit
from .board import Board
from .cards import Card, card_index
from .rules import FIRST_BOUT_CAP, OPTIONS

#: The answer of a check that finds nothing against the action.
ALLOWED: Final = 0
# Why not, one code per rule statement (the rule id and the sentence are in _REASONS):
GAME_OVER: Final = 1
SEAT_OUT: Final = 2
CARD_PLAYED: Final = 3
CARD_NOT_HELD: Final = 4
BEFORE_OPENING: Final = 5
DEFENDER_ATTACKS: Final = 6
NOT_A_THROWER: Final = 7
PASSED: Final = 8
RANK_NOT_ON_TABLE: Final = 9
LIMIT_REACHED: Final = 10
ONLY_DEFENDER_BEATS: Final = 11
BEAT_AFTER_TAKE: Final = 12
NOT_UNBEATEN: Final = 13
DOES_NOT_BEAT: Final = 14
NO_TRANSFERS: Final = 15
ONLY_DEFENDER_TRANSFERS: Final = 16
TRANSFER_AFTER_TAKE: Final = 17
TRANSFER_AFTER_BEATING: Final = 18
TRANSFER_OTHER_RANK: Final = 19
TRANSFER_TOO_MANY: Final = 20
ONLY_DEFENDER_TAKES: Final = 21
TAKEN_ALREADY: Final = 22
NOTHING_TO_TAKE: Final = 23
DEFENDER_PASSES: Final = 24
PASS_NOT_A_THROWER: Final = 25
PASSED_ALREADY: Final = 26
PASS_BEFORE_BEATEN: Final = 27
NOTHING_TO_THROW: Final = 28
NO_EXCHANGES: Final = 29
NO_TRUMP: Final = 30
NOT_LOWEST_TRUMP: Final = 31
TALON_TOO_SHORT: Final = 32
MUST_OPEN: Final = 33
NO_SHOWS: Final = 34
ONLY_DEFENDER_SHOWS: Final = 35
SHOW_AFTER_TAKE: Final = 36
SHOW_AFTER_BEATING: Final = 37
SHOW_NOT_TRUMP: Final = 38
SHOWN_ALREADY: Final = 39
SHOW_TOO_MANY: Final = 40


# --- the card sets ---------------------------------------------------------------------------


def attack_cards(s: Board, seat: int) -> int:
    """R10: the main attacker opens with any card; R11: a throw-in matches a rank on the table."""
    hand = s.hands[seat]
    return hand & s.ranks if s.att else hand


def is_unbeaten(s: Board, attack: int) -> bool:
    """R13: ``attack`` lies on the table with nothing on it yet."""
    att = s.att
    return attack in att and s.dfn[att.index(attack)] < 0


def defence_cards(s: Board, attack: int) -> int:
    """R7: the defender's cards that beat ``attack``."""
    return s.hands[s.defender] & s.beat[attack]


def transfer_cards(s: Board) -> int:
    """V1: the defender's cards of the attack cards' rank (it may transfer with any of them
    once :func:`transfer_check` allowed a transfer: the listing's question)."""
    return s.hands[s.defender] & s._k.same_rank[s.att[0]]


def show_cards(s: Board) -> int:
    """V18: the defender's trumps of the attack cards' rank (it may show any of them once
    :func:`show_check` allowed a show); none in a game without a trump."""
    tables = s._k
    return s.hands[s.defender] & tables.same_rank[s.att[0]] & tables.suit_cards[s.trump_suit]


def _room(s: Board) -> int:
    """How many attack cards the next defender could face after a transfer: it must answer
    every one, within the bout's cap (R12)."""
    tables = s._k
    held = s.hands[tables.next_opponent(s.defender, s.active)].bit_count()
    cap = tables.caps[s.discarded_once]
    return held if held < cap else cap


def has_shown(s: Board, seat: int) -> bool:
    """V18: has ``seat`` shown a trump this bout?"""
    return s.shown[0] == s.bout and bool(s.shown[1] >> seat & 1)


def exchange_card(s: Board, seat: int) -> int:
    """V8: the lowest trump ``seat`` holds (never the face-up card itself), or -1."""
    low = s._k.lowest_trumps[s.trump_suit] & ~(1 << s.trump_card)
    return lowest_bit(s.hands[seat] & low)


# --- the checks --------------------------------------------------------------------------------
# ``card`` (and ``attack``) -1: any card; the listing asks so, then lists the card set.


def turn_check(s: Board, seat: int) -> int:
    """R18: players out take no part; R10: nobody acts before the main attacker opens the bout
    (V8's exchange aside: :func:`check`)."""
    if not s.active >> seat & 1:
        return SEAT_OUT
    if not s.att and seat != s.attacker:
        return BEFORE_OPENING
    return ALLOWED


def attack_check(s: Board, seat: int, card: int) -> int:
    """R10–R12, R15, V5, V7: may ``seat`` open the bout or throw ``card`` in?"""
    if not s.att:
        return ALLOWED  # the main attacker opens (turn_check)
    if seat == s.defender:
        return DEFENDER_ATTACKS  # R9
    if not s.attackers >> seat & 1:
        return NOT_A_THROWER  # R9, V5, V7
    if s.passed >> seat & 1:
        return PASSED  # R15, until the table changes
    if card >= 0 and not attack_cards(s, seat) >> card & 1:
        return RANK_NOT_ON_TABLE  # R11
    if len(s.att) >= s.limit:
        return LIMIT_REACHED  # R12 (V4, V9)
    return ALLOWED


def defend_check(s: Board, seat: int, attack: int, card: int) -> int:
    """R13, R14, R7: may ``seat`` beat the attack card ``attack`` with ``card``?"""
    if seat != s.defender:
        return ONLY_DEFENDER_BEATS
    if s.taken:
        return BEAT_AFTER_TAKE  # R14
    if attack >= 0:
        if not is_unbeaten(s, attack):
            return NOT_UNBEATEN
        if not defence_cards(s, attack) >> card & 1:
            return DOES_NOT_BEAT  # R7
    return ALLOWED


def transfer_check(s: Board, seat: int, card: int) -> int:
    """V1: may the defender pass the attack on with ``card``?"""
    if not s._k.transfer:
        return NO_TRANSFERS
    if seat != s.defender:
        return ONLY_DEFENDER_TRANSFERS
    if s.taken:
        return TRANSFER_AFTER_TAKE
    if s.unbeaten != len(s.att):
        return TRANSFER_AFTER_BEATING
    if card >= 0 and not s._k.same_rank[s.att[0]] >> card & 1:
        return TRANSFER_OTHER_RANK
    if len(s.att) >= _room(s):  # the next defender faces one card more
        return TRANSFER_TOO_MANY
    return ALLOWED


def show_check(s: Board, seat: int, card: int) -> int:
    """V18: may the defender pass the attack on by showing ``card``? As a transfer (V1), but
    with a trump of the attack's rank, kept in the hand, so the next defender faces no card
    more; once per bout per player."""
    if not s._k.transfer_by_trump:
        return NO_SHOWS
    if seat != s.defender:
        return ONLY_DEFENDER_SHOWS
    if s.taken:
        return SHOW_AFTER_TAKE
    if s.unbeaten != len(s.att):
        return SHOW_AFTER_BEATING
    if card >= 0 and not show_cards(s) >> card & 1:
        return SHOW_NOT_TRUMP
    if has_shown(s, seat):
        return SHOWN_ALREADY
    if len(s.att) > _room(s):
        return SHOW_TOO_MANY
    return ALLOWED


def take_check(s: Board, seat: int) -> int:
    """R13, R14: may ``seat`` pick up the table?"""
    if seat != s.defender:
        return ONLY_DEFENDER_TAKES
    if s.taken:
        return TAKEN_ALREADY  # R14
    if not s.unbeaten:
        return NOTHING_TO_TAKE
    return ALLOWED


def pass_check(s: Board, seat: int) -> int:
    """R10: the main attacker opens the bout with a card, never a pass; R15: an attacker passes
    once every card is beaten or taken; one with nothing to throw in counts as passed already
    (and is not asked)."""
    if seat == s.defender:
        return DEFENDER_PASSES
    if not s.att:
        return MUST_OPEN  # R10 (only the main attacker gets here: turn_check)
    if not s.attackers >> seat & 1:
        return PASS_NOT_A_THROWER  # V5
    if s.passed >> seat & 1:
        return PASSED_ALREADY
    if s.unbeaten and not s.taken:
        return PASS_BEFORE_BEATEN
    if len(s.att) >= s.limit or not s.hands[seat] & s.ranks:
        return NOTHING_TO_THROW
    return ALLOWED


def exchange_check(s: Board, seat: int) -> int:
    """V8: any player, at any time, may swap the lowest trump for the face-up trump while the
    talon holds more than that card."""
    if not s._k.trump_exchange:
        return NO_EXCHANGES
    if s.trump_suit < 0:
        return NO_TRUMP
    if exchange_card(s, seat) < 0:
        return NOT_LOWEST_TRUMP
    if len(s.talon) < 2:
        return TALON_TOO_SHORT
    return ALLOWED


def check(s: Board, seat: int, action: Action) -> int:
    """:data:`ALLOWED`, or the code of the first rule against ``seat`` playing ``action`` now
    (``seat`` a seat number of this table)."""
    if s.finished:
        return GAME_OVER  # R20
    if not s.active >> seat & 1:
        return SEAT_OUT  # R18
    kind = action.kind
    if kind == EXCHANGE:
        return exchange_check(s, seat)
    card = action.c
    if card >= 0 and not s.hands[seat] >> card & 1:
        return CARD_PLAYED if (s.table | s.discard) >> card & 1 else CARD_NOT_HELD  # R16, R24
    why = turn_check(s, seat)
    if why != ALLOWED:
        return why
    if kind == ATTACK:
        return attack_check(s, seat, card)
    if kind == DEFEND:
        return defend_check(s, seat, action.a, card)
    if kind == TRANSFER:
        return transfer_check(s, seat, card)
    if kind == TAKE:
        return take_check(s, seat)
    if kind == PASS:
        return pass_check(s, seat)
    if kind == SHOW:
        return show_check(s, seat, card)
    raise AssertionError(action)  # pragma: no cover - Action has exactly these kinds


# --- why not, in words -------------------------------------------------------------------------

# The ids a refusal of an option's check cites, from the option's declaration.
_TRANSFER: Final = OPTIONS.refusal_id("transfer")
_NEIGHBOURS: Final = OPTIONS.refusal_id("neighbours_only")
_EXCHANGE: Final = OPTIONS.refusal_id("trump_exchange")
_TEAMS: Final = OPTIONS.refusal_id("team_size")
_FIRST_FIVE: Final = OPTIONS.refusal_id("first_bout_five")
_SHOW: Final = OPTIONS.refusal_id("transfer_by_trump")

#: For each code: the rule id and the sentence (fields filled by :func:`reason`).
_REASONS: Final = {
    GAME_OVER: ("R20", "the game is over; no more actions (got {action})"),
    SEAT_OUT: ("R18", "{who} is out of the game"),
    CARD_PLAYED: ("R16", "{card} was already played"),
    CARD_NOT_HELD: ("R24", "{who} does not hold {card}"),
    BEFORE_OPENING: (
        "R10",
        "{who} may not act before the main attacker (seat {attacker}) opens the bout",
    ),
    DEFENDER_ATTACKS: ("R9", "the defender may not attack"),
    NOT_A_THROWER: (_NEIGHBOURS, "only the defender's neighbours may throw in"),
    PASSED: ("R15", "{who} passed; it may throw in again once the table changes"),
    RANK_NOT_ON_TABLE: ("R11", "no {rank} is on the table to throw in {card} against"),
    LIMIT_REACHED: ("R12", "the bout already has its limit of {limit} attack cards"),
    ONLY_DEFENDER_BEATS: ("R13", "only the defender (seat {defender}) beats cards"),
    BEAT_AFTER_TAKE: ("R14", "after declaring take the defender plays no more cards"),
    NOT_UNBEATEN: ("R13", "{attack} is not an unbeaten attack card on the table"),
    DOES_NOT_BEAT: ("R7", "{card} does not beat {attack}"),
    NO_TRANSFERS: (_TRANSFER, "transfers are not part of these rules"),
    ONLY_DEFENDER_TRANSFERS: (_TRANSFER, "only the defender (seat {defender}) may transfer"),
    TRANSFER_AFTER_TAKE: (_TRANSFER, "no transfer after a take"),
    TRANSFER_AFTER_BEATING: (_TRANSFER, "no transfer once an attack card is beaten"),
    TRANSFER_OTHER_RANK: (_TRANSFER, "{card} does not match the rank of the attack cards"),
    TRANSFER_TOO_MANY: (_TRANSFER, "the next defender holds too few cards to face that (or R12)"),
    ONLY_DEFENDER_TAKES: ("R13", "only the defender (seat {defender}) may take"),
    TAKEN_ALREADY: ("R14", "the defender has already declared take"),
    NOTHING_TO_TAKE: ("R13", "there is no unbeaten card to take"),
    DEFENDER_PASSES: ("R15", "only attackers pass; the defender beats or takes"),
    PASS_NOT_A_THROWER: (_NEIGHBOURS, "{who} may not throw in this bout: nothing to pass"),
    PASSED_ALREADY: ("R15", "{who} has already passed"),
    PASS_BEFORE_BEATEN: ("R15", "no pass before every attack card is beaten or taken"),
    NOTHING_TO_THROW: ("R15", "{who} has nothing to throw in and counts as passed already"),
    MUST_OPEN: ("R10", "{who} must open the bout with a card; there is nothing to pass on"),
    NO_EXCHANGES: (_EXCHANGE, "trump exchange is not part of these rules"),
    NO_TRUMP: (_EXCHANGE, "there is no trump this game"),
    NOT_LOWEST_TRUMP: (_EXCHANGE, "only the holder of {lowest_trump} may exchange it"),
    TALON_TOO_SHORT: (_EXCHANGE, "the talon must hold more than one card to exchange"),
    NO_SHOWS: (_SHOW, "transfer by showing the trump is not part of these rules"),
    ONLY_DEFENDER_SHOWS: (_SHOW, "only the defender (seat {defender}) may show a trump"),
    SHOW_AFTER_TAKE: (_SHOW, "no show after a take"),
    SHOW_AFTER_BEATING: (_SHOW, "no show once an attack card is beaten"),
    SHOW_NOT_TRUMP: (_SHOW, "{card} is not a trump of the attack cards' rank"),
    SHOWN_ALREADY: (_SHOW, "{who} has already shown a trump this bout"),
    SHOW_TOO_MANY: (_SHOW, "the next defender holds too few cards to face the attack (or R12)"),
}


def reason(s: Board, seat: int, action: Action, why: int) -> tuple[str, str]:
    """The rule id and the sentence for the refusal ``why`` (a code :func:`check` returned)."""
    if why == NOT_A_THROWER and s.rules.team_size and s.teams[seat] == s.teams[s.defender]:
        return _TEAMS, "teammates never attack each other"
    if why == LIMIT_REACHED:
        cap = s.rules.bout_cap(s.discarded_once)
        if cap == FIRST_BOUT_CAP == s.limit and s.rules.hand_size > FIRST_BOUT_CAP:
            return _FIRST_FIVE, f"at most {FIRST_BOUT_CAP} attack cards before the first discard"
    rule, sentence = _REASONS[why]
    card = Card.from_index(action.c) if action.c >= 0 else None
    lowest = card_index(s.rules.lowest_rank, s.trump_suit) if s.trump_suit >= 0 else -1
    return rule, sentence.format(
        action=action,
        who=f"seat {seat}",
        attacker=s.attacker,
        defender=s.defender,
        card=card,
        rank=card.rank_name() if card is not None else "",
        attack=Card.from_index(action.a) if action.a >= 0 else None,
        limit=s.limit,
        lowest_trump=Card.from_index(lowest) if lowest >= 0 else None,
    )


def refusal(s: Board, seat: int, action: Action) -> tuple[str, str] | None:
    """None if ``seat`` may play ``action`` now, else the rule id and the sentence saying why
    not (``seat`` a seat number of this table)."""
    why = check(s, seat, action)
    return None if why == ALLOWED else reason(s, seat, action, why)
