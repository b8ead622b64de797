"""The Activity is off unless configured, refuses to start half-configured, and says honestly
that its client is not built yet."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.activity import server as server_module
from tests.bot.activity.helpers import activity_bot
from tests.bot.helpers import running_bot, settings, world


def test_enabling_needs_the_client_credentials_and_the_public_host(tmp_path: Path) -> None:
    assert not settings(tmp_path / "db").activity_enabled  # off by default
    with pytest.raises(ValidationError) as failed:
        settings(tmp_path / "db", activity_enabled=True, discord_client_id=1)
    assert "DISCORD_CLIENT_SECRET" in str(failed.value)
    assert "ACTIVITY_PUBLIC_HOST" in str(failed.value)
    with pytest.raises(ValidationError):
        settings(tmp_path / "db", activity_public_host="https://durak.example.org/")


async def test_off_means_no_server(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        assert bot.activity_server is None


async def test_the_client_is_not_built_yet_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Wherever the repository's activity/dist is built or not: here it is not.
    monkeypatch.setattr(server_module, "CLIENT_DIR", tmp_path / "no-dist")
    async with (
        world(tmp_path) as w,
        activity_bot(w) as site,
        site.http.get(site.url + "/", headers={"Accept-Language": "de-DE"}) as page,
    ):
        assert page.status == 503
        assert "noch nicht eingerichtet" in await page.text()
