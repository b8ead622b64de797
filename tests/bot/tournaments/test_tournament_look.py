"""The tournament standings message: its numbers are the core's, it keeps within Discord's embed
limits at every size and in every language, and its picture is a deterministic 800 x 600 PNG.

Inputs are tournaments played with the core's own pairing and bracket (tests/bot/
tournament_stored.py); the expected values come from the core's values built step by step as
they were played, not from the stored games the message reads.
"""

from __future__ import annotations

import io
import re
from fractions import Fraction

import discord
import pytest
from PIL import Image

from bot.text import LANGUAGES, t
from bot.tournaments.logic import Format, places, replay_bracket, standings, withdraw
from bot.tournaments.messages.tournament_bracket import tournament_bracket
from bot.tournaments.messages.tournament_host import with_notes
from bot.tournaments.messages.tournament_standings import (
    StandingsMessage,
    standings_message,
    standings_scene,
    swiss_standings,
    swiss_status,
)
from bot.tournaments.messages.tournament_text import (
    Names,
    num,
    tiebreak_text,
    tiebreak_texts,
    translator_for,
)
from bot.tournaments.pictures.tournament import HEIGHT, MAX_ROWS, WIDTH, label
from bot.tournaments.runner.formats import bracket_events
from bot.tournaments.storage import TournamentStatus
from tests.bot.tournaments.tournament_stored import Stored, elimination, name_of, swiss
from tests.fake_discord.validation import validate_embed


def message(s: Stored, lang: str = "en") -> StandingsMessage:
    return standings_message(s.t, s.entrants, s.rounds, s.games, s.names, translator_for(lang))


def description_rows(m: StandingsMessage) -> list[str]:
    return [line for line in (m.embed.description or "").splitlines() if line.startswith("`")]


def within_limits(e: discord.Embed) -> None:
    """Discord's embed limits, as the fake Discord checks a message's embeds, and again here."""
    assert validate_embed(e.to_dict(), "embed") == []  # type: ignore[arg-type]
    assert len(e.title or "") <= 256
    assert len(e.description or "") <= 4096
    assert len(e.fields) <= 25
    for f in e.fields:
        assert len(f.name or "") <= 256 and 0 < len(f.value or "") <= 1024, f.name
    assert len(e.footer.text or "") <= 2048
    assert len(e) <= 6000


def test_swiss_embed_shows_the_core_standings_row_by_row() -> None:
    s = swiss(16, 2, seed=3)
    core = standings([e.entrant for e in s.entrants], 2, s.history)
    rows = description_rows(message(s))
    assert len(rows) == len(core.rows) == 16
    for row, line in zip(core.rows, rows, strict=True):
        w = sum(e.place is not None and e.place.first == e.place.last == 1 for e in row.entries)
        l_ = sum(e.place is not None and e.place.first == e.place.last == 2 for e in row.entries)
        d = row.played - w - l_
        expected = (
            f"**{name_of(row.player)}** — **{num(row.points)}** · {w}W {d}D {l_}L"
            f" · Bh {tiebreak_text(row.buchholz)}"
        )
        assert expected in line, (expected, line)
        assert line.startswith(f"`{row.rank}.`") or line.startswith("`=`")


def test_swiss_at_four_seat_tables_lists_places_and_the_running_round() -> None:
    s = swiss(16, 4, played=2, open_tables=1, seed=5)
    core = standings([e.entrant for e in s.entrants], 4, s.history)
    m = message(s)
    rows = description_rows(m)
    tiebreaks = tiebreak_texts([r.buchholz for r in core.rows])
    for row, line, bh in zip(core.rows, rows, tiebreaks, strict=True):
        assert f"**{num(row.points)}**" in line and f"Bh {bh}" in line
        places_ = "/".join(
            "–" if e.place is None else f"{e.place.first}" + "=" * e.place.shared
            for e in row.entries
        )
        assert f"places {places_}" in line
    assert "Round 2 of 2 · 3 of 4 tables finished" in (m.embed.description or "")
    # The round being played comes first, its open table with who sits there.
    first = m.embed.fields[0]
    assert first.name == "Round 2"
    open_table = s.rounds[-1].tables[-1]
    names = ", ".join(name_of(p) for p in open_table.seats if p is not None)
    assert f"Table {open_table.number}: {names} · playing" in (first.value or "")


