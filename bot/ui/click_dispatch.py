"""A click on one of the bot's own items, dispatched from its custom id alone.

For a click that matches a ``DynamicItem`` template, discord.py 2.7
(``ViewStore.schedule_dynamic_item_call``) builds a whole ``View.from_message`` of the clicked
message, every button and select of it, walks it for the clicked component, swaps the item
built by ``from_custom_id`` in, refreshes its state and only then calls ``item.callback``. The
bot's items (:class:`bot.ui.buttons.FromCustomId`) are rebuilt from the custom id alone and
never look at that view, yet under ``benchmarks/bot_load.py`` building it was ~2.3 % of the
bot's CPU (py-spy, issue #16), and the view then had to be taken apart again so that it left
no reference cycle for the garbage collector (:mod:`bot.ui.cycles`).

:class:`ClickStore` is discord.py's ``ViewStore`` with that one step replaced for our items:
the clicked component is looked up on the clicked message's parsed components, the item comes
from ``from_match``, then ``interaction_check`` and ``callback`` run as discord.py runs them,
with discord.py's handling of failures (an exception is logged on discord.py's logger, never
raised into the gateway). Any other dynamic item, every view and every modal still take
discord.py's own path.

What it relies on in discord.py (``tests/bot/ui/test_click_dispatch.py`` fails when it changes):
the connection state keeps its store as ``_view_store`` and ``dispatch_dynamic_items`` runs
each match as ``schedule_dynamic_item_call(component_type, factory, interaction, custom_id,
match)`` in a task of its own.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any

import discord
from discord.ui.view import ViewStore

from .buttons import FromCustomId

#: discord.py's logger for failures in dynamic items (``discord.ui.view``), so that a failure
#: in our items is reported where, and as, discord.py reports any other.
_log = logging.getLogger(ViewStore.__module__)


def _components(components: Iterable[Any]) -> Iterator[Any]:
    """A message's components and those they hold (action rows, containers, sections)."""
    for component in components:
        yield component
        yield from _components(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def on_message(message: discord.Message | None, component_type: int, custom_id: str) -> bool:
    """Whether the clicked ``message`` holds a component of that type and custom id: discord.py
    dispatches a dynamic item only then (a custom id forged onto another message is not)."""
    return message is not None and any(
        c.type.value == component_type and getattr(c, "custom_id", None) == custom_id
        for c in _components(message.components)
    )


class ClickStore(ViewStore):
    """discord.py's ``ViewStore``; a click on one of our items skips the view of the message."""

    async def schedule_dynamic_item_call(
        self,
        component_type: int,
        factory: type[discord.ui.DynamicItem[discord.ui.Item[Any]]],
        interaction: discord.Interaction[Any],
        custom_id: str,
        match: re.Match[str],
    ) -> None:
        if not issubclass(factory, FromCustomId):
            await super().schedule_dynamic_item_call(
                component_type, factory, interaction, custom_id, match
            )
            return
        if not on_message(interaction.message, component_type, custom_id):
            return
        try:
            item = factory.from_match(match)
        except Exception:
            _log.exception("Ignoring exception in dynamic item creation for %r", factory)
            return
        try:
            allow = await item.interaction_check(interaction)
        except Exception:
            allow = False
        if not allow:
            return
        try:
            await item.callback(interaction)
        except Exception:
            _log.exception("Ignoring exception in dynamic item callback for %r", item)


def install_click_store(client: discord.Client) -> ClickStore:
    """Put a :class:`ClickStore` in ``client``'s connection state, with whatever its store held
    already (views, dynamic items, modals, running tasks). Idempotent; ``Client.clear()`` puts
    a plain store back, so the bot installs it in ``setup_hook``, which every login runs."""
    state: Any = client._connection
    store = state._view_store
    if isinstance(store, ClickStore):
        return store
    if type(store) is not ViewStore:
        raise TypeError(f"discord.py's connection state holds a {type(store)!r}, not a ViewStore")
    ours = ClickStore(state)
    vars(ours).update(vars(store))
    state._view_store = ours
    return ours
