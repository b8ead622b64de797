"""What a game costs a player at the Discord table: clicks, "Done" clicks, notifications, and the
table's message traffic. Scripted whole games through the fake Discord, every seat a human.

The bot runs in this process against the fake Discord, as in ``tests/bot`` (``world``,
``running_bot``; no turn timer, no AI seats), with its real pacing: the public table message is
edited at most once per ``table_edit_interval_seconds`` (default 1.0 s, as in production).
Tables: 2, 3 and 4 seats × the ``classic`` and ``transfer`` presets, one channel per
configuration, the configurations played at the same time (their games one after another in
their channel, each a new ``/durak new``). Card pictures are off (``--images`` turns them on);
they change no count.

**Fixed deals.** The bot draws each game's seed with ``secrets.randbits(256)`` inside
``Lobby.deal``. The benchmark wraps ``deal`` on its own service's lobby: for the
duration of that (synchronous) call the ``secrets`` name of ``bot.tables.lobby`` is replaced by
a stand-in whose ``randbits`` returns the seed of that game, SHA-256 of
``"<seed>:<seats>:<preset>:<game>"``. Only this process is patched; the bot code is unchanged.

**Players.** Each opens its hand once with the table message's "My hand" button
(``dkt:<table>:hand``) and then clicks only on its own ephemeral hand message. Decisions come
from a fixed policy on the engine's seat view (``table.state.view(seat)``, read in-process for
the decision only):

- leading: the lowest non-trump card (else the lowest card);
- throwing in: the lowest non-trump card of a rank on the table, else "Done";
- defending: with the transfer rule, transfer with the lowest non-trump card when allowed; else
  beat the open attack cards one by one in table order, each with the lowest card that beats it
  (non-trumps before trumps, then by rank; ``--defend-order hardest`` beats the card with the
  fewest answers first instead); if some open card cannot be beaten that way, take.

One seat acts at a time, once the table's lock is free. The defender acts first while it has
something to do, then the attackers clockwise from the main attacker (``--first attackers``:
attackers throw in before the defender answers, so the defender meets several open cards at
once). Players react to their own hand, as people do: the mover waits until its hand offers
the wanted action (the time that takes is ``offer_wait_seconds``), thinks a time drawn from
``--think MIN MAX`` (default 0.5 to 3 s, seeded), and clicks on the hand as it then shows,
which may be older than the table (a hand whose buttons a move did not change is refreshed
only at the bot's idle pace, ``--hand-idle``, 4 s as in production). Hands are not waited for
otherwise; the public message is not waited for at all.

**Clicks.** The wanted action is found on the hand generically, so the same script measures
today's hand and a redesigned one: a button ``dk:<table>:<seat>:<version>:<code>`` (``code`` =
the engine action code) or a select option with that value is one click; when a Defend is not
shown because another attack card is aimed at, the aim button ``dk:…:a<card>`` is clicked first
(two clicks); when the policy passes and the hand has a "Done for this bout" toggle (custom id
ending ``:p1``), that is clicked instead of Done, once per bout (the table then passes for the
player after each new card).

**Figures** (each is a sum over games divided by a sum over games):

- ``clicks_per_beaten_card``: the defender's clicks for Defend actions (aim clicks included) /
  cards beaten (Defend actions applied). Transfers and takes are counted apart
  (``defender_clicks_per_beaten_card`` adds them to the numerator).
- ``done_clicks_per_attacker_bout``: clicks on Done or on the ``:p1`` toggle / the number of
  (attacker seat, bout) pairs in which that seat, not defending, could pass at some quiet moment
  of the bout (Done among its legal actions, or a ``:p1`` toggle on its hand).
  ``done_clicks_per_passing_attacker_bout`` divides by the pairs with at least one such click
  instead (1.0 = nobody had to say "Done" twice in a bout).
- ``notifications_per_player_bout``: a notification is a new bot message in the table's channel
  whose content contains ``<@USER_ID>``, or any new bot message in that user's DM channel. A
  notification belongs to the bout in progress once the click that caused it was applied (the
  bout a bout-ending click opens). ``mean``: notifications / (seats × bouts); ``max``: the most
  one player got in one bout. The bot's grace delay is ``--notify-delay`` (default 0.2 s, under
  the think time), so every lead and defence that waits for its player is notified: the worst
  case for "at most one per player per bout".
- ``refused_offered_clicks``: clicks on an action the hand offered, legal when clicked, that
  the bot refused (goal 0: docs/bot.md, "Clicks on an older hand"; a Take refused because more
  cards were thrown in than its hand showed is counted apart, ``take_grew_refusals``; one seat
  acting at a time, it cannot happen here). ``refused_clicks`` counts every refused click.
- ``offer_wait_seconds``: from the moment a seat is to act until its hand offers the action
  (p50, p90, max), and ``late_offers``, how many of those waits exceeded 1 s (a hand behind).
- ``messages_per_table_minute``: new bot messages and edits of bot messages in the table's
  channel (ephemeral hands are not channel messages) from ``/durak start`` until the channel is
  quiet after the game, per minute from ``/durak start`` to the last action.

    python -m benchmarks.table_clicks [--games 4] [--quick] [--json] [--think 0.5 3] [--seed 1]

(from the repository root: it drives the bot with ``tests``' fake Discord). Human-readable lines
and, on a terminal, a progress bar go to stderr; the JSON is the last line of stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
import random
import statistics
import sys
import tempfile
import time
import types
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AsyncExitStack, contextmanager
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any
from unittest import mock

import bot.tables.lobby as lobby_module
from bot.app import DurakBot
from bot.cli.progress import add_progress_flag, progress_bar, say, show_progress
from bot.cogs.guild_settings import save_images_setting
from bot.delivery.turn_alerts import must_act
from bot.tables.table import Table
from bot.text import t
from durak_core import Action, Card, SeatView
from durak_core.actions import ATTACK, DEFEND, PASS, TAKE, TRANSFER, Attack, Defend, Transfer
from durak_core.events import ActionTaken, BoutEnded
from durak_core.move_kinds import move_kind
from tests.bot.helpers import World, running_bot, world
from tests.fake_discord import FakeDiscord, FakeMessage

SEATS = (2, 3, 4)
PRESETS = ("classic", "transfer")
MAX_ACTIONS = 1500  # per game: a policy loop would otherwise never end
QUIET_TIMEOUT = 30.0
#: Edit intervals without a channel change after the game: its last coalesced edit has landed.
CHANNEL_QUIET_INTERVALS = 2.5
TOGGLE_ON, TOGGLE_OFF = ":p1", ":p0"
#: What tells a "lead" notification from a "defend" one (the tables speak English).
LEAD_WORDS = t("turn.lead", "en", user="", link="").strip(" ,.")
#: What starts the answer to a Take on more cards than its hand showed.
TAKE_GREW_WORDS = t("err.take_grew", "en", more=1, n=2).split(",")[0]
#: A hand "behind": its action offered more than this long after the seat was to act.
LATE_OFFER_SECONDS = 1.0


# -- the policy --------------------------------------------------------------------------------


def _is_trump(card: Card, trump: object) -> bool:
    return trump is not None and card.suit == trump


def low_key(card: Card, trump: object) -> tuple[bool, int, int]:
    """ "Lowest" card: non-trumps before trumps, then by rank (ties by suit, for a fixed order)."""
    return (_is_trump(card, trump), card.rank, -1 if card.suit is None else int(card.suit))


def choose(view: SeatView, *, defend_order: str = "table") -> Action | None:
    """The fixed policy's action for this seat now, or None (nothing to do)."""
    legal = view.legal_actions
    if not legal:
        return None
    trump = view.trump
    kinds = {a.kind for a in legal}
    if view.seat == view.defender and (DEFEND in kinds or TRANSFER in kinds or TAKE in kinds):
        transfers = [a for a in legal if isinstance(a, Transfer)]
        plain = [a for a in transfers if not _is_trump(a.card, trump)]
        if plain:
            return min(plain, key=lambda a: low_key(a.card, trump))
        plan = defence_plan(view, defend_order)
        if plan is not None:
            return plan
        return next((a for a in legal if a.kind == TAKE), None)
    attacks = [a for a in legal if isinstance(a, Attack)]
    if attacks and not view.table:  # leading
        return min(attacks, key=lambda a: low_key(a.card, trump))
    plain_attacks = [a for a in attacks if not _is_trump(a.card, trump)]
    if plain_attacks:  # throwing in
        return min(plain_attacks, key=lambda a: low_key(a.card, trump))
    return next((a for a in legal if a.kind == PASS), None)


