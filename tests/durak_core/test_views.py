"""R23–R25: what each seat and a spectator may know."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest
from hypothesis import given, settings

from durak_core import Card, PublicView, RuleSet, SeatView, visible_to
from durak_core.events import CardsDrawn, CardsReceived
from durak_core.views import seat_view

from .helpers import deal_exact, play
from .strategies import games, random_playthrough

HANDS = ["6S 7S 8C 9D 7H JS", "7D 8S QS 6C KH 9C", "10D 6D 10C 7C 10S AS"]


def test_r23_public_facts_are_in_every_view() -> None:
    g = play(deal_exact(HANDS, trump="AH"), "0 attack 7S", "1 take", "2 attack 7C", "0 pass")
    v = g.public_view()
    # the bout ended taken; seats 0 and 2 drew one card each
    assert v.hand_sizes == (6, 8, 6) and v.talon_size == 18 - 2
    assert Card.parse("7H") in v.known[0]  # shown under R8 and still held
    assert {str(c) for c in v.known[1]} == {"7S", "7C"}  # taken from the table
    assert v.trump_card == Card.parse("AH")


def test_r8_shown_lowest_trump_stays_known_until_played() -> None:
    g = deal_exact(HANDS, trump="AH")
    assert Card.parse("7H") in g.public_view().known[0]
    g = play(g, "0 attack 7H")
    assert Card.parse("7H") not in g.public_view().known[0]


def test_r24_own_hand_private_other_hands_hidden() -> None:
    g = deal_exact(HANDS, trump="AH")
    v0, v1 = g.view(0), g.view(1)
    assert {str(c) for c in v0.hand} == set(HANDS[0].split())
    assert {str(c) for c in v1.hand} == set(HANDS[1].split())
    assert not hasattr(g.public_view(), "hand")
    assert v0.legal_actions != v1.legal_actions


def test_r25_events_seen_by_a_seat_carry_only_its_own_draw() -> None:
    g = deal_exact(HANDS, trump="AH")
    g = play(g, "0 attack 7S", "1 defend 7S 8S", "0 pass")
    g, events = g.apply(2, "pass")
    mine = visible_to(events, 0)
    received = [e for e in mine if isinstance(e, CardsReceived)]
    assert [e.seat for e in received] == [0]
    assert [e.seat for e in mine if isinstance(e, CardsDrawn)] == [0, 1]
    assert not [e for e in visible_to(events, None) if isinstance(e, CardsReceived)]


def test_awaiting_is_judged_from_public_facts() -> None:
    g = deal_exact(HANDS, trump="AH")
    assert g.public_view().awaiting == (0,)
    g = play(g, "0 attack 7S")
    assert g.public_view().awaiting == (1,)
    g = play(g, "1 defend 7S 8S")
    assert g.public_view().awaiting == (0, 2)


@settings(max_examples=20, deadline=None)
@given(games())
def test_a_seat_view_sharing_the_public_view_is_the_seat_view(
    game: tuple[RuleSet, int, int, int],
) -> None:
    """A table computes the public view once per state and builds each seat's view on it
    (``seat_view(s, seat, public)``): the same view as ``s.view(seat)``, at every moment."""
    previous = None
    for s in random_playthrough(*game):
        public = s.public_view()
        for seat in range(s.n):
            assert seat_view(s, seat, public) == s.view(seat)
        if previous is not None:  # a public view of another moment is refused
            with pytest.raises(ValueError):
                seat_view(s, 0, previous)
        previous = public


@settings(max_examples=10, deadline=None)
@given(games())
@pytest.mark.slow
def test_views_pickle_and_stay_frozen_dataclasses(game: tuple[RuleSet, int, int, int]) -> None:
    """The AI's worker processes receive seat views by pickle (bot/tables/ai_workers.py), and
    the views are compiled classes in the compiled build: at every moment, public and seat
    views come back equal, and they stay immutable dataclasses (``replace`` makes a new one)."""
    for s in random_playthrough(*game):
        for view in (s.public_view(), *(s.view(seat) for seat in range(s.n))):
            back = pickle.loads(pickle.dumps(view, pickle.HIGHEST_PROTOCOL))
            assert type(back) is type(view) and back == view and hash(back) == hash(view)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.bout = 0  # type: ignore[misc]
    assert dataclasses.replace(view, bout=view.bout + 1).bout == view.bout + 1
    assert view.result is not None and view.result.durak in (None, *range(s.n))


def test_a_seat_view_takes_the_public_fields_then_its_own() -> None:
    # Both constructors are written out (views.py: compiled, each stores its fields directly),
    # and seat_view passes the public view's values in order, then the seat's three.
    g = deal_exact(HANDS, trump="AH")
    v, public = g.view(1), g.public_view()
    values = [getattr(public, f.name) for f in dataclasses.fields(PublicView)]
    assert SeatView(*(*values, 1, v.hand, v.legal_actions)) == v
    named: dict[str, Any] = {f.name: getattr(v, f.name) for f in dataclasses.fields(SeatView)}
    assert list(named)[: len(values)] == [f.name for f in dataclasses.fields(PublicView)]
    assert SeatView(**named) == v and PublicView(*values) == public
    with pytest.raises(TypeError):
        SeatView(*values)  # its own three are required
