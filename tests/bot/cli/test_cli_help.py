"""The terminal tools explain themselves: ``durak`` and ``durak --help`` list every command with
one line, each command's help is plain text with every option explained, and a bad ``--rules``
lists the presets and options there are."""

from __future__ import annotations

import pytest

from bot.cli import COMMANDS, main
from durak_core import PRESETS


def test_durak_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    for name, line in COMMANDS.items():
        assert f"  {name}" in listed and line in listed
    assert main([]) == 2  # no command: the same list, and a usage error
    assert capsys.readouterr().out == listed
    assert main(["dance"]) == 2
    assert "unknown command 'dance'" in capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_command_help_is_plain_and_complete(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "``" not in text
    # every option is explained: in the option list, an option's line has its help beside it
    # or on the next line (indented further, not another option)
    lines = text.split("options:", 1)[1].splitlines()
    names = [line.strip() for line in lines if line.strip().startswith("-")]
    assert len(names) >= 2
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("-") or "  " in stripped:
            continue
        after = lines[i + 1] if i + 1 < len(lines) else ""
        assert after.startswith(" " * 8) and not after.strip().startswith("-"), (
            f"{command}: {stripped} has no help"
        )


@pytest.mark.parametrize("command", ["play", "arena"])
def test_bad_rules_list_the_presets(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--opponents", "easy"] if command == "play" else ["--players", "easy,normal"]
    assert main([command, *args, "--rules", "bogus"]) == 2
    said = capsys.readouterr().err.strip()
    assert said.count("\n") == 0 and said.startswith("--rules: ")
    assert all(name in said for name in PRESETS)
    assert "deck_size" in said
