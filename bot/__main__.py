"""Entry point: ``python -m bot``."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(
            "error: DISCORD_TOKEN is not set. Put it in the environment or in .env "
            "(see .env.example).",
            file=sys.stderr,
        )
        return 2
    print("error: the bot is not built yet (see the [bot] issue).", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
