"""discord.py objects that hold reference cycles, taken apart once the bot is done with them.

A ``View`` and its items point at each other, an ``Interaction`` at its response and the
response back at it, and a ``File``'s buffer at its own ``close`` after discord.py has closed
it. Left to the cyclic garbage collector, a few seconds of clicks under load left tens of
thousands of such objects, freed in batches that stopped the event loop for 30–120 ms
(docs/performance.md, "What keeps it cheap"); taken apart, reference counting frees them at once.
"""

from __future__ import annotations

import contextlib
from typing import Any, cast

import discord


def release_view(view: discord.ui.View | None) -> None:
    """Let go of a view built for one message write (its items point back). A click builds
    none (:mod:`bot.ui.click_dispatch`)."""
    if view is not None:
        view.clear_items()


def release_interaction(interaction: discord.Interaction) -> None:
    """Drop an answered interaction's cached ``InteractionResponse`` (its ``_parent`` is the
    interaction). Asked for again, discord.py builds a new one."""
    with contextlib.suppress(AttributeError):
        del cast(Any, interaction)._cs_response


class PictureFile(discord.File):
    """A picture sent from memory. discord.py stubs the buffer's ``close`` while it sends and
    puts the buffer's own bound ``close`` back afterwards, a cycle; this removes it instead."""

    def close(self) -> None:
        super().close()
        with contextlib.suppress(AttributeError):
            del cast(Any, self.fp).close
