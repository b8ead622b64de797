"""The fake Discord's Activity routes behave as Discord documents them (docs/fake_discord.md,
"Activities"), so the server's tests test against something real enough."""

from __future__ import annotations

import base64
from typing import Any

import aiohttp

from tests.fake_discord.pytest_plugin import started_fake


async def test_token_user_and_instance_routes() -> None:
    async with started_fake() as fake, aiohttp.ClientSession() as http:
        guild = fake.add_guild()
        channel = fake.add_channel(guild)
        alice = fake.add_user("alice", locale="es-ES")
        api, app = fake.api_url, fake.application_id
        form = {"client_id": str(app), "grant_type": "authorization_code"}

        async def exchange(data: dict[str, str], **kw: object) -> tuple[int, dict[str, Any]]:
            async with http.post(api + "/oauth2/token", data=data, **kw) as r:  # type: ignore[arg-type]
                return r.status, await r.json()

        code = fake.activity.issue_code(alice)
        assert (await exchange(form | {"code": code}))[0] == 401  # no secret
        secret = {"client_secret": fake.activity.client_secret}
        status, body = await exchange(
            form | secret | {"code": code, "grant_type": "client_credentials"}
        )
        assert (status, body["error"]) == (400, "unsupported_grant_type")
        basic = base64.b64encode(f"{app}:{fake.activity.client_secret}".encode()).decode()
        status, body = await exchange(
            {"grant_type": "authorization_code", "code": code},
            headers={"Authorization": f"Basic {basic}"},
        )
        assert status == 200 and body["token_type"] == "Bearer" and body["expires_in"] == 604800
        assert body["scope"] == "identify"
        status, again = await exchange(form | secret | {"code": code})
        assert (status, again["error"]) == (400, "invalid_grant")  # single use

        bearer = {"Authorization": f"Bearer {body['access_token']}"}
        async with http.get(api + "/users/@me", headers=bearer) as r:
            me = await r.json()
            assert r.status == 200 and me["id"] == str(alice) and me["locale"] == "es-ES"
        async with http.get(api + "/users/@me", headers={"Authorization": "Bearer nope"}) as r:
            assert r.status == 401
        fake.clock.advance(604_801)
        async with http.get(api + "/users/@me", headers=bearer) as r:
            assert r.status == 401  # expired

        instance = fake.activity.open_instance(channel, [alice])
        path = f"{api}/applications/{app}/activity-instances/{instance}"
        bot = {"Authorization": f"Bot {fake.token}"}
        async with http.get(path, headers=bot) as r:
            data = await r.json()
            assert r.status == 200 and data["instance_id"] == instance
            assert data["location"]["channel_id"] == str(channel)
            assert data["location"]["guild_id"] == str(guild) and data["users"] == [str(alice)]
        async with http.get(path, headers=bearer) as r:
            assert r.status == 401  # the bot token only
        fake.activity.end_instance(instance)
        async with http.get(path, headers=bot) as r:
            assert r.status == 404
