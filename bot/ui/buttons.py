"""The bot's components as DynamicItems: the custom_id carries everything a click needs, so
buttons keep working after a restart. Custom ids are parsed by strict regexes and then checked
against the live table; they are never trusted.

Formats (all well under Discord's 100 characters)::

    dk:<table>:<seat>:<version>:<code>      a hand button: an engine action code
    dk:<table>:<seat>:<version>:a<card>     a hand button: aim at an open attack card
    dk:<table>:<seat>:<version>:p1|p0       a hand button: "done for this bout" on / off
    dk:<table>:<seat>:<version>:h           a hand button: a practice table's "Hint"
    dks:<table>:<seat>:<version>:<n>        a hand select menu; values are action codes
    dkt:<table>:<op>                        the table message: hand, play (the Activity),
                                            rules, rematch, back
    dkl:<table>:<op>                        the lobby: join, leave, start, cancel, ai-<level>,
                                            ai-remove, ai-open / ai-host (who may seat AIs)
    dkb:<sort>:<page>                       leaderboard pages
    dkr:<tournament>:<op>                   a tournament's sign-up: join, leave
    dkv:<game>                              a finished game's "Review": the game's id
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Protocol, Self

import discord

from durak_core.ai import Level

from .cycles import release_interaction

TABLE_RE = r"(?P<table>[0-9a-f]{8})"
HAND_RE = TABLE_RE + r":(?P<seat>[0-5]):(?P<version>[0-9]{1,9})"


class TableOp(StrEnum):
    """The table message's buttons (``dkt:<table>:<op>``; kept in posted messages)."""

    HAND = "hand"
    #: "Play at the table": launches the Activity (LAUNCH_ACTIVITY, interaction callback 12).
    PLAY = "play"
    RULES = "rules"
    REMATCH = "rematch"
    BACK = "back"


class LobbyOp(StrEnum):
    """The lobby's buttons (``dkl:<table>:<op>``; kept in posted messages)."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    AI_EASY = "ai-easy"
    AI_NORMAL = "ai-normal"
    AI_HARD = "ai-hard"
    AI_REMOVE = "ai-remove"
    #: The host's switch: every seated player may add and remove AI seats, or the host only.
    AI_OPEN = "ai-open"
    AI_HOST = "ai-host"

    @classmethod
    def add_ai(cls, level: Level) -> LobbyOp:
        return cls(f"ai-{level}")

    @property
    def ai_level(self) -> Level | None:
        """The level an "add AI" button seats (None for the other ops)."""
        level = self.value.removeprefix("ai-")
        return Level(level) if level in Level.__members__.values() else None


class SignupOp(StrEnum):
    """A tournament sign-up message's buttons (``dkr:<tournament>:<op>``)."""

    JOIN = "join"
    LEAVE = "leave"


def _one_of(ops: type[StrEnum]) -> str:
    return "(?P<op>" + "|".join(re.escape(op) for op in ops) + ")"


class ClickHandler(Protocol):
    """Implemented by the cog; the items below only parse and delegate."""

    async def on_hand_click(
        self, interaction: discord.Interaction, table: str, seat: int, version: int, code: str
    ) -> None: ...

    async def on_hand_select(
        self, interaction: discord.Interaction, table: str, seat: int, version: int, value: str
    ) -> None: ...

    async def on_table_button(
        self, interaction: discord.Interaction, table: str, op: TableOp
    ) -> None: ...

    async def on_lobby_button(
        self, interaction: discord.Interaction, table: str, op: LobbyOp
    ) -> None: ...

    async def on_board_page(
        self, interaction: discord.Interaction, sort: str, page: int
    ) -> None: ...

    async def on_signup_button(
        self, interaction: discord.Interaction, tournament: str, op: SignupOp
    ) -> None: ...

    async def on_review_button(self, interaction: discord.Interaction, game: str) -> None: ...


def handler(interaction: discord.Interaction) -> ClickHandler:
    found: ClickHandler | None = getattr(interaction.client, "clicks", None)
    if found is None:  # pragma: no cover - the bot always sets it in setup_hook
        raise RuntimeError("the client has no click handler")
    return found


