"""Pacing: the process's budget of table pictures (at most ``rate`` a second, bursts of one
second's worth, waits spread so waiting tables do not return together), and the per-channel
write windows that count a write from its completion, the process's budget of requests
(Discord's global rate limit), and the hands' pace: a hand whose
buttons stay the same is refreshed at most every ``HAND_IDLE_REFRESH_SECONDS``."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import random
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.pacing.channel_limits import ChannelLimiter, DrawBudget, GlobalLimitWatch, RequestBudget
from bot.pacing.coalescer import Coalescer
from bot.tables.table import Table
from tests.bot.helpers import World, running_bot, table_of, world


def test_at_most_rate_pictures_a_second() -> None:
    now = [100.0]
    budget = DrawBudget(10, clock=lambda: now[0])
    drawn = 0
    waits: list[float] = []
    for _ in range(300):  # 300 requests over 3 s
        wait = budget.take()
        if wait == 0:
            drawn += 1
        else:
            waits.append(wait)
        now[0] += 0.01
    assert 10 + 30 - 1 <= drawn <= 10 + 30 + 1  # the first second's burst, then 10 a second
    assert all(0 < w <= 0.1 + 1.0 for w in waits)
    assert len({round(w, 3) for w in waits}) > len(waits) // 2  # spread, not one instant


def test_no_bound_when_the_rate_is_zero() -> None:
    budget = DrawBudget(0, clock=lambda: 0.0)
    assert all(budget.take() == 0 for _ in range(1000))


@pytest.mark.slow
async def test_a_write_counts_from_its_completion() -> None:
    """Five writes in flight fill the window; the sixth waits until the window has passed
    since the first one *completed* (a late request is never bunched with the next ones)."""
    limits = ChannelLimiter(interval=0.5)  # 5 writes per 3 s
    loop = asyncio.get_running_loop()
    release = asyncio.Event()
    finished: list[float] = []

    async def slow_write() -> None:
        async with limits.write(1):
            await release.wait()
        finished.append(loop.time())

    writers = [asyncio.create_task(slow_write()) for _ in range(5)]
    await asyncio.sleep(0.2)
    release.set()  # all five complete 0.2 s after they were allowed
    await asyncio.gather(*writers)
    start = loop.time()
    async with limits.write(1):
        allowed = loop.time()
    assert allowed - min(finished) >= 3.0 - 0.05 and allowed - start >= 2.7
    async with limits.write(2):  # another channel is not held up
        assert loop.time() - allowed < 0.1


@pytest.mark.slow  # over a second: out of the quick subset
async def test_lazy_marks_collapse_and_an_urgent_one_cuts_the_wait() -> None:
    """Changes nobody must answer wait for the lazy pace and go out as one flush; a change
    that must be seen at once ends that wait."""
    flushes: list[float] = []
    loop = asyncio.get_running_loop()

    async def flush() -> None:
        flushes.append(loop.time())

    pacer = Coalescer(flush, 0, "test", lazy_interval=0.6)
    start = loop.time()
    pacer.mark()  # the first change: at once
    await asyncio.sleep(0.05)
    for _ in range(5):  # five lazy changes within the lazy interval: one flush, after it
        pacer.mark(lazy=True)
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.8)
    assert len(flushes) == 2
    assert flushes[1] - flushes[0] >= 0.6 - 0.01
    pacer.mark(lazy=True)
    await asyncio.sleep(0.1)
    assert len(flushes) == 2  # still waiting for the lazy pace
    urgent = loop.time()
    pacer.mark()  # urgent: no more waiting (the lazy pace would end at flushes[1] + 0.6)
    await asyncio.sleep(0.05)
    assert len(flushes) == 3 and flushes[2] - urgent < 0.04
    assert flushes[2] < flushes[1] + 0.6
    assert flushes[0] - start < 0.05
    await pacer.close()


def test_the_request_budget_spaces_requests_in_the_order_asked() -> None:
    """Discord's global limit: a burst goes at once, then one request per ``1 / rate`` s in
    the order asked, so no second ever holds more than ``rate + burst - 1`` starts."""
    now = [10.0]
    budget = RequestBudget(20, burst=5, clock=lambda: now[0])
    starts = [now[0] + budget.reserve() for _ in range(100)]  # 100 asked at one instant
    assert starts[:5] == [10.0] * 5
    assert starts == sorted(starts)
    gaps = {round(b - a, 9) for a, b in itertools.pairwise(starts[4:])}
    assert gaps == {0.05}
    for first in starts:  # every one-second window from any start
        assert sum(first <= s < first + 1 for s in starts) <= 20 + 5 - 1
    now[0] = 100.0  # idle again: a new burst
    assert [round(budget.reserve(), 9) for _ in range(6)] == [0.0] * 5 + [0.05]
    assert RequestBudget(0).reserve() == 0.0  # no bound


def test_a_late_loop_never_starts_more_than_rate_requests_in_a_second() -> None:
    """A loop that wakes every waiting request a second late (a CPU-bound moment) would start
    all their slots at once, and the ones due next right after: the starts themselves stay
    within ``rate`` in any second, whatever the slots said."""
    now = [10.0]
    budget = RequestBudget(20, burst=5, clock=lambda: now[0])
    slots = [now[0] + budget.reserve() for _ in range(60)]  # three seconds' worth, asked at once
    now[0] = 11.5  # the loop wakes them only now: 35 slots are due at once
    started: list[float] = []
    pending = list(slots)
    while pending:
        due = [s for s in pending if s <= now[0]]
        for slot in due:
            if budget.start_wait() == 0.0:
                started.append(now[0])
                pending.remove(slot)
        now[0] += 0.01
    assert len(started) == 60
    for first in started:  # every one-second window from any start
        assert sum(first <= s < first + 1 for s in started) <= 20
    assert RequestBudget(0).start_wait() == 0.0  # no bound


@pytest.mark.slow
async def test_writes_whose_pictures_finish_together_still_leave_at_rate() -> None:
    """Table edits draw their picture inside the write (in a worker thread, queued behind
    others under load), and their pictures may all come out at once: started on entry or
    right before the request (``start_in_block``), they still leave at most ``rate`` a
    second."""
    rate = 20
    limits = ChannelLimiter(interval=0.0, budget=RequestBudget(rate, burst=1))
    loop = asyncio.get_running_loop()
    pictures = asyncio.Event()
    sent: list[float] = []

    async def table_edit(channel: int, *, start_in_block: bool) -> None:
        async with limits.write(channel, start_in_block=start_in_block) as slot:
            await pictures.wait()  # every picture comes out of the thread pool at once
            await slot.start()  # where the refresher starts its request (no-op if started)
            sent.append(loop.time())

    for start_in_block in (False, True):
        sent.clear()
        pictures.clear()
        edits = [
            asyncio.create_task(table_edit(c, start_in_block=start_in_block)) for c in range(30)
        ]
        await asyncio.sleep(1.6)  # their slots come due meanwhile (20 a second)
        pictures.set()
        await asyncio.gather(*edits)
        assert len(sent) == 30
        assert max(sum(t <= s < t + 1 for s in sent) for t in sent) <= rate
        await asyncio.sleep(1.1)  # the budget's last second empties


def test_discord_never_receives_more_than_rate_in_a_second_whatever_the_delays() -> None:
    """Requests leave the process late and in bunches (a busy loop), take their time at
    Discord, and complete: however their delays fall, no second at Discord holds more than
    ``rate`` arrivals, because a request counts from its start until a second after it
    completed (completion comes after Discord received it)."""
    rng = random.Random(7)
    rate = 10
    now = [0.0]
    budget = RequestBudget(rate, burst=rate, clock=lambda: now[0])
    arrivals: list[float] = []
    in_flight: list[tuple[float, float]] = []  # (arrival at Discord, completion)
    while now[0] < 20.0:
        for item in [x for x in in_flight if x[1] <= now[0]]:
            in_flight.remove(item)
            budget.finish()
        if budget.start_wait(tracked=True) == 0.0:
            late = rng.choice([0.0, 0.0, 0.3, 0.8])  # bunched: some leave the process late
            arrival = now[0] + late
            arrivals.append(arrival)
            in_flight.append((arrival, arrival + rng.uniform(0.01, 0.4)))
        now[0] += 0.005
    assert len(arrivals) > 5 * 20  # it does go on (over half the rate, with these delays)
    assert max(sum(t <= a < t + 1 for a in arrivals) for t in arrivals) <= rate


def test_a_request_in_flight_counts_until_a_second_after_it_completed() -> None:
    now = [10.0]
    budget = RequestBudget(2, burst=2, clock=lambda: now[0])
    assert budget.start_wait(tracked=True) == 0.0
    assert budget.start_wait() == 0.0  # untracked: counts a second from its start
    assert budget.start_wait() > 0
    now[0] = 30.0  # the tracked one is still in flight: only one more may start
    assert budget.start_wait() == 0.0
    assert budget.start_wait() > 0
    now[0] = 31.5
    budget.finish()  # completes now: it counts until 32.5
    assert budget.start_wait() == 0.0
    assert budget.start_wait() == pytest.approx(1.0)
    now[0] = 32.5
    assert budget.start_wait() == 0.0


def test_a_global_429_holds_every_start_and_lowers_the_rate_for_a_while() -> None:
    """Discord refused a request for the global limit anyway: nothing starts before the wait
    it asked for, then the rate is a quarter lower (each further refusal another quarter, down
    to a quarter of it) until a minute passes without one."""
    now = [10.0]
    budget = RequestBudget(20, burst=5, clock=lambda: now[0])
    budget.slow_down(1.5)
    assert budget.start_wait() == pytest.approx(1.5)
    assert budget.reserve() == pytest.approx(1.5 - 4 / 15)  # a slot at 11.5 at the earliest
    assert budget.current_rate == 15.0
    budget.slow_down(0.5)  # a shorter wait asked later: the longer hold stands
    assert budget.current_rate == 11.25 and budget.start_wait() == pytest.approx(1.5)
    now[0] = 11.5
    started = 0
    while now[0] < 12.5:  # one second after the wait: at most the lowered rate starts
        if budget.start_wait() == 0.0:
            started += 1
        now[0] += 0.001
    assert started == 12  # 11.25 a second: at most 12 start in one
    for _ in range(10):
        budget.slow_down(0.0)
    assert budget.current_rate == 5.0  # never below a quarter
    now[0] += RequestBudget.SLOW_SECONDS
    assert budget.current_rate == 20.0


def test_only_discord_py_s_global_limit_warning_slows_the_budget() -> None:
    now = [10.0]
    budget = RequestBudget(20, clock=lambda: now[0])
    watch = GlobalLimitWatch.install(budget)
    try:
        http_log = logging.getLogger("discord.http")
        http_log.warning("We are being rate limited. %s %s responded with 429.", "PATCH", "/x")
        assert budget.current_rate == 20.0  # a route's own limit: discord.py handles it
        http_log.warning("Global rate limit has been hit. Retrying in %.2f seconds.", 1.5)
        assert budget.current_rate == 15.0 and budget.start_wait() == pytest.approx(1.5)
    finally:
        watch.remove()
    assert watch not in logging.getLogger("discord.http").handlers


def all_shown(bot: DurakBot, tables: list[Table]) -> bool:
    """No AI move pending, and every table message shows its table's current version."""
    if not bot.notifier.idle():
        return False
    for table in tables:
        msgs = bot.notifier._tables.get(table.table_id)
        shown = None if msgs is None else msgs.shown_table
        if table.ai_seats_to_act() or shown is None or shown[0] != table.version:
            return False
    return True


