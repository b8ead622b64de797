"""The results screen's rating change (issue #31, "Play" 6) in headless Chromium through the
harness page, with the recorded "finished" frames (their ratings computed by storage's own
code, activity/scripts/record_frames.py): at a desktop's 1280×720 and a phone's 390×844 (in
English, and in Russian on the phone) every human's row shows the change (signed, coloured by
its direction) and before → after as the frame has them, the AI's row nothing; every cell is
on screen and no two cells of a row overlap. The pictures are docs/img/activity-finished-*.png
(activity/scripts/screenshots.py)."""

from __future__ import annotations

import asyncio
from base64 import b64decode
from pathlib import Path
from typing import Any

from PIL import Image

from bot.text import t
from tests.activity.browser import (
    BROWSER_TEST,
    DRAWN,
    harness_page,
    recorded_table,
    set_size,
)

pytestmark = BROWSER_TEST

ROWS = """(() => {
  const doc = document.getElementById('activity').contentDocument;
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const head = [...doc.querySelectorAll('.places thead tr:last-child th')].map(e => e.textContent);
  const rows = [...doc.querySelectorAll('.places tbody tr')].map(tr => ({
    name: tr.querySelector('.name').textContent,
    delta: tr.querySelector('.rating .delta')?.textContent ?? null,
    way: tr.querySelector('.rating .delta')?.className ?? null,
    fromTo: tr.querySelector('.rating .from-to')?.textContent ?? null,
    cells: [...tr.children].map(box),
  }));
  return { head, rows, width: innerWidth, height: innerHeight };
})()"""


def signed(x: float) -> str:
    return ("+" if x > 0 else "\u2212" if x < 0 else "") + f"{abs(x):.1f}"


def overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


#: What is shot: a scenario, its language, the sizes (Russian's longer words on a phone too).
SHOTS = (("finished", "en", ((1280, 720), (390, 844))), ("finished-ru", "ru", ((390, 844),)))


async def test_the_results_show_each_humans_rating_change(tmp_path: Path) -> None:
    async with harness_page(reduced_motion=True) as (base, _, page):
        for scenario, lang, sizes in SHOTS:
            table = recorded_table(scenario)
            ratings: list[dict[str, float] | None] = table["game"]["ratings"]
            names = [p["name"] for p in table["players"]]
            assert [r is None for r in ratings] == [p["ai"] is not None for p in table["players"]]
            for w, h in sizes:
                where = f"{scenario} at {w}x{h}"
                await set_size(page, w, h)
                await page.call("Page.navigate", url=f"{base}/harness/?scenario={scenario}&shot=1")
                await page.wait_for(DRAWN, f"the results, {where}")
                await asyncio.sleep(0.1)
                shown: dict[str, Any] = await page.evaluate(ROWS)
                assert shown["head"][-1] == t("stats.rating", lang), shown["head"]
                assert sorted(r["name"] for r in shown["rows"]) == sorted(names)
                for row in shown["rows"]:
                    check_row(row, ratings[names.index(row["name"])], where, w)
                shot = await page.call("Page.captureScreenshot", format="png")
                path = tmp_path / f"{scenario}-{w}x{h}.png"
                path.write_bytes(b64decode(shot["data"]))
                with Image.open(path) as image:
                    assert image.size == (w, h)


def check_row(row: dict[str, Any], change: dict[str, float] | None, where: str, width: int) -> None:
    """The row's rating cell shows ``change`` (nothing for None); every cell is on screen
    and no two overlap."""
    if change is None:
        assert (row["delta"], row["fromTo"]) == (None, None), row
    else:
        assert row["delta"] == signed(change["delta"]), row
        before, after = f"{change['before']:.1f}", f"{change['after']:.1f}"
        assert row["fromTo"] == f"{before} \u2192 {after}", row
        assert ("up" if change["delta"] > 0 else "down") in row["way"], row
    for cell in row["cells"]:
        assert cell[0] >= 0 and cell[2] <= width, f"{where}: {row['name']} {cell}"
    for i, a in enumerate(row["cells"]):
        for b in row["cells"][i + 1 :]:
            assert not overlap(a, b), f"{where}: {row['name']}: {a} {b}"