def defence_plan(view: SeatView, order: str) -> Action | None:
    """The next Defend of a greedy plan that beats every open card, or None if it fails."""
    defends = [a for a in view.legal_actions if isinstance(a, Defend)]
    open_cards = [att for att, d in view.table if d is None]
    if not open_cards or not defends:
        return None
    answers = {att: [d.card for d in defends if d.attack == att] for att in open_cards}
    if order == "hardest":
        open_cards.sort(key=lambda att: len(answers[att]))
    used: set[Card] = set()
    first: Action | None = None
    for att in open_cards:
        free = [c for c in answers[att] if c not in used]
        if not free:
            return None
        card = min(free, key=lambda c: low_key(c, view.trump))
        used.add(card)
        if first is None:
            first = next(d for d in defends if d.attack == att and d.card == card)
    return first


# -- one game ----------------------------------------------------------------------------------


@dataclass
class GameCounts:
    """What one game cost; every figure of the report is a sum of these over games."""

    config: str
    seats: int
    clicks: Counter[str] = field(default_factory=Counter)
    beaten: int = 0
    bouts: int = 0
    eligible: set[tuple[int, int]] = field(default_factory=set)  # (seat, bout) could pass
    passed: set[tuple[int, int]] = field(default_factory=set)  # (seat, bout) clicked Done
    notifications: Counter[tuple[int, int]] = field(default_factory=Counter)  # (user, bout)
    creates: int = 0
    edits: int = 0
    seconds: float = 0.0
    finished: bool = False
    refused: int = 0
    refused_offered: int = 0
    take_grew: int = 0
    offer_waits: list[float] = field(default_factory=list)