BH = re.compile(r" · Bh (\d+)(½|\.\d\d?)?$")


def shown_value(text: str) -> float:
    """A Buchholz as shown ("6", "6½", "10.4", "6.33") as a number."""
    found = BH.search(text) or re.fullmatch(r"(\d+)(½|\.\d\d?)?", text)
    assert found is not None, text
    whole, part = found.groups()
    return int(whole) + (0.5 if part == "½" else float(part or 0))


@pytest.mark.parametrize("seats", [4, 6])
def test_buchholz_is_shown_exactly_and_in_the_order_of_the_standings(seats: int) -> None:
    """Issue #30 bug 4: at 3- to 6-seat tables Buchholz is thirds, quarters, fifths...; it was
    shown as halves (19/3 as 6½). In the text and the picture each value is now within a
    rounding of the exact one, and never goes up down the list within equal points."""
    s = swiss(64 if seats == 6 else 16, seats, seed=11)
    core = swiss_standings(s.t, s.entrants, s.rounds, s.games)
    assert any((r.buchholz * 2).denominator != 1 for r in core.rows)  # not halves only
    tr = translator_for("en")
    status = swiss_status(s.t, core, len(s.entrants), tr)
    scene = standings_scene(s.t, core, Names(s.entrants, s.names, tr), {}, status, tr)
    rows = description_rows(message(s))
    pictured = [line.tiebreak for line in scene.rows]
    for i, (row, line) in enumerate(zip(core.rows, rows, strict=False)):
        assert abs(shown_value(line) - float(row.buchholz)) <= 0.005, (line, row.buchholz)
        if i < len(pictured):
            assert abs(shown_value(pictured[i]) - float(row.buchholz)) <= 0.005
        if i and core.rows[i - 1].points == row.points:
            assert shown_value(rows[i - 1]) >= shown_value(line)
    # one way of writing the column: decimals throughout, not "7½" beside "10.40"
    assert not any("½" in text for text in pictured)
    assert len({len(text.split(".")[1]) for text in pictured}) == 1


def test_a_buchholz_column_is_written_one_way() -> None:
    f = Fraction
    assert tiebreak_texts([f(13, 2), f(8)]) == ["6½", "8"]  # 2-seat tables: as points are
    assert tiebreak_texts([f(52, 5), f(8), f(15, 2)]) == ["10.4", "8.0", "7.5"]  # fifths
    assert tiebreak_texts([f(19, 3), f(8), f(13, 2)]) == ["6.33", "8.00", "6.50"]  # thirds


def test_the_final_swiss_embed_names_the_core_champion_and_every_round() -> None:
    s = swiss(12, 3, seed=8)
    assert s.t.status is TournamentStatus.FINISHED
    core = standings([e.entrant for e in s.entrants], 3, s.history)
    m = message(s)
    top = [r.player for r in core.rows if r.rank == 1]
    desc = m.embed.description or ""
    if len(top) == 1:
        assert desc.startswith(f"🏆 Champion: **{name_of(top[0])}**")
    else:
        assert desc.startswith("🏆 Joint champions:")
        assert all(name_of(p) in desc.splitlines()[0] for p in top)
    assert [f.name for f in m.embed.fields] == [f"Round {r.round}" for r in s.history]


