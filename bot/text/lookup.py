# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""The loaded catalogues and the look-up of a message by key and locale (:func:`t`).

Kept apart from the package's ``__init__`` because it is compiled (.build/backend.py: every
message the bot writes asks it), and mypyc cannot compile a package's ``__init__`` that imports
its own submodules (the compiled module runs before ``__path__`` is set).
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


__all__ = ["CATALOGUES", "DEFAULT_LANGUAGE", "EN", "LANGUAGES", "language", "t"]