@dataclass
class Seating:
    channel: int
    users: list[int]
    preset: str


def _seed(base: int, seats: int, preset: str, game: int) -> int:
    digest = hashlib.sha256(f"{base}:{seats}:{preset}:{game}".encode()).digest()
    return int.from_bytes(digest, "big")


@contextmanager
def fixed_deals(bot: DurakBot, seeds: dict[int, int]) -> Iterator[None]:
    """Deal each table the seed ``seeds[channel]`` instead of a fresh ``secrets.randbits``."""
    lobby = bot.service.lobby
    deal: Callable[[Table], None] = lobby.deal

    def seeded(table: Table) -> None:
        stand_in = types.SimpleNamespace(randbits=lambda _bits: seeds[table.channel_id])
        with mock.patch.object(lobby_module, "secrets", stand_in):
            deal(table)

    lobby.deal = seeded  # type: ignore[method-assign]
    try:
        yield
    finally:
        del lobby.deal


def hand_message(fake: FakeDiscord, user: int, table_id: str) -> FakeMessage | None:
    """The user's hand message at this table (the newest ephemeral carrying its components)."""
    marks = (f"dk:{table_id}:", f"dks:{table_id}:")
    for m in reversed(fake.ephemeral_messages(user)):
        ids = [b.custom_id or "" for b in m.buttons] + [s["custom_id"] for s in m.selects]
        if any(i.startswith(marks) for i in ids):
            return m
    return None


def _enabled(msg: FakeMessage) -> list[str]:
    return [b.custom_id for b in msg.buttons if b.custom_id and not b.disabled]


def find_code(msg: FakeMessage, code: int) -> tuple[str, str | None] | None:
    """(custom id, select value or None) of the control performing action ``code``, if shown."""
    for cid in _enabled(msg):
        if cid.startswith("dk:") and cid.rsplit(":", 1)[1] == str(code):
            return cid, None
    for sel in msg.selects:
        for opt in sel.get("options", []):
            if opt.get("value") == str(code):
                return str(sel["custom_id"]), str(code)
    return None


def bot_messages(fake: FakeDiscord, channel: int) -> list[FakeMessage]:
    bot_id = fake.bot_user_id
    return [
        m
        for m in fake.store.messages.values()
        if m.channel_id == channel and m.visible_to is None and m.author_id == bot_id
    ]


def channel_versions(fake: FakeDiscord, channel: int) -> int:
    return sum(len(m.versions) for m in bot_messages(fake, channel))


def newest_id(fake: FakeDiscord) -> int:
    return max(fake.store.messages, default=0)


