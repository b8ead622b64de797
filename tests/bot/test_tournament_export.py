"""The export of issue #30: ``/durak-tournament export`` attaches the standings as CSV (every
tie-break) and the whole tournament as JSON, its games with the seed commitments stored for
them; what it says equals a recomputation from the stored games."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.logic import rounds_from_games, standings
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.test_tournament_signup import no_shows, reaches, say


@pytest.mark.slow  # two rounds played by the AI for no-shows
async def test_the_export_holds_the_stored_tournament(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        storage = bot.service.storage
        store = bot.tournaments.store
        tr, players = await no_shows(w, bot, 4, name="Cup", rounds=2, timer=1, decider=False)
        tid = tr.tournament_id
        await say(w, w.alice, "start")
        await reaches(store, tid, TournamentStatus.FINISHED, 90)

        res = await fake.slash(w.bob, w.channel, "durak-tournament", "export")
        assert res.ephemeral and res.content == t("tournament.ok.exported", name="Cup")
        message = res.message
        assert message is not None
        files = {a.filename: a.data for a in message.attachments}
        data = json.loads(files["tournament.json"])
        sheet = list(csv.DictReader(io.StringIO(files["standings.csv"].decode())))

        rounds = await store.tournament_rounds(tid)
        games = await store.tournament_games(tid)
        entrants = await store.tournament_entrants(tid)
        assert [p["user_id"] for p in data["players"]] == players
        assert [r["round"] for r in data["rounds"]] == [1, 2]
        assert len(data["games"]) == len(games) == 4
        for exported in data["games"]:
            stored = await storage.get_game(exported["game_id"])
            assert exported["seed_commitment"] == stored.seed_commitment
        core = standings(
            [e.entrant for e in entrants],
            2,
            rounds_from_games([r.pairing for r in rounds], games, tr.settings.match),
        )
        assert [row["user_id"] for row in data["standings"]] == list(core.rank_order())
        assert [int(row["user_id"]) for row in sheet] == list(core.rank_order())
        for row, r in zip(sheet, core.rows, strict=True):
            assert float(row["points"]) == float(r.points)
            assert float(row["sonneborn_berger"]) == round(float(r.sonneborn), 4)
