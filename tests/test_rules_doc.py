"""docs/rules.md is the normative rules text: every rule id (R1–R25, and the V id of every
declared variant option) is defined there, and every id that a test, the engine or the bot's
texts (refusals included) cite is one of them, so a reader can look each one up in the
repository."""

from __future__ import annotations

import re
from pathlib import Path

from durak_core.rules import OPTIONS

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
#: A rule's definition: ``- R12. text`` (the default game) or ``- V3 Name: text`` (variants).
DEFINED = re.compile(r"^- (R\d+)\. |^- (V\d+) ", re.MULTILINE)
CITED = re.compile(r"\b([RV]\d{1,2})\b")
#: Where rules are cited: the tests, the engine, the bot (its code and its texts in every
#: language) and the other docs.
CITING = ("tests/**/*.py", "durak_core/**/*.py", "bot/**/*.py", "bot/**/*.toml", "docs/*.md")


def defined() -> list[str]:
    return [a or b for a, b in DEFINED.findall(RULES.read_text())]


def test_every_rule_id_is_defined_once() -> None:
    ids = defined()
    expected = [f"R{n}" for n in range(1, 26)] + [option.rule for option in OPTIONS]
    assert sorted(ids) == sorted(expected)
    assert len(ids) == len(set(ids))


def test_every_cited_rule_id_is_defined_in_docs_rules() -> None:
    known = set(defined())
    cited: dict[str, set[str]] = {}
    for pattern in CITING:
        for path in ROOT.glob(pattern):
            if ".venv" in path.parts or path == RULES:
                continue
            for rule in CITED.findall(path.read_text(encoding="utf-8")):
                cited.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    assert len(cited) > 30  # the tests do cite the rules
    unknown = {rule: sorted(paths) for rule, paths in cited.items() if rule not in known}
    assert unknown == {}


def test_the_rules_are_cited_from_inside_the_repository() -> None:
    """The rules once lived outside the repository: nothing points there any more."""
    for pattern in ("*.md", "docs/*.md", "durak_core/**/*.py", "bot/**/*.py", "tests/**/*.py"):
        for path in ROOT.glob(pattern):
            if ".venv" in path.parts or path == Path(__file__):
                continue
            assert "shared/RULES.md" not in path.read_text(encoding="utf-8"), path