class Game:
    def __init__(
        self,
        fake: FakeDiscord,
        bot: DurakBot,
        seating: Seating,
        counts: GameCounts,
        *,
        think: tuple[float, float],
        defend_order: str,
        first: str = "defender",
        rng: random.Random | None = None,
    ) -> None:
        self.fake, self.bot, self.s, self.c = fake, bot, seating, counts
        self.think, self.defend_order, self.first = think, defend_order, first
        self.rng = rng or random.Random(0)
        self.table: Table | None = None
        self.toggled: set[tuple[int, int]] = set()  # (seat, bout) with "Done for this bout" on
        self.bout_starts: list[tuple[int, int]] = []  # (bout, newest message id before it)
        #: When each seat's turn to lead or to defend began: (seat, role, bout, newest message
        #: id before the click that began it). A notification is counted in the bout of the
        #: turn it announces (its words say which), also when the send, under way as the player
        #: acted, lands after the bout ended (the bot deletes it at once then).
        self.turns: list[tuple[int, str, int, int]] = []

    @property
    def t(self) -> Table:
        assert self.table is not None
        return self.table

    def pause(self) -> float:
        """A player's reaction time before a click."""
        return self.rng.uniform(*self.think)

    async def click(self, user: int, msg: FakeMessage, cid: str, value: str | None) -> None:
        await asyncio.sleep(self.pause())
        if value is None:
            await self.fake.click(user, msg, cid, timeout=QUIET_TIMEOUT)
        else:
            await self.fake.select(user, msg, cid, [value], timeout=QUIET_TIMEOUT)

    async def act_click(self, seat: int, action: Action, msg: FakeMessage, cid: str,
                        value: str | None) -> None:  # fmt: skip
        """A click meant to change the table, at once: counted as refused when nothing changed,
        and as a refused offered click when its action was legal as it went."""
        table, user = self.t, self.s.users[seat]
        assert table.state is not None
        version, legal = table.version, table.state.can(seat, action)
        if value is None:
            answer = await self.fake.click(user, msg, cid, timeout=QUIET_TIMEOUT)
        else:
            answer = await self.fake.select(user, msg, cid, [value], timeout=QUIET_TIMEOUT)
        if table.version != version:
            return
        self.c.refused += 1
        if legal and action.kind == TAKE and TAKE_GREW_WORDS in (answer.content or ""):
            self.c.take_grew += 1
        elif legal:
            self.c.refused_offered += 1

    async def offered(self, seat: int, action: Action, toggle: bool) -> FakeMessage:
        """The seat's hand once it offers ``action`` (or, for a pass, the "Done for this bout"
        toggle; for a defence, the aim at its card): how long that took is recorded."""
        user, table_id, start = self.s.users[seat], self.t.table_id, time.monotonic()
        aim = f":a{action.attack.index}" if isinstance(action, Defend) else None

        def look() -> FakeMessage | None:
            hand = hand_message(self.fake, user, table_id)
            if hand is None:
                return None
            ids = _enabled(hand)
            if find_code(hand, action.code) is not None:
                return hand
            if action.kind == PASS and toggle and any(i.endswith(TOGGLE_ON) for i in ids):
                return hand
            if aim is not None and any(i.endswith(aim) for i in ids):
                return hand
            return None

        hand = await self.fake.wait_for(look, QUIET_TIMEOUT, what=f"seat {seat} offered {action}")
        self.c.offer_waits.append(time.monotonic() - start)
        return hand

    def quiet(self) -> bool:
        table = self.t
        if table.lock.locked():
            return False
        if table.status != "running":
            return True
        links = self.bot.notifier.links
        for user in self.s.users:
            link = links.get((table.table_id, user))
            if link is None or link.shown_version != table.version:
                return False
        return True

    async def settle(self) -> None:
        await self.fake.wait_for(self.quiet, QUIET_TIMEOUT, what="the table to settle")

    async def unlocked(self) -> None:
        """The last click is through: the next mover may look at its hand."""
        await self.fake.wait_for(
            lambda: not self.t.lock.locked(), QUIET_TIMEOUT, what="the table's lock"
        )

    async def play(self) -> None:
        fake, s = self.fake, self.s
        host = s.users[0]
        await fake.slash(
            host, s.channel, "durak", "new", options={"preset": s.preset, "seats": len(s.users)}
        )
        for u in s.users[1:]:
            await fake.slash(u, s.channel, "durak", "join")
        table = self.bot.service.registry.in_channel(s.channel)
        assert table is not None
        self.table = table
        versions0, ids0 = channel_versions(fake, s.channel), newest_id(fake)
        msgs0 = len(bot_messages(fake, s.channel))
        start = time.monotonic()
        await fake.slash(host, s.channel, "durak", "start")
        await fake.wait_for(lambda: table.table_message_id is not None, QUIET_TIMEOUT)
        assert table.state is not None and table.table_message_id is not None
        self.bout_starts.append((table.state.bout, ids0))
        self.note_turns(ids0)
        public = fake.message(table.table_message_id)

        async def open_hand(user: int) -> None:
            await asyncio.sleep(self.pause())
            await fake.click(user, public, f"dkt:{table.table_id}:hand", timeout=QUIET_TIMEOUT)
            self.c.clicks["all.hand_open"] += 1

        await asyncio.gather(*(open_hand(u) for u in s.users))
        await self.settle()
        for _ in range(MAX_ACTIONS):
            await self.unlocked()
            if table.status != "running" or table.state is None or table.state.finished:
                break
            await self.step()
        else:
            raise RuntimeError(f"{self.c.config}: no end after {MAX_ACTIONS} actions")
        self.c.seconds = time.monotonic() - start
        await self.settle()
        self.c.finished = table.state is not None and table.state.finished
        # The last coalesced public edit lands up to one interval later.
        last = (-1, time.monotonic())
        quiet = max(0.3, CHANNEL_QUIET_INTERVALS * self.bot.settings.table_edit_interval_seconds)
        while time.monotonic() - last[1] < quiet:
            now = channel_versions(fake, s.channel)
            if now != last[0]:
                last = (now, time.monotonic())
            await asyncio.sleep(0.1)
        msgs = bot_messages(fake, s.channel)
        self.c.creates = len(msgs) - msgs0
        self.c.edits = channel_versions(fake, s.channel) - versions0 - self.c.creates
        self.count_game(ids0)

    def observe(self) -> None:
        """At a quiet moment: which non-defending seats could say "Done" in this bout."""
        state = self.t.state
        assert state is not None
        for seat, user in enumerate(self.s.users):
            v = state.view(seat)
            if seat == v.defender:
                continue
            can = any(a.kind == PASS for a in v.legal_actions)
            if not can:
                hand = hand_message(self.fake, user, self.t.table_id)
                can = hand is not None and any(i.endswith(TOGGLE_ON) for i in _enabled(hand))
            if can:
                self.c.eligible.add((seat, v.bout))

    def movers(self) -> list[int]:
        state = self.t.state
        assert state is not None
        n = len(self.s.users)
        d = state.defender
        attackers = [(state.attacker + k) % n for k in range(n) if (state.attacker + k) % n != d]
        order = [*attackers, d] if self.first == "attackers" else [d, *attackers]
        return [seat for seat in order if state.view(seat).legal_actions]

    async def step(self) -> None:
        table = self.t
        state = table.state
        assert state is not None
        self.observe()
        for seat in self.movers():
            v = state.view(seat)
            if (seat, v.bout) in self.toggled:
                continue  # "Done for this bout" is on: the table passes for this player
            action = choose(v, defend_order=self.defend_order)
            if action is not None:
                await self.perform(seat, v, action)
                return
        # Nobody the policy moves: a toggled seat must still pass by hand (the toggle did not).
        for seat in self.movers():
            v = state.view(seat)
            action = choose(v, defend_order=self.defend_order)
            if action is not None and action.kind == PASS:
                await self.perform(seat, v, action, toggle=False)
                return
        raise RuntimeError(f"{self.c.config}: the policy has no move at version {table.version}")

    async def perform(self, seat: int, v: SeatView, action: Action, *, toggle: bool = True) -> None:
        user = self.s.users[seat]
        role = "defender" if seat == v.defender else "attacker"
        kind = move_kind(action).verb  # an attack counts as a lead or a throw-in
        if action.kind == ATTACK:
            kind = "lead" if not v.table else "throw_in"
        await self.offered(seat, action, toggle)
        await asyncio.sleep(self.pause())  # reading the hand, which may change meanwhile
        hand = hand_message(self.fake, user, self.t.table_id)  # as shown when the click goes
        assert hand is not None
        bout_before, newest = v.bout, newest_id(self.fake)
        if action.kind == PASS and toggle:
            toggles = [i for i in _enabled(hand) if i.endswith(TOGGLE_ON)]
            if toggles:
                await self.act_click(seat, action, hand, toggles[0], None)
                self.c.clicks[f"{role}.pass"] += 1
                self.c.passed.add((seat, v.bout))
                self.toggled.add((seat, v.bout))
                self.after(bout_before, newest)
                return
        found = find_code(hand, action.code)
        if found is None and isinstance(action, Defend):
            aim = f":a{action.attack.index}"
            aims = [i for i in _enabled(hand) if i.endswith(aim)]
            if aims:
                await self.click(user, hand, aims[0], None)
                self.c.clicks[f"{role}.defend"] += 1
                self.c.clicks[f"{role}.aim"] += 1
                hand = self.fake.message(hand.id)
                found = find_code(hand, action.code)
        if found is None:  # gone from the hand while the player read it: decide again
            return
        await self.act_click(seat, action, hand, *found)
        self.c.clicks[f"{role}.{kind}"] += 1
        if action.kind == PASS:
            self.c.passed.add((seat, v.bout))
        self.after(bout_before, newest)

    def after(self, bout_before: int, newest: int) -> None:
        """Remember where a new bout began (in message ids), once the click was applied."""
        state = self.t.state
        if state is not None and state.bout != bout_before:
            self.bout_starts.append((state.bout, newest))
        self.note_turns(newest)

    def note_turns(self, newest: int) -> None:
        """Record a seat's turn to lead or to defend that the last click began, as the bot's
        notifier judges it (``turn_alerts.must_act``: every seat here is a human)."""
        if self.t.state is None:
            return
        bout = self.t.state.bout
        for seat, role in must_act(self.t).items():
            last = next((x for x in reversed(self.turns) if x[0] == seat), None)
            if last is None or (last[1], last[2]) != (role, bout):
                self.turns.append((seat, role, bout, newest))

    def count_game(self, ids0: int) -> None:
        table, fake, c = self.t, self.fake, self.c
        c.beaten = sum(
            1 for e in table.events if isinstance(e, ActionTaken) and e.action.kind == DEFEND
        )
        c.bouts = sum(1 for e in table.events if isinstance(e, BoutEnded))
        dms = {
            ch.id: ch.recipient_ids[0]
            for ch in fake.store.channels.values()
            if ch.type == 1 and ch.recipient_ids
        }
        mention = {u: f"<@{u}>" for u in self.s.users}
        for m in fake.store.messages.values():
            if m.id <= ids0 or m.author_id != fake.bot_user_id:
                continue
            if m.channel_id == self.s.channel and m.visible_to is None:
                text = str(m.versions[0].get("content") or "")
                users = [u for u, tag in mention.items() if tag in text]
            elif dms.get(m.channel_id) in self.s.users:
                users = [dms[m.channel_id]]
                text = str(m.versions[0].get("content") or "")
            else:
                continue
            role = "lead" if LEAD_WORDS in text else "defend"
            for u in users:
                seat = self.s.users.index(u)
                began = [x for x in self.turns if x[:2] == (seat, role) and x[3] < m.id]
                bout = (
                    began[-1][2]
                    if began
                    else max(b for b, start in self.bout_starts if start < m.id)
                )
                c.notifications[(u, bout)] += 1


