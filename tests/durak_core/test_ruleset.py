"""The rule set: presets, validation, impossible tables (R3, R5, V2, V3, V7, V17)."""

from __future__ import annotations

import pytest

from durak_core import PRESETS, RulesError, RuleSet, new_game, preset


def test_classic_is_the_default_and_seeds_004() -> None:
    classic = preset("classic")
    assert classic == RuleSet()
    assert (classic.deck_size, classic.hand_size, classic.transfer) == (36, 6, False)
    assert classic.throw_in_after_take and not classic.differences()


def test_every_preset_round_trips_through_options() -> None:
    for name, rules in PRESETS.items():
        assert RuleSet.from_options(rules.options()) == rules, name
        assert preset(name.upper()) is rules


def test_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(RulesError, match="classic"):
        preset("nonsense")


@pytest.mark.parametrize("seats", [0, 1, 7, 10])
def test_r3_two_to_six_players(seats: int) -> None:
    with pytest.raises(RulesError, match="R3"):
        RuleSet().check_seats(seats)
    with pytest.raises(RulesError):
        new_game(RuleSet(), seats, seed=1)


def test_r3_a_seventh_seat_is_rejected() -> None:
    with pytest.raises(RulesError, match="2 to 6 players, not 7"):
        new_game(RuleSet(), 7, seed=1)


@pytest.mark.parametrize(
    ("options", "seats", "rule"),
    [
        ({"hand_size": 7}, 6, "V3"),  # 7-card hands with 36 cards
        ({"hand_size": 7, "deck_size": 52}, 6, None),  # 42 of 52: fine
        ({"deck_size": 24}, 5, "R5/V3"),  # 30 cards needed, 24 in the deck
        ({"deck_size": 24}, 4, None),  # exactly the deck: R6
        ({"deck_size": 24, "hand_size": 5}, 5, "R5/V3"),
        ({"team_size": 2}, 3, "V7"),
        ({"team_size": 2}, 5, "V7"),
        ({"team_size": 3}, 4, "V7"),
        ({"team_size": 2}, 4, None),
        ({"team_size": 2}, 6, None),
        ({"team_size": 3}, 6, None),
    ],
)
def test_impossible_combinations_are_rejected(
    options: dict[str, int], seats: int, rule: str | None
) -> None:
    if rule is None:
        RuleSet(**options).check_seats(seats)  # type: ignore[arg-type]
        return
    with pytest.raises(RulesError, match=rule):
        RuleSet(**options).check_seats(seats)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"deck_size": 40},
        {"hand_size": 3},
        {"hand_size": 8},
        {"team_size": 4},
        {"transfer": "yes"},
        {"series_losses": -1},
    ],
)
def test_bad_options_raise_a_clear_error(options: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        RuleSet(**options)  # type: ignore[arg-type]


def test_unknown_option_names_it() -> None:
    with pytest.raises(RulesError, match="jokers"):
        RuleSet.from_options({"jokers": True})


def test_v2_deck_sizes_and_lowest_ranks() -> None:
    assert [len(RuleSet(deck_size=d).deck()) for d in (24, 36, 52)] == [24, 36, 52]
    assert [RuleSet(deck_size=d).lowest_rank for d in (24, 36, 52)] == [9, 6, 2]


def test_v3_hand_size_drives_the_deal_cap_and_refill() -> None:
    g = new_game(RuleSet(hand_size=4), 3, seed=11)
    assert [g.hand_size(t) for t in range(3)] == [4, 4, 4]
    assert g.limit == 4
    assert len(g.talon) == 36 - 12
    g7 = new_game(RuleSet(hand_size=7, deck_size=52), 2, seed=11)
    assert [g7.hand_size(t) for t in range(2)] == [7, 7]


def test_describe_names_the_variants() -> None:
    rules = RuleSet(transfer=True, series_losses=3, name="mine")
    assert rules.describe() == "mine: V1 transfer, V17 series to 3 losses"


def test_parse_rules_combines_a_preset_and_options() -> None:
    from durak_core import parse_rules

    rules = parse_rules("teams, trump_exchange, series_losses=3")
    assert (rules.team_size, rules.trump_exchange, rules.series_losses) == (2, True, 3)
    assert parse_rules("") == RuleSet() and parse_rules("no-trump").no_trump
    assert parse_rules("classic, transfer=false") == RuleSet()
    for bad, rule in [
        ("classic, deck_size=40", "V2"),
        ("crazy, diamonds_apart", "V12/V13"),
        ("classic, transfer=maybe", "transfer"),
        ("nonsense", "nonsense"),
    ]:
        with pytest.raises(RulesError, match=rule):
            parse_rules(bad)
