"""The puzzles (durak_core.coach.puzzles): every shipped one is re-proven by the solver, the data
file round-trips through the pure module and bad data gets typed errors, the generator is a
function of its seed, and a puzzle is played against the solver's defence."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from bot.cli.generate_puzzles import file_meta, read_checkpoint
from bot.cli.generate_puzzles import main as puzzles_cli
from durak_core import Card, IllegalActionError, Suit, parse_action, parse_move
from durak_core.ai.endgame import brute_force
from durak_core.cards import RANK_NAMES, parse_cards
from durak_core.coach.puzzle_maker import MakerSettings, MakerStats, examine, make_puzzles
from durak_core.coach.puzzle_shape import decisions, distinct, grade_of, shape
from durak_core.coach.puzzles import (
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


@pytest.mark.slow
def test_a_sample_of_the_shipped_puzzles_is_proven_again() -> None:
    """The quick subset's share of the test above: every 25th puzzle."""
    _proven(SHIPPED[::25])


def _graded(puzzles: tuple[Puzzle, ...]) -> None:
    for p in puzzles:
        found = decisions(p)
        assert found.real >= 1 and player_moves(p.line) >= 2  # the first move is a real one
        assert p.grade == grade_of(found.real, found.traps), p.number
        if found.real == 1:
            assert p.grade == "easy", p.number


@pytest.mark.slow  # ~20 s compiled
def test_every_grade_follows_the_real_decisions_of_the_solution() -> None:
    """Issue #48: each player's move on the line is judged again; the grade is that of its
    real decisions and traps, and none with a single real decision is above easy."""
    _graded(SHIPPED)


@pytest.mark.slow
def test_a_sample_of_the_grades_is_checked_again() -> None:
    _graded(SHIPPED[::30])


def test_no_two_shipped_puzzles_are_one_up_to_suits_and_ranks() -> None:
    assert len(SHIPPED) >= 600
    assert distinct(SHIPPED)


def _relabelled(p: Puzzle) -> Puzzle:
    """The puzzle with its plain suits rotated and its ranks packed down to 6, 7, … (the ranks
    no card holds dropped), the trump's rank too; its one move: the first, relabelled."""
    trump = Card.parse(p.trump)
    plain = [s for s in Suit if s != trump.suit]
    turn = {a: b for a, b in zip(plain, plain[1:] + plain[:1], strict=True)}
    cards = [*parse_cards(p.attacker), *parse_cards(p.defender), trump]
    pack = {r: 6 + i for i, r in enumerate(sorted({c.rank for c in cards}))}

    def move(text: str) -> str:
        out = []
        for c in parse_cards(text):
            assert c.suit is not None
            suit = turn.get(c.suit, c.suit)
            out.append(f"{RANK_NAMES[pack[c.rank]]}{suit.letter}")
        return " ".join(out)

    first = parse_move(p.line[0])[1]
    assert first.c >= 0
    return Puzzle(p.number, move(p.attacker), move(p.defender), move(p.trump), p.grade,
                  (f"0 attack {move(str(Card.from_index(first.c)))}",))  # fmt: skip


@pytest.mark.slow
def test_a_relabelled_puzzle_has_its_shape_and_its_proof() -> None:
    """R7, R11: rotating the plain suits and packing the ranks plays alike (order within a suit
    and equal ranks kept): the shape is the same and the solver proves the same one winning
    first move, relabelled."""
    for p in SHIPPED[::60]:
        q = _relabelled(p)
        assert q.attacker != p.attacker or q.defender != p.defender
        assert shape(q) == shape(p)
        verdict = verify(Puzzle(q.number, q.attacker, q.defender, q.trump, "", ()))
        assert verdict.forced_win and verdict.winning == (parse_move(q.line[0])[1],)


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


@pytest.mark.slow
def test_a_resumed_run_makes_the_same_set() -> None:
    """A run stopped after a checkpoint and resumed from it (its puzzles and games) ends with
    the puzzles of one uninterrupted run: the games before are replayed only for the shapes
    met, never judged again."""
    settings = MakerSettings(seed=7, count=4, max_cards=8, node_limit=20_000)
    saved: list[tuple[list[Puzzle], int]] = []
    whole, full = make_puzzles(
        settings, checkpoint=lambda found, stats: saved.append((list(found), stats.games))
    )
    found, games = next((f, g) for f, g in saved if 0 < len(f) < settings.count)
    again, stats = make_puzzles(settings, resume=found, games=games)
    assert again == whole and stats.candidates < full.candidates


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


@pytest.mark.slow
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


def test_a_checkpoint_is_read_back_only_for_the_same_options(tmp_path: Path) -> None:
    """--resume reads the puzzles and games a stopped run of the same options left; a finished
    set or another run's file starts over."""
    settings = MakerSettings(seed=3, count=9)
    out = tmp_path / "p.json"
    out.write_text(dump_puzzles(SHIPPED[:2], file_meta(settings) | {"games": 17}))
    assert read_checkpoint(out, settings) == (list(SHIPPED[:2]), 17)
    assert read_checkpoint(out, MakerSettings(seed=4, count=9)) == ([], 0)
    out.write_text(dump_puzzles(SHIPPED[:2], file_meta(settings)))  # finished: no games
    assert read_checkpoint(out, settings) == ([], 0)
    assert read_checkpoint(tmp_path / "none.json", settings) == ([], 0)
