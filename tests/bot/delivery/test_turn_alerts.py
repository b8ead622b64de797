"""Turn notifications through the fake Discord: a human who must lead or defend and does not
act gets exactly one message that notifies them (a mention in the table's channel, or a DM),
deleted once obsolete; never twice in a bout; `off` sends nothing; the choice is stored; seats
an AI plays are never notified; a fast table stays within the per-channel limits."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

import bot.tables.lobby as lobby_module
from bot.app import DurakBot
from bot.delivery.turn_alerts import transferred
from bot.tables.table import Table
from bot.text import t
from durak_core import Action
from durak_core.actions import ATTACK, DEFEND
from tests.bot.helpers import HAND_ID, World, open_table, public_message, running_bot, world
from tests.bot.tables.test_bot_game import settled
from tests.bot.tables.test_robust_idle import Clock, bot_with_clock
from tests.durak_core.helpers import v18_attacked
from tests.fake_discord import FakeDiscord, FakeMessage


class FixedSeeds:
    """Stands in for ``secrets`` in the service: the same deals on every run."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self._rng.getrandbits(k)


@pytest.fixture(autouse=True)
def fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_module, "secrets", FixedSeeds(11))


def must_act(table: Table) -> dict[int, str]:
    """Who the game waits for to lead or defend, from the public view (the test's own reading:
    the table is empty → the attacker leads; only the defender awaited → it defends)."""
    if table.status != "running" or table.state is None:
        return {}
    v = table.public_view()
    if v.finished:
        return {}
    if not v.table:
        found = {v.attacker: "lead"}
    elif v.awaiting == (v.defender,):
        found = {v.defender: "defend"}
    else:
        return {}
    return {s: r for s, r in found.items() if not table.ai_controlled(s)}


def notes(
    fake: FakeDiscord, channel: int, user: int, *, deleted: bool = False
) -> list[FakeMessage]:
    """Bot messages in ``channel`` that mention ``user`` (live ones, or all with ``deleted``)."""
    return [
        m
        for m in fake.store.messages.values()
        if m.channel_id == channel
        and f"<@{user}>" in m.content
        and m.author_id == fake.bot_user_id
        and (deleted or not m.deleted)
    ]


def dms(fake: FakeDiscord, user: int, *, deleted: bool = False) -> list[FakeMessage]:
    channel = fake.dm_channel(user)
    return [
        m
        for m in fake.store.messages.values()
        if m.channel_id == channel and (deleted or not m.deleted)
    ]


def quiet(bot: DurakBot, table: Table, users: list[int]) -> bool:
    return settled(bot, table, users) and bot.notifier.alerts.pending == 0


async def act(w: World, table: Table, user: int, rng: random.Random) -> None:
    """``user`` opens their hand and clicks one of its action buttons: mostly beating rather
    than taking and throwing in rather than passing, so bouts go on."""
    hand = await w.fake.click(user, public_message(w, table), f"dkt:{table.table_id}:hand")
    by_kind: dict[int, list[str]] = {}
    for b in hand.buttons:
        m = HAND_ID.match(b.custom_id or "")
        if m and not b.disabled:
            kind = Action.from_code(int(m["code"])).kind
            by_kind.setdefault(kind, []).append(b.custom_id or "")
    assert by_kind, hand.content
    preferred = [k for k in (DEFEND, ATTACK) if k in by_kind and rng.random() < 0.8]
    kind = preferred[0] if preferred else rng.choice(sorted(by_kind))
    assert hand.message is not None
    result = await w.fake.click(user, hand.message, rng.choice(by_kind[kind]))
    assert result.ephemeral and "⚠️" not in result.content, result.content


def movers(table: Table, users: list[int]) -> list[int]:
    assert table.state is not None
    return [
        u
        for u in users
        if (s := table.seat_of(u)) is not None
        and not table.ai_controlled(s)
        and table.state.legal_actions(s)
    ]


def sent_bodies(fake: FakeDiscord, channel: int) -> list[dict[str, Any]]:
    return [
        r.body
        for r in fake.requests
        if r.method == "POST"
        and r.path == f"/channels/{channel}/messages"
        and isinstance(r.body, dict)
        and "<@" in str(r.body.get("content"))
    ]


