"""What a test gets back from slash/click/select: a live view of one interaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .model import JSON, ButtonInfo, FakeInteraction, FakeMessage

if TYPE_CHECKING:
    from .driver import FakeDiscord

# Interaction callback types, for readable assertions.
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE, MODAL = (
    1,
    4,
    5,
    6,
    7,
    8,
    9,
)
#: The answer that opens the app's Activity (interaction callback type 12).
LAUNCH_ACTIVITY = 12


class InteractionResult:
    """Reads through to the fake's state, so later edits and followups show up here."""

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self._fake = fake
        self.interaction = interaction
        self.id, self.token = interaction.id, interaction.token  # fixed for its lifetime

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} response_type={self.response_type}"
            f" message={self.message!r}>"
        )

    @property
    def response_type(self) -> int | None:
        """4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.interaction.response_type

    @property
    def late(self) -> bool:
        """True if the first response came after Discord's 3-second window."""
        return self.interaction.late

    @property
    def message(self) -> FakeMessage | None:
        """The interaction's @original message as it is now (for 6/7: the clicked message)."""
        mid = self.interaction.original_message_id
        return self._fake.store.messages.get(mid) if mid is not None else None

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[JSON]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[JSON]:
        return self.message.components if self.message else []

    @property
    def buttons(self) -> list[ButtonInfo]:
        return self.message.buttons if self.message else []

    @property
    def followups(self) -> list[FakeMessage]:
        return [self._fake.store.messages[m] for m in self.interaction.followup_ids]

    @property
    def modal(self) -> JSON | None:
        return self.interaction.modal

    @property
    def autocomplete_choices(self) -> list[JSON] | None:
        return self.interaction.autocomplete_choices

    async def wait_for_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        await self._fake.wait_for(lambda: len(self.interaction.followup_ids) >= count, timeout)
        return self.followups

    async def wait_until(
        self, predicate: Callable[[InteractionResult], object], timeout: float = 5.0
    ) -> None:
        await self._fake.wait_for(lambda: predicate(self), timeout)