def test_the_final_bracket_embed_names_the_core_champion_and_places() -> None:
    s = elimination(11, seed=4)
    assert s.bracket is not None and s.t.status is TournamentStatus.FINISHED
    champion = s.bracket.champion()
    assert champion is not None
    m = message(s, "de")
    desc = m.embed.description or ""
    assert desc.startswith(f"🏆 Turniersieger: **{name_of(champion)}**")
    shown = [re.match(r"`([0-9–]+)\.` \*\*(.+?)\*\*", line) for line in description_rows(m)]
    assert [(x.group(2), x.group(1)) for x in shown if x] == [
        (name_of(p), str(place)) for p, place in places(s.bracket)
    ]
    # One field a round: the round of 16 for 11 entrants, then the quarter-finals, ...
    assert [f.name for f in m.embed.fields] == [
        "Achtelfinale",
        "Viertelfinale",
        "Halbfinale",
        "Finale",
    ]


def test_a_running_bracket_shows_who_is_still_in_and_the_matches_being_played() -> None:
    s = elimination(16, played=1, open_matches=2, seed=2)
    m = message(s)
    assert s.bracket is not None
    alive = [line for line in (m.embed.description or "").splitlines() if line.startswith("▸")]
    # 8 won round 1; of the 4 quarter-finals, 2 were played (2 players out) and 2 are open.
    assert len(alive) == 6 == 16 - len(places(s.bracket))
    assert "Quarter-finals · 2 matches to play" in (m.embed.description or "")
    quarter = next(f for f in m.embed.fields if f.name == "Quarter-finals")
    assert (quarter.value or "").count("· playing now") == 2


def test_the_bracket_from_stored_games_and_withdrawals_equals_the_one_played() -> None:
    """A withdrawal is stored as a flag, not an event: the message puts it after the player's
    last game, which rebuilds the bracket played step by step."""
    s = elimination(8, played=1, seed=6)
    assert s.bracket is not None
    quitter = s.bracket.winners[0][1]
    assert quitter is not None
    played = withdraw(s.bracket, quitter)
    s.entrants = [e.model_copy(update={"withdrawn": e.user_id == quitter}) for e in s.entrants]
    assert tournament_bracket(s.t, s.entrants, s.rounds, s.games) == played
    events = bracket_events(s.entrants, s.games)
    assert replay_bracket([e.entrant for e in s.entrants], events, s.t.settings.match) == played
    text = "\n".join(f.value or "" for f in message(s).embed.fields)
    assert f"({name_of(quitter)} withdrew)" in text


@pytest.mark.parametrize("count", [2, 16, 64])
@pytest.mark.parametrize("fmt", [Format.SWISS, Format.SINGLE_ELIMINATION])
def test_discord_limits_hold_in_every_language(count: int, fmt: Format) -> None:
    # Finished, and mid-way with open tables: the most text each can have.
    if fmt is Format.SWISS:
        cases = [swiss(count, 2, seed=count), swiss(count, 2, played=1, open_tables=1)]
    else:
        cases = [elimination(count, seed=count), elimination(count, played=0, open_matches=1)]
    for s in cases:
        for lang in LANGUAGES:
            m = message(s, lang)
            within_limits(m.embed)
            more = [line for line in (m.embed.description or "").splitlines() if "…" in line]
            if count == 64 and fmt is Format.SWISS and s.t.status is TournamentStatus.FINISHED:
                assert more, "64 rows do not fit: an 'and N more' line says so"
            assert m.embed.image.url == f"attachment://{m.filename}"


def test_the_pictures_are_deterministic_pngs_of_the_embed_size() -> None:
    for s, name in ((swiss(64, 2, seed=9), "standings.png"), (elimination(64), "bracket.png")):
        label.cache_clear()  # drawn fresh, then from the cached words: the same pixels
        a, b = message(s, "ru"), message(s, "ru")
        assert a.filename == name
        assert a.picture == b.picture
        img = Image.open(io.BytesIO(a.picture))
        assert img.format == "PNG" and img.size == (WIDTH, HEIGHT)
        attached = a.file()
        assert attached.filename == name and attached.fp.read() == a.picture


