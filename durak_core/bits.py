# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Walking the set bits of a mask: the one loop the engine uses for card sets and seat sets.

Card sets are masks over card indices (:mod:`durak_core.cards`), seat sets masks over seat
numbers (:mod:`durak_core.state`).

>>> set_bits(0b101100)
[2, 3, 5]
>>> lowest_bit(0b101100), lowest_bit(0)
(2, -1)
>>> out: list[str] = []
>>> append_each(out, tuple("abcdef"), 0b101100)
>>> out
['c', 'd', 'f']
"""

from __future__ import annotations

from typing import Final, TypeVar

T = TypeVar("T")

#: ``_INDICES[i] == i``, for :func:`set_bits` (every card index and every seat number fits).
_INDICES: Final = tuple(range(128))


def append_each(out: list[T], items: tuple[T, ...], mask: int) -> None:
    """Append ``items[i]`` to ``out`` for every set bit ``i`` of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        out.append(items[low.bit_length() - 1])
        mask ^= low


def set_bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out: list[int] = []
    append_each(out, _INDICES, mask)
    return out


def lowest_bit(mask: int) -> int:
    """The lowest set bit of ``mask``, or -1 if it is empty."""
    return (mask & -mask).bit_length() - 1
