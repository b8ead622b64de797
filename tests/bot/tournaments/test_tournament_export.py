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
from bot.text.names import shown_name
from bot.tournaments.logic import rounds_from_games, standings
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import joined_by, no_shows, reaches, say, signup


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


@pytest.mark.slow  # a round played by the AI for no-shows
async def test_the_export_is_spreadsheet_safe_and_carries_settings_and_every_game(
    tmp_path: Path,
) -> None:
    """Issue #47 items 6, 8 and 9: names that would start a formula are written with a
    leading quote; the settings and one row per game of each round come along; a name that
    looks like a mention is shown as typed on the standings, never as a pill."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        store = bot.tournaments.store
        formula, at, pill = '=HYPERLINK("http://x","y")', "@here", "<@123>"
        players = [fake.add_user(formula), fake.add_user(at), fake.add_user(pill)]
        tr, _ = await joined_by(w, bot, "bob", name="Cup", rounds=1, timer=1, decider=False)
        for p in players:
            await fake.click(p, signup(w, tr), f"dkr:{tr.tournament_id}:join")
        tid = tr.tournament_id
        await say(w, w.alice, "start")
        await reaches(store, tid, TournamentStatus.FINISHED, 90)

        res = await fake.slash(w.bob, w.channel, "durak-tournament", "export")
        assert res.message is not None
        files = {a.filename: a.data.decode() for a in res.message.attachments}
        assert set(files) == {"settings.csv", "standings.csv", "games.csv", "tournament.json"}
        names = {row["name"] for row in csv.DictReader(io.StringIO(files["standings.csv"]))}
        assert {"'" + formula, "'" + at, pill} <= names
        settings = {
            r["setting"]: r["value"] for r in csv.DictReader(io.StringIO(files["settings.csv"]))
        }
        assert settings["format"] == "swiss" and settings["rounds"] == "1"
        assert settings["table_size"] == "2" and settings["turn_timer"] == "1"
        assert settings["organiser.user_id"] == str(w.alice) and settings["started_at"]
        games = list(csv.DictReader(io.StringIO(files["games.csv"])))
        stored = await store.tournament_games(tid)
        assert [(int(g["round"]), g["kind"]) for g in games] == [(1, "game")] * len(stored)
        assert all(not g["players"].startswith(("=", "@")) for g in games)
        data = json.loads(files["tournament.json"])
        assert data["tournament"]["rules"] and data["game_rows"][0]["round"] == 1

        board = (await store.get_tournament(tid)).standings_message_id
        assert board is not None
        await fake.wait_for(lambda: fake.message(board).embeds, 10)
        embed = fake.message(board).embeds[0]
        shown = str(embed["description"]) + "".join(str(f["value"]) for f in embed["fields"])
        assert pill not in shown and shown_name(pill) in shown
