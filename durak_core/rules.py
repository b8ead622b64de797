"""The rule set of a table: the default game (R1–R25) and its variant options (V1–V18).

A :class:`RuleSet` is an immutable value. It validates itself on construction, and
:meth:`RuleSet.check_seats` validates it against a number of players, so an impossible table is
rejected before a card is dealt.

>>> RuleSet().describe()
'classic: 36 cards, 6-card hands, throw-in, no transfer'
>>> RuleSet(transfer=True, deck_size=24).differences()
['V1 transfer', 'V2 24-card deck']
>>> RuleSet(hand_size=7)
Traceback (most recent call last):
...
durak_core.errors.RulesError: V3: 7-card hands need the 52-card deck (this rule set has 36)
>>> preset("transfer").transfer
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Final

from .cards import ACE, BLACK_JOKER, COPY_STRIDE, RED_JOKER, Card, Suit, card_index, mask_of
from .errors import RulesError
from .rule_options import DECK_SIZES, HAND_SIZES, Registry, RuleOption, option

#: R3: 2 to 6 players. The engine's seat tables (:mod:`durak_core.precomputed`) are sized for it.
MIN_SEATS: Final = 2
MAX_SEATS: Final = 6
#: V4: the attack cards a bout may hold before the first discard.
FIRST_BOUT_CAP: Final = 5
_LOWEST_RANK: Final = {24: 9, 36: 6, 52: 2}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Options of the game. The defaults are the shipped game, ``classic`` (seeds/004)."""

    # Each variant option is its field and its declaration (durak_core.rule_options): what the
    # rules text, /durak new, the refusals and the tests know of it. Read in rule id order.
    #: V2: 24 (9–A), 36 (6–A, default) or 52 (2–A) cards.
    deck_size: int = option(
        "V2", 36, "{}-card deck", "deck", placement="in", param="n", values=DECK_SIZES,
        command="deck", choices=DECK_SIZES,
    )  # fmt: skip
    #: V3: cards per hand for the deal (R5), the bout cap (R12) and the refill (R17).
    hand_size: int = option(
        "V3", 6, "{}-card hands", "deal", placement="in", param="n", values=HAND_SIZES
    )
    #: V1: the defender may pass the attack on with a card of the same rank.
    transfer: bool = option(
        "V1", False, "transfer", "transfer", placement="instead", command="transfer"
    )
    #: V4: at most 5 attack cards per bout until the first bout ends defended.
    first_bout_five: bool = option(
        "V4", False, "five before the first discard", "limit", command="first_five"
    )
    #: V5: only the defender's nearest active neighbours (and the main attacker) throw in.
    neighbours_only: bool = option(
        "V5", False, "neighbours only", "throw_in", placement="instead", command="neighbours"
    )
    #: R14 (True) or V6 (False): may attackers throw in after the defender takes?
    throw_in_after_take: bool = option(
        "V6", True, "no throw-in after take", "take", placement="instead", on=False
    )
    #: V7: team size (0 = no teams; 2 = 2v2 or 2v2v2; 3 = 3v3), seats alternating.
    team_size: int = option(
        "V7", 0, "teams of {}", "take", param="size", values=(0, 2, 3), command="teams", on=2
    )
    #: V8: the lowest trump may be swapped for the face-up trump.
    trump_exchange: bool = option("V8", False, "trump exchange", "trump")
    #: V9: no cap of hand size on a bout's attack cards.
    unlimited_bout: bool = option("V9", False, "unlimited bout", "limit", placement="instead")
    #: V10: later games of a series start with the player left of the previous Durak.
    under_the_fool: bool = option("V10", False, "under the fool", "start")
    #: V17: a series ends when one player has been the Durak this many times (0 = open-ended).
    series_losses: int = option(
        "V17", 0, "series to {} losses", "end", param="n", values=tuple(range(100)), on=3
    )
    #: V11: no trump at all (R7(b) off).
    no_trump: bool = option(
        "V11",
        False,
        "no trump",
        "trump",
        placement="instead",
        conflicts=("V12", "V13"),
        command="no_trump",
    )
    #: V12 "crazy": clubs are always trump; diamonds are beaten only by higher diamonds.
    crazy: bool = option(
        "V12", False, "crazy: clubs always trump", "trump", placement="instead",
        conflicts=("V13",), command="crazy",
    )  # fmt: skip
    #: V13: diamonds are never trump, are beaten only by higher diamonds, and beat nothing else.
    diamonds_apart: bool = option(
        "V13", False, "diamonds only against diamonds", "trump", command="diamonds_apart"
    )
    #: V14: a face-down card under the face-up trump becomes the trump once that is drawn.
    changing_trump: bool = option(
        "V14", False, "changing trump", "trump", conflicts=("V8", "V11", "V12"),
        command="changing_trump",
    )  # fmt: skip
    #: V15: two jokers (52-card deck only): black beats any black card, red any red card.
    jokers: bool = option("V15", False, "jokers", "deck", command="jokers", deck=52)
    #: V16: two 36-card decks (72 cards); identical-looking cards are distinct.
    double_deck: bool = option("V16", False, "double deck", "deck", command="double_deck", deck=36)
    #: V18: with V1, the defender may transfer by showing the trump of the attack's rank.
    transfer_by_trump: bool = option(
        "V18",
        False,
        "transfer by showing the trump",
        "transfer",
        needs=("V1",),
        command="show_trump",
    )
    #: The preset this rule set came from, for display; not part of the rules' identity.
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        if self.deck_size not in DECK_SIZES:
            raise RulesError(f"V2: the deck has 24, 36 or 52 cards, not {self.deck_size}")
        if self.hand_size not in HAND_SIZES:
            raise RulesError(f"V3: the hand size is 4, 5, 6 or 7, not {self.hand_size}")
        if self.hand_size == 7 and self.deck_size != 52:
            raise RulesError(
                f"V3: 7-card hands need the 52-card deck (this rule set has {self.deck_size})"
            )
        if self.team_size not in OPTIONS.by_field["team_size"].values:
            raise RulesError(f"V7: teams have 2 or 3 players, not {self.team_size}")
        if self.series_losses not in OPTIONS.by_field["series_losses"].values:
            raise RulesError(f"V17: losses to end a series must be 0..99, not {self.series_losses}")
        for f in fields(self):
            if f.type in ("bool", bool) and not isinstance(getattr(self, f.name), bool):
                raise RulesError(f"{f.name} must be true or false")
        clash = OPTIONS.clashes({o.field: getattr(self, o.field) for o in OPTIONS})
        if clash:
            raise RulesError(_clash_text(*clash[0]))
        for needs in OPTIONS.with_deck:
            if needs.is_set(getattr(self, needs.field)) and self.deck_size != needs.deck:
                raise RulesError(
                    f"{needs.rule}: {needs.name} is played with the {needs.deck}-card deck "
                    f"(this rule set has {self.deck_size})"
                )

    # --- seats ------------------------------------------------------------------------------

    def check_seats(self, seats: int) -> None:
        """Raise :class:`RulesError` unless this rule set can seat ``seats`` players."""
        if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise RulesError(f"R3: Durak is for {MIN_SEATS} to {MAX_SEATS} players, not {seats}")
        cards = len(self.deck())
        if seats * self.hand_size > cards:
            raise RulesError(
                f"R5/V3: {seats} hands of {self.hand_size} need {seats * self.hand_size} cards, "
                f"but the deck has {cards}"
            )
        if self.changing_trump and seats * self.hand_size + 2 > cards:
            raise RulesError(
                f"V14: {seats} hands of {self.hand_size} leave no room for the face-up trump and "
                "the face-down card under it"
            )
        if self.team_size:
            ok = (self.team_size == 2 and seats in (4, 6)) or (self.team_size == 3 and seats == 6)
            if not ok:
                raise RulesError(
                    f"V7: teams of {self.team_size} need "
                    f"{'4 or 6' if self.team_size == 2 else '6'} players, not {seats}"
                )

    def teams_of(self, seats: int) -> tuple[int, ...]:
        """Team number of each seat; without teams every seat is its own team."""
        if not self.team_size:
            return tuple(range(seats))
        count = seats // self.team_size
        return tuple(s % count for s in range(seats))

    # --- cards ------------------------------------------------------------------------------

    @property
    def lowest_rank(self) -> int:
        """The lowest rank in the deck (the lowest trump of R8 and V8)."""
        return _LOWEST_RANK[self.deck_size]

    def deck(self) -> tuple[Card, ...]:
        """Every card of the deck, in index order (V15 adds the jokers, V16 a second copy)."""
        return _deck(self.deck_size, self.jokers, self.double_deck)

    def deck_mask(self) -> int:
        return mask_of(self.deck())

    def trump_for(self, turned: Card) -> Suit | None:
        """The trump suit a turned-up card gives (None: no trump this game).

        V11: none. V12: always clubs. V13: a turned diamond gives none (diamonds are never
        trump). V15 (decision): a turned joker gives none.
        """
        if self.no_trump or turned.suit is None:
            return None
        if self.crazy:
            return Suit.CLUBS
        if self.diamonds_apart and turned.suit == Suit.DIAMONDS:
            return None
        return turned.suit

    def beats(self, attack: Card, defence: Card, trump: Suit | None) -> bool:
        """R7: does ``defence`` beat ``attack`` with ``trump`` as the trump suit?

        The single definition of beating; the engine precomputes it into tables per trump.
        V12/V13 keep diamonds apart, V15 lets a joker beat every card of its colour.
        """
        if self.no_trump:
            trump = None  # V11: R7(b) off, whatever the caller passes
        if attack.joker:
            return False  # V15: nothing beats a joker
        if defence.joker:
            return defence.is_red == attack.is_red
        if (self.crazy or self.diamonds_apart) and Suit.DIAMONDS in (attack.suit, defence.suit):
            return attack.suit == defence.suit and defence.rank > attack.rank
        if defence.suit == attack.suit:
            return defence.rank > attack.rank
        return trump is not None and defence.suit == trump

    def bout_cap(self, first_discard_done: bool) -> int | None:
        """The cap R12 puts on a bout's attack cards before the defender's hand (None = V9)."""
        if self.unlimited_bout:
            return FIRST_BOUT_CAP if self.first_bout_five and not first_discard_done else None
        cap = self.hand_size
        if self.first_bout_five and not first_discard_done:
            cap = min(cap, FIRST_BOUT_CAP)
        return cap

    # --- words -------------------------------------------------------------------------------

    def differences(self) -> list[str]:
        """The variant options that differ from classic, each with its rule id."""
        return [
            option.describe(value)
            for option in OPTIONS
            if option.is_set(value := getattr(self, option.field))
        ]

    def describe(self) -> str:
        if not self.differences():
            return (
                f"classic: {self.deck_size} cards, {self.hand_size}-card hands, throw-in, "
                "no transfer"
            )
        return f"{self.name}: " + ", ".join(self.differences())

    def options(self) -> dict[str, Any]:
        """The options as a plain dict (for JSON); ``RuleSet.from_options`` reverses it."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> RuleSet:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}")
        try:
            return cls(**dict(options))
        except TypeError as exc:
            raise RulesError(f"bad rule options: {exc}") from exc

    def with_options(self, **changes: Any) -> RuleSet:
        return RuleSet.from_options({**self.options(), **changes})


#: The variant options, declared with their fields above, in rule id order.
OPTIONS: Final = Registry(
    f.metadata["option"].named(f.name) for f in fields(RuleSet) if "option" in f.metadata
)

#: Named presets. ``classic`` is the default (seeds/004).
PRESETS: Final[Mapping[str, RuleSet]] = {
    "classic": RuleSet(name="classic"),
    "transfer": RuleSet(transfer=True, name="transfer"),
    "quick": RuleSet(deck_size=24, name="quick"),
    "full-deck": RuleSet(deck_size=52, name="full-deck"),
    "first-five": RuleSet(first_bout_five=True, name="first-five"),
    "neighbours": RuleSet(neighbours_only=True, name="neighbours"),
    "no-throw-after-take": RuleSet(throw_in_after_take=False, name="no-throw-after-take"),
    "teams": RuleSet(team_size=2, name="teams"),
    "trump-exchange": RuleSet(trump_exchange=True, name="trump-exchange"),
    "unlimited": RuleSet(unlimited_bout=True, name="unlimited"),
    "under-the-fool": RuleSet(under_the_fool=True, name="under-the-fool"),
    "three-losses": RuleSet(series_losses=3, name="three-losses"),
    "no-trump": RuleSet(no_trump=True, name="no-trump"),
    "crazy": RuleSet(crazy=True, name="crazy"),
    "diamonds-apart": RuleSet(diamonds_apart=True, name="diamonds-apart"),
    "changing-trump": RuleSet(changing_trump=True, name="changing-trump"),
    "jokers": RuleSet(deck_size=52, jokers=True, name="jokers"),
    "double-deck": RuleSet(double_deck=True, name="double-deck"),
}


def preset(name: str) -> RuleSet:
    """A named preset; unknown names raise :class:`RulesError` listing the known ones."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(
            f"unknown rule preset {name!r}; known presets: {', '.join(PRESETS)}"
        ) from None


