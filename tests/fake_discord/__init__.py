"""A fake Discord (REST + gateway) on 127.0.0.1 that the real discord.py client talks to.

See docs/fake_discord.md. Typical use::

    fake = FakeDiscord()
    await fake.start()
    with fake.patch_discord():
        async with fake.run_client(bot):
            result = await fake.slash(user, channel, "durak", "new")
    await fake.stop()
"""

from .driver import FakeDiscord
from .model import (
    ButtonInfo,
    FakeAttachment,
    FakeInteraction,
    FakeMessage,
    RecordedRequest,
    Violation,
)
from .results import (
    AUTOCOMPLETE,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    InteractionResult,
)

__all__ = [
    "AUTOCOMPLETE",
    "DEFERRED_MESSAGE",
    "DEFERRED_UPDATE",
    "MESSAGE",
    "MODAL",
    "UPDATE_MESSAGE",
    "ButtonInfo",
    "FakeAttachment",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "InteractionResult",
    "RecordedRequest",
    "Violation",
]