async def start_ai_tables(w: World, bot: DurakBot, count: int) -> list[Table]:
    """``count`` tables, each Alice and three Easy AIs in its own channel, started at once."""
    tables = []
    for i in range(count):
        channel = w.fake.add_channel(w.guild, f"t{i}")
        options = {"ai_seats": 3, "ai_level": "easy"}
        await w.fake.slash(w.alice, channel, "durak", "new", options=options)
        await w.fake.slash(w.alice, channel, "durak", "start")
        tables.append(table_of(bot, channel))
    return tables


async def play_ai_tables(w: World, bot: DurakBot, count: int, *, timeout: float) -> None:
    """:func:`start_ai_tables`; returns when their AIs wait for Alice and every table message
    shows its table."""
    tables = await start_ai_tables(w, bot, count)
    await w.fake.wait_for(
        functools.partial(all_shown, bot, tables), timeout, what="every table message"
    )


@pytest.mark.slow  # six tables played by AIs, twice
async def test_many_tables_stay_within_the_global_limit(tmp_path: Path) -> None:
    """Six tables whose AI seats play at once ask for far more table edits a second than the
    global limit allows: within ``DISCORD_REQUESTS_PER_SECOND`` the fake Discord never answers
    429, and every table message still ends showing its table as it is. Without the budget
    the same tables are refused (so this test can fail)."""
    for budget in (6.0, 0.0):  # 6 a second and a burst of 5: at most 10 start in any second
        async with world(tmp_path / str(budget)) as w:
            # room for discord.py's own requests, and for a busy loop sending some late
            w.fake.set_global_rate_limit(limit=16, per=1.0)
            # Alice hosts every table (TABLES_PER_USER would refuse the fourth)
            async with running_bot(
                w, discord_requests_per_second=budget, tables_per_user=10
            ) as bot:
                if budget:
                    await play_ai_tables(w, bot, 10, timeout=30)
                    assert w.fake.rate_limit_count == 0
                else:  # refused (and discord.py gives up on some edits: no catching up here)
                    await start_ai_tables(w, bot, 10)
                    await w.fake.wait_for(lambda: w.fake.rate_limit_count > 0, 30, what="a 429")