@pytest.mark.slow
async def test_one_mention_per_seat_and_bout_deleted_when_obsolete(tmp_path: Path) -> None:
    """(a) a human who must lead or defend and does not act is mentioned exactly once, the
    message pings only them and links the table; once they acted it is deleted. (b) in the same
    bout the seat is never notified again, even when it must defend again (R10 throw-ins)."""
    rng = random.Random(3)
    async with world(tmp_path) as w, running_bot(w, turn_notify_delay_seconds=0) as bot:
        fake, users = w.fake, [w.alice, w.bob]
        table = await open_table(w, bot, users, w.channel)
        for u in users:
            await fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
        notified: dict[tuple[int, int], int] = {}  # (seat, bout) → the notification's id
        again = gone = 0
        for _ in range(80):
            await fake.wait_for(lambda: quiet(bot, table, users), 10, what="a quiet table")
            if table.status != "running":
                break
            need, bout = must_act(table), table.public_view().bout
            for user in users:
                seat = table.seat_of(user)
                assert seat is not None
                live = [m.id for m in notes(fake, w.channel, user)]
                key = (seat, bout)
                if seat in need and key not in notified:
                    assert len(live) == 1, (user, need, live)
                    notified[key] = live[0]
                    message = fake.message(live[0])
                    assert [int(u["id"]) for u in message.current["mentions"]] == [user]
                    link = f"/channels/{w.guild}/{w.channel}/{table.table_message_id}"
                    assert link in message.content
                    role = need[seat]
                    assert message.content == t(f"turn.{role}", None, user=f"<@{user}>",
                                                link=f"https://discord.com{link}")  # fmt: skip
                elif seat in need and fake.message(notified[key]).deleted:
                    again += 1  # must act again in this bout, after acting: no second one
                    assert live == []
                elif seat in need:
                    assert live == [notified[key]]  # still waiting: the same message stays
                else:
                    assert live == []  # acted (or not its turn): deleted
            gone = sum(fake.message(i).deleted for i in notified.values())
            await act(w, table, rng.choice(movers(table, users)), rng)
        assert len(notified) >= 6 and gone >= 5
        assert again >= 1, "no seat had to defend twice in a bout: pick another seed"
        # Exactly one message per (seat, bout), each pinging only its user.
        everyone = [m for u in users for m in notes(fake, w.channel, u, deleted=True)]
        assert sorted(m.id for m in everyone) == sorted(notified.values())
        for body in sent_bodies(fake, w.channel):
            allowed = body["allowed_mentions"]
            assert allowed["parse"] == [] and len(allowed["users"]) == 1
            assert f"<@{allowed['users'][0]}>" in body["content"]
        assert fake.violations == []


@pytest.mark.slow  # over a second: out of the quick subset
async def test_dm_and_off_are_stored_and_followed(tmp_path: Path) -> None:
    """(c) `dm` sends the notification to the DM channel and deletes it when obsolete;
    (d) `off` sends nothing; (e) both choices survive a restart of the bot."""
    rng = random.Random(5)
    async with world(tmp_path) as w:
        fake, users = w.fake, [w.alice, w.bob]
        async with running_bot(w, turn_notify_delay_seconds=0):
            shown = await fake.slash(w.alice, w.channel, "durak", "settings")
            assert shown.content.splitlines()[1] == t("settings.notify_mention")  # the default
            chose = await fake.slash(
                w.alice, w.channel, "durak", "settings", options={"notify": "dm"}
            )
            assert chose.ephemeral and chose.content.splitlines()[1] == t("settings.notify_dm")
            await fake.slash(w.bob, w.channel, "durak", "settings", options={"notify": "off"})
        async with running_bot(w, turn_notify_delay_seconds=0) as bot:  # restarted
            assert await bot.service.storage.user_settings(w.alice) == {"notify": "dm"}
            shown = await fake.slash(w.bob, w.channel, "durak", "settings")
            assert shown.content.splitlines()[1] == t("settings.notify_off")
            table = await open_table(w, bot, users, w.channel)
            for u in users:
                await fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
            alice_bouts: set[int] = set()
            bob_turns = 0
            for _ in range(20):
                await fake.wait_for(lambda: quiet(bot, table, users), 10, what="a quiet table")
                if table.status != "running":
                    break
                need = must_act(table)
                alice, bob = table.seat_of(w.alice), table.seat_of(w.bob)
                live = dms(fake, w.alice)
                bout = table.public_view().bout
                if alice in need and bout not in alice_bouts:
                    alice_bouts.add(bout)
                    assert len(live) == 1 and f"<@{w.alice}>" in live[0].content
                elif alice not in need:
                    assert live == []  # deleted once obsolete
                bob_turns += bob in need
                assert dms(fake, w.bob, deleted=True) == []  # off: nothing, ever
                assert sent_bodies(fake, w.channel) == []  # nobody is mentioned in public
                await act(w, table, rng.choice(movers(table, users)), rng)
            await fake.wait_for(lambda: quiet(bot, table, users), 10, what="a quiet table")
            if table.seat_of(w.alice) in must_act(table):  # the last move made it her turn
                alice_bouts.add(table.public_view().bout)
            assert len(alice_bouts) >= 2 and bob_turns >= 2
            assert len(dms(fake, w.alice, deleted=True)) == len(alice_bouts)


