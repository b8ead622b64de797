"""The puzzles (durak_core.ai.puzzles): every shipped one is re-proven by the solver, the data
file round-trips through the pure module and bad data gets typed errors, the generator is a
function of its seed, and a puzzle is played against the solver's defence."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from bot.cli.generate_puzzles import main as puzzles_cli
from durak_core import IllegalActionError, parse_action, parse_move
from durak_core.ai.endgame import brute_force
from durak_core.ai.puzzle_maker import MakerSettings, MakerStats, examine, make_puzzles
from durak_core.ai.puzzles import (
    GRADES,
    PLAYER,
    Puzzle,
    PuzzleFormatError,
    PuzzleOverError,
    PuzzlePlay,
    daily_number,
    dump_puzzles,
    parse_puzzles,
    player_moves,
    verify,
)


def shipped_text() -> str:
    return resources.files("durak_core.data").joinpath("puzzles.json").read_text("utf-8")


SHIPPED = parse_puzzles(shipped_text())


def test_at_least_500_puzzles_of_every_grade_are_shipped() -> None:
    assert len(SHIPPED) >= 500
    assert [p.number for p in SHIPPED] == list(range(1, len(SHIPPED) + 1))
    grades = Counter(p.grade for p in SHIPPED)
    assert set(grades) == set(GRADES)
    assert all(n >= 50 for n in grades.values()), grades
    positions = {(p.attacker, p.defender, p.trump) for p in SHIPPED}
    assert len(positions) == len(SHIPPED)  # no puzzle twice


def _proven(puzzles: tuple[Puzzle, ...]) -> None:
    for p in puzzles:
        verdict = verify(p)
        assert verdict.forced_win, p.number
        assert verdict.winning == (p.first_move,), p.number


@pytest.mark.slow  # ~6 s compiled, ~30 s as pure Python
def test_every_shipped_puzzle_is_a_forced_win_with_one_winning_first_move() -> None:
    """The solver proves each again (R16-R20 decide the outcomes): a forced win for the
    attacker, exactly one winning first move, and it is the first move of the solution."""
    _proven(SHIPPED)


def test_a_sample_of_the_shipped_puzzles_is_proven_again() -> None:
    """The quick subset's share of the test above: every 25th puzzle."""
    _proven(SHIPPED[::25])


def test_the_grade_follows_the_length_of_the_solution() -> None:
    meta = json.loads(shipped_text())["meta"]
    easy, medium = meta["grade_bounds"]
    for p in SHIPPED:
        moves = player_moves(p.line)
        assert moves >= 2
        expected = "easy" if moves <= easy else "medium" if moves <= medium else "hard"
        assert p.grade == expected, p.number


def test_the_data_file_round_trips() -> None:
    meta = json.loads(shipped_text())["meta"]
    again = dump_puzzles(SHIPPED, meta)
    assert again == shipped_text()
    assert parse_puzzles(again) == SHIPPED


def _doc(**changes: object) -> str:
    row: dict[str, object] = {
        "number": 1,
        "attacker": "6S AS",
        "defender": "7S",
        "trump": "6H",
        "grade": "easy",
        "line": ["0 attack AS", "1 take", "0 attack 6S", "1 defend 6S 7S"],
    }
    row.update(changes)
    return json.dumps({"format": 1, "meta": {}, "puzzles": [row]})


def test_a_small_file_loads() -> None:
    (p,) = parse_puzzles(_doc())
    assert p == Puzzle(
        1, "6S AS", "7S", "6H", "easy", tuple(json.loads(_doc())["puzzles"][0]["line"])
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "not JSON"),
        (json.dumps({"format": 2, "puzzles": []}), "format 1"),
        (json.dumps({"format": 1, "puzzles": []}), "no list"),
        (json.dumps({"format": 1, "puzzles": ["x"]}), "not an object"),
        (_doc(number=2), "numbered 2"),
        (_doc(grade="expert"), "grade 'expert'"),
        (_doc(attacker=5), "are needed"),
        (_doc(line=[]), "non-empty"),
        (_doc(attacker="6S XX"), "puzzle 1"),
        (_doc(defender="6S"), "held twice"),
        (_doc(defender=""), "both seats"),
        (_doc(line=["1 take"]), "out of turn"),
        (_doc(line=["0 attack 7S"]), "puzzle 1"),  # not in the hand: the engine refuses it
        (_doc(line=["0 attack 6S"]), "does not end in the player's win"),
    ],
)
def test_bad_data_gets_a_typed_error_naming_the_puzzle(text: str, says: str) -> None:
    with pytest.raises(PuzzleFormatError, match=says) as caught:
        parse_puzzles(text)
    assert isinstance(caught.value, ValueError)


