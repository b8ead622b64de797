"""The private hand's components offer exactly the legal actions, within Discord's limits,
in every preset — including the extremes (V9 unlimited bouts, V16 double deck, huge hands
after takes) where cards must move into select menus."""

from __future__ import annotations

import random

import pytest

from bot.text import t
from bot.ui.card_words import card_text
from bot.ui.components import Components
from bot.ui.hand_view import HandContext, render_hand
from durak_core import PRESETS, Action, Card, Defend, GameState, RuleSet, new_game, position
from durak_core.actions import SHOW
from tests.durak_core.helpers import SHOW_RULES, v18_attacked
from tests.durak_core.strategies import TABLES

TABLE = "0123abcd"


def _tables() -> list[tuple[str, int]]:
    """Every preset at 2, 4 and 6 seats, where its rules allow that many."""
    return [(name, seats) for name, seats in TABLES if seats in (2, 4, 6)]


def _states(rules: RuleSet, seats: int, seed: int) -> list[GameState]:
    """Every state of a random game whose defenders take often (hands grow large)."""
    rng = random.Random(seed)
    s = new_game(rules, seats, seed=seed)
    out = [s]
    while not s.finished and len(out) < 400:
        moves = s.legal_moves()
        takes = [m for m in moves if str(m[1]) == "take"]
        seat, action = rng.choice(takes) if takes and rng.random() < 0.5 else rng.choice(moves)
        s, _ = s.apply(seat, action)
        out.append(s)
    return out


def _offered(msg_view: Components) -> tuple[set[int], list[str]]:
    """Action codes reachable from the components, and the aim targets (``a<card>``)."""
    codes: set[int] = set()
    aims: list[str] = []
    for row in msg_view.to_components():
        assert len(row["components"]) <= 5
        for comp in row["components"]:
            cid = comp["custom_id"]
            assert len(cid) <= 100
            if comp["type"] == 3:  # select menu
                assert 1 <= len(comp["options"]) <= 25
                codes |= {int(o["value"]) for o in comp["options"]}
            else:
                code = cid.rsplit(":", 1)[1]
                if code in ("p0", "p1", "h"):  # "done for this bout", a practice Hint: no action
                    continue
                if code.startswith("a"):
                    if not comp.get("disabled"):
                        aims.append(code)
                else:
                    codes.add(int(code))
    return codes, aims


def _hints(msg_view: Components) -> int:
    """How many practice "Hint" buttons the components hold."""
    return sum(
        comp["custom_id"].endswith(":h")
        for row in msg_view.to_components()
        for comp in row["components"]
    )


@pytest.mark.parametrize("practice", [False, True], ids=["normal", "practice"])
@pytest.mark.parametrize(("preset", "seats"), _tables(), ids=lambda x: str(x))
async def test_components_offer_exactly_the_legal_actions(
    preset: str, seats: int, practice: bool
) -> None:
    """Also at a practice table, whose hand adds "Hint" when the seat has a choice."""
    rules = PRESETS[preset]
    checked = 0
    for s in _states(rules, seats, seed=len(preset) * 7 + seats)[::3]:
        for seat in range(seats):
            checked += _offers_exactly_the_legal_actions(s, seat, practice)
    assert checked > 10


def _offers_exactly_the_legal_actions(s: GameState, seat: int, practice: bool) -> bool:
    """Check ``seat``'s hand in ``s`` offers exactly its legal actions; False when it has none."""
    v = s.view(seat)
    if not v.legal_actions:
        return False
    names = [f"p{i}" for i in range(s.n)]
    ctx = HandContext(TABLE, v.version, names, practice=practice)
    msg = render_hand(v, ctx)
    assert _hints(msg.view) == (practice and len(v.legal_actions) > 1)
    rows = msg.view.to_components()
    assert len(rows) <= 5
    assert rows == msg.view.as_view().to_components()  # the JSON is discord.py's
    offered = _offered(msg.view)[0]
    # aiming at another open attack card shows that card's defences
    targets = {a.attack for a in v.legal_actions if isinstance(a, Defend)}
    for target in targets:
        focused = render_hand(v, ctx, focus=target)
        assert len(focused.view.to_components()) <= 5
        offered |= _offered(focused.view)[0]
    assert offered == {a.code for a in v.legal_actions}, str(v.legal_actions)
    assert all(Action.from_code(c) in v.legal_actions for c in offered)
    return True


