"""The Activity's browser client, built by the package's install where npm exists.

``npm ci`` (the committed ``activity/package-lock.json``) and ``npm run build`` (``tsc``, then
Vite into ``activity/dist``, which git ignores). The bot serves that directory when the Activity
is enabled (docs/activity.md). Never fatal: without npm, or when a step fails, the install goes
on without the client and says so, and the bot says how to build it (``/durak``, its log).
``DURAK_SKIP_ACTIVITY_BUILD=1`` skips it (a quick install, or a machine without network).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

#: Where a wheel carries the built client (package data of ``bot``; git ignores it). The bot
#: serves the checkout's ``activity/dist`` first, this one where there is no checkout.
PACKAGED = Path("bot") / "activity" / "client"
#: How to build it by hand; the bot's catalogue says the same (``activity.not_built_help``).
BY_HAND = "cd activity && npm ci && npm run build"
#: Seconds each npm step may take (``npm ci`` downloads ~30 packages; the build takes seconds).
STEP_SECONDS = 600


def _say(message: str) -> None:
    print(f"durak activity client: {message}", file=sys.stderr, flush=True)


def _not_built(message: str) -> bool:
    # A UserWarning: pip shows those of a build hook even with -q (it hides the hook's output).
    warnings.warn(f"the Discord Activity's client is not built: {message}", stacklevel=2)
    return False


def build_client(root: Path) -> bool:
    """Build ``root/activity`` into ``root/activity/dist``; True if it was built."""
    activity = root / "activity"
    if os.environ.get("DURAK_SKIP_ACTIVITY_BUILD"):
        return _not_built(f"DURAK_SKIP_ACTIVITY_BUILD is set; to build it: {BY_HAND}")
    if not (activity / "package-lock.json").is_file():
        return False  # not a source checkout (e.g. an sdist without the client)
    npm = shutil.which("npm")
    if npm is None:
        return _not_built(f"npm was not found (the bot runs without it); then: {BY_HAND}")
    for step in (["ci", "--no-audit", "--no-fund"], ["run", "build"]):
        try:
            done = subprocess.run(
                [npm, *step],
                cwd=activity,
                capture_output=True,
                text=True,
                timeout=STEP_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return _not_built(f"`npm {' '.join(step)}` failed ({exc}); to retry: {BY_HAND}")
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            return _not_built(
                f"`npm {' '.join(step)}` exited {done.returncode} (the bot runs without it; "
                f"to retry: {BY_HAND}):\n{tail}"
            )
    _say(f"built into {activity / 'dist'}")
    return True


@contextlib.contextmanager
def packaged(root: Path) -> Iterator[None]:
    """While a wheel is built: the built client copied into the ``bot`` package, so that an
    installed (not editable) bot has it too; removed again afterwards."""
    built, target = root / "activity" / "dist", root / PACKAGED
    if not (built / "index.html").is_file():
        yield
        return
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(built, target)
    try:
        yield
    finally:
        shutil.rmtree(target, ignore_errors=True)