class FromCustomId:
    """What every item below is: rebuilt from its custom id alone (``from_match``), with the
    interaction checked later, by the handler (``answer``). A click on one reaches ``callback``
    without discord.py's view of the clicked message (:mod:`bot.ui.click_dispatch`); once it
    has answered, the interaction is taken apart (:mod:`bot.ui.cycles`)."""

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    async def answer(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.answer(interaction)
        finally:
            release_interaction(interaction)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.from_match(match)


def select_menu(
    custom_id: str,
    options: list[discord.SelectOption] | None = None,
    placeholder: str | None = None,
    row: int | None = None,
) -> discord.ui.Select[Any]:
    """A select menu of action codes (no ``options``: one placeholder, for an item rebuilt from
    its custom id)."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=options or [discord.SelectOption(label="?", value="0")],
        placeholder=placeholder,
        row=row,
    )


def chosen_value(interaction: discord.Interaction) -> str:
    """The value chosen in a select menu ("" unless exactly one: the handler refuses it)."""
    data: Any = interaction.data or {}
    values = data.get("values") or []
    return str(values[0]) if len(values) == 1 else ""


def hand_button_id(table: str, seat: int, version: int, code: str) -> str:
    """The custom id of a hand's button (``code``: an action code, ``a<card>`` or a toggle)."""
    return f"dk:{table}:{seat}:{version}:{code}"


def table_button_id(table: str, op: TableOp) -> str:
    """The custom id of a table message's button (also offered in a finished game's hand)."""
    return f"dkt:{table}:{op}"


def hand_select_id(table: str, seat: int, version: int, n: int) -> str:
    """The custom id of a hand's ``n``-th select menu."""
    return f"dks:{table}:{seat}:{version}:{n}"


class HandButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dk:" + HAND_RE + r":(?P<code>a?[0-9]{1,5}|p[01]|h)",
):
    def __init__(
        self,
        table: str,
        seat: int,
        version: int,
        code: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                row=row,
                custom_id=hand_button_id(table, seat, version, code),
            )
        )
        self.table, self.seat, self.version, self.code = table, seat, version, code

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(
            match["table"], int(match["seat"]), int(match["version"]), match["code"], label="?"
        )

    async def answer(self, interaction: discord.Interaction) -> None:
        await handler(interaction).on_hand_click(
            interaction, self.table, self.seat, self.version, self.code
        )


class HandSelect(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"dks:" + HAND_RE + r":(?P<n>[0-9])",
):
    def __init__(
        self,
        table: str,
        seat: int,
        version: int,
        n: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            select_menu(hand_select_id(table, seat, version, n), options, placeholder, row)
        )
        self.table, self.seat, self.version = table, seat, version

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["table"], int(match["seat"]), int(match["version"]), int(match["n"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        await handler(interaction).on_hand_select(
            interaction, self.table, self.seat, self.version, chosen_value(interaction)
        )


class TableButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dkt:" + TABLE_RE + ":" + _one_of(TableOp),
):
    def __init__(
        self,
        table: str,
        op: TableOp,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, row=row, custom_id=table_button_id(table, op)
            )
        )
        self.table, self.op = table, op

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["table"], TableOp(match["op"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        await handler(interaction).on_table_button(interaction, self.table, self.op)


class LobbyButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dkl:" + TABLE_RE + ":" + _one_of(LobbyOp),
):
    def __init__(
        self,
        table: str,
        op: LobbyOp,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, row=row, custom_id=f"dkl:{table}:{op}")
        )
        self.table, self.op = table, op

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["table"], LobbyOp(match["op"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        await handler(interaction).on_lobby_button(interaction, self.table, self.op)


class BoardButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dkb:(?P<sort>wins|win_rate|rating):(?P<page>[0-9]{1,5})",
):
    def __init__(
        self,
        sort: str,
        page: int,
        *,
        label: str = "?",
        disabled: bool = False,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, disabled=disabled, custom_id=f"dkb:{sort}:{page}"
            )
        )
        self.sort, self.page = sort, page

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["sort"], int(match["page"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        await handler(interaction).on_board_page(interaction, self.sort, self.page)


class SignupButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dkr:(?P<tournament>[0-9a-f]{8}):" + _one_of(SignupOp),
):
    def __init__(
        self,
        tournament: str,
        op: SignupOp,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, disabled=disabled, custom_id=f"dkr:{tournament}:{op}"
            )
        )
        self.tournament, self.op = tournament, op

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["tournament"], SignupOp(match["op"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        await handler(interaction).on_signup_button(interaction, self.tournament, self.op)


#: A recorded game's id: its table, series and game numbers (bot/tables/records.py).
GAME_RE = r"(?P<game>[0-9a-f]{8}\.[0-9]{1,6}\.[0-9]{1,6})"


def review_button_id(game: str) -> str:
    return f"dkv:{game}"


class ReviewButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dkv:" + GAME_RE,
):
    """ "Review" on a finished game's table message: it carries the game's id, so it reviews
    that game even once the table has dealt the next one."""

    def __init__(
        self,
        game: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=review_button_id(game))
        )
        self.game = game

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["game"])

    async def answer(self, interaction: discord.Interaction) -> None:
        await handler(interaction).on_review_button(interaction, self.game)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HandButton,
    HandSelect,
    TableButton,
    LobbyButton,
    BoardButton,
    SignupButton,
    ReviewButton,
)


def is_ours(custom_id: str) -> bool:
    return custom_id.startswith("dk")


def matches_template(custom_id: str) -> bool:
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)
