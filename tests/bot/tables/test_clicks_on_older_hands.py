"""A click is judged on the table as it is, not on the version of the hand it came from
(docs/bot.md, "Clicks on an older hand"): a legal action goes through whatever else changed;
only a Take after more cards were thrown in is refused, naming the change, with the fresh
hand. A hand shows at once what changes what its owner may do ("Done for this bout"
included), and a finished game's hand offers only what comes after a game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.tables.play import check_seen
from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import Seat, Table
from bot.text import t
from bot.ui.card_words import card_text
from durak_core import Card, GameState, RuleSet, position
from durak_core.actions import TAKE, parse_action
from durak_core.events import ActionTaken
from tests.bot.cogs.test_bot_clicks import _with_button, raw_click
from tests.bot.helpers import World, open_table, public_message, running_bot, world
from tests.bot.tables.test_bot_game import latest_hand, settled
from tests.bot.ui.test_table_feel import alice_leads, button, code, seat_position
from tests.fake_discord import UPDATE_MESSAGE

#: Hands wait this long for a change that alters none of their buttons: far longer than any
#: test here runs, so a hand shown "at once" was refreshed because its buttons changed.
IDLE = 30.0


async def seated(w: World, bot: DurakBot, users: list[int], state: GameState) -> Table:
    """``users`` at a table in ``state``, every hand opened and shown."""
    table = await open_table(w, bot, users, w.channel)
    await seat_position(bot, table, state)
    for u in users:
        await w.fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
    await w.fake.wait_for(lambda: settled(bot, table, users), 10, what="the hands")
    return table


def shown_version(bot: DurakBot, table: Table, user: int) -> int:
    return bot.notifier.links[(table.table_id, user)].shown_version


async def alice_led_7s(w: World, bot: DurakBot, hands: list[str]) -> Table:
    """alice, bob and carol at a bout where alice (seat 0) leads against bob; alice plays 7S
    and both other hands show it."""
    state = alice_leads(hands, talon="6H 6S 10D 10C")
    table = await seated(w, bot, [w.alice, w.bob, w.carol], state)
    await click_action(w, w.alice, "attack 7S")
    for user in (w.bob, w.carol):
        await w.fake.wait_for(lambda u=user: shown_version(bot, table, u) == table.version, 5)  # type: ignore[misc]
    return table


@pytest.mark.slow
async def test_take_goes_through_on_a_hand_shown_before_another_seat_was_done(
    tmp_path: Path,
) -> None:
    """The reported case, 4 seats, no timer: alice leads; carol presses "Done for this bout";
    bob, the defender, clicks Take on the hand he was shown before that (his buttons did not
    change, so it waited for its idle pace): it goes through at once."""
    async with world(tmp_path) as w, running_bot(w, hand_idle_refresh_seconds=IDLE) as bot:
        dave = w.fake.add_user("dave")
        users = [w.alice, w.bob, w.carol, dave]
        hands = ["7S 9C QD", "8D 9H KC", "6D JD QH KS", "6C JC 8C AS"]
        table = await seated(w, bot, users, alice_leads(hands, talon="6H 6S 10D 10C"))
        await click_action(w, w.alice, "attack 7S")
        await w.fake.wait_for(lambda: shown_version(bot, table, w.carol) == table.version, 5)
        bobs = latest_hand(w.fake, w.bob)
        take = button(bobs, code=code("take"))
        await click_action(w, w.carol, "p1")
        assert table.auto_pass and table.version > int(take.split(":")[3])
        await asyncio.sleep(0.3)
        assert shown_version(bot, table, w.bob) < table.version  # bob's hand waited
        answer = await w.fake.click(w.bob, bobs, take)
        assert answer.response_type == UPDATE_MESSAGE and "⚠️" not in answer.content
        assert took(table, 1)
        assert w.fake.violations == []


async def test_take_after_a_new_throw_in_is_refused_naming_the_change(tmp_path: Path) -> None:
    """bob's Take left while alice threw in another seven (his edit not yet seen): the table
    does not make him take two cards he never saw. His hand comes back with the change named
    and a fresh Take, which then takes both."""
    async with world(tmp_path) as w, running_bot(w, hand_idle_refresh_seconds=IDLE) as bot:
        table = await alice_led_7s(w, bot, ["7S 7C 9H", "8D 9D 10H KS AS", "6D 9C QH"])
        before = latest_hand(w.fake, w.bob)
        take = button(before, code=code("take"))
        await click_action(w, w.alice, "attack 7C")
        assert table.state is not None and len(table.state.public_view().table) == 2
        state_before = table.state

        answer = await raw_click(w.fake, w.bob, _with_button(before, take), take)
        assert answer.response_type == UPDATE_MESSAGE
        assert t("err.take_grew", None, more=1, n=2) in answer.content
        assert table.state is state_before  # nothing taken
        fresh = latest_hand(w.fake, w.bob)
        for attack in ("7S", "7C"):  # both open cards, as they are now
            assert f"{card_text(Card.parse(attack))} → …" in fresh.content
        again = await w.fake.click(w.bob, fresh, button(fresh, code=code("take")))
        assert "⚠️" not in again.content
        assert took(table, 1)
        assert w.fake.violations == []


async def test_a_defence_on_an_older_hand_goes_through(tmp_path: Path) -> None:
    """Any action legal now is accepted from an older hand: carol is done for the bout (a
    version bump that changes none of bob's buttons) and bob beats 7S on the hand from before."""
    async with world(tmp_path) as w, running_bot(w, hand_idle_refresh_seconds=IDLE) as bot:
        table = await alice_led_7s(w, bot, ["7S 7C 9H", "8S 9D 10H KS AS", "6D 9C QH"])
        bobs = latest_hand(w.fake, w.bob)
        await click_action(w, w.carol, "p1")
        defend = button(bobs, code=code("defend 7S 8S"))
        assert int(defend.split(":")[3]) < table.version
        answer = await w.fake.click(w.bob, bobs, defend)
        assert "⚠️" not in answer.content
        assert table.state is not None and table.state.public_view().table[0][1] is not None
        assert w.fake.violations == []


async def test_done_is_offered_to_a_thrower_right_after_the_opening_card(
    tmp_path: Path,
) -> None:
    """R9, R10: once alice has led, carol may be done for the bout: her hand shows the button
    at once, though she has nothing to throw in (her legal actions did not change)."""
    async with world(tmp_path) as w, running_bot(w, hand_idle_refresh_seconds=IDLE) as bot:
        state = alice_leads(["7S 7C 9H", "8S 9D 10H KS AS", "6D 9C QH"], talon="6H 6S 10D 10C")
        table = await seated(w, bot, [w.alice, w.bob, w.carol], state)
        assert not table.legal_actions(2)
        await click_action(w, w.alice, "attack 7S")
        assert not table.legal_actions(2)  # nothing to throw in: only "done" is new
        await w.fake.wait_for(
            lambda: shown_version(bot, table, w.carol) == table.version, 5, what="carol's hand"
        )
        carols = latest_hand(w.fake, w.carol)
        assert t("act.auto_pass") in {b.label for b in carols.buttons}
        button(carols, code="p1")
        # pressed, it becomes its take-back
        await click_action(w, w.carol, "p1")
        assert t("act.auto_pass_off") in {b.label for b in latest_hand(w.fake, w.carol).buttons}


async def test_a_finished_games_hand_offers_only_a_rematch(tmp_path: Path) -> None:
    """carol is done for the bout when bob beats alice's last card with his last: the game is
    over (carol is the Durak). Her hand then offers no "Take back done", only the rematch."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        state = position(RuleSet(), ["7S", "8S", "9D 10C"], trump="AH", attacker=0)
        table = await seated(w, bot, [w.alice, w.bob, w.carol], state)
        await click_action(w, w.alice, "attack 7S")
        await w.fake.wait_for(lambda: shown_version(bot, table, w.carol) == table.version, 5)
        await click_action(w, w.carol, "p1")
        assert table.auto_pass
        await click_action(w, w.bob, "defend 7S 8S")
        assert table.state is not None and table.state.finished
        await w.fake.wait_for(lambda: shown_version(bot, table, w.carol) == table.version, 5)
        carols = latest_hand(w.fake, w.carol)
        rematch = f"dkt:{table.table_id}:rematch"
        assert [(b.label, b.custom_id) for b in carols.buttons] == [(t("btn.rematch"), rematch)]
        assert t("hand.after_game") in carols.content
        # the button works from the hand: a new game, and the hand shows it
        answer = await w.fake.click(w.carol, carols, rematch)
        assert t("hand.after_game") not in answer.content
        await w.fake.wait_for(lambda: table.state is not None and not table.state.finished, 5)
        assert w.fake.violations == []


def took(table: Table, seat: int) -> bool:
    """Whether ``seat`` took the cards in the running game."""
    return any(
        isinstance(e, ActionTaken) and e.seat == seat and e.action.kind == TAKE
        for e in table.events
    )


async def click_action(w: World, user: int, action: str) -> None:
    """``user`` clicks ``action`` (or a toggle code) on its latest hand."""
    hand = latest_hand(w.fake, user)
    wanted = action if action in ("p0", "p1") else code(action)
    answer = await w.fake.click(user, hand, button(hand, code=wanted))
    assert "⚠️" not in answer.content, answer.content


def test_a_hand_of_an_earlier_bout_is_stale_and_take_counts_what_it_showed() -> None:
    """``check_seen`` on a table stepped through two bouts: within a bout, an older hand's
    legal click passes and its Take is judged on the attack cards that hand showed; a hand of
    the bout before is stale even where its click would be legal now (alice's next lead)."""
    state = alice_leads(["7S 7C 9H", "8D 9D 10H KS AS"], talon="6H 6S 10D 10C")
    table = Table("0123abcd", 1, 2, 3, RuleSet(), 2, 0, state=state)
    table.seats = [Seat("alice", user_id=10), Seat("bob", user_id=11)]

    def step(seat: int, action: str) -> int:
        assert table.state is not None
        table.state, _ = table.state.apply(seat, parse_action(action))
        table.version += 1
        table.track_attacks()
        return table.version

    table.track_attacks()
    first = table.version
    shown_one = step(0, "attack 7S")
    step(0, "attack 7C")
    take = parse_action("take")
    with pytest.raises(Rejected) as grew:
        check_seen(table, 1, take, shown_one)
    assert grew.value.kind is Refusal.TAKE_GREW and grew.value.params == {"more": 1, "n": 2}
    check_seen(table, 1, take, table.version)  # the fresh hand: taken as shown
    check_seen(table, 1, parse_action("defend 7S 10H"), shown_one)  # still legal: applied
    step(1, "take")  # alice has nothing to throw in (R15): the bout ends (R16), she leads (R19)
    assert table.state is not None and not table.state.public_view().table
    lead = table.state.legal_actions(0)[0]
    with pytest.raises(Rejected) as stale:
        check_seen(table, 0, lead, first)  # a lead clicked on the first bout's hand
    assert stale.value.kind is Refusal.STALE
    check_seen(table, 0, lead, table.version)


async def test_a_click_that_changes_nothing_says_why(tmp_path: Path) -> None:
    """#45 item 6, R9: "Done for this bout" pressed twice, and its "Take back" pressed on an
    older hand after the bout it was for has ended, change nothing; the hand says why rather
    than coming back silently refreshed."""
    async with world(tmp_path) as w, running_bot(w, hand_idle_refresh_seconds=IDLE) as bot:
        table = await alice_led_7s(w, bot, ["7S 7C 9H", "8S 9D 10H KS AS", "6D 9C QH"])
        offered = latest_hand(w.fake, w.carol)
        done = button(offered, code="p1")
        await click_action(w, w.carol, "p1")
        assert 2 in table.auto_pass
        again = await raw_click(w.fake, w.carol, _with_button(offered, done), done)
        assert t("err.auto_pass_set") in again.content
        with_take_back = latest_hand(w.fake, w.carol)
        take_back = button(with_take_back, code="p0")
        await click_action(w, w.bob, "defend 7S 8S")
        await click_action(w, w.alice, "pass")  # the bout is over: carol's "done" lapses
        assert not table.auto_pass
        version = table.version
        late = await raw_click(w.fake, w.carol, _with_button(with_take_back, take_back), take_back)
        assert late.response_type == UPDATE_MESSAGE
        assert t("err.auto_pass_lapsed") in late.content
        assert table.version == version  # nothing changed


def test_the_take_warning_counts_each_number_in_its_own_words() -> None:
    """#45 item 6: "1 more were thrown in" — the sentence's plural follows the cards to take
    (n); the cards thrown since (more) are a bare number that needs no agreement."""
    for lang in ("en", "ru", "uk", "de", "es"):
        one_more = t("err.take_grew", lang, more=1, n=5)
        five_more = t("err.take_grew", lang, more=5, n=6)
        assert "{" not in one_more and "{" not in five_more
    assert "1 more were" not in t("err.take_grew", "en", more=1, n=5)
    assert "5 cards" in t("err.take_grew", "en", more=1, n=5)
    assert "взять 5 карт " in t("err.take_grew", "ru", more=1, n=5)
