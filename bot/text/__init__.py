"""Every user-facing string, by key. English now; other locales add catalogues beside it.

Use :func:`t`: ``t("lobby.title")``, ``t("err.table_full", max=6)``. Keys missing from a
locale fall back to English, so a partial translation never shows a key to a user.
"""

from __future__ import annotations

from .en import EN

CATALOGUES: dict[str, dict[str, str]] = {"en": EN}


def t(key: str, locale: str | None = None, /, **params: object) -> str:
    catalogue = CATALOGUES.get((locale or "en").split("-")[0], EN)
    template = catalogue.get(key) or EN[key]
    return template.format(**params) if params else template


__all__ = ["CATALOGUES", "EN", "t"]