@pytest.mark.slow  # six tables played by AIs
async def test_a_budget_above_discords_limit_slows_down_after_its_first_refusals(
    tmp_path: Path,
) -> None:
    """A bot whose ``DISCORD_REQUESTS_PER_SECOND`` is above what Discord grants it (here 12
    against 6 a second) is refused a few times, then keeps below the limit: each global 429
    holds every channel write for the wait Discord asks and lowers the rate (heard through
    discord.py's warning: this proves its wording still matches), and every table message
    catches up. Without the back-off (tried: ``slow_down`` made a no-op) the refusals
    go on, discord.py gives up on some edits, and the tables do not catch up in a minute."""
    async with world(tmp_path) as w:
        w.fake.set_global_rate_limit(limit=6, per=1.0)
        async with running_bot(
            w, discord_requests_per_second=12.0, ai_delay_seconds=0.1, tables_per_user=20
        ) as bot:
            await play_ai_tables(w, bot, 20, timeout=60)
            assert bot.notifier.limits.budget.current_rate < 12.0
        writes = [r for r in w.fake.requests if r.path.startswith("/channels/")]
        refused = [r for r in writes if r.status == 429]
        assert refused, "the budget was never above the limit: the test proves nothing"
        # A few refusals, not a cascade (4–9 of ~46 writes on an idle machine, 14 of 56 on a
        # busy one; without the back-off the tables never catch up: the wait above fails).
        assert len(refused) * 3 < len(writes), (len(refused), len(writes))
