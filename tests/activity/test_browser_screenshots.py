"""What a user sees, shot by a test (issue #19): every scenario docs/activity.md shows, at a
desktop's 1280×720 and a phone's 390×844, in headless Chromium through the harness page. The
pictures in docs/activity/ come from the same function (activity/scripts/screenshots.py)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.activity.browser import (
    BROWSER_TEST,
    SCREENSHOT_SCENARIOS,
    SCREENSHOT_SIZES,
    take_screenshots,
)

pytestmark = BROWSER_TEST


async def test_every_view_is_drawn_at_both_sizes(tmp_path: Path) -> None:
    shots = await take_screenshots(tmp_path, reduced=True)
    assert len(shots) == len(SCREENSHOT_SCENARIOS) * len(SCREENSHOT_SIZES)
    drawn: dict[tuple[int, int], set[bytes]] = {}
    for path in shots:
        with Image.open(path) as image:
            size = tuple(int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
            assert image.size == size, path.name
            drawn.setdefault(image.size, set()).add(image.convert("RGB").tobytes())
    # each scenario drew its own view (take_screenshots waited for the client to draw one and
    # stop moving): no two shots at one size are the same picture
    assert all(len(pictures) == len(SCREENSHOT_SCENARIOS) for pictures in drawn.values())
