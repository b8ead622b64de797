"""The harness server: the built client, the harness page, and a stand-in for the bot's
Activity server that answers with recorded frames (docs/activity.md, "Client").

    cd activity && npm run build && python harness/serve.py [--port 5180]
    then open http://127.0.0.1:5180/harness/?scenario=seat-defend

``POST /api/token`` accepts exactly ``{code, instance_id}`` and names the scenario (the
instance id) as the session; ``/ws`` answers a hello with the scenario's welcome and first table
frame (``frames/<scenario>.json``, made by ``scripts/record_frames.py``), then sends the next
recorded table frame after each ``act`` whose code the current frame offers (or an ``open`` where
no table is), and an ``error`` frame otherwise. ``/cdn/avatars/…`` stands in for Discord's CDN.
``GET /harness/acts`` lists the actions received (for tests).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.activity.browser import cdn_avatar, harness_file  # noqa: E402  (page, script, CDN)

DIST = HERE.parent / "dist"
FRAMES = HERE / "frames"
CLIENT_ID = "1234567890"
CLIENT_ID_TAG = '<meta name="discord-client-id" content="" />'
SCENARIO = re.compile(r"^[a-z0-9-]{1,64}$")

acts: list[dict[str, Any]] = []


async def index(_: web.Request) -> web.Response:
    page = (DIST / "index.html").read_text(encoding="utf-8")
    page = page.replace(CLIENT_ID_TAG, f'<meta name="discord-client-id" content="{CLIENT_ID}" />')
    return web.Response(text=page, content_type="text/html")


async def token(request: web.Request) -> web.Response:
    body = await request.json()
    if not isinstance(body, dict) or set(body) != {"code", "instance_id"}:
        return web.json_response({"error": "err.activity_frame", "message": "bad body"}, status=400)
    scenario = str(body["instance_id"])
    if not SCENARIO.match(scenario) or not (FRAMES / f"{scenario}.json").exists():
        return web.json_response(
            {"error": "err.activity_instance", "message": f"no scenario {scenario!r}"}, status=403
        )
    return web.json_response(
        {
            "access_token": "harness-access-token",
            "session": scenario,
            "session_expires_in": 300,
            "user": {"id": "101", "username": "olga", "global_name": "Olga", "avatar": None},
            "channel_id": "2",
        }
    )


async def websocket(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(heartbeat=30.0)
    await ws.prepare(request)
    hello = await ws.receive_json(timeout=10)
    scenario = str(hello.get("token", "")).removesuffix("-resume")
    if not SCENARIO.match(scenario) or not (FRAMES / f"{scenario}.json").exists():
        await ws.close(code=4001)
        return ws
    recorded = json.loads((FRAMES / f"{scenario}.json").read_text(encoding="utf-8"))
    tables: list[dict[str, Any]] = recorded["tables"]
    step = 0
    await ws.send_json(recorded["welcome"])
    await ws.send_json(tables[step])
    async for msg in ws:
        if msg.type != WSMsgType.TEXT:
            continue
        frame = json.loads(msg.data)
        acts.append(frame)
        game = (tables[step]["table"] or {}).get("game") or {}
        offered = {a["code"] for a in game.get("actions", [])}
        moves = frame.get("type") == "act" and frame.get("code") in offered
        opens = frame.get("type") == "open" and tables[step]["table"] is None
        if (moves or opens) and step + 1 < len(tables):
            step += 1
            await ws.send_json(tables[step])
        else:
            text = "That move is not allowed (harness)."
            error = {"v": 1, "type": "error", "reason": "err.illegal", "text": text}
            await ws.send_json(error | {"ref": frame.get("ref")})
    return ws


async def acts_list(_: web.Request) -> web.Response:
    return web.json_response(acts)


def app() -> web.Application:
    application = web.Application()
    application.add_routes(
        [
            web.get("/", index),
            web.get("/harness/", harness_file),
            web.get("/harness/acts", acts_list),
            web.get("/harness/{name}", harness_file),
            web.get("/cdn/avatars/{user}/{file}", cdn_avatar),
            web.post("/api/token", token),
            web.get("/ws", websocket),
        ]
    )
    application.router.add_static("/assets", DIST / "assets")
    return application


def main() -> None:
    global FRAMES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5180)
    parser.add_argument("--frames", type=Path, default=FRAMES, help="the scenarios' folder")
    args = parser.parse_args()
    FRAMES = args.frames
    if not (DIST / "index.html").exists():
        raise SystemExit("build the client first: cd activity && npm ci && npm run build")
    web.run_app(app(), host=args.host, port=args.port, access_log=None)


if __name__ == "__main__":
    main()
