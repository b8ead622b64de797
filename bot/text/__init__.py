"""Every user-facing string, by key, in English, Spanish, German and Russian.

Use :func:`t`: ``t("lobby.title", "ru")``, ``t("err.table_full", locale, max=6)``. ``locale`` is a
Discord locale (``"en-US"``, ``"es-ES"``, ``"es-419"``, ``"de"``, ``"ru"``) or a bare language;
anything else is English. A key missing from a catalogue falls back to English, so a partial
translation never shows a key to a user (``tests/bot/test_i18n.py`` keeps them complete).
"""

from __future__ import annotations

from .de import DE
from .en import EN
from .es import ES
from .ru import RU

CATALOGUES: dict[str, dict[str, str]] = {"en": EN, "es": ES, "de": DE, "ru": RU}
LANGUAGES: tuple[str, ...] = tuple(CATALOGUES)
DEFAULT_LANGUAGE = "en"


def language(locale: object | None) -> str:
    """The catalogue for a Discord locale (a ``discord.Locale`` or its string value)."""
    value = str(getattr(locale, "value", locale) or DEFAULT_LANGUAGE)
    lang = value.split("-")[0].lower()
    return lang if lang in CATALOGUES else DEFAULT_LANGUAGE


def t(key: str, locale: object | None = None, /, **params: object) -> str:
    catalogue = CATALOGUES[language(locale)]
    template = catalogue.get(key) or EN[key]
    return template.format(**params) if params else template


__all__ = ["CATALOGUES", "DEFAULT_LANGUAGE", "EN", "LANGUAGES", "language", "t"]
