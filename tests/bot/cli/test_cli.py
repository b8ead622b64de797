"""The arena (smoke test, tiny budget) and the terminal game (scripted input)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.cli.arena import elo, run, wilson
from bot.cli.play import main as play_main
from durak_core import RuleSet


def test_arena_smoke_prints_json_on_the_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--players", "hard,easy", "--games", "4", "--think-ms", "5", "--json"])
    assert code == 0
    out = capsys.readouterr().out.strip().splitlines()
    rep = json.loads(out[-1])
    assert rep["games"] == 4 and rep["deals"] == 2
    for p in rep["players"]:
        assert p["wins"] + p["duraks"] + p["draws"] <= p["games"] == 4
        lo, hi = p["win_ci95"]
        assert 0 <= lo <= p["win_rate"] <= hi <= 1
        assert set(p["latency_ms"]) >= {"p50", "p95", "p99", "max"}


@pytest.mark.slow
def test_arena_cpu_clock_budgets_hard_by_cpu_time(capsys: pytest.CaptureFixture[str]) -> None:
    """``--clock cpu``: Hard's budget and the latencies count the thread's CPU time, so a strength
    run gets the same search effort on a busy machine; the report says which clock it used."""
    args = ["arena", "--players", "hard,easy", "--games", "2", "--think-ms", "20", "--json"]
    assert main([*args, "--clock", "cpu"]) == 0
    rep = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rep["clock"] == "cpu"
    hard = rep["players"][0]
    # a tiny budget is dominated by fixed costs at times, but the typical search keeps to it
    assert hard["player"] == "hard" and 0 < hard["latency_ms"]["p50"] <= 20 * 1.1
    with pytest.raises(SystemExit) as exc:
        main([*args, "--clock", "sundial"])
    assert exc.value.code == 2 and "--clock" in capsys.readouterr().err


@pytest.mark.slow
def test_arena_mirrors_deals_across_processes() -> None:
    """Mirrored deals: the same player in every seat of a deal; two jobs give the same tally as
    one (deterministic players)."""
    one = run(["normal", "easy", "random"], games=6, seed=3, rules=RuleSet(), think_ms=None, jobs=1)
    two = run(["normal", "easy", "random"], games=6, seed=3, rules=RuleSet(), think_ms=None, jobs=2)
    assert one["games"] == 6
    for a, b in zip(one["players"], two["players"], strict=True):
        assert (a["wins"], a["duraks"], a["draws"]) == (b["wins"], b["duraks"], b["draws"])


def test_wilson_and_elo() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0 and 0.25 < hi < 0.35
    assert elo(0.5, 0.5, 100) == 0
    assert 180 < elo(0.75, 0.5, 100) < 200


def test_arena_rejects_bad_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "hard,genius"]) == 2
    assert "genius" in capsys.readouterr().err


def test_play_shows_only_the_seat_view_and_explains_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    answers = iter(["nonsense", "42", "attack 2H", "1", "quit"])
    code = play_main(["--opponents", "easy", "--seed", "5"], ask=lambda _: next(answers))
    out = capsys.readouterr().out
    assert code == 1  # the player quit
    assert "Not understood" in out
    assert "No option 42" in out
    assert "is not legal now" in out
    assert "Your hand" in out and "Your options" in out
    assert "Easy(1): 6 cards" in out  # R24: only the size of the other hand


def test_play_to_the_end_by_always_choosing_option_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = play_main(["--opponents", "easy,random", "--seed", "2"], ask=lambda _: "1")
    assert code == 0
    assert "Game over" in capsys.readouterr().out


def test_arena_accepts_any_combination_of_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """[variants]: --rules takes a preset plus options (V1 + V2 + V15 here)."""
    code = main(
        [
            "arena",
            "--players",
            "normal,easy",
            "--games",
            "2",
            "--rules",
            "transfer,deck_size=52,jokers",
            "--json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert sum(p["games"] for p in report["players"]) == 4


def test_arena_rejects_impossible_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "normal,easy", "--rules", "classic,jokers"]) == 2
    assert "V15" in capsys.readouterr().err
