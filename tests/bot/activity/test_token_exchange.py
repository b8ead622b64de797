"""``POST /api/token`` end to end through the fake Discord: the code is exchanged once, the
user comes from ``/users/@me``, the instance and its channel from ``activity-instances`` with
the bot token. Whatever the client claims beyond the code and the instance id is refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.bot.activity.helpers import activity_bot, post_token
from tests.bot.helpers import world


async def test_exchange_names_the_user_and_the_instance_channel(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake = w.fake
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob])
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 200, body
        assert body["user"]["id"] == str(w.alice) and body["user"]["username"] == "alice"
        assert body["channel_id"] == str(w.channel)
        assert fake.activity.access_tokens[body["access_token"]].user_id == w.alice
        session = site.bot.activity_server.signer.verify(body["session"])  # type: ignore[union-attr]
        assert (session.user_id, session.instance_id, session.channel_id) == (
            w.alice,
            instance,
            w.channel,
        )
        # The exchange sent the application's credentials, the instance check the bot token.
        paths = [(r.method, r.path, r.status) for r in fake.requests]
        assert ("POST", "/oauth2/token", 200) in paths
        assert ("GET", "/users/@me", 200) in paths
        check = f"/applications/{fake.application_id}/activity-instances/{instance}"
        assert ("GET", check, 200) in paths

        # A code works once: a replayed code is refused by Discord, and so by the server.
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 401 and body["error"] == "err.activity_auth"
        assert fake.activity.refused[-1][0] == "invalid_grant"


async def test_forged_sign_ins_are_refused(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake = w.fake
        ours = fake.activity.open_instance(w.channel, [w.alice])
        other_channel = fake.add_channel(w.guild, "elsewhere")
        theirs = fake.activity.open_instance(other_channel, [w.bob])

        # Another user's id beside the code: the body takes the code and the instance only.
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(
            site, {"code": code, "instance_id": ours, "user_id": str(w.bob)}
        )
        assert status == 400 and body["error"] == "err.activity_frame"

        # An instance the user is not connected to (someone else's launch): refused.
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": theirs})
        assert status == 403 and body["error"] == "err.activity_instance"

        # An instance Discord does not know (made up, or ended): refused.
        for made_up in ("i-1-gc-2-3", "../users/@me"):
            code = fake.activity.issue_code(w.alice)
            status, body = await post_token(site, {"code": code, "instance_id": made_up})
            assert status in (400, 403), body
        fake.activity.end_instance(ours)
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": ours})
        assert status == 403 and body["error"] == "err.activity_instance"

        # A made-up or expired code.
        status, body = await post_token(site, {"code": "not-a-code", "instance_id": theirs})
        assert status == 401 and body["error"] == "err.activity_auth"
        code = fake.activity.issue_code(w.bob)
        fake.clock.advance(601)
        status, body = await post_token(site, {"code": code, "instance_id": theirs})
        assert status == 401
        # Not JSON, or the wrong types: refused before Discord is asked.
        async with site.http.post(site.url + "/api/token", data=b"code=x") as response:
            assert response.status == 400
        status, body = await post_token(site, {"code": 5, "instance_id": theirs})
        assert status == 400
        # The message is in the user's language when the browser says which.
        async with site.http.post(
            site.url + "/api/token",
            json={"code": "x", "instance_id": theirs},
            headers={"Accept-Language": "ru"},
        ) as response:
            assert "Discord" in (await response.json())["message"]
            assert "закройте" in (await response.json())["message"]


async def test_wrong_client_secret_fails_the_exchange(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w, discord_client_secret="wrong") as site:
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        code = w.fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 401 and body["error"] == "err.activity_auth"
        assert w.fake.activity.refused[-1][0] == "invalid_client"
        assert not w.fake.activity.codes[code].used


async def test_a_rate_limited_sign_in_waits_or_says_try_again(tmp_path: Path) -> None:
    """Discord's 429 on the instance check (made with the bot token: its global limit is
    shared with the bot's own requests) is waited out when short; a long one answers 503 "try
    again", never "not allowed". A 429 from ``/oauth2/token`` is never repeated: 503 at once,
    one request to Discord (a junk sign-in must not become five)."""
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake = w.fake
        instance = fake.activity.open_instance(w.channel, [w.alice])
        check = f"/applications/{fake.application_id}/activity-instances/*"

        fake.fail_next("POST", "/oauth2/token", status=429, retry_after=0.05)
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 503 and body["error"] == "err.activity_unavailable"
        exchanges = [r.status for r in fake.requests if r.path == "/oauth2/token"]
        assert exchanges == [429]

        fake.fail_next("GET", check, status=429, times=2, retry_after=0.05)
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 200, body
        tried = [(r.method, r.status) for r in fake.requests if "activity-instances" in r.path]
        assert tried == [("GET", 429), ("GET", 429), ("GET", 200)]

        fake.fail_next("GET", check, status=429, retry_after=60.0)
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 503 and body["error"] == "err.activity_unavailable"


@pytest.mark.slow
async def test_the_instance_check_waits_for_the_bots_request_budget(tmp_path: Path) -> None:
    """Made with the bot token, the instance check counts against Discord's global limit like
    every message the bot writes: it takes its turn in the bot's budget, held here as after a
    global 429, instead of adding to a burst Discord would refuse."""
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake = w.fake
        instance = fake.activity.open_instance(w.channel, [w.alice])
        budget = site.bot.notifier.limits.budget
        budget.rate = 40.0
        budget.slow_down(0.6)
        started = time.monotonic()
        code = fake.activity.issue_code(w.alice)
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 200, body
        assert time.monotonic() - started >= 0.55
