"""The history fit (benchmarks/history_fit.py, an experiment of issue #34 that
benchmarks/inference_quality.py measures): a determinized deal weighted by how well a replayed
past fits what the seat saw. R15/R16: a bout that ended by itself excludes every deal under
which an attacker could still have thrown in; a seat shown as Normal is replayed by Normal's
rules."""

from __future__ import annotations

import json
import random

import pytest

from benchmarks.history_fit import MISMATCH, HistoryFit
from benchmarks.inference_quality import main
from durak_core import PRESETS, GameState, RuleSet, new_game, parse_action
from durak_core.ai import Level, make_player
from durak_core.ai.normal import normal_choice
from durak_core.ai.schedule import next_actor
from durak_core.cards import Card, mask_of, parse_cards
from durak_core.deck import order_from_hands
from durak_core.events import CardsDrawn, CardsReceived, Event, visible_to


def scripted() -> tuple[GameState, list[Event]]:
    """Seat 0 leads 9C, seat 1 beats it with 10C and the bout ends by itself: seat 0 holds no
    9 or 10 (R15, R16). Each draws one card; seat 1 (the seat that decides) attacks next."""
    rules = RuleSet()
    hands = [parse_cards("AS 6S 9C KD QD JC"), parse_cards("7S 8C 9D 10C JD QC")]
    trump, top = Card.parse("10H"), parse_cards("7D 8D")  # seat 0 draws 7D, seat 1 8D
    rest = [c for c in rules.deck() if c not in (*hands[0], *hands[1], trump, *top)]
    s = new_game(rules, 2, order=order_from_hands(hands, trump, top + rest, dealer=1), dealer=1)
    history: list[Event] = []
    for seat, text in ((0, "attack 9C"), (1, "defend 9C 10C")):
        s, events = s.apply(seat, parse_action(text))
        history.extend(visible_to(events, 1))
    assert s.attacker == 1 and not s.table and s.talon  # the bout ended by itself
    return s, history


def moved(s: GameState, seat: int, give: str, take: str) -> GameState:
    """``s`` with the cards ``give`` of ``seat``'s hand swapped for ``take`` from the talon."""
    out = s.copy()
    gone, come = parse_cards(give), parse_cards(take)
    assert out.hands[seat] & mask_of(gone) == mask_of(gone)
    swap = {t.index: g.index for g, t in zip(gone, come, strict=True)}
    assert all(c in out.talon for c in swap)
    hands = list(out.hands)
    hands[seat] = hands[seat] & ~mask_of(gone) | mask_of(come)
    out.hands = hands
    out.talon = tuple(swap.get(c, c) for c in out.talon)
    return out


def test_a_bout_that_ended_by_itself_excludes_the_deals_where_it_could_not() -> None:
    """R15, R16: seat 0 has drawn one card since its bout ended by itself, so a deal where it
    holds two cards of the ranks then on the table (9, 10) is impossible; the true deal fits
    every past (seat 0 not shown as Normal: only the rules count)."""
    s, history = scripted()
    fit = HistoryFit(s.view(1), history, normal=0)
    assert fit.usable
    rng = random.Random(1)
    assert fit.weight(s, rng, tries=8) == 1.0
    assert fit.weight(moved(s, 0, "KD QD", "9S 10S"), rng, tries=8) == 0.0
    # One such card may have been drawn after the bout: that deal still fits some pasts.
    assert 0.0 < fit.weight(moved(s, 0, "KD", "9S"), rng, tries=32) < 1.0


def test_a_move_normal_would_not_make_weighs_the_deal_down() -> None:
    """Seat 0 shown as Normal: its lead 9C is not Normal's lead with that hand, in any past."""
    s, history = scripted()
    first = new_game(RuleSet(), 2, order=[Card.from_index(c) for c in s.order], dealer=1)
    assert normal_choice(first.view(0), [], lookahead=False) != parse_action("attack 9C")
    fit = HistoryFit(s.view(1), history, normal=1 << 0)
    assert fit.weight(s, random.Random(2), tries=8) == pytest.approx(MISMATCH)


def true_draws(log: list[Event]) -> list[int]:
    """The cards of every draw in order, from the full log (every seat's CardsReceived)."""
    received = [mask_of(e.cards) for e in log if isinstance(e, CardsReceived)]
    assert len(received) == sum(1 for e in log if isinstance(e, CardsDrawn) and e.number)
    return received


@pytest.mark.parametrize("preset", ["classic", "transfer"])
def test_the_true_past_replays_every_normal_decision(preset: str) -> None:
    """On the real first hands and draws the replay reproduces every decision of the Normal
    seat: the fit's replay is the engine's game, and Normal's rules are followed exactly."""
    rules = PRESETS[preset]
    checked = 0
    for seed in range(4):
        s = new_game(rules, 2, seed=seed)
        first = list(s.hands)
        players = [make_player(Level.NORMAL, seed), make_player(Level.NORMAL, seed + 1)]
        hist: list[Event] = []
        log: list[Event] = []
        while not s.finished and s.talon:
            seat = next_actor(s)
            assert seat is not None
            if seat == 0 and hist:
                fit = HistoryFit(s.view(0), hist, normal=1 << 1)
                assert fit.usable
                assert fit.mismatches(s, first, true_draws(log)) == 0
                checked += 1
            s, events = s.apply(seat, players[seat].choose(s.view(seat), visible_to(log, seat)))
            log.extend(events)
            hist.extend(visible_to(events, 0))
    assert checked > 20


def test_inference_quality_scores_every_weighting(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/inference_quality.py: a tiny run scores uniform deals, Hard's deals and the
    fit on the same decisions, with probabilities (Brier per card within [0, 1])."""
    assert main(["--games", "1", "--deals", "12", "--tries", "2", "--mismatch", "0.3",
                 "--jobs", "1", "--every", "4"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    rows = {r["weighting"]: r for r in out["rows"]}
    assert set(rows) == {"deals", "uniform", "fit 0.3"}
    assert len({r["decisions"] for r in rows.values()}) == 1
    for r in rows.values():
        assert 0.0 < r["brier"] < 1.0 and 0.0 <= r["brier_trumps"] < 1.0
        assert 0.0 < r["effective_deals"] <= 12.0 + 1e-9
