"""Issue #30, bugs 6 and 5: cancelling a running tournament closes its live tables (the games
being played are not recorded: no rating changes), says so at each table and frees its
thread; the standings message shows the cancelled event as such (no table "playing", no
medal for an all-zero field)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.messages.tournament_standings import (
    standings_scene,
    swiss_standings,
    swiss_status,
)
from bot.tournaments.messages.tournament_text import Names, as_translator
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    description,
    joined_by,
    only_tournament,
    say,
    signed_up,
    started,
    until,
)


@pytest.mark.slow
async def test_cancel_closes_the_live_tables_and_says_so(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        storage = bot.service.storage
        store = bot.tournaments.store
        # a long timer: nobody moves, both tables are mid-game at the cancel
        four = ("alice", "bob", "carol", "dave")
        tr, players = await joined_by(w, bot, *four, name="Cup", timer=600)
        tid = tr.tournament_id
        assert await say(w, w.alice, "start") == t("tournament.ok.started", name="Cup")

        async def both_open() -> bool:
            rounds = await store.tournament_rounds(tid)
            return bool(rounds) and all(tb.bot_table_id for tb in rounds[0].tables)

        await until(both_open)
        threads = [int(th["id"]) for th in fake.threads(w.channel)]
        assert len(threads) == 2 and all(bot.service.registry.in_channel(x) for x in threads)
        # a table of a live tournament cannot be cancelled on its own
        refused = await fake.slash(w.alice, threads[0], "durak", "cancel")
        assert refused.content == t("err.tournament_table")

        assert await say(w, w.alice, "cancel") == t("tournament.ok.cancelled", name="Cup")
        closed = t("tournament.table_cancelled", name="Cup")

        def told(thread: int) -> bool:
            return any(m.content == closed for m in fake.channel_messages(thread))

        await fake.wait_for(lambda: all(told(th) for th in threads), 10, what="the tables told")
        for thread in threads:
            assert bot.service.registry.in_channel(thread) is None  # the thread is free again
        assert await store.tournament_games(tid) == []
        for p in players:  # the unfinished games changed nobody's record or rating
            assert (await storage.user_stats(p, w.guild)).games == 0

        tr = await only_tournament(bot, w.guild)
        assert tr.status is TournamentStatus.CANCELLED and tr.standings_message_id is not None
        board = tr.standings_message_id
        await fake.wait_for(lambda: t("tstand.status.cancelled") in description(fake, board), 10)
        fields = str(fake.message(board).embeds[0].get("fields"))

        def tail(key: str) -> str:  # "not finished (cancelled)", "playing"
            return t(key, table=1, seats="").rsplit("·", 1)[1].strip()

        assert tail("tstand.table_cancelled") in fields
        assert tail("tstand.table_playing") not in fields
        # the picture: no medals in a cancelled event where nobody scored
        entrants = await store.tournament_entrants(tid)
        rounds = await store.tournament_rounds(tid)
        st = swiss_standings(tr, entrants, rounds, [])
        tr_en = as_translator("en")
        names = {p: str(p) for p in players}
        who = Names(entrants, names, tr_en)
        status = swiss_status(tr, st, len(entrants), tr_en)
        assert not standings_scene(tr, st, who, {}, status, tr_en).medals


@pytest.mark.slow
async def test_a_cancel_whose_notices_were_lost_tells_its_tables_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #47 item 10: the bot stops right after a cancel, before its tables were told
    (here the notices and the table message's edit are dropped, as a SIGKILL loses them):
    after the restart each table's thread gets its 🛑 notice and its table message says
    closed, with no "My hand" left."""
    async with world(tmp_path) as w:
        fake = w.fake
        async with running_bot(w) as bot:
            store = bot.tournaments.store
            tr = await signed_up(w, bot, (w.bob, w.carol), name="Cup", rounds=1, timer=600)
            tid = tr.tournament_id
            table = bot.service.registry.get(await started(w, store, tid))
            assert table is not None and table.thread_id is not None
            await fake.wait_for(lambda: table.table_message_id is not None, 10)
            thread, message = table.thread_id, table.table_message_id
            assert message is not None
            # killed before anything was told: no notice, no edit of the table message
            monkeypatch.setattr(bot.event_host, "tables_cancelled", lambda tr, notices: None)
            monkeypatch.setattr(bot.service.core, "notifier", None)
            assert await say(w, w.alice, "cancel") == t("tournament.ok.cancelled", name="Cup")
        monkeypatch.undo()
        notice = t("tournament.table_cancelled", name="Cup")
        assert not any(m.content == notice for m in fake.channel_messages(thread))
        assert fake.message(message).components  # still shows the live game's buttons
        async with running_bot(w) as bot:
            await fake.wait_for(
                lambda: any(m.content == notice for m in fake.channel_messages(thread)), 10
            )
            closed = t("table.closed_tournament")
            await fake.wait_for(lambda: fake.message(message).embeds[0]["title"] == closed, 10)
            assert not fake.message(message).components

            async def cleared() -> bool:
                got = await bot.tournaments.store.get_tournament(tid)
                return got.options.get("closing_notices") == []

            await until(cleared)
