"""CI runs the README's test command, exactly (the guide's promise to a new developer): .ci/run
holds the same line, and what it asks of pytest is installed by the same command."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The one-line ``sh`` blocks of README's "The two commands" section, in order: install
    and test, the quick subset, run the bot."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The two commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+)\n```", section)


def test_ci_runs_the_readme_test_command_as_written() -> None:
    install_and_test = readme_commands()[0]
    assert install_and_test.startswith("python -m pip install -e '.[dev]' && python -m pytest")
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install_and_test in ci_lines


def test_the_commands_options_come_with_the_install() -> None:
    # `-n` is pytest-xdist's: a fresh machine has it only if the dev extra names it.
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["dev"]
    full, quick, _run = readme_commands()
    assert full.endswith(" -n auto") and quick.endswith(" -n auto")
    assert any(req.startswith("pytest-xdist") for req in dev)
