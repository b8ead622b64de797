"""Discord's published contract, as the fake enforces it (docs/fake_discord.md, "The
contract"): the pinned part of its OpenAPI description, the script that refreshes it, the
relaxations, and the check of requests against it."""

from pathlib import Path

#: The pinned subset of Discord's OpenAPI description (made by ``make_subset``).
PINNED = Path(__file__).with_name("openapi_subset.json")
