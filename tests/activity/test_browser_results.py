"""The results screen's rating change (issue #31, "Play" 6) in headless Chromium through the
harness page, with the recorded "finished" frames (their ratings computed by storage's own
code, activity/scripts/record_frames.py): at a desktop's 1280×720 and a phone's 390×844 every
human's row shows the change (signed, coloured by its direction) and before → after as the
frame has them, the AI's row nothing; every cell is on screen and no two cells of a row
overlap. The pictures are docs/img/activity-finished-*.png (activity/scripts/screenshots.py)."""

from __future__ import annotations

import asyncio
from base64 import b64decode
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.activity.browser import DRAWN, harness_page, recorded_table, reduce_motion, set_size
from tests.activity.test_browser_game import needs

pytestmark = [pytest.mark.slow, pytest.mark.browser]

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


@pytest.mark.skipif(needs() is not None, reason=needs() or "")
async def test_the_results_show_each_humans_rating_change(tmp_path: Path) -> None:
    table = recorded_table("finished")
    ratings: list[dict[str, float] | None] = table["game"]["ratings"]
    names = [p["name"] for p in table["players"]]
    assert [r is None for r in ratings] == [p["ai"] is not None for p in table["players"]]
    async with harness_page() as (base, _, page):
        await reduce_motion(page)
        for w, h in ((1280, 720), (390, 844)):
            await set_size(page, w, h)
            url = f"{base}/harness/?scenario=finished&shot=1"
            await page.call("Page.navigate", url=url)
            await page.wait_for(DRAWN, f"the results at {w}x{h}")
            await asyncio.sleep(0.1)
            shown: dict[str, Any] = await page.evaluate(ROWS)
            assert shown["head"][-1] == "Rating", shown["head"]
            assert sorted(r["name"] for r in shown["rows"]) == sorted(names)
            for row in shown["rows"]:
                change = ratings[names.index(row["name"])]
                if change is None:
                    assert (row["delta"], row["fromTo"]) == (None, None), row
                else:
                    assert row["delta"] == signed(change["delta"]), row
                    before, after = f"{change['before']:.1f}", f"{change['after']:.1f}"
                    assert row["fromTo"] == f"{before} \u2192 {after}", row
                    assert ("up" if change["delta"] > 0 else "down") in row["way"], row
                for cell in row["cells"]:
                    assert cell[0] >= 0 and cell[2] <= w, f"{w}x{h}: {row['name']} {cell}"
                for i, a in enumerate(row["cells"]):
                    for b in row["cells"][i + 1 :]:
                        assert not overlap(a, b), f"{w}x{h}: {row['name']}: {a} {b}"
            shot = await page.call("Page.captureScreenshot", format="png")
            path = tmp_path / f"finished-{w}x{h}.png"
            path.write_bytes(b64decode(shot["data"]))
            with Image.open(path) as image:
                assert image.size == (w, h)