@pytest.mark.parametrize("seats", [2, 4])
async def test_v18_components_offer_exactly_the_legal_actions(seats: int) -> None:
    """V18: the hand offers a show beside the transfer with the same trump."""
    shows = 0
    for seed in range(4):
        for s in _states(SHOW_RULES, seats, seed=seed)[::2]:
            for seat in range(seats):
                _offers_exactly_the_legal_actions(s, seat, practice=False)
                shows += sum(a.kind == SHOW for a in s.legal_actions(seat))
    assert shows > 0


def test_v18_show_and_transfer_are_buttons_side_by_side() -> None:
    g, _ = v18_attacked()
    v = g.view(1)
    for lang in ("en", "ru"):
        msg = render_hand(v, HandContext(TABLE, v.version, ["a", "b", "c"], loc=lang))
        six = card_text(Card.parse("6H"), lang)
        labels = [[c.get("label") for c in row["components"]] for row in msg.view.to_components()]
        wanted = [t("act.transfer", lang, card=six), t("act.show", lang, card=six)]
        assert any(row[i : i + 2] == wanted for row in labels for i in range(len(row) - 1)), labels


@pytest.mark.parametrize("practice", [False, True], ids=["normal", "practice"])
async def test_extreme_many_open_attack_cards_still_fit(practice: bool) -> None:
    """V9 + V16: eight sixes against a 15-card hand — six beatable targets, 31 actions (and a
    practice table's Hint)."""

    rules = RuleSet(unlimited_bout=True, double_deck=True)
    defender = "7S 7C 7D 8S 8C 8D 9S 9D 10S 10C 10D JS JC JD QS"
    g = position(
        rules, ["6S 6C 6D 6H 6S#2 6C#2 6D#2 6H#2 9C", defender, "AS"], trump="AH", attacker=0
    )
    for c in ["6S", "6C", "6D", "6H", "6S#2", "6C#2", "6D#2", "6H#2"]:
        g, _ = g.apply(0, f"attack {c}")
    v = g.view(1)
    offered: set[int] = set()
    for target in [None, *{a.attack for a in v.legal_actions if isinstance(a, Defend)}]:
        ctx = HandContext(TABLE, v.version, ["a", "b", "c"], practice=practice)
        msg = render_hand(v, ctx, focus=target)
        assert len(msg.view.to_components()) <= 5 and _hints(msg.view) == practice
        assert msg.view.to_components() == msg.view.as_view().to_components()  # selects too
        offered |= _offered(msg.view)[0]
    assert offered == {a.code for a in v.legal_actions} and len(offered) == 31


@pytest.mark.slow
def test_every_defence_is_one_click() -> None:
    """With several open attack cards each defence is one component (a button naming the pair,
    or an option of that card's select menu): no aiming first, in every preset's games. The
    two-step fallback is only for hands whose pairs exceed Discord's 25 components."""
    views = 0
    fallbacks = 0
    for name, seats in _tables():
        for s in _states(PRESETS[name], seats, seed=len(name) * 11 + seats):
            for seat in range(seats):
                v = s.view(seat)
                defends = [a for a in v.legal_actions if isinstance(a, Defend)]
                if len({a.attack for a in defends}) < 2:
                    continue
                views += 1
                msg = render_hand(v, HandContext(TABLE, v.version, [f"p{i}" for i in range(seats)]))
                offered, aims = _offered(msg.view)
                if aims:
                    fallbacks += 1
                    continue
                assert offered == {a.code for a in v.legal_actions}
                labels = [
                    b["label"]
                    for row in msg.view.to_components()
                    for b in row["components"]
                    if b["type"] == 2
                ]
                for a in defends:  # the pair is named: which card goes on which
                    card, attack = card_text(a.card), card_text(a.attack)
                    assert f"{card} on {attack}" in labels or any(
                        o.get("label") == f"{card} beats {attack}"
                        for row in msg.view.to_components()
                        for c in row["components"]
                        if c["type"] == 3
                        for o in c["options"]
                    )
    assert views > 50
    assert fallbacks <= views // 100, (fallbacks, views)
