# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""What a catalogue holds, where it is kept, and how a count picks the form of a plural message.

Each language's catalogue is a TOML file, ``catalogues/<lang>.toml``: data that translators
edit without touching code, loaded once at import and checked for its shape.

A message is a ``str.format`` template, or — when its words depend on a count — a dict from
CLDR plural categories (``"zero"``, ``"one"``, ``"two"``, ``"few"``, ``"many"``, ``"other"``)
to templates, as in Fluent. Babel supplies each language's categories and the CLDR rule that
maps a number to one of them, so no message special-cases ``n == 1`` (docs/i18n.md).
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from functools import cache
from importlib.resources import files
from typing import TypeAlias

from babel import Locale
from babel.plural import PluralRule

#: The templates of a plural message, by CLDR plural category.
Plural: TypeAlias = dict[str, str]
Message: TypeAlias = str | Plural
Catalogue: TypeAlias = dict[str, Message]

#: The parameter a plural message selects its form by.
COUNT = "n"


def load_catalogue(lang: str) -> Catalogue:
    """``catalogues/<lang>.toml``: every value a template, or a table of plural templates."""
    name = f"catalogues/{lang}.toml"
    data = tomllib.loads(files(__package__).joinpath(name).read_text(encoding="utf-8"))
    for key, message in data.items():
        plural = isinstance(message, dict) and all(isinstance(v, str) for v in message.values())
        if not (isinstance(message, str) or plural):
            raise ValueError(f"{name}: {key!r} is neither a text nor a table of plural texts")
    return data


@cache
def plural_rule(lang: str) -> PluralRule:
    """The CLDR plural rule of a language (cached: parsing a Babel locale takes milliseconds)."""
    return Locale.parse(lang).plural_form


def plural_categories(lang: str) -> frozenset[str]:
    """Every category a plural message needs in ``lang``: Babel's tags plus ``other``."""
    return plural_rule(lang).tags | {"other"}


def plural_category(lang: str, n: object) -> str:
    """The CLDR category of the count ``n`` in ``lang`` (1 → one, 2 → few, 5 → many in ru)."""
    if type(n) is int and 0 <= n < 1000:  # the usual counts: Babel's rule is slow to evaluate
        return _small_count_category(lang, n)
    if isinstance(n, bool) or not isinstance(n, int | float | Decimal):
        raise TypeError(f"a plural count must be a number, not {n!r}")
    return plural_rule(lang)(n)


@cache
def _small_count_category(lang: str, n: int) -> str:
    return plural_rule(lang)(n)


def pick(key: str, message: Message, lang: str, params: dict[str, object]) -> str:
    """The template of ``message`` for these parameters (a plural one needs ``n``)."""
    if isinstance(message, str):
        return message
    if COUNT not in params:
        raise TypeError(f"plural message {key!r} needs its count as the parameter {COUNT}=")
    return message[plural_category(lang, params[COUNT])]


__all__ = [
    "COUNT",
    "Catalogue",
    "Message",
    "Plural",
    "pick",
    "plural_categories",
    "plural_category",
    "plural_rule",
]
