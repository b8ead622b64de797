"""Command, option and choice names and descriptions in every catalogue language.

Commands declare their texts as ``locale_str(english, key=...)`` (see :func:`ls`); discord.py
asks this translator for every Discord locale when it syncs, and sends the answers as
``name_localizations`` / ``description_localizations``. English locales keep the defaults.
"""

from __future__ import annotations

from discord import Locale
from discord.app_commands import TranslationContextTypes, Translator, locale_str

from . import CATALOGUES, EN, language

#: The Discord locales we translate into (English ones use the defaults).
LOCALES: tuple[Locale, ...] = (
    Locale.spain_spanish,
    Locale.latin_american_spanish,
    Locale.german,
    Locale.russian,
    Locale.ukrainian,
)


def ls(key: str, **params: object) -> locale_str:
    """A translatable command text: the English default, keyed for the translator; ``params``
    fill its placeholders in every language (a range's bounds, said where they are defined)."""
    text = EN[key]
    if not isinstance(text, str):
        raise TypeError(f"{key!r} is a plural message, not a command text")
    return locale_str(text.format(**params) if params else text, key=key, params=params)


class DurakTranslator(Translator):
    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        return translate(string, locale)


def translate(string: locale_str, locale: Locale) -> str | None:
    """The translation of a keyed ``locale_str``; None keeps Discord's default (English)."""
    key = string.extras.get("key")
    lang = language(locale)
    if not isinstance(key, str) or lang == "en":
        return None
    text = CATALOGUES[lang].get(key)
    if not isinstance(text, str):
        return None
    params = string.extras.get("params")
    return text.format(**params) if params else text


__all__ = ["LOCALES", "DurakTranslator", "ls", "translate"]