def test_the_standings_picture_shows_the_top_rows_and_a_line_for_the_rest() -> None:
    """Up to MAX_ROWS rows all shown; past that, one row fewer and the "+ N more" line."""
    from bot.tournaments.messages.tournament_standings import standings_scene, swiss_standings
    from bot.tournaments.messages.tournament_text import Names

    tr = translator_for("en")
    for count in (MAX_ROWS, MAX_ROWS + 1, 64):
        s = swiss(count, 2, seed=count)
        st = swiss_standings(s.t, s.entrants, s.rounds, s.games)
        scene = standings_scene(s.t, st, Names(s.entrants, s.names, tr), {}, "", tr)
        if count <= MAX_ROWS:
            assert len(scene.rows) == count and not scene.more
        else:
            assert len(scene.rows) == MAX_ROWS - 1
            assert scene.more == f"+ {count - MAX_ROWS + 1} more players in the list above"
        assert [r.name for r in scene.rows] == [name_of(r.player) for r in st.rows][
            : len(scene.rows)
        ]


def test_the_sign_up_lists_the_entrants_by_seed() -> None:
    """Seeds: rating, highest first, then sign-up order (docs/tournaments.md)."""
    for s in (swiss(0, 2, played=0), swiss(5, 3, played=0), elimination(6, played=0)):
        s.t = s.t.model_copy(update={"status": TournamentStatus.SIGNUP})
        m = message(s, "uk")
        within_limits(m.embed)
        desc = m.embed.description or ""
        assert f"Триває запис · {len(s.entrants)} грав" in desc
        by_seed = sorted(s.entrants, key=lambda e: (-e.rating, e.signup_order))
        assert description_rows(m) == [
            f"`{i}.` {name_of(e.user_id)}" for i, e in enumerate(by_seed, 1)
        ]
        if not s.entrants:
            assert "Ще ніхто не записався." in desc
        assert m.embed.fields == []
    lone = elimination(2, played=0)
    lone.entrants = lone.entrants[:1]
    lone.t = lone.t.model_copy(update={"status": TournamentStatus.SIGNUP})
    assert Image.open(io.BytesIO(message(lone).picture)).size == (WIDTH, HEIGHT)


def test_a_started_swiss_before_its_first_pairing_says_it_is_starting() -> None:
    s = swiss(6, 2, played=0)
    s.t = s.t.model_copy(update={"status": TournamentStatus.RUNNING})
    assert (message(s, "es").embed.description or "").startswith("Empezando · 6 jugadores")


def test_a_big_bracket_draws_its_last_four_rounds_and_who_plays_for_each_open_place() -> None:
    """64 entrants, round 2 (of 32) with 3 matches open: the picture starts at the round of 16;
    a place there still open names the two who play for it."""
    from bot.tournaments.messages.tournament_bracket import bracket_scene
    from bot.tournaments.messages.tournament_text import Names

    s = elimination(64, played=1, open_matches=3, seed=5)
    assert s.bracket is not None
    tr = translator_for("en")
    scene = bracket_scene(s.t, s.bracket, s.entrants, Names(s.entrants, s.names, tr), {2}, "", tr)
    assert scene.round_names == ("Round of 16", "Quarter-finals", "Semi-finals", "Final")
    assert [len(r) for r in scene.rounds] == [8, 4, 2, 1]
    assert scene.more == "Rounds 1–2: in the list above"
    open_ = {slot.name for box in scene.rounds[0] for slot in (box.top, box.bottom)}
    playing = [m for m in s.bracket.matches(2) if m.ready]
    assert len(playing) == 3
    for m in playing:
        assert " / ".join(name_of(p) for p in m.players if p is not None) in open_


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.slow
def test_a_note_above_the_standings_keeps_discords_limits(lang: str) -> None:
    """Issue #30: "stuck" and "paused" notes go above a full 64-player standings message;
    the rounds' fields make room, the notes and every player line stay."""
    s = swiss(64, 2, seed=4)
    m = message(s, lang)
    rows = description_rows(m)
    notes = [t("tournament.paused_note", lang), t("tournament.blocked.resumed", lang, name="x")]
    with_notes(m.embed, notes)
    within_limits(m.embed)
    assert (m.embed.description or "").startswith("\n".join(notes))
    assert description_rows(m) == rows