@pytest.mark.slow
def test_the_generator_is_a_function_of_its_seed() -> None:
    settings = MakerSettings(seed=7, count=3, max_cards=8, node_limit=20_000)
    first, stats = make_puzzles(settings)
    again, _ = make_puzzles(settings)
    assert first == again and len(first) == 3
    assert stats.candidates >= 3 and stats.games >= 1
    for p in first:
        assert verify(p).winning == (p.first_move,)


def test_a_position_with_two_winning_first_moves_is_not_a_puzzle() -> None:
    """Either ace wins (R16: the defender cannot beat it, takes, and the other ace follows)."""
    stats = MakerStats()
    candidate = Puzzle(1, "AS AC", "6D", "6H", "", ())
    assert examine(candidate, MakerSettings(seed=0, count=1), stats) is None
    assert stats.not_unique == 1


def test_the_shortest_puzzle_agrees_with_brute_force() -> None:
    """The solver's proof on the smallest shipped puzzle, checked by plain minimax."""
    p = min(SHIPPED, key=lambda q: (q.cards, q.number))
    s = p.start()
    assert brute_force(s, PLAYER) == 1.0
    for a in s.legal_actions(PLAYER):
        child, _ = s.apply(PLAYER, a)
        assert (brute_force(child, PLAYER) == 1.0) == (a == p.first_move)


def test_playing_the_solution_solves_the_puzzle() -> None:
    """The defence is the solver's fixed choice, so clicking the solution's moves replays it."""
    for p in SHIPPED[:20]:
        play = PuzzlePlay(p)
        for move in p.line:
            seat, action = parse_move(move)
            if seat == PLAYER:
                assert action in play.choices()
                play.play(action)
        assert play.status == "solved"
        assert [f"{s} {a}" for s, a in play.moves] == list(p.line)
        assert play.choices() == ()


def test_a_wrong_first_move_fails_at_once() -> None:
    p = SHIPPED[0]
    play = PuzzlePlay(p)
    wrong = next(a for a in play.choices() if a != p.first_move)
    play.play(wrong)
    assert play.status == "failed"
    assert play.moves == [(PLAYER, wrong)]
    with pytest.raises(PuzzleOverError, match="failed already"):
        play.play(p.first_move)


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    play = PuzzlePlay(SHIPPED[0])
    with pytest.raises(IllegalActionError):
        play.play(parse_action("take"))
    assert play.moves == [] and play.status == "playing"


def test_the_daily_puzzle_is_a_function_of_server_and_day() -> None:
    assert daily_number(1, 20_000, 600) == daily_number(1, 20_000, 600)
    picks = {daily_number(1, day, 600) for day in range(20_000, 20_060)}
    assert len(picks) > 40  # spread over the set, not one puzzle every day
    assert {daily_number(g, 20_000, 600) for g in range(50)} != {daily_number(0, 20_000, 600)}
    assert all(1 <= daily_number(g, 1, 3) <= 3 for g in range(30))
    with pytest.raises(ValueError):
        daily_number(1, 1, 0)


@pytest.mark.slow
def test_the_generate_command_writes_a_file_the_bot_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.json"
    args = ["generate", "--seed", "3", "--count", "2", "--max-cards", "8", "--out", str(out)]
    assert puzzles_cli(args) == 0
    made = parse_puzzles(out.read_text("utf-8"))
    assert len(made) == 2
    assert capsys.readouterr().out.startswith("2 puzzles (")
    meta = json.loads(out.read_text("utf-8"))["meta"]
    assert meta["command"] == (
        "durak puzzles generate --seed 3 --count 2 --max-cards 8 --node-limit 30000"
    )
    assert puzzles_cli(["generate", "--count", "0", "--out", str(out)]) == 2
    assert "must be positive" in capsys.readouterr().err
    assert puzzles_cli(["generate", "--out", str(tmp_path / "no" / "p.json")]) == 2
    assert "no folder" in capsys.readouterr().err
