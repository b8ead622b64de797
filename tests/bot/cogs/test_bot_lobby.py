"""Lobby flows and permissions, leaderboard/stats/history after several games, the entry point."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.text import t
from tests.bot.helpers import public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import play_one_game


async def test_lobby_join_leave_ai_start_cancel_permissions(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        new = await fake.slash(w.alice, w.channel, "durak", "new", options={"seats": 3})
        table = table_of(bot, w.channel)
        lobby = new.message
        assert lobby is not None
        tid = table.table_id
        labels = {b.label for b in lobby.buttons}
        assert {"Join", "Leave", "Start", "Cancel", "Add AI (easy)", "Add AI (hard)"} <= labels
        again = await fake.slash(w.bob, w.channel, "durak", "new")
        assert again.ephemeral and "already has a table" in again.content
        res = await fake.click(w.bob, lobby, f"dkl:{tid}:start")
        assert res.ephemeral and "Only the host" in res.content
        res = await fake.click(w.bob, lobby, f"dkl:{tid}:cancel")
        assert res.ephemeral and "Manage Messages" in res.content
        await fake.click(w.bob, lobby, f"dkl:{tid}:join")
        res = await fake.click(w.bob, lobby, f"dkl:{tid}:join")
        assert res.ephemeral and "already" in res.content
        await fake.click(w.bob, lobby, f"dkl:{tid}:leave")
        assert [s.name for s in table.seats] == ["alice"]
        res = await fake.click(w.alice, lobby, f"dkl:{tid}:start")
        assert res.ephemeral and "At least 2" in res.content
        await fake.click(w.bob, lobby, f"dkl:{tid}:join")
        # Only the host seats AI players, until the host lets everyone (a lobby option).
        res = await fake.click(w.bob, lobby, f"dkl:{tid}:ai-hard")
        assert res.ephemeral and "Only the host" in res.content
        res = await fake.click(w.bob, lobby, f"dkl:{tid}:ai-open")
        assert res.ephemeral and "Only the host" in res.content
        assert not table.anyone_adds_ai and not any(s.is_ai for s in table.seats)
        await fake.click(w.alice, lobby, f"dkl:{tid}:ai-open")
        assert table.anyone_adds_ai
        await fake.click(w.bob, lobby, f"dkl:{tid}:ai-easy")
        await fake.click(w.bob, lobby, f"dkl:{tid}:ai-remove")
        assert not any(s.is_ai for s in table.seats)
        await fake.click(w.alice, lobby, f"dkl:{tid}:ai-host")
        res = await fake.click(w.bob, lobby, f"dkl:{tid}:ai-easy")
        assert res.ephemeral and "Only the host" in res.content
        await fake.click(w.alice, lobby, f"dkl:{tid}:ai-hard")
        res = await fake.click(w.carol, lobby, f"dkl:{tid}:join")
        assert res.ephemeral and "full" in res.content
        assert "AI 1 (hard)" in str(fake.message(lobby.id).embeds)
        res = await fake.click(w.alice, lobby, f"dkl:{tid}:cancel")
        assert res.response_type == 7 and not fake.message(lobby.id).buttons
        assert bot.service.registry.in_channel(w.channel) is None
        saved = await bot.service.storage.load_tables(("abandoned",))
        assert [s.table_id for s in saved] == [tid]
        rules = await fake.slash(
            w.alice, w.channel, "durak", "new", options={"variants": "transfer"}
        )
        assert not rules.ephemeral
        text = await fake.slash(w.bob, w.channel, "durak", "rules")
        assert text.ephemeral and "V1 transfer" in str(text.embeds)
        assert fake.violations == []


async def test_tables_one_user_hosts_are_capped_in_chat_too(tmp_path: Path) -> None:
    """``TABLES_PER_USER``: past it ``/durak new`` elsewhere is refused naming the number, and
    opens nothing; another user opens there, and the host can again once a table is gone."""
    async with world(tmp_path) as w, running_bot(w, tables_per_user=1) as bot:
        fake = w.fake
        first = await fake.slash(w.alice, w.channel, "durak", "new")
        assert first.message is not None
        other = fake.add_channel(w.guild, "second")
        refused = await fake.slash(w.alice, other, "durak", "new")
        assert refused.ephemeral
        assert refused.content == t("err.table_cap", "en", count=1)
        assert bot.service.registry.in_channel(other) is None
        opened = await fake.slash(w.bob, other, "durak", "new")
        assert not opened.ephemeral and table_of(bot, other).host_id == w.bob
        tid = table_of(bot, w.channel).table_id
        await fake.click(w.alice, first.message, f"dkl:{tid}:cancel")
        third = fake.add_channel(w.guild, "third")
        again = await fake.slash(w.alice, third, "durak", "new")
        assert not again.ephemeral and table_of(bot, third).host_id == w.alice
        assert fake.violations == []


@pytest.mark.slow
async def test_leaderboard_stats_history_after_several_games(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        await fake.slash(
            w.alice,
            w.channel,
            "durak",
            "new",
            options={"preset": "quick", "ai_seats": 1, "ai_level": "easy"},
        )
        await fake.slash(w.bob, w.channel, "durak", "join")
        await fake.slash(w.alice, w.channel, "durak", "start")
        rng = random.Random(7)
        results = []
        for game in range(3):
            table = await play_one_game(w, bot, rng)
            assert table.state is not None and table.state.result is not None
            results.append(table.state.result)
            if game < 2:
                old = table.table_message_id
                # the finished table's edit is coalesced: wait until it offers Rematch
                await fake.wait_for(
                    lambda: any(
                        (b.custom_id or "").endswith(":rematch")
                        for b in public_message(w, table).buttons  # noqa: B023
                    ),
                    what="the Rematch button",
                )
                res = await fake.click(
                    w.bob, public_message(w, table), f"dkt:{table.table_id}:rematch"
                )
                assert res.ephemeral and "Your hand" in res.content
                await fake.wait_for(lambda: table.table_message_id != old)  # noqa: B023
        seats = table_of(bot, w.channel).seats
        expect: dict[int, tuple[int, int]] = {}
        for user in (w.alice, w.bob):
            seat = next(i for i, s in enumerate(seats) if s.user_id == user)
            wins = sum(1 for r in results if not r.is_draw and r.finishing_order[0] == seat)
            losses = sum(1 for r in results if seat in r.losers)
            expect[user] = (wins, losses)
            stats = await fake.slash(w.carol, w.channel, "durak", "stats", options={"user": user})
            fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
            assert fields["Games"] == "3"
            assert (int(fields["Won"]), int(fields["Durak"])) == expect[user]
        board = await fake.slash(
            w.carol, w.channel, "durak", "leaderboard", options={"sort": "wins"}
        )
        text = board.embeds[0]["description"]
        if any(wins for wins, _ in expect.values()):
            # ties in wins are ordered by the storage's tie-break, so any top scorer may lead
            most = max(wins for wins, _ in expect.values())
            leaders = {
                s.name for s in seats if s.user_id in expect and expect[s.user_id][0] == most
            }
            top = text.splitlines()[0]
            assert any(name in top for name in leaders), top
            assert t("board.wins", "en", n=most) in top, top  # "1 win", "2 wins"
        assert board.message is not None
        res = await fake.click(w.carol, board.message, "dkb:rating:1")
        assert res.response_type == 7 and "rating" in res.embeds[0]["title"]
        history = await fake.slash(w.carol, w.channel, "durak", "history")
        assert history.embeds[0]["description"].count("game") == 3
        assert fake.violations == []


@pytest.mark.slow
def test_python_m_bot_without_token_exits_2_with_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0], proc.stderr


async def test_rejected_token_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.app import run_bot
    from tests.bot.helpers import settings

    async with world(tmp_path):
        code = await run_bot(settings(tmp_path / "x.sqlite3", discord_token="wrong-token"))
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rejected DISCORD_TOKEN" in err[0]
