"""Entry point: ``python -m bot [--sync [--guild ID]]`` (also the ``durak-bot`` script)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from pydantic import ValidationError

from .settings import Settings

EXIT_CONFIG = 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="The Durak Discord bot.")
    p.add_argument(
        "--sync",
        action="store_true",
        help="register the slash commands with Discord, then exit (not done on every start)",
    )
    p.add_argument(
        "--guild",
        type=int,
        default=None,
        help="with --sync: sync to this guild only (instant); default DEV_GUILD_ID or global",
    )
    return p


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_CONFIG


def load_settings() -> Settings | str:
    """The settings, or a one-line reason they are unusable."""
    try:
        return Settings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as exc:
        fields = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
        if "discord_token" in fields:
            return (
                "DISCORD_TOKEN is not set. Put it in the environment or in .env (see .env.example)."
            )
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]).upper()
        return f"invalid setting {where}: {first['msg']} (see .env.example)"


def _runner() -> asyncio.Runner:
    """An event loop runner: uvloop's loop where it is installed (its socket and callback
    handling take a good part off the bot's CPU time per request), else asyncio's own."""
    try:
        import uvloop
    except ImportError:  # Windows
        return asyncio.Runner()
    return asyncio.Runner(loop_factory=uvloop.new_event_loop)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = load_settings()
    if isinstance(settings, str):
        return _fail(settings)
    logging.basicConfig(
        level=settings.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from .app import run_bot  # imported late: argument errors must not pay for discord.py

    guild = args.guild if args.guild is not None else settings.dev_guild_id
    try:
        with _runner() as runner:
            return runner.run(run_bot(settings, sync=args.sync, sync_guild=guild))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
