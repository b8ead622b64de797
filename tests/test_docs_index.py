"""The docs can be entered: docs/README.md links every file of docs/, every relative link of the
README, the changelog and the docs resolves (the file exists; an anchor names one of the
target's headings), and every citation of a doc's section by name (``docs/bot.md, "Tests"``,
in code, tests and docs) names a section that is there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
INDEX = DOCS / "README.md"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
#: A section cited by name: ``docs/NAME.md, "Section"`` (line breaks and comment marks inside
#: are joined first).
CITATION = re.compile(r'docs/([\w/.-]+\.md)`?,?\s+"([^"]{2,80})"')
#: A bold paragraph lead (``**No-shows.** …``) names a section too.
LEAD = re.compile(r"^\*\*([^*]+?)[.:]?\*\*", re.MULTILINE)
CITING = ("bot/**/*.py", "durak_core/**/*.py", "tests/**/*.py", "benchmarks/*.py", "docs/*.md")


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {anchor(h) for h in HEADING.findall(text)}


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def test_index_links_every_file_of_docs() -> None:
    linked = {(DOCS / target.split("#")[0]).resolve() for target in links(INDEX)}
    files = [p for p in DOCS.iterdir() if p.is_file() and p != INDEX]
    assert len(files) >= 13
    missing = sorted(p.name for p in files if p.resolve() not in linked)
    assert missing == [], "not linked from docs/README.md"


def test_every_relative_link_resolves() -> None:
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]
    broken = []
    checked = 0
    for page in pages:
        for target in links(page):
            path, _, fragment = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            checked += 1
            if not dest.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert checked > 30
    assert broken == []


def test_anchor_follows_github() -> None:
    assert anchor("Running it as a service (systemd)") == "running-it-as-a-service-systemd"
    assert anchor("The `durak_core` API — overview") == "the-durak_core-api--overview"


def sections(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    names = HEADING.findall(text) + LEAD.findall(text)
    return [name.replace("`", "").strip().lower() for name in names]


def names_section(cited: str, names: list[str]) -> bool:
    """A cited name is a section's whole name or its start ("bot_load" for "bot_load — the bot
    under load")."""
    want = cited.strip().lower()
    return any(n == want or (n.startswith(want) and not n[len(want)].isalnum()) for n in names)


def test_every_cited_section_exists() -> None:
    here = Path(__file__).resolve()
    files = [
        p
        for pattern in CITING
        for p in ROOT.glob(pattern)
        if ".venv" not in p.parts and p.resolve() != here
    ]
    missing = []
    checked = 0
    for path in files:
        joined = re.sub(r"\n\s*(?:#|//)?\s*", " ", path.read_text(encoding="utf-8"))
        for doc, cited in CITATION.findall(joined):
            target = DOCS / doc
            checked += 1
            if not target.exists() or not names_section(cited, sections(target)):
                missing.append(f"{path.relative_to(ROOT)}: docs/{doc}, {cited!r}")
    assert checked > 40
    assert missing == []