# -- the report --------------------------------------------------------------------------------


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def summarize(games: list[GameCounts]) -> dict[str, Any]:
    clicks: Counter[str] = Counter()
    for g in games:
        clicks.update(g.clicks)
    beaten = sum(g.beaten for g in games)
    bouts = sum(g.bouts for g in games)
    eligible = sum(len(g.eligible) for g in games)
    passing = sum(len(g.passed) for g in games)
    player_bouts = sum(g.seats * g.bouts for g in games)
    notes = sum(sum(g.notifications.values()) for g in games)
    minutes = sum(g.seconds for g in games) / 60
    creates = sum(g.creates for g in games)
    edits = sum(g.edits for g in games)
    waits = sorted(w for g in games for w in g.offer_waits)
    defend = clicks["defender.defend"]
    defender_all = defend + clicks["defender.take"] + clicks["defender.transfer"]
    total = sum(clicks.values())
    return {
        "games": len(games),
        "finished": sum(g.finished for g in games),
        "clicks_per_beaten_card": _ratio(defend, beaten),
        "defender_clicks_per_beaten_card": _ratio(defender_all, beaten),
        "done_clicks_per_attacker_bout": _ratio(clicks["attacker.pass"], eligible),
        "done_clicks_per_passing_attacker_bout": _ratio(clicks["attacker.pass"], passing),
        "notifications_per_player_bout": {
            "mean": _ratio(notes, player_bouts),
            "max": max((n for g in games for n in g.notifications.values()), default=0),
        },
        "messages_per_table_minute": {
            "creates": _ratio(creates, minutes),
            "edits": _ratio(edits, minutes),
            "total": _ratio(creates + edits, minutes),
        },
        "refused_offered_clicks": sum(g.refused_offered for g in games),
        "take_grew_refusals": sum(g.take_grew for g in games),
        "refused_clicks": sum(g.refused for g in games),
        "offer_wait_seconds": {
            "p50": round(statistics.median(waits), 3) if waits else None,
            "p90": round(waits[int(0.9 * (len(waits) - 1))], 3) if waits else None,
            "max": round(waits[-1], 3) if waits else None,
        },
        "late_offers": sum(w > LATE_OFFER_SECONDS for w in waits),
        "clicks_per_game": _ratio(total, len(games)),
        "minutes_per_game": _ratio(minutes, len(games)),
        "roles": {
            "defender": {
                "defend_clicks": defend,
                "aim_clicks": clicks["defender.aim"],
                "beaten_cards": beaten,
                "take_clicks": clicks["defender.take"],
                "transfer_clicks": clicks["defender.transfer"],
            },
            "attacker": {
                "lead_clicks": clicks["attacker.lead"],
                "throw_in_clicks": clicks["attacker.throw_in"],
                "done_clicks": clicks["attacker.pass"],
                "attacker_bouts_could_pass": eligible,
                "attacker_bouts_said_done": passing,
            },
            "all": {
                "hand_open_clicks": clicks["all.hand_open"],
                "clicks": total,
                "bouts": bouts,
                "player_bouts": player_bouts,
                "notifications": notes,
                "channel_creates": creates,
                "channel_edits": edits,
                "minutes": round(minutes, 3),
            },
        },
    }


