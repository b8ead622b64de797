"""The client's layout at every size issues #31 and #46 name (1280×720, 390×844, 844×390,
360×640, 640×360, 480×270, 768×1024) and at 2 to 6 seats (a full bout each; at 6 seats both
"Done" and "Done for this bout" offered), in headless Chromium through the harness page with
recorded frames: nothing overlaps
(seat plates, the talon, the bout, the status line, the buttons, your plate, your hand), all of it
is on screen, every hand card has an uncovered 44×44 px spot a tap lands on (a 13-card hand
too: two rows on a phone), every offered button is on screen and tappable, and the countdown is
visible. The shots go to docs/img/ with ``--shots`` (activity/scripts/screenshots.py)."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from bot.text import t
from tests.activity.browser import (
    BROWSER_TEST,
    DRAWN,
    LAYOUT_SIZES,
    harness_page,
    set_size,
)

pytestmark = BROWSER_TEST

#: ``seats-<n>``: a full bout at 2 to 6 seats (``seat-defend`` is the 4); ``seats-6-attack``:
#: seat 0 may throw in, "Done" and "Done for this bout" both offered; ``seats-6-watch``: that
#: table as a spectator sees it.
SEAT_SCENARIOS = ("seats-2", "seats-3", "seats-5", "seats-6", "seats-6-attack", "seats-6-watch")
SCENARIOS = ("seat-defend", "big-hand", "spectator", "lobby", "finished", *SEAT_SCENARIOS)

#: The parts that must not overlap, each a group of elements (overlaps inside a group are
#: by design: a fanned hand, a beaten pair), the element boxes of each, and the hand cards'
#: tap spots, read in the client's document.
MEASURE = """(() => {
  const doc = document.getElementById('activity').contentDocument;
  const groups = {
    seats: '#app > .seats .seat, .lobby .seats .seat', deck: '.deck', bout: '.pairs .card',
    status: '.status .line, .status .clock', controls: '.controls button',
    ops: '.ops button, .invite-bar button', rules: '.lobby .rules',
    me: '.mine .seat', hand: '.hand .card',
  };
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const visible = e => getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0;
  const boxes = {};
  for (const [name, sel] of Object.entries(groups)) {
    boxes[name] = [...doc.querySelectorAll(sel)].filter(visible).map(box);
  }
  const hits = (el, x, y) => {
    const e = doc.elementFromPoint(x, y);
    return !!e && (e === el || el.contains(e));
  };
  const centre = el => {
    const [l, t, r, b] = box(el);
    return hits(el, (l + r) / 2, (t + b) / 2);
  };
  const corners = [[0, 0], [43, 0], [0, 43], [43, 43], [22, 22]];
  // a 44x44 square inside the card where every corner and the centre land on the card
  const spot = el => {
    const [l, t, r, b] = box(el);
    for (let y = t; y + 43 <= b; y += 2) for (let x = l; x + 43 <= r; x += 2) {
      if (corners.every(([dx, dy]) => hits(el, x + dx, y + dy))) return [x, y];
    }
    return null;
  };
  // a hand with a move to make: every card (a dimmed one must be readable, a raised one tapped)
  const cards = [...doc.querySelectorAll('.hand:not(.idle) .card')]
    .map(e => ({ key: e.dataset.key, spot: spot(e) }));
  const buttons = [...doc.querySelectorAll('.controls button, .ops button, .invite-bar button')]
    .map(e => ({ key: e.dataset.key, hit: centre(e), h: box(e)[3] - box(e)[1] }));
  const clock = doc.querySelector('.status .clock');
  const seatBoxes = [...doc.querySelectorAll('#app > .seats .seat')];
  return {
    boxes, cards, buttons, clock: clock ? centre(clock) : null,
    strong: seatBoxes.filter(e => e.classList.contains('turn')).length,
    awaited: seatBoxes.filter(e => e.matches('.turn, .may')).length,
    underlined: [...doc.querySelectorAll('.places .name')]
      .some(e => getComputedStyle(e).textDecorationLine.includes('underline')),
    proofs: [...doc.querySelectorAll('.fairness .proof')].map(box),
    notes: [...doc.querySelectorAll('.act .note')].filter(visible).length,
    width: innerWidth, height: innerHeight, empty: doc.querySelectorAll('.seat.empty').length,
    line: doc.querySelector('.status')?.textContent ?? '',
  };
})()"""


def overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def check(scenario: str, size: tuple[int, int], shown: dict[str, Any]) -> list[str]:
    """What is wrong with one drawn view (an empty list: nothing)."""
    where = f"{scenario} at {size[0]}x{size[1]}"
    width, height = shown["width"], shown["height"]
    boxes: dict[str, list[list[float]]] = shown["boxes"]
    wrong = []
    for name, rects in boxes.items():
        for r in rects:
            if r[0] < -1 or r[1] < -1 or r[2] > width + 1 or r[3] > height + 1:
                wrong.append(f"{where}: {name} {r} is off the {width}x{height} screen")
    for (n1, r1s), (n2, r2s) in itertools.combinations(boxes.items(), 2):
        for r1, r2 in itertools.product(r1s, r2s):
            if overlap(r1, r2):
                wrong.append(f"{where}: {n1} {r1} overlaps {n2} {r2}")
    wrong += [f"{where}: no 44 px spot on {c['key']}" for c in shown["cards"] if c["spot"] is None]
    for b in shown["buttons"]:
        if not b["hit"] or b["h"] < 44:
            wrong.append(f"{where}: button {b['key']} is covered or under 44 px ({b['h']})")
    if shown["clock"] is False:
        wrong.append(f"{where}: the countdown is covered")
    if shown["strong"] > 1:  # one seat the bout waits for, however many may throw in
        wrong.append(f"{where}: {shown['strong']} plates marked as awaited")
    if shown["underlined"]:
        wrong.append(f"{where}: a name in the results is underlined like a link")
    for r in shown["proofs"]:  # the seed's lines fit the width (the results scroll down)
        if r[0] < -1 or r[2] > width + 1:
            wrong.append(f"{where}: a seed line {r} is cut off")
    return wrong


async def test_nothing_overlaps_and_every_card_is_tappable_at_every_size() -> None:
    wrong: list[str] = []
    measured: dict[tuple[str, tuple[int, int]], dict[str, Any]] = {}
    async with harness_page(reduced_motion=True) as (base, _, page):
        for scenario, (w, h) in itertools.product(SCENARIOS, LAYOUT_SIZES):
            await set_size(page, w, h)
            platform = "mobile" if min(w, h) < 600 else "desktop"
            url = f"{base}/harness/?scenario={scenario}&shot=1&platform={platform}"
            await page.call("Page.navigate", url=url)
            await page.wait_for(DRAWN, f"{scenario} at {w}x{h}")
            await asyncio.sleep(0.1)
            shown = await page.evaluate(MEASURE)
            measured[scenario, (w, h)] = shown
            wrong += check(scenario, (w, h), shown)
    assert not wrong, "\n".join(wrong)
    # the measurements saw what they judge: a seat's hand, the 13 cards, the countdown
    for size in LAYOUT_SIZES:
        assert len(measured["big-hand", size]["cards"]) == 13
        assert measured["seat-defend", size]["clock"] is True
        assert measured["seat-defend", size]["buttons"], size
        lobby = measured["lobby", size]
        # the host's lobby of 4 of 6 seats: two empty places, the invite, no "press Join"
        assert lobby["empty"] == 2 and "i:invite" in {b["key"] for b in lobby["buttons"]}, size
        assert lobby["line"] == t("lobby.title", "en"), lobby["line"]
        # several seats may throw in; one strong mark, the others light
        assert measured["seats-6-watch", size]["awaited"] >= 2, size
        assert len(measured["finished", size]["proofs"]) == 2, size
    # "Done" and "Done for this bout" offered together say how long each holds (but the pane)
    assert measured["seats-6-attack", (390, 844)]["notes"] == 2
