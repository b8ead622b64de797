"""Copied as ``sitecustomize.py`` into a folder on ``PYTHONPATH``: every Python process started
with ``DURAK_FAKE_DISCORD_URL`` set then sends discord.py's requests and gateway connection to
that fake Discord, without a line of the command it runs changed (the README's first-run block,
tests/bot/test_first_run.py). discord.py is patched as it is imported, so a process that never
imports it (pip) pays nothing."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

URL = os.environ.get("DURAK_FAKE_DISCORD_URL", "").rstrip("/")


def _point(module: ModuleType) -> None:
    if module.__name__ == "discord.http":
        module.Route.BASE = URL + "/api/v10"
    else:
        import yarl

        module.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + URL[len("http") :] + "/")


class _PointAtFake(importlib.abc.MetaPathFinder):
    """Finds ``discord.http`` and ``discord.gateway`` as usual, and points them at the fake
    right after they run."""

    names = frozenset(("discord.http", "discord.gateway"))

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _point(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if URL:
    sys.meta_path.insert(0, _PointAtFake())