@dataclass(frozen=True)
class Options:
    """What a run plays and how; named as the report and the command line name them (the
    flags' defaults are these)."""

    games_per_config: int = 4
    seats: Sequence[int] = SEATS
    presets: Sequence[str] = PRESETS
    seed: int = 1
    #: A player's reaction time before each click, drawn uniformly from this range.
    think_seconds: tuple[float, float] = (0.5, 3.0)
    #: The bot's HAND_IDLE_REFRESH_SECONDS (production's default).
    hand_idle_refresh_seconds: float = 4.0
    table_edit_interval_seconds: float = 1.0
    turn_notify_delay_seconds: float = 0.2
    images: bool = False
    defend_order: str = "table"
    first: str = "defender"


async def run(options: Options, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play ``games_per_config`` games of every (seats, preset) configuration; the report as
    a dict."""
    o = options
    configs = [(n, p) for n in o.seats for p in o.presets]
    results: dict[str, list[GameCounts]] = {f"{n}-{p}": [] for n, p in configs}
    wall = time.monotonic()
    async with AsyncExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        w: World = await stack.enter_async_context(world(tmp))
        fake = w.fake
        seatings = {
            f"{n}-{p}": Seating(
                fake.add_channel(w.guild, f"t{n}-{p}"),
                [fake.add_user(f"p{n}{p[0]}{i}") for i in range(n)],
                p,
            )
            for n, p in configs
        }
        bot = await stack.enter_async_context(
            running_bot(
                w,
                turn_timer_seconds=0,
                table_edit_interval_seconds=o.table_edit_interval_seconds,
                turn_notify_delay_seconds=o.turn_notify_delay_seconds,
                hand_idle_refresh_seconds=o.hand_idle_refresh_seconds,
                abandon_after_minutes=60,
            )
        )
        await save_images_setting(bot, w.guild, o.images)
        seeds: dict[int, int] = {}
        stack.enter_context(fixed_deals(bot, seeds))

        async def play_config(name: str) -> None:
            s = seatings[name]
            n, preset = len(s.users), s.preset
            for g in range(o.games_per_config):
                seeds[s.channel] = _seed(o.seed, n, preset, g)
                counts = GameCounts(name, n)
                game = Game(
                    fake,
                    bot,
                    s,
                    counts,
                    think=o.think_seconds,
                    defend_order=o.defend_order,
                    first=o.first,
                    rng=random.Random(_seed(o.seed, n, preset, g)),
                )
                await game.play()
                results[name].append(counts)
                if log is not None:
                    one = summarize([counts])
                    log(
                        f"{name} game {g + 1}/{o.games_per_config}: {counts.bouts} bouts, "
                        f"{sum(counts.clicks.values())} clicks, "
                        f"{one['clicks_per_beaten_card']} clicks/beaten card, "
                        f"{one['done_clicks_per_attacker_bout']} Done/attacker-bout, "
                        f"{one['messages_per_table_minute']['total']} msgs/min, "
                        f"{counts.seconds:.1f} s"
                    )

        await asyncio.gather(*(play_config(name) for name in results))
    every = [g for gs in results.values() for g in gs]
    return {
        "benchmark": "table_clicks",
        "games": len(every),
        **asdict(o),
        "wall_seconds": round(time.monotonic() - wall, 1),
        "overall": summarize(every),
        "configs": {name: summarize(gs) for name, gs in results.items()},
    }


def check(report: dict[str, Any]) -> None:
    """Every figure finite, every game finished (a sanity check the test shares)."""

    def walk(x: object) -> Iterator[float]:
        if isinstance(x, dict):
            for v in x.values():
                yield from walk(v)
        elif isinstance(x, int | float) and not isinstance(x, bool):
            yield float(x)

    assert all(math.isfinite(v) for v in walk(report)), report
    assert report["overall"]["finished"] == report["games"], report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.set_defaults(**asdict(Options()))
    ap.add_argument(
        "--games", type=int, dest="games_per_config", metavar="N", help="games per configuration"
    )
    ap.add_argument("--quick", action="store_true", help="1 game per configuration")
    ap.add_argument("--json", action="store_true", help="print only the JSON")
    ap.add_argument(
        "--think",
        type=float,
        nargs=2,
        dest="think_seconds",
        metavar=("MIN", "MAX"),
        help="a player's seconds before each click, drawn from this range",
    )
    ap.add_argument(
        "--hand-idle",
        type=float,
        dest="hand_idle_refresh_seconds",
        metavar="S",
        help="the bot's HAND_IDLE_REFRESH_SECONDS",
    )
    ap.add_argument("--seed", type=int)
    ap.add_argument("--edit-interval", type=float, dest="table_edit_interval_seconds", metavar="S")
    ap.add_argument(
        "--notify-delay",
        type=float,
        dest="turn_notify_delay_seconds",
        metavar="S",
        help="the bot's TURN_NOTIFY_DELAY_SECONDS; below --think, so every lead and defence "
        "that waits for a player is notified (the worst case for the one-per-bout bound)",
    )
    ap.add_argument("--images", action="store_true", help="card pictures on")
    ap.add_argument("--defend-order", choices=("table", "hardest"))
    ap.add_argument("--first", choices=("defender", "attackers"))
    ap.add_argument("--seats", type=int, nargs="+")
    ap.add_argument("--presets", nargs="+")
    add_progress_flag(ap)
    args = ap.parse_args()
    if args.quick:
        args.games_per_config = 1
    args.think_seconds = tuple(args.think_seconds)
    options = Options(**{f.name: getattr(args, f.name) for f in fields(Options)})
    bar = progress_bar(
        len(options.seats) * len(options.presets) * options.games_per_config,
        desc="games",
        unit="game",
        enabled=show_progress(args.progress, json_output=args.json),
    )

    def log(line: str) -> None:
        if not args.json:
            say(line, file=sys.stderr)

    def game_done(line: str) -> None:
        log(line)
        bar.update()

    with bar:
        report = asyncio.run(run(options, log=game_done))
    check(report)
    for name, r in report["configs"].items():
        log(
            f"{name}: {r['games']} games, clicks/beaten card {r['clicks_per_beaten_card']}, "
            f"Done/attacker-bout {r['done_clicks_per_attacker_bout']}, notifications/player-bout "
            f"{r['notifications_per_player_bout']['mean']}, msgs/table-min "
            f"{r['messages_per_table_minute']['total']}, refused offered clicks "
            f"{r['refused_offered_clicks']}, late offers {r['late_offers']}"
        )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
