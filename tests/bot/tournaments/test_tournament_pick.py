"""Issue #30, bug 3: two tournaments in one channel. A command that names none asks which,
the ``tournament`` option autocompletes the open ones, and each command acts on the one named
(before, the newest took over start, cancel and remove)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.storage import TournamentRecord, TournamentStatus
from tests.bot.tournaments.test_tournament_signup import organiser_bot, say, until


@pytest.mark.slow
async def test_two_tournaments_in_a_channel_are_told_apart(tmp_path: Path) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        store = bot.tournaments.store
        await say(w, w.alice, "new", name="First", timer=1)
        await say(w, w.alice, "new", name="Second", timer=1)

        async def both_posted() -> bool:
            found = await store.guild_tournaments(w.guild)
            return len(found) == 2 and all(tr.signup_message_id for tr in found)

        await until(both_posted)
        by_name: dict[str, TournamentRecord] = {
            tr.name: tr for tr in await store.guild_tournaments(w.guild)
        }
        first, second = by_name["First"], by_name["Second"]
        for tr in (first, second):
            assert tr.signup_message_id is not None
            for p in (w.bob, w.carol):
                await fake.click(p, tr.signup_message_id, f"dkr:{tr.tournament_id}:join")

        ambiguous = t("err.tournament_ambiguous", names="“Second”, “First”", option="tournament")
        assert await say(w, w.alice, "start") == ambiguous
        assert await say(w, w.alice, "cancel") == ambiguous
        assert await say(w, w.alice, "remove", user=w.bob) == ambiguous
        for tr in (first, second):  # nothing happened to either
            got = await store.get_tournament(tr.tournament_id)
            assert got.status is TournamentStatus.SIGNUP
            assert len(await store.tournament_entrants(tr.tournament_id)) == 2

        suggested = await fake.autocomplete(
            w.alice, w.channel, "durak-tournament", "start", focused="tournament"
        )
        assert {c["value"] for c in suggested} == {first.tournament_id, second.tournament_id}
        typed = await fake.autocomplete(
            w.alice, w.channel, "durak-tournament", "start",
            focused="tournament", options={"tournament": "fir"},
        )  # fmt: skip
        assert [c["value"] for c in typed] == [first.tournament_id]
        assert str(typed[0]["name"]).startswith("First")

        # by the id autocomplete gives, or by the name typed out
        removed = await say(w, w.alice, "remove", user=w.carol, tournament="Second")
        assert removed == t("tournament.ok.removed", user=f"<@{w.carol}>", name="Second")
        started = await say(w, w.alice, "start", tournament=first.tournament_id)
        assert started == t("tournament.ok.started", name="First")
        assert (await store.get_tournament(second.tournament_id)).status is (
            TournamentStatus.SIGNUP
        )
        assert await say(w, w.alice, "cancel", tournament="Second") == t(
            "tournament.ok.cancelled", name="Second"
        )
        # one open tournament left: the default again
        assert (await store.get_tournament(first.tournament_id)).status is not (
            TournamentStatus.CANCELLED
        )
        assert await say(w, w.alice, "cancel") == t("tournament.ok.cancelled", name="First")
        assert await say(w, w.alice, "start", tournament="Nope") == t("err.no_tournament")
