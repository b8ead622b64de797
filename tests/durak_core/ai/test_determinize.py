"""Hard's determinizations agree with everything the seat knows (R23-R25): the seat's view of
every sampled state equals its real view, in every preset (incl. V14's hidden card)."""

from __future__ import annotations

import random
from typing import TypedDict

import pytest

from durak_core import PRESETS, RuleSet
from durak_core.ai.determinize import Determinizer
from durak_core.ai.memory import remember
from durak_core.views import SeatView

from .helpers import random_positions, valid_seat_counts


@pytest.mark.parametrize("weight", [1.0, 0.25])
@pytest.mark.parametrize("preset_name", list(PRESETS))
def test_sampled_states_match_the_view(preset_name: str, weight: float) -> None:
    """Also with inference weighting (Hard's): weights only change which consistent deal is
    likelier, never the consistency."""
    rules = PRESETS[preset_name]
    seats = valid_seat_counts(rules)
    rng = random.Random(3)
    for n in (seats[0], seats[-1]):
        for s, seat, history in random_positions(rules, n, seed=n, every=6):
            view = s.view(seat)
            det = Determinizer(view, remember(view, history), rng, weight, weight, weight)
            for _ in range(2):
                d = det.next()
                assert not d.status()
                assert d.view(seat) == view


def test_few_placements_are_enumerated_exactly() -> None:
    """Near the end of the talon every possible deal is visited in turn."""
    rules = RuleSet()
    for s, seat, history in random_positions(rules, 2, seed=4, every=1):
        view = s.view(seat)
        det = Determinizer(view, remember(view, history), random.Random(1))
        if det.exact and det.count > 1:
            seen = {tuple(det.next().hands) + tuple(det.next().talon) for _ in range(det.count)}
            hands = {tuple(det.next().hands) for _ in range(det.count)}
            assert len(hands) >= 2 and seen
            return
    pytest.fail("no position with a small set of placements")


def _dealt(det: Determinizer, view: SeatView, seat: int, cards: int, deals: int = 300) -> float:
    """How many of ``cards`` ``det`` deals to ``seat`` on average; every deal matches ``view``."""
    hits = 0
    for _ in range(deals):
        d = det.next()
        assert d.view(view.seat) == view
        hits += (d.hands[seat] & cards).bit_count()
    return hits / deals


class InferenceWeights(TypedDict, total=False):
    lack_weight: float
    strong_lack_weight: float
    passed_over_weight: float


@pytest.mark.parametrize(
    ("inference", "weights", "seed"),
    [
        # took while a card stood unbeaten: presumably lacks its beaters
        ("lacks", {"lack_weight": 0.2, "strong_lack_weight": 0.2}, 5),
        # beat a lone card with a dearer one: presumably lacks the cheaper beaters
        ("passed_over", {"passed_over_weight": 0.2}, 6),
    ],
)
def test_inferred_cards_are_dealt_less_often_to_that_seat(
    inference: str, weights: InferenceWeights, seed: int
) -> None:
    """With a weight below 1, cards a seat is inferred to lack (``Memory.lacks``,
    ``Memory.passed_over``) reach that hand less often than in uniform deals, and every deal
    stays consistent with the view."""
    rules = RuleSet()
    for s, seat, history in random_positions(rules, 2, seed=seed, every=1):
        view = s.view(seat)
        mem = remember(view, history)
        other = 1 - seat
        inferred = getattr(mem, inference)[other] & mem.hidden
        det0 = Determinizer(view, mem, random.Random(2))
        if not inferred or det0.exact or not det0.slots[other]:
            continue
        det1 = Determinizer(view, mem, random.Random(2), **weights)
        assert _dealt(det1, view, other, inferred) < _dealt(det0, view, other, inferred)
        return
    pytest.fail(f"no position with an inference in {inference}")


def test_a_prior_deals_its_favoured_cards_to_that_seat_more_often() -> None:
    """``prior`` (Hard's: what a seat shown as Normal keeps, :mod:`durak_core.ai.keep`)
    multiplies the inference weights: favoured cards reach that hand more often, disfavoured
    ones less, and every deal stays consistent with the view."""
    rules = RuleSet()
    for s, seat, history in random_positions(rules, 2, seed=7, every=1):
        view = s.view(seat)
        mem = remember(view, history)
        other = 1 - seat
        det0 = Determinizer(view, mem, random.Random(2))
        if det0.exact or det0.slots[other] < 3 or mem.hidden.bit_count() < 12:
            continue
        hidden = det0.hidden
        favoured = sum(1 << c for c in hidden[: len(hidden) // 2])
        prior: list[dict[int, float]] = [{}, {}]
        prior[other] = {c: 4.0 if favoured >> c & 1 else 0.25 for c in hidden}
        det1 = Determinizer(view, mem, random.Random(2), prior=prior)
        assert det1.weights is not None and det1.weights[other][hidden[0]] == 4.0
        slots = det0.slots[other]
        shares = [_dealt(det, view, other, favoured) / slots for det in (det0, det1)]
        assert shares[1] > shares[0] + 0.15
        return
    pytest.fail("no position with enough hidden cards")
