"""Practice tables through the fake Discord (issue #34 item 2): ``/durak new practice:true``
shows it in the lobby and on the table, survives a restart, offers a "Hint" button in a hand
that has a choice (never at a normal table), answers it ephemerally with a legal action and
one line of why, refuses an old hand's or another player's click clearly, and records its games
as assisted and unrated."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.coach.ui.hint_text import hint_text
from bot.coach.ui.review_text import action_text
from bot.tables.table import Table
from bot.text import LANGUAGES, t
from bot.ui.hand_view import HINT
from durak_core import RuleSet, position
from durak_core.coach.hint import hint
from durak_core.coach.review import ReviewBudget
from tests.bot.cogs.test_bot_clicks import _with_button, raw_click
from tests.bot.helpers import World, open_table, public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import latest_hand
from tests.bot.ui.test_table_feel import button, code, seat_position, settle
from tests.fake_discord import UPDATE_MESSAGE, FakeMessage

#: alice (seat 0) leads with three cards to choose from; bob waits (no choice yet).
LEAD = position(RuleSet(), ["7S 9C QD", "8D 9H KC"], trump="AH", attacker=0, talon="6H 6S 10D")
#: The last bout: alice leads her last card, the talon is empty; bob takes and is the Durak.
LAST = position(RuleSet(), ["7S", "8D 9H"], trump="AH", attacker=0, talon="")
#: Two seats, talon empty: alice's win is proven.
LAST_TWO = position(RuleSet(), ["7S AH", "8D 9C 10C"], trump="KH", attacker=0, talon="")
SMALL = ReviewBudget(deals=8, solver_nodes=20_000)


async def practice_pair(w: World, bot: DurakBot, *, practice: bool = True) -> Table:
    """alice and bob at a running (practice) table in LEAD, both hands open and shown."""
    table = await open_table(w, bot, [w.alice, w.bob], w.channel, practice=practice)
    await seat_position(bot, table, LEAD)
    for user in (w.alice, w.bob):
        await w.fake.click(user, public_message(w, table), f"dkt:{table.table_id}:hand")
    await settle(w, bot, table, [w.alice, w.bob])
    return table


def hint_ids(hand: FakeMessage) -> list[str]:
    return [b.custom_id for b in hand.buttons if b.custom_id and b.custom_id.endswith(f":{HINT}")]


@pytest.mark.slow
async def test_a_practice_table_offers_a_hint_naming_a_legal_action(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await practice_pair(w, bot)
        assert table.practice
        assert t("table.practice") in public_message(w, table).embeds[0]["title"]
        hand = latest_hand(fake, w.alice)
        (hint,) = hint_ids(hand)
        assert [b.label for b in hand.buttons if b.custom_id == hint] == [t("act.hint")]
        assert hint_ids(latest_hand(fake, w.bob)) == []  # bob has nothing to choose yet

        answer = await fake.click(w.alice, hand, hint)
        await answer.wait_until(lambda r: r.content.startswith("💡"), 30)
        assert answer.ephemeral
        legal = table.legal_actions(0)
        named = [a for a in legal if f"**{action_text(a, None)}**" in answer.content]
        assert len(named) == 1, answer.content
        # asked again on the same hand: the same hint, shared (nothing queued again)
        again = await fake.click(w.alice, hand, hint)
        await again.wait_until(lambda r: r.content.startswith("💡"), 30)
        assert again.content == answer.content and again.ephemeral
        assert table.state is LEAD or table.legal_actions(0) == legal  # nothing was played
        assert fake.violations == []


async def test_a_normal_table_has_no_hint_and_refuses_a_forged_one(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        table = await practice_pair(w, bot, practice=False)
        hand = latest_hand(w.fake, w.alice)
        assert hint_ids(hand) == [] and not table.practice
        assert t("table.practice") not in public_message(w, table).embeds[0]["title"]
        forged = f"dk:{table.table_id}:0:{table.version}:{HINT}"
        answer = await raw_click(w.fake, w.alice, _with_button(hand, forged), forged)
        assert t("err.forged") in answer.content
        assert table.legal_actions(0) == LEAD.legal_actions(0)


@pytest.mark.slow
async def test_a_hint_on_an_old_hand_or_another_seat_is_answered_clearly(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await practice_pair(w, bot)
        old = latest_hand(fake, w.alice)
        (old_hint,) = hint_ids(old)

        # bob forges alice's Hint onto his own hand: not his seat
        bobs = latest_hand(fake, w.bob)
        answer = await raw_click(fake, w.bob, _with_button(bobs, old_hint), old_hint)
        assert t("err.not_your_seat") in answer.content

        # alice plays; her hand (now with bob to answer) has no choice, so no Hint
        await fake.click(w.alice, old, button(old, code=code("attack 7S")))
        await settle(w, bot, table, [w.alice, w.bob])
        assert hint_ids(latest_hand(fake, w.alice)) == []
        # ... and the Hint of the hand before her move is answered with the fresh hand
        stale = await raw_click(fake, w.alice, _with_button(old, old_hint), old_hint)
        assert stale.response_type == UPDATE_MESSAGE
        assert t("hint.stale") in stale.content and "Your hand" in stale.content

        # bob, the defender, has a choice now: his hint names one of his legal actions
        bobs = latest_hand(fake, w.bob)
        (hint,) = hint_ids(bobs)
        answer = await fake.click(w.bob, bobs, hint)
        await answer.wait_until(lambda r: r.content.startswith("💡"), 30)
        assert any(f"**{action_text(a, None)}**" in answer.content for a in table.legal_actions(1))


async def test_a_practice_game_is_recorded_assisted_and_unrated(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice, w.bob], w.channel, practice=True)
        await seat_position(bot, table, LAST)
        for user in (w.alice, w.bob):
            await fake.click(user, public_message(w, table), f"dkt:{table.table_id}:hand")
        await settle(w, bot, table, [w.alice, w.bob])
        alice = latest_hand(fake, w.alice)
        assert hint_ids(alice) == []  # one card, one legal action: nothing to hint
        await fake.click(w.alice, alice, button(alice, code=code("attack 7S")))
        await settle(w, bot, table, [w.alice, w.bob])
        bobs = latest_hand(fake, w.bob)
        await fake.click(w.bob, bobs, button(bobs, code=code("take")))
        await fake.wait_for(lambda: table.status == "finished", 10, what="the game's end")
        await settle(w, bot, table, [w.alice, w.bob])
        assert table.ratings is None  # recording it moved nobody's rating
        storage = bot.service.storage
        (game,) = await storage.channel_history(w.guild, w.channel)
        assert game.assisted and game.durak_seat == 1
        assert (await storage.get_game(game.game_id)).assisted
        for user in (w.alice, w.bob):
            for guild in (w.guild, None):
                stats = await storage.user_stats(user, guild)
                # no tally, no rating: counted as a practice game only
                assert (stats.games, stats.rating, stats.assisted_games) == (0, None, 1)
        history = await fake.slash(w.alice, w.channel, "durak", "history")
        assert t("history.assisted") in history.embeds[0]["description"]
        shown = await fake.slash(w.alice, w.channel, "durak", "stats")
        fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
        assert fields[t("stats.assisted")] == "1" and fields[t("stats.games")] == "0"


async def test_the_practice_option_survives_a_restart(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        async with running_bot(w) as bot:
            await w.fake.slash(w.alice, w.channel, "durak", "new", options={"practice": True})
            table = table_of(bot, w.channel)
            assert table.practice
            await w.fake.wait_for(lambda: table.lobby_message_id is not None)
            lobby = w.fake.message(table.lobby_message_id or 0)
            assert t("lobby.practice") in lobby.embeds[0]["description"]
        async with running_bot(w) as bot:
            assert table_of(bot, w.channel).practice


def test_a_hint_says_why_and_how_likely_in_every_language() -> None:
    """A proof says its result (R20: alice's 7S and trump ace cannot be beaten, bob is left
    holding cards); an estimate adds the winning chance it gives."""
    proven = hint(LAST_TWO.view(0), [], SMALL)
    assert hint_text(proven, None) == t(
        "hint.text", None, action=action_text(proven.best, None), why=t("hint.why.proven_win")
    )
    estimate = hint(LEAD.view(0), [], SMALL, seed=1)
    for loc in LANGUAGES:
        text = hint_text(estimate, loc)
        assert text.endswith(t("hint.chance", loc, pct=round(estimate.best_chance * 100)))
        assert f"**{action_text(estimate.best, loc)}**" in text
