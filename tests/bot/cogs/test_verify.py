"""Fair shuffles (R4): a finished game verifies from its record — commitment, deck, replay,
result — and each kind of tampering fails with its own reason; `/durak verify` through the fake
Discord, with the game id taken from `/durak history`."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.text import t
from durak_core import RuleSet, Series, preset
from durak_core.verify import GameLog, verify_game
from tests.bot.helpers import public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import play_one_game
from tests.durak_core.helpers import finished_game


@pytest.fixture
def genuine() -> GameLog:
    seed = 0x1234_5678_9ABC_DEF0 << 128 | 0xFEED
    return GameLog.of(finished_game(RuleSet(), 3, seed, random.Random(3)), seed=seed)


@pytest.mark.parametrize("name", ["classic", "transfer", "jokers", "double-deck", "changing-trump"])
def test_genuine_games_verify(name: str) -> None:
    rules = preset(name)
    for seed in (1, 2**255 + 7):
        log = GameLog.of(finished_game(rules, 3, seed, random.Random(seed)), seed=seed)
        verdict = verify_game(log)
        assert verdict.ok and verdict.moves == len(log.actions), (name, verdict)


def test_tampered_seed_fails_the_commitment(genuine: GameLog) -> None:
    other = format(int(genuine.seed, 16) ^ 1, "064x")
    assert verify_game(genuine.replace(seed=other)).reason == "commitment"


def test_tampered_seed_with_a_matching_commitment_fails_the_deck(genuine: GameLog) -> None:
    from durak_core import seed_commitment

    other = int(genuine.seed, 16) ^ 1
    forged = genuine.replace(seed=format(other, "064x"), commitment=seed_commitment(other))
    assert verify_game(forged).reason == "deck"


def test_tampered_card_order_fails(genuine: GameLog) -> None:
    order = list(genuine.card_order)
    order[0], order[1] = order[1], order[0]
    assert verify_game(genuine.replace(card_order=order)).reason == "deck"


def test_tampered_action_log_fails(genuine: GameLog) -> None:
    actions = list(genuine.actions)
    # A move by another seat than the one that made it: illegal at that point of the replay.
    seat, rest = actions[0].split(" ", 1)
    actions[0] = f"{(int(seat) + 1) % 3} {rest}"
    verdict = verify_game(genuine.replace(actions=actions))
    assert verdict.reason == "illegal" and verdict.detail["n"] == 1
    assert verify_game(genuine.replace(actions=actions[:-1])).reason in ("unfinished", "illegal")
    assert verify_game(genuine.replace(actions=[*actions[:5], "0 attack ZZ"])).reason == "illegal"


def test_tampered_result_fails(genuine: GameLog) -> None:
    order = list(genuine.finishing_order)
    assert len(order) >= 2
    assert verify_game(genuine.replace(finishing_order=order[::-1])).reason == "order"
    loser = next(s for s in range(3) if s not in genuine.losers)
    assert verify_game(genuine.replace(losers=[loser], durak=loser)).reason == "durak"


def test_malformed_record_fails() -> None:
    log = GameLog(rules={"deck_size": 35}, seats=2, seed="0", commitment="0", card_order=[],
                  actions=[], finishing_order=[], losers=[])  # fmt: skip
    assert verify_game(log).reason == "bad_record"


def test_later_games_of_a_series_need_the_earlier_ones() -> None:
    """R22: the previous Durak deals game 2, so verifying it replays game 1 first."""
    rules, rng = RuleSet(), random.Random(9)
    series = Series(rules, 3)
    logs = []
    for seed in (11, 12, 13):
        s = finished_game(rules, 3, seed, rng, series)
        assert s.result is not None
        logs.append(GameLog.of(s, seed=seed))
        series.record(s.result, s.dealer)
    assert verify_game(logs[2], logs[:2]).ok
    assert verify_game(logs[1], logs[:1]).ok
    tampered = logs[0].replace(actions=list(logs[0].actions)[:-1])
    assert verify_game(logs[1], [tampered]).reason == "earlier"


@pytest.mark.slow
async def test_verify_command_on_a_finished_game(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ivan = w.fake.add_user("ivan", locale="ru")
        async with running_bot(w) as bot:
            fake = w.fake
            await fake.slash(w.alice, w.channel, "durak", "new")
            await fake.slash(w.bob, w.channel, "durak", "join")
            await fake.slash(w.alice, w.channel, "durak", "start")
            table = await play_one_game(w, bot, random.Random(5))
            await fake.wait_for(
                lambda: "/durak verify" in public_message(w, table).embeds[0]["description"],
                what="the game id on the finished table",
            )
            history = await fake.slash(w.alice, w.channel, "durak", "history")
            found = re.search(r"`([^`]+)`", history.embeds[0]["description"])
            assert found is not None
            game_id = found[1]
            assert game_id in public_message(w, table).embeds[0]["description"]
            ok = await fake.slash(w.bob, w.channel, "durak", "verify", options={"game": game_id})
            assert ok.ephemeral and ok.embeds[0]["description"].startswith("✅")
            ru = await fake.slash(ivan, w.channel, "durak", "verify", options={"game": game_id})
            assert ru.embeds[0]["description"].startswith("✅ Проверено")
            missing = await fake.slash(w.bob, w.channel, "durak", "verify", options={"game": "x"})
            assert missing.content == t("verify.not_found", "en", id="x")
            assert table_of(bot, w.channel).status == "finished"
