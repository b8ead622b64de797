"""docs/engine.md's lists of fields are the code's: the views' table names every field of
``PublicView`` and ``SeatView`` once, and the variants paragraph every rule option with its rule
id (R23–R25, V1–V18)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from durak_core.rules import OPTIONS
from durak_core.views import PublicView, SeatView

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def _section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _view_table_fields() -> list[str]:
    """The field names in the first column of the Views section's table, in order."""
    names: list[str] = []
    for line in _section("Views").splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            names += re.findall(r"`([a-z_]+)`", first)
    return names


def test_the_views_table_lists_every_field_of_the_views_once() -> None:
    """R23–R25: what a seat may know is documented field by field, none missing or invented."""
    listed = _view_table_fields()
    fields = [f.name for f in dataclasses.fields(SeatView)]
    assert sorted(listed) == sorted(fields)
    assert len(listed) == len(set(listed))
    public = {f.name for f in dataclasses.fields(PublicView)}
    seat_only = set(fields) - public
    seat_row = next(line for line in _section("Views").splitlines() if "`SeatView` only" in line)
    assert set(re.findall(r"`([a-z_]+)`", seat_row.split("|")[1])) == seat_only


def test_the_variants_paragraph_names_every_option_with_its_rule_id() -> None:
    """V1–V18: each ``RuleSet`` option is named with the rule id its ``RuleOption`` cites."""
    section = _section("Variants")
    paragraph = " ".join(section[: section.index("Each field is declared")].split())
    documented = dict(re.findall(r"`([a-z_]+)(?:=False)?` \((V\d+)\)", paragraph))
    assert documented == {option.field: option.rule for option in OPTIONS}
