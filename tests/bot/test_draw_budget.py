"""The process's budget of table pictures: at most ``rate`` a second, bursts of one second's
worth, and the waits it hands out are spread so waiting tables do not return together."""

from __future__ import annotations

from bot.ui.channel_limits import DrawBudget


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
