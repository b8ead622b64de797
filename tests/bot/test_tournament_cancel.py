"""Issue #30, bugs 6 and 5: cancelling a running tournament closes its live tables (the games
being played are not recorded: no rating changes), says so at each table and frees its
thread; the standings message shows the cancelled event as such (no table "playing", no
medal for an all-zero field)."""

from __future__ import annotations

from pathlib import Path

from bot.text import t
from bot.tournaments.messages.tournament_standings import (
    standings_scene,
    swiss_standings,
    swiss_status,
)
from bot.tournaments.messages.tournament_text import Names, as_translator
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.test_tournament_signup import (
    description,
    joined_by,
    only_tournament,
    say,
    until,
)


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
