"""Issue #30, bug 10: a tournament's name is shown as typed, wherever it is shown: its
markdown does not format and its mentions do not ping (nor render as mentions)."""

from __future__ import annotations

from pathlib import Path

from bot.text import t
from bot.text.names import shown_name
from tests.bot.tournaments.test_tournament_signup import (
    only_tournament,
    organiser_bot,
    posted,
    say,
    signup,
    until,
)

NAME = "**@everyone** <@123> _cup_"


async def test_a_name_with_markdown_and_mentions_is_shown_as_typed(tmp_path: Path) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        shown = shown_name(NAME)
        assert "@everyone" not in shown and "<@123>" not in shown and "\\*\\*" in shown
        await say(w, w.alice, "new", name=NAME, timer=600)
        tr = await posted(bot, w.guild)
        assert tr.name == NAME  # stored as typed
        assert signup(w, tr).embeds[0]["title"] == t("tournament.signup.title", name=shown)
        for p in (w.bob, w.carol):
            answer = await fake.click(p, signup(w, tr), f"dkr:{tr.tournament_id}:join")
            assert answer.content == t("tournament.ok.joined", name=shown)
        assert await say(w, w.alice, "start") == t("tournament.ok.started", name=shown)

        async def board() -> bool:
            return (await only_tournament(bot, w.guild)).standings_message_id is not None

        await until(board)
        board_id = (await only_tournament(bot, w.guild)).standings_message_id
        assert board_id is not None
        await fake.wait_for(lambda: fake.message(board_id).embeds, 10)
        assert fake.message(board_id).embeds[0]["title"] == t("tstand.title", name=shown)
        await fake.wait_for(lambda: fake.threads(w.channel), 10)
        thread = int(fake.threads(w.channel)[0]["id"])
        await fake.wait_for(lambda: fake.channel_messages(thread), 10)
        ping = fake.channel_messages(thread)[0].content
        assert shown in ping and NAME not in ping
        history = await fake.slash(w.bob, w.channel, "durak-tournament", "history")
        assert shown in str(history.embeds[0]["description"])
        assert await say(w, w.alice, "cancel") == t("tournament.ok.cancelled", name=shown)