@pytest.mark.slow
async def test_ai_played_seats_are_never_notified(tmp_path: Path) -> None:
    """(f) an AI seat has nobody to notify, and a human seat an AI plays (its owner left, or
    is away) is not notified: its notification is deleted when the AI takes over."""
    rng = random.Random(2)
    async with world(tmp_path) as w:
        fake, users = w.fake, [w.alice, w.bob]
        async with running_bot(w, turn_notify_delay_seconds=0) as bot:
            await fake.slash(w.alice, w.channel, "durak", "new", options={"ai_seats": 1})
            await fake.slash(w.bob, w.channel, "durak", "join")
            await fake.slash(w.alice, w.channel, "durak", "start")
            table = await fake.wait_for(
                lambda: (
                    (tb := bot.service.registry.in_channel(w.channel)) is not None
                    and tb.table_message_id is not None
                    and tb
                )
            )
            for u in users:
                await fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
            left = None
            for _ in range(60):
                await fake.wait_for(lambda: quiet(bot, table, users), 10, what="a quiet table")
                if table.status != "running":
                    break
                need = must_act(table)
                bob = table.seat_of(w.bob)
                if left is None and bob in need:
                    note = notes(fake, w.channel, w.bob)
                    assert len(note) <= 1
                    if note:  # bob is pinged, then leaves: an AI plays his seat
                        await fake.slash(w.bob, w.channel, "durak", "leave")
                        left = note[0]

                        def deleted(gone: FakeMessage = note[0]) -> bool:
                            return fake.message(gone.id).deleted

                        await fake.wait_for(deleted)
                        continue
                active = movers(table, [w.alice] if left else users)
                if not active:
                    continue
                await act(w, table, rng.choice(active), rng)
            assert left is not None, "bob never had to act"
            bob_notes = notes(fake, w.channel, w.bob, deleted=True)
            assert bob_notes == [left]  # nothing after the AI took over
            pinged = {
                int(u["id"])
                for m in fake.store.messages.values()
                if m.channel_id == w.channel
                for u in m.current["mentions"]
            }
            assert pinged <= {w.alice, w.bob}


@pytest.mark.slow  # over a second: out of the quick subset
async def test_answering_within_the_delay_needs_no_ping(tmp_path: Path) -> None:
    """A player who acts within TURN_NOTIFY_DELAY_SECONDS gets nothing; one who does not is
    notified after the delay."""
    async with world(tmp_path) as w, running_bot(w, turn_notify_delay_seconds=1.0) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        need = must_act(table)
        assert list(need.values()) == ["lead"]
        leader = table.seats[next(iter(need))].user_id
        assert leader is not None
        await act(w, table, leader, random.Random(1))  # at once
        defender = table.seats[table.public_view().defender].user_id
        assert defender is not None and must_act(table)
        await fake.wait_for(lambda: notes(fake, w.channel, defender), 5, what="the ping")
        await fake.wait_for(lambda: bot.notifier.alerts.pending == 0)
        assert notes(fake, w.channel, leader, deleted=True) == []
        assert len(notes(fake, w.channel, defender, deleted=True)) == 1