def _clash_text(option: RuleOption, other: RuleOption) -> str:
    if other.rule in option.needs:
        return f"{option.rule}: {option.name} needs {other.rule} ({other.name})"
    first, second = sorted((option, other), key=lambda o: int(o.rule[1:]))
    return f"{first.rule}/{second.rule}: {first.name} and {second.name} do not combine"


@lru_cache(maxsize=32)
def _deck(deck_size: int, jokers: bool, double_deck: bool) -> tuple[Card, ...]:
    lowest = _LOWEST_RANK[deck_size]
    cards = [Card.of(rank, suit) for suit in Suit for rank in range(lowest, ACE + 1)]
    if jokers:
        cards += [Card.from_index(BLACK_JOKER), Card.from_index(RED_JOKER)]
    if double_deck:
        cards += [Card.from_index(c.index + COPY_STRIDE) for c in cards]
    return tuple(cards)


def parse_rules(text: str) -> RuleSet:
    """A rule set from text: a preset, optionally followed by options, comma-separated.

    An option is ``name=value`` (integers or true/false) or a bare name meaning true; any
    preset may stand first (default classic).

    >>> parse_rules("transfer, deck_size=52, jokers").differences()
    ['V1 transfer', 'V2 52-card deck', 'V15 jokers']
    >>> parse_rules("quick").deck_size
    24
    >>> parse_rules("classic, wings=3")
    Traceback (most recent call last):
    ...
    durak_core.errors.RulesError: unknown rule option(s): wings
    """
    parts = [p.strip() for p in text.split(",") if p.strip()]
    base = PRESETS["classic"]
    if parts and "=" not in parts[0] and parts[0].lower() in PRESETS:
        base = preset(parts.pop(0))
    options: dict[str, Any] = {}
    for part in parts:
        name, eq, raw = part.partition("=")
        name = name.strip().replace("-", "_")
        value = raw.strip().lower()
        if not eq or value in ("true", "yes", "on"):
            options[name] = True
        elif value in ("false", "no", "off"):
            options[name] = False
        elif value.isdigit():
            options[name] = int(value)
        else:
            raise RulesError(f"rule option {name}: {raw.strip()!r} is not a number or true/false")
    if not options:
        return base
    return RuleSet.from_options({**base.options(), **options, "name": "custom"})


def lowest_trumps(rules: RuleSet, trump: Suit | None) -> int:
    """Mask of the lowest trump (both copies under V16; none without a trump)."""
    if trump is None:
        return 0
    low = card_index(rules.lowest_rank, trump)
    return (1 << low) | ((1 << (low + COPY_STRIDE)) if rules.double_deck else 0)


__all__ = [
    "DECK_SIZES",
    "HAND_SIZES",
    "PRESETS",
    "RuleSet",
    "lowest_trumps",
    "parse_rules",
    "preset",
]
