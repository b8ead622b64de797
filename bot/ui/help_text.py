"""The ``/durak help`` answer: the commands at a glance, and where the card table (the Discord
Activity) stands on this bot: off (not mentioned), on and built (the table message's button),
or on but not built (how to build it)."""

from __future__ import annotations

from bot.text import t

#: How the Activity's client is built by hand (.build/activity_client.py says the same at
#: install time; the log and ``/durak help`` say it where it is not built).
BUILD_COMMAND = "cd activity && npm ci && npm run build"
#: The commands the overview names, by placeholder (``help.overview``).
_COMMANDS = (
    "new",
    "join",
    "start",
    "rules",
    "leave",
    "back",
    "leaderboard",
    "stats",
    "history",
    "settings",
)
#: Commands of their own beside ``/durak`` (``DurakCog.own_commands``).
_OWN_COMMANDS = ("tournament",)


def help_text(loc: str, *, activity_built: bool | None) -> str:
    """``activity_built``: None when the Activity is off, else whether its client is built."""
    group = t("name.durak", loc)
    names = {name: f"/{group} {t(f'name.{name}', loc)}" for name in _COMMANDS}
    names |= {name: f"/{t(f'name.{name}', loc)}" for name in _OWN_COMMANDS}
    lines = [t("help.overview", loc, **names)]
    puzzle = f"/{group} {t('name.puzzle', loc)}"
    lines.append(t("help.puzzle", loc, puzzle=puzzle, daily=t("pname.daily", loc)))
    review = f"/{group} {t('name.review', loc)}"
    lines.append(t("help.review", loc, review=review, button=t("btn.review", loc)))
    if activity_built is True:
        lines.append(t("help.activity_ready", loc))
    elif activity_built is False:
        lines.append(t("help.activity_not_built", loc, command=BUILD_COMMAND))
    return "\n\n".join(lines)
