"""Every user-facing string, by key, in English, Spanish, German, Russian and Ukrainian.

Use :func:`t`: ``t("lobby.title", "ru")``, ``t("err.table_full", locale, n=6)``. ``locale`` is a
Discord locale (``"en-US"``, ``"es-ES"``, ``"es-419"``, ``"de"``, ``"ru"``, ``"uk"``) or a bare
language; anything else is English. A key missing from a catalogue falls back to English, so a
partial translation never shows a key to a user (``tests/bot/test_i18n.py`` keeps them complete).
A plural message (see :mod:`bot.text.catalogue`) takes its count as ``n`` and picks its form by
the language's CLDR rule: ``t("table.cards", "ru", n=2)`` → «2 карты».
"""

from __future__ import annotations

from .catalogue import Catalogue, load_catalogue, pick

CATALOGUES: dict[str, Catalogue] = {
    lang: load_catalogue(lang) for lang in ("en", "es", "de", "ru", "uk")
}
LANGUAGES: tuple[str, ...] = tuple(CATALOGUES)
EN = CATALOGUES["en"]
DEFAULT_LANGUAGE = "en"


def language(locale: object | None) -> str:
    """The catalogue for a Discord locale (a ``discord.Locale`` or its string value)."""
    if type(locale) is str:  # the usual case, asked on every text: one look-up
        known = _LANGUAGE_OF.get(locale)
        if known is not None:
            return known
    elif locale is None:
        return DEFAULT_LANGUAGE
    value = str(getattr(locale, "value", locale) or DEFAULT_LANGUAGE)
    lang = _LANGUAGE_OF.get(value)
    if lang is None:  # a handful of locales: remembered (every message asks)
        lang = value.split("-")[0].lower()
        lang = _LANGUAGE_OF[value] = lang if lang in CATALOGUES else DEFAULT_LANGUAGE
    return lang


_LANGUAGE_OF: dict[str, str] = {}


def t(key: str, locale: object | None = None, /, **params: object) -> str:
    lang = language(locale)
    message = CATALOGUES[lang].get(key)
    if not message:
        lang, message = DEFAULT_LANGUAGE, EN[key]
    if type(message) is not str:  # a plural message (most are plain: no call for them)
        message = pick(key, message, lang, params)
    return message.format(**params) if params else message


__all__ = ["CATALOGUES", "DEFAULT_LANGUAGE", "EN", "LANGUAGES", "Catalogue", "language", "t"]