@pytest.mark.slow
async def test_fast_table_stays_within_channel_limits(tmp_path: Path) -> None:
    """(g) four players answering at once at one table, with the fake enforcing per-channel
    limits on edits, creates and deletes: notifications come and go, and Discord never answers
    429 (the limiter paces writes; notifications have their own lane, so table edits do not
    wait for them)."""
    rng = random.Random(9)
    async with world(tmp_path) as w:
        fake = w.fake
        dave = fake.add_user("dave")
        users = [w.alice, w.bob, w.carol, dave]
        # The bot paces 5 writes per 6 intervals (3 s); the fake allows 5 per 2.5 s.
        async with running_bot(
            w, turn_notify_delay_seconds=0, table_edit_interval_seconds=0.5
        ) as bot:
            fake.set_edit_rate_limit(True, limit=5, per=2.5)
            fake.set_message_rate_limit(True, limit=5, per=2.5, delete_limit=5, delete_per=0.5)
            table = await open_table(w, bot, users, w.channel)
            for _ in range(40):
                pinged = sum(len(notes(fake, w.channel, u, deleted=True)) for u in users)
                if table.status != "running" or pinged >= 8:
                    break
                need = must_act(table)
                awaited = [u for s in need if (u := table.seats[s].user_id) is not None]
                if awaited:  # act as soon as the ping is out: a create and a delete per move

                    def ping_seen(a: list[int] = awaited) -> bool:
                        return any(notes(fake, w.channel, u) for u in a) or not (
                            bot.notifier.alerts.pending
                        )

                    await fake.wait_for(
                        ping_seen,
                        10,
                        what="the ping",
                    )
                await act(w, table, rng.choice(awaited or movers(table, users)), rng)
            await fake.wait_for(
                lambda: bot.notifier.alerts.pending == 0 and bot.notifier.idle(), 30
            )
            sent = [m for u in users for m in notes(fake, w.channel, u, deleted=True)]
            assert len(sent) >= 8 and sum(m.deleted for m in sent) >= 7
            # What is still up is exactly what is still awaited.
            need = must_act(table)
            live = {u for u in users if notes(fake, w.channel, u)}
            assert live <= {table.seats[s].user_id for s in need}
        assert fake.rate_limit_count == 0
        assert [r for r in fake.requests if r.status == 429] == []


@pytest.mark.slow
async def test_closed_dms_fail_quietly(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A DM refused with 403 (the user accepts no DMs) is logged at INFO and dropped: no crash,
    no fallback, and the game goes on."""
    caplog.set_level(logging.INFO, logger="bot.delivery.turn_alerts")
    rng = random.Random(4)
    async with world(tmp_path) as w, running_bot(w, turn_notify_delay_seconds=0) as bot:
        fake, users = w.fake, [w.alice, w.bob]
        for u in users:
            fake.close_dms(u)
            await fake.slash(u, w.channel, "durak", "settings", options={"notify": "dm"})
        table = await open_table(w, bot, users, w.channel)
        for u in users:
            await fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
        for _ in range(3):
            await fake.wait_for(lambda: quiet(bot, table, users), 10, what="a quiet table")
            await act(w, table, rng.choice(movers(table, users)), rng)
        await fake.wait_for(lambda: quiet(bot, table, users), 10, what="a quiet table")
        refused = [r for r in fake.requests if r.status == 403]
        assert refused and all(r.path.endswith("/messages") for r in refused)
        assert all(dms(fake, u, deleted=True) == [] for u in users)
        assert sent_bodies(fake, w.channel) == []
        logged = [r for r in caplog.records if r.name == "bot.delivery.turn_alerts"]
        assert logged and all(r.levelno == logging.INFO for r in logged)


async def test_timer_move_retires_the_notification(tmp_path: Path) -> None:
    """When the turn timer plays for a notified player, the notification is obsolete: deleted."""
    clock = Clock()
    async with (
        world(tmp_path) as w,
        bot_with_clock(w, clock, turn_timer_seconds=60, turn_notify_delay_seconds=0) as bot,
    ):
        fake = w.fake
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        (seat,) = must_act(table)
        user = table.seats[seat].user_id
        assert user is not None
        await fake.wait_for(lambda: notes(fake, w.channel, user), what="the ping")
        (note,) = notes(fake, w.channel, user)
        clock.now += 60
        await bot.service.tick()  # the timer leads the lowest card for the player
        assert seat not in must_act(table)
        await fake.wait_for(lambda: fake.message(note.id).deleted, what="the deletion")


@pytest.mark.parametrize(
    ("move", "handed_on"), [("show 6H", True), ("transfer 6H", True), ("take", False)]
)
def test_a_show_hands_the_defence_on_as_a_transfer_does(move: str, handed_on: bool) -> None:
    """V18: after a show the next defender is alerted that the attack was passed to them."""
    g, opened = v18_attacked()
    _, events = g.apply(1, move)
    table = cast(Table, SimpleNamespace(events=[*opened, *events]))
    assert transferred(table) == handed_on
