"""The render caches change nothing: table messages and hands rendered with every cache warm
(shared by many tables, games, states and languages, so an entry whose key misses an input
would be served to the wrong message) equal the same renders with every cache cleared first —
embeds, component JSON, contents, pictures' keys, byte for byte. The table message's buttons
written as JSON equal discord.py's view of them."""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest

import bot.ui
from bot.domain import TableStatus
from bot.tables.table import Seat, Table
from bot.ui.hand_view import table_hand
from bot.ui.rules_text import rules_summary
from bot.ui.table_embed import render_table
from bot.ui.table_picture import table_picture
from durak_core import Series, new_game, preset
from durak_core.ai import Level

#: (preset, seats, table language): the trump changing (V14), jokers, teams, a series.
GAMES = [("changing-trump", 4, "ru"), ("jokers", 3, "es"), ("teams", 4, "uk"),
         ("three-losses", 3, "ru"), ("changing-trump", 2, None)]  # fmt: skip
#: Readers' locales: the table's language, another, a Discord locale, an unknown one.
LOCALES = ["en", "ru", "de", "es", "uk", None, "ru-RU", "es-419", "fr"]


def render_caches() -> list[Any]:
    """Every cache of the modules that write messages (functools caches: ``cache_clear``).
    Those of the pictures' drawing and of Babel's plural rules hold no message."""
    found = []
    names = [f"bot.ui.{m.name}" for m in pkgutil.iter_modules(bot.ui.__path__)]
    for name in names:
        for value in vars(importlib.import_module(name)).values():
            if callable(getattr(value, "cache_clear", None)) and value not in found:
                found.append(value)
    return found


CACHES = render_caches()


def test_the_caches_are_found() -> None:
    names = {c.__name__ for c in CACHES}
    assert {"card_text", "_rules_summary", "_seat_line", "_button_rows", "_footer"} <= names


def test_rule_sets_equal_but_for_their_preset_name_get_their_own_summary() -> None:
    """``RuleSet.name`` takes no part in equality: the classic preset and a custom table with
    the same options shared one cached summary, so either showed the other's name, depending
    on which a process drew first."""
    classic = preset("classic")
    custom = replace(classic, name="custom")
    assert classic == custom and hash(classic) == hash(custom)
    for first, second in ((classic, custom), (custom, classic)):
        for cache in CACHES:
            cache.cache_clear()
        shown = rules_summary(first, "en"), rules_summary(second, "en")
        for cache in CACHES:
            cache.cache_clear()
        assert shown == (rules_summary(first, "en"), rules_summary(second, "en"))
    assert rules_summary(classic, "en") != rules_summary(custom, "en")


def snapshot(table: Table, rng: random.Random, k: int) -> str:
    """Everything the bot sends for ``table`` now, as JSON: the table message (two variants)
    and each human's hand (in the table's language or another)."""
    out: list[Any] = []
    for press, images, launch in ((["Bo"], True, False), ([], False, True)):
        embed, rows = render_table(table, press_hand=press, images=images, launch=launch)
        components = rows.to_components()
        assert components == rows.as_view().to_components()  # the JSON is discord.py's
        out.append([embed.to_dict(), components])
    scene = table_picture(table)
    compared = tuple(getattr(scene, f.name) for f in fields(scene) if f.compare)
    assert hash(scene) == hash(compared)  # the kept hash is the generated one's
    out.append(repr(scene))
    view = table.public_view()
    for seat, s in enumerate(table.seats):
        if s.user_id is None:
            continue
        for loc in (table.language if k % 2 else LOCALES[(k + seat) % len(LOCALES)],):
            focus = rng.choice(view.table)[0] if view.table and rng.random() < 0.3 else None
            hand = table_hand(table, seat, loc=loc, images=rng.random() < 0.5,
                              updates_until=1.7e9 + k, focus=focus,
                              notice="!" if k % 7 == 0 else None)  # fmt: skip
            out.append([hand.content, hand.view.to_components(), repr(hand.picture),
                        hand.version, repr(hand.offers)])  # fmt: skip
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


def moments(name: str, n: int, lang: str | None, seed: int) -> Iterator[tuple[Table, int]]:
    """A table through two games of a series, with players going away, leaving, coming back,
    passing for the bout, timing out, and the table's language changing on the way."""
    rules, rng = preset(name), random.Random(seed)
    table = Table(f"{seed:08x}", 1, 2, 3, rules, n, 0, language=lang)
    table.seats = [Seat("Ann", user_id=1), Seat("Бо", user_id=2)] + [
        Seat(f"AI {i}", ai_level=Level.HARD, replaced=i == 1) for i in range(n - 2)
    ]
    table.series = Series(rules, n)
    k = 0
    for _ in range(2):
        table.status, table.seed = TableStatus.RUNNING, rng.getrandbits(256)
        table.events, table.notes, table.timed_out = [], [], []
        table.away, table.left, table.auto_pass = set(), set(), {}
        s = table.state = new_game(rules, n, seed=table.seed)
        table.note("r8", 0, s.public_view().trump_card)
        while not s.finished:
            k += 1
            seat = rng.choice([p for p in range(n) if s.legal_actions(p)])
            s, events = s.apply(seat, rng.choice(s.legal_actions(seat)))
            table.events.extend(events)
            table.state, table.version = s, table.version + 1
            change = rng.random()
            if change < 0.05:
                table.away ^= {rng.randrange(2)}
            elif change < 0.07:
                table.left ^= {rng.randrange(2)}
            elif change < 0.12:
                table.auto_pass = {} if table.auto_pass else {0: s.public_view().bout}
            elif change < 0.15:
                table.timed_out.append(len(table.events) - 1)
            elif change < 0.18:
                table.deadline = None if table.deadline else 1.7e9 + k
            elif change < 0.20:
                table.note("back", rng.randrange(n))
            elif change < 0.21:
                table.language = rng.choice(LOCALES[:6])
            yield table, k
        assert table.series is not None and s.result is not None
        table.series.record(s.result, 0)
        table.status = TableStatus.FINISHED
        yield table, k


def renders(clear: bool) -> list[str]:
    out = []
    for i, (name, n, lang) in enumerate(GAMES):
        rng = random.Random(i)  # the same choices in both passes
        for table, k in moments(name, n, lang, 100 + i):
            if clear:
                for cache in CACHES:
                    cache.cache_clear()
            out.append(snapshot(table, rng, k))
    return out


@pytest.mark.slow  # over a second: out of the quick subset
def test_cached_renders_equal_uncached_ones() -> None:
    warm = renders(clear=False)  # entries of every table and state before, served again
    cleared = renders(clear=True)
    assert len(warm) > 200
    for a, b in zip(warm, cleared, strict=True):
        assert a == b
