"""Issue #47 item 2 and "undo a result": a table chosen from ``override``'s list carries its
round, so a choice made before its round ended is refused instead of deciding the next round's
table of that number; a recorded result is replaced or taken back until the next round is
paired (then refused, saying why); each change is logged in the tournament's channel."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text import t
from tests.bot.tournaments.test_tournament_signup import four_cup, round_open, say


@pytest.mark.slow  # two rounds of overrides: over a second
async def test_a_stale_choice_is_refused_and_a_result_is_undone_until_the_next_round(
    tmp_path: Path,
) -> None:
    async with four_cup(tmp_path) as (w, bot, tid):
        fake, store = w.fake, bot.tournaments.store
        await say(w, w.alice, "start")
        rnd = await round_open(store, tid, 1)
        choices = await fake.autocomplete(
            w.alice, w.channel, "durak-tournament", "override",
            focused="table", options={"table": ""},
        )  # fmt: skip
        assert [c["value"] for c in choices] == ["1:1", "1:2"]  # each carries its round
        a, b = rnd.tables[0].seats
        c, d = rnd.tables[1].seats
        assert a and b and c and d

        # replaced, then taken back, then recorded again: each logged in the channel
        assert await say(w, w.alice, "override", table="1:1", winner=a) == t(
            "tournament.ok.overridden", name="Cup", round=1, table=1,
            result=t("tournament.override.winner", player=f"<@{a}>"),
        )  # fmt: skip
        assert await say(w, w.alice, "override", table="1:1", winner=b) == t(
            "tournament.ok.replaced", name="Cup", round=1, table=1,
            result=t("tournament.override.winner", player=f"<@{b}>"),
        )  # fmt: skip
        undo_choices = await fake.autocomplete(
            w.alice, w.channel, "durak-tournament", "undo",
            focused="table", options={"table": ""},
        )  # fmt: skip
        assert [c["value"] for c in undo_choices] == ["1:1"]
        assert await say(w, w.alice, "undo", table="1:2") == t("tournament.error.undo_none")
        assert await say(w, w.alice, "undo", table="1:1") == t(
            "tournament.ok.undone", name="Cup", round=1, table=1
        )
        (rnd,) = await store.tournament_rounds(tid)
        assert rnd.tables[0].override is None and rnd.status == "running"
        await round_open(store, tid, 1)  # the closed table opens again for the rest
        logged = [m.content for m in fake.channel_messages(w.channel)]
        await fake.wait_for(
            lambda: sum("📝" in m.content or "↩️" in m.content
                        for m in fake.channel_messages(w.channel)) >= 3,
            10,
        )  # fmt: skip
        logged = [m.content for m in fake.channel_messages(w.channel)]
        undo_log = t(
            "tournament.override.undo_log", name="Cup", round=1, table=1, by=f"<@{w.alice}>",
            at="<t:",
        ).split("<t:")[0]  # fmt: skip
        assert any(m.startswith(undo_log) for m in logged)

        # round 1 ends by two overrides; round 2 is paired
        await say(w, w.alice, "override", table="1:1", winner=a)
        await say(w, w.alice, "override", table="1:2", forfeit=d)
        await round_open(store, tid, 2)
        rounds = await store.tournament_rounds(tid)
        before = rounds[1]
        # the choice "round 1 · table 1", made before round 1 ended: refused, nothing changed
        assert await say(w, w.alice, "override", table="1:1", forfeit=a) == t(
            "tournament.error.override_stale", round=1, current=2
        )
        assert await say(w, w.alice, "undo", table="1:1") == t(
            "tournament.error.undo_paired", round=1, current=2
        )
        after = await store.tournament_rounds(tid)
        assert after[1] == before and after[0] == rounds[0]
        await say(w, w.alice, "cancel")
