"""A change a table refuses, and why: the one exception the table's parts raise."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rejected(Exception):
    """A change the table refused; ``key`` names the catalogue text, ``params`` fill it."""

    key: str
    params: dict[str, object] = field(default_factory=dict)
