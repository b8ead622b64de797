"""The size of a slash command as Discord counts it, and the limits it must keep.

Discord (developers/interactions/application-commands.mdx, "Slash Commands"): "Slash commands can
have a maximum of 8000 characters for combined name, description, and value properties for each
command, its options (including subcommands and groups), and choices. When localization fields
are present, only the longest localization for each field (including the default value) is
counted towards the size limit." A bulk overwrite with one command over it is refused whole
(50035, ``APPLICATION_COMMAND_TOO_LARGE``).

>>> command_size({"name": "ab", "description": "xyz",
...               "description_localizations": {"ru": "длинное"},
...               "options": [{"name": "n", "description": "d",
...                            "choices": [{"name": "one", "value": 1}]}]})
15
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

#: Discord's limit per command (the whole tree below a top-level command).
DISCORD_COMMAND_SIZE = 8000
#: Discord's limit on options (subcommands included) at one level, and on choices.
DISCORD_OPTIONS_PER_LEVEL = 25

#: Ours, with room: 10 % under Discord's size for longer translations, 5 options per level for
#: new features (docs/bot.md, "What Discord accepts").
COMMAND_SIZE_BOUND = 7200
OPTIONS_PER_LEVEL_BOUND = 20

JSON = Mapping[str, Any]


def _longest(node: JSON, field: str) -> int:
    """The default value and every localization of ``field``: only the longest counts."""
    values = [str(node.get(field) or "")]
    values += [str(v) for v in (node.get(f"{field}_localizations") or {}).values()]
    return max(len(v) for v in values)


def command_size(command: JSON) -> int:
    """Combined name, description and value lengths of ``command``, its options (subcommands
    and groups included) and choices, counting only the longest localization of each field."""
    size = _longest(command, "name") + _longest(command, "description")
    for choice in command.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in command.get("options") or []:
        size += command_size(option)
    return size


def levels(command: JSON, path: str = "") -> Iterator[tuple[str, int]]:
    """``(path, option count)`` for the command and every subcommand group or subcommand below
    it: each level's options (subcommands and groups count as options of their parent)."""
    here = f"{path} {command.get('name', '')}".strip()
    options = command.get("options") or []
    yield here, len(options)
    for option in options:
        if option.get("type") in (1, 2):  # SUB_COMMAND, SUB_COMMAND_GROUP
            yield from levels(option, here)


def size_problems(command: JSON, path: str) -> list[tuple[str, str]]:
    """What Discord answers a command over its size (the whole bulk overwrite is refused)."""
    size = command_size(command)
    if size <= DISCORD_COMMAND_SIZE:
        return []
    return [
        (
            path,
            f"APPLICATION_COMMAND_TOO_LARGE: Command exceeds maximum size "
            f"({DISCORD_COMMAND_SIZE}); got {size}.",
        )
    ]
