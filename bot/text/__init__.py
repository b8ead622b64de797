"""Every user-facing string, by key, in English, Spanish, German, Russian and Ukrainian.

Use :func:`t`: ``t("lobby.title", "ru")``, ``t("err.table_full", locale, n=6)``. ``locale`` is a
Discord locale (``"en-US"``, ``"es-ES"``, ``"es-419"``, ``"de"``, ``"ru"``, ``"uk"``) or a bare
language; anything else is English. A key missing from a catalogue falls back to English, so a
partial translation never shows a key to a user (``tests/bot/text/test_i18n.py`` keeps them
complete).
A plural message (see :mod:`bot.text.catalogue`) takes its count as ``n`` and picks its form by
the language's CLDR rule: ``t("table.cards", "ru", n=2)`` → «2 карты».
"""

from __future__ import annotations

from .catalogue import Catalogue
from .lookup import CATALOGUES, DEFAULT_LANGUAGE, EN, LANGUAGES, language, t

__all__ = ["CATALOGUES", "DEFAULT_LANGUAGE", "EN", "LANGUAGES", "Catalogue", "language", "t"]
