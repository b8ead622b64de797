""".env.example documents every setting of ``bot.settings.Settings`` and nothing else, each with
the default the code has (an admin who copies it changes nothing by copying)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.settings import Settings

EXAMPLE = Path(__file__).resolve().parents[1] / ".env.example"
#: ``NAME=value``, also commented out (``# NAME=value``: an optional setting shown off).
LINE = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=(\S*)$")


def example_values() -> dict[str, str]:
    values: dict[str, str] = {}
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        found = LINE.match(line)
        if found:
            values.setdefault(found[1], found[2].strip())
    return values


def test_every_setting_is_in_the_example_and_nothing_else() -> None:
    documented = set(example_values())
    fields = {name.upper() for name in Settings.model_fields}
    assert fields - documented == set(), "settings missing from .env.example"
    assert documented - fields == set(), ".env.example names settings the bot does not have"


def test_the_example_shows_each_default() -> None:
    """A value shown is the code's default (an empty one is the default too: the settings
    ignore empty values). Where the default is "not set", the example may show a working value
    (it must be valid)."""
    shown = example_values()
    for name, field in Settings.model_fields.items():
        value = shown[name.upper()]
        if field.is_required():
            assert value == "", name
            continue
        if value == "":  # env_ignore_empty: an empty value is the default itself
            continue
        parsed = Settings.model_validate({"discord_token": "x", name: value})
        if field.default is not None:
            assert getattr(parsed, name) == field.default, (name, value, field.default)


def test_a_renamed_setting_is_still_read_by_its_first_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ACTIVITY_TABLES_PER_USER`` became ``TABLES_PER_USER`` (it caps ``/durak new`` too): an
    admin's existing ``.env`` keeps its value."""
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("ACTIVITY_TABLES_PER_USER", "7")
    assert Settings(_env_file=None).tables_per_user == 7  # type: ignore[call-arg]
    monkeypatch.delenv("ACTIVITY_TABLES_PER_USER")
    monkeypatch.setenv("TABLES_PER_USER", "5")
    assert Settings(_env_file=None).tables_per_user == 5  # type: ignore[call-arg]
