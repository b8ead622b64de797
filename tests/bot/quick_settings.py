"""The settings that make a test bot quick, for a bot in this process (``helpers.settings``) or
in a child process (:func:`bot_env`): no turn timer, short AI thinking, frequent edits."""

from __future__ import annotations

import os
from typing import Final

from tests.fake_discord import FakeDiscord

QUICK: Final[dict[str, object]] = {
    "turn_timer_seconds": 0,
    "ai_delay_seconds": 0.0,
    "ai_budget_seconds": 0.05,
    "ai_budget_iterations": 20,
    "table_edit_interval_seconds": 0.05,
}


def bot_env(fake: FakeDiscord, **overrides: object) -> dict[str, str]:
    """The environment of a bot process that talks to ``fake``: this one's, the quick settings
    and ``overrides`` (settings by their field names, other variables by their own)."""
    values = {**QUICK, "log_level": "WARNING", **overrides}
    return dict(
        os.environ,
        DURAK_FAKE_DISCORD_URL=fake.http_url,
        DISCORD_TOKEN=fake.token,
        **{name.upper(): str(value) for name, value in values.items()},
    )
