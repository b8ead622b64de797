"""Cut the part of Discord's published OpenAPI description that the fake serves out of a full
``specs/openapi.json`` (github: discord/discord-api-spec) and write it as the pinned subset.

    python -m tests.fake_discord.contract.make_subset path/to/openapi.json \
        --commit <discord-api-spec commit> [--docs-commit <discord-api-docs commit>]

writes ``tests/fake_discord/contract/openapi_subset.json`` (``--out`` to write elsewhere). Kept
per route: the path's ``parameters``, and of each method the fake serves its ``operationId``,
``parameters``, ``requestBody`` and ``security`` (no responses: the fake checks what it is
sent), plus every schema those reach through ``$ref``. The OAuth2 token exchange is not in the
description: it is added from Discord's OAuth2 docs (:data:`TOKEN_EXCHANGE`). Running the script
on the pinned subset itself gives the same file (tests/test_fake_contract.py checks it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from . import PINNED

UPSTREAM = "github:discord/discord-api-spec specs/openapi.json"
DOCS = "github:discord/discord-api-docs"

#: The routes the fake serves (tests/fake_discord/rest.py, activity.py), as the description
#: spells them. A route the fake adds must be listed here (the test of the subset says so).
ROUTES: dict[str, tuple[str, ...]] = {
    "/users/@me": ("get",),
    "/users/{user_id}": ("get",),
    "/users/@me/channels": ("post",),
    "/oauth2/applications/@me": ("get",),
    "/applications/@me": ("get",),
    "/gateway": ("get",),
    "/gateway/bot": ("get",),
    "/applications/{application_id}/commands": ("get", "put"),
    "/applications/{application_id}/guilds/{guild_id}/commands": ("get", "put"),
    "/applications/{application_id}/activity-instances/{instance_id}": ("get",),
    "/interactions/{interaction_id}/{interaction_token}/callback": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ("get", "patch", "delete"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}/typing": ("post",),
    "/channels/{channel_id}/messages": ("get", "post"),
    "/channels/{channel_id}/messages/{message_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}/messages/{message_id}/threads": ("post",),
    "/channels/{channel_id}/threads": ("post",),
    "/channels/{channel_id}/thread-members/{user_id}": ("put", "delete"),
    "/guilds/{guild_id}": ("get",),
    "/guilds/{guild_id}/channels": ("get",),
    "/guilds/{guild_id}/members/{user_id}": ("get",),
}

#: ``POST /oauth2/token`` as Discord's OAuth2 docs describe it (developers/topics/oauth2.mdx,
#: "Authorization Code Grant"): form-encoded; the client's credentials in the body or HTTP
#: Basic. ``redirect_uri`` is not required: Discord's own Activity example
#: (developers/activities/building-an-activity.mdx) exchanges the SDK's code without one.
TOKEN_EXCHANGE: dict[str, Any] = {
    "post": {
        "operationId": "x_oauth2_token_exchange",
        "x-source": f"{DOCS} developers/topics/oauth2.mdx",
        "requestBody": {
            "required": True,
            "content": {
                "application/x-www-form-urlencoded": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "client_id": {"$ref": "#/components/schemas/SnowflakeType"},
                            "client_secret": {"type": "string", "minLength": 1},
                            "grant_type": {
                                "type": "string",
                                "enum": [
                                    "authorization_code",
                                    "refresh_token",
                                    "client_credentials",
                                ],
                            },
                            "code": {"type": "string", "minLength": 1},
                            "redirect_uri": {"type": "string"},
                            "refresh_token": {"type": "string", "minLength": 1},
                        },
                        "required": ["grant_type"],
                        "allOf": [
                            {
                                "if": {
                                    "properties": {"grant_type": {"const": "authorization_code"}}
                                },
                                "then": {"required": ["code"]},
                            },
                            {
                                "if": {"properties": {"grant_type": {"const": "refresh_token"}}},
                                "then": {"required": ["refresh_token"]},
                            },
                        ],
                    }
                }
            },
        },
    }
}
SUPPLEMENTS: dict[str, dict[str, Any]] = {"/oauth2/token": TOKEN_EXCHANGE}

_KEPT = ("operationId", "parameters", "requestBody", "security", "x-source")


def _refs(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref)
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def _resolve(spec: dict[str, Any], ref: str) -> Any:
    if not ref.startswith("#/"):
        raise ValueError(f"only local $refs are followed, not {ref!r}")
    node: Any = spec
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def make_subset(spec: dict[str, Any], *, commit: str, docs_commit: str) -> dict[str, Any]:
    """The pinned subset of ``spec`` (a full description, or a subset made before)."""
    paths: dict[str, Any] = {}
    for path, methods in ROUTES.items():
        item = spec["paths"].get(path)
        if item is None:
            raise KeyError(f"the description has no path {path}")
        kept: dict[str, Any] = {}
        if "parameters" in item:
            kept["parameters"] = item["parameters"]
        for method in methods:
            if method not in item:
                raise KeyError(f"the description has no {method.upper()} {path}")
            kept[method] = {k: item[method][k] for k in _KEPT if k in item[method]}
        paths[path] = kept
    paths.update(SUPPLEMENTS)
    # Every component a kept part reaches, transitively.
    components: dict[str, dict[str, Any]] = {}
    todo: set[str] = set()
    _refs(paths, todo)
    seen: set[str] = set()
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, _, kind, name = ref.split("/", 3)
        target = _resolve(spec, ref)
        components.setdefault(kind, {})[name] = target
        _refs(target, todo)
    return {
        "openapi": spec["openapi"],
        "info": spec["info"],
        "x-pinned": {
            "source": UPSTREAM,
            "commit": commit,
            "docs": DOCS,
            "docs_commit": docs_commit,
            "made_by": "python -m tests.fake_discord.contract.make_subset",
        },
        "paths": dict(sorted(paths.items())),
        "components": {
            kind: dict(sorted(items.items())) for kind, items in sorted(components.items())
        },
    }


def dumps(subset: dict[str, Any]) -> str:
    """The file's text: stable, so that a refresh's diff shows what changed upstream."""
    return json.dumps(subset, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("openapi", type=Path, help="a copy of specs/openapi.json")
    parser.add_argument("--commit", required=True, help="its discord-api-spec commit")
    parser.add_argument(
        "--docs-commit", required=True, help="the discord-api-docs commit the limits follow"
    )
    parser.add_argument("--out", type=Path, default=PINNED)
    args = parser.parse_args(argv)
    spec = json.loads(args.openapi.read_text(encoding="utf-8"))
    subset = make_subset(spec, commit=args.commit, docs_commit=args.docs_commit)
    args.out.write_text(dumps(subset), encoding="utf-8")
    print(
        f"{len(subset['paths'])} paths, {len(subset['components']['schemas'])} schemas",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
