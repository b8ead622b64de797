"""How a game feels at the Discord table, through the fake Discord: one click per defence,
"done for this bout", a truthful private status, R8/R6 named in public, leaving and coming
back, and the lobby's small wrongs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.tables.lobby import opening_notes
from bot.tables.play import may_auto_pass
from bot.tables.table import Table
from bot.text import t
from bot.ui.card_words import card_text
from bot.ui.hand_view import HandContext, render_hand
from bot.ui.table_embed import last_lines
from durak_core import GameState, RuleSet, new_game, position
from durak_core.actions import parse_action
from tests.bot.helpers import World, open_table, public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import latest_hand, settled
from tests.fake_discord import FakeMessage


def button(message: FakeMessage, *, code: str | None = None, label: str | None = None) -> str:
    """The custom id of the button with this action code (or toggle) or label."""
    for b in message.buttons:
        cid = b.custom_id or ""
        if (code is not None and cid.endswith(f":{code}")) or (label and b.label == label):
            return cid
    shown = [(b.label, b.custom_id) for b in message.buttons]
    raise AssertionError(f"no button {code or label!r}; shown: {shown}")


async def seat_position(bot: DurakBot, table: Table, state: GameState) -> None:
    """Put a running table into ``state`` (a bout's start from ``position``): the deal is not
    what these tests are about, the bot's handling of that bout is."""
    async with table.lock:
        table.state, table.events, table.notes = state, [], []
        await bot.service.core.changed(table, actor=None)


async def settle(w: World, bot: DurakBot, table: Table, users: list[int]) -> None:
    await w.fake.wait_for(lambda: settled(bot, table, users), 10, what="the hands to catch up")


async def three_at_a_bout(w: World, bot: DurakBot, state: GameState) -> Table:
    """alice (seat 0), bob (1), carol (2) at a table in ``state``, every hand opened."""
    users = [w.alice, w.bob, w.carol]
    table = await open_table(w, bot, users, w.channel)
    await seat_position(bot, table, state)
    for u in users:
        await w.fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
    await settle(w, bot, table, users)
    return table


def code(action: str) -> str:
    return str(parse_action(action).code)


async def play(w: World, bot: DurakBot, table: Table, user: int, action: str) -> None:
    """``user`` clicks the button of ``action`` (or a toggle code) on its hand, and every hand
    catches up."""
    hand = latest_hand(w.fake, user)
    wanted = action if action in ("p0", "p1") else code(action)
    await w.fake.click(user, hand, button(hand, code=wanted))
    await settle(w, bot, table, [w.alice, w.bob, w.carol])


def alice_leads(hands: list[str], *, talon: str) -> GameState:
    """A bout's start at this table: hearts trump (the ace under the talon), alice (seat 0)
    leads."""
    return position(RuleSet(), hands, trump="AH", attacker=0, talon=talon)


#: Three seats at a bout's start: alice leads sevens against bob; carol holds no seven.
SEVENS = alice_leads(["7S 7C 9H", "8S 8C 10H KS AS", "6D 9D QH"], talon="6H 6S 10D 10C 10S 6C")


@pytest.mark.slow
async def test_done_for_this_bout_survives_new_cards_and_a_throw_in_clears_it(
    tmp_path: Path,
) -> None:
    """R15 clears a pass with every new card; "done for this bout" has the table pass again
    for the player after each one, until the player's own throw-in takes it back."""
    state = alice_leads(
        ["7S 7C 8D 9H QD", "8S 8C 10H KS 9D", "7D 6C JD QH"], talon="6D 6H 6S 10D 10C 10S"
    )
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await three_at_a_bout(w, bot, state)
        await play(w, bot, table, w.alice, "attack 7S")
        # carol may throw in 7D; before bob beats she says she is done for the whole bout
        assert t("act.auto_pass") in {b.label for b in latest_hand(fake, w.carol).buttons}
        await play(w, bot, table, w.carol, "p1")
        assert table.state is not None and table.auto_pass == {2: table.state.bout}
        assert t("hand.auto_pass") in latest_hand(fake, w.carol).content
        await play(w, bot, table, w.bob, "defend 7S 8S")
        assert table.state is not None
        assert [str(a) for s, a in table.state.log if s == 2] == ["pass"]  # passed for her
        # a new card clears every pass (R15); once it is beaten the table passes for carol again
        await play(w, bot, table, w.alice, "attack 7C")
        assert 2 not in table.state.public_view().passed
        await play(w, bot, table, w.bob, "defend 7C 8C")
        assert [str(a) for s, a in table.state.log if s == 2] == ["pass", "pass"]
        assert 2 in table.auto_pass
        # while a card is unbeaten she may throw in (R11, R15); doing so takes the setting back
        await play(w, bot, table, w.alice, "attack 8D")
        assert t("hand.auto_pass") in latest_hand(fake, w.carol).content
        await play(w, bot, table, w.carol, "attack 7D")
        assert 2 not in table.auto_pass
        for pair in ("defend 8D 10H", "defend 7D 9D"):
            await play(w, bot, table, w.bob, pair)
        assert [str(a) for s, a in table.state.log if s == 2] == ["pass", "pass", "attack 7D"]
        assert 2 in table.state.public_view().awaiting  # asked again, not passed for
        assert t("act.auto_pass") in {b.label for b in latest_hand(fake, w.carol).buttons}
        assert fake.violations == []


@pytest.mark.slow
async def test_every_defence_is_one_click_and_names_its_pair(tmp_path: Path) -> None:
    """Two open cards: each defence is one button that says which card goes on which."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        table = await three_at_a_bout(w, bot, SEVENS)
        await play(w, bot, table, w.alice, "attack 7S")
        await play(w, bot, table, w.alice, "attack 7C")
        bob = latest_hand(w.fake, w.bob)
        labels = {b.label for b in bob.buttons}
        assert {"8♠ on 7♠", "8♣ on 7♣", "K♠ on 7♠", "A♠ on 7♠"} <= labels
        assert not any((b.custom_id or "").split(":")[-1].startswith("a") for b in bob.buttons)
        for pair in ("defend 7C 8C", "defend 7S 8S"):  # one click each, no aiming
            await play(w, bot, table, w.bob, pair)
        assert table.state is not None
        assert all(d is not None for _, d in table.state.public_view().table)


async def test_private_status_says_what_this_player_can_do(tmp_path: Path) -> None:
    """The public ▶ marks every attacker who has not passed (R23: nobody learns who holds a
    rank); the private hand tells carol she has nothing to throw in, and shows the players,
    the talon, the last action and until when it updates."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await three_at_a_bout(w, bot, SEVENS)
        await play(w, bot, table, w.alice, "attack 7S")
        await play(w, bot, table, w.bob, "defend 7S 8S")
        assert table.state is not None
        public = table.state.public_view()
        assert 2 in public.awaiting and not table.state.legal_actions(2)
        players = public_message(w, table).embeds[0]["fields"]
        assert "▶ **carol**" in str(players)  # public: carol is still asked
        content = latest_hand(fake, w.carol).content
        waiting = t("table.wait.throw", None, names="alice")
        assert t("hand.nothing_to_throw", None, what=waiting) in content
        assert "carol" not in waiting
        for seat, name in enumerate(["alice", "bob"]):
            count = t("table.cards", None, n=public.hand_sizes[seat])
            assert f"**{name}** · {count}" in content
        piles = t("hand.piles", None, talon=public.talon_size, discard=public.discard_size)
        assert piles in content
        assert "bob beats 7♠ with 8♠" in content  # the last action
        assert "updates itself until <t:" in content
        alice_hand = latest_hand(fake, w.alice).content
        assert t("hand.you_throw") in alice_hand  # alice has 7C: throw in or be done


async def test_r8_card_in_public_message_and_log(tmp_path: Path) -> None:
    """R8: the lowest trump that decided who leads is named on the table and in its log."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        assert table.state is not None
        v = table.state.public_view()
        starter = v.attacker
        trumps = [c for c in v.known[starter] if c.suit == v.trump]
        await w.fake.wait_for(lambda: "Last actions" in str(public_message(w, table).embeds))
        embed = str(public_message(w, table).embeds[0])
        name = table.seats[starter].name
        if trumps:
            card = min(trumps, key=lambda c: c.rank)
            line = t("note.r8", None, name=name, card=card_text(card))
        else:
            line = t("note.r8_none", None, name=name)
        assert embed.count(line) == 2, embed  # the trump field and the log


async def test_r6_whole_deck_names_who_holds_the_trump_card(tmp_path: Path) -> None:
    """R6: six players with 36 cards: no talon, and everyone is told who holds the trump card."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice], w.channel, ai_seats=5)
        assert table.state is not None and table.seed is not None
        # The deal itself (the AI seats may have played on meanwhile, the trump card too).
        dealer = table.state.public_view().dealer
        v = new_game(table.rules, 6, seed=table.seed, dealer=dealer).public_view()
        assert v.talon_size == 0
        holder = next(s for s, known in enumerate(v.known) if v.trump_card in known)
        line = t("note.r6", None, name=table.seats[holder].name, card=card_text(v.trump_card))
        # the whole log: the AI seats may have played more than any window's worth meanwhile
        assert line in last_lines(table, len(table.events) + len(table.notes) + 1)
        held = t("table.trump_held", None, name=table.seats[holder].name)
        await fake.wait_for(lambda: held in str(public_message(w, table).embeds[0]))


async def test_a_leaver_is_shown_as_ai_played_and_takes_the_seat_back(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice, w.bob, w.carol], w.channel)
        left = await fake.slash(w.carol, w.channel, "durak", "leave")
        assert left.ephemeral and left.content == t("ok.left_game", None, level=t("level.normal"))
        seat = table.seat_of(w.carol)
        assert seat is not None and table.stand_in(seat)
        badge = t("badge.left", None, level=t("level.normal"))
        log_line = t("note.left", None, name="carol", level=t("level.normal"))

        def shows(*texts: str) -> bool:
            embed = str(public_message(w, table).embeds[0])
            return all(x in embed for x in texts)

        await fake.wait_for(lambda: shows(f"**carol** · {badge}", log_line), 10)
        assert f"dkt:{table.table_id}:back" in {
            b.custom_id for b in public_message(w, table).buttons
        }
        # /durak join no longer answers "already started" for her: it gives the seat back too
        back = await fake.click(w.carol, public_message(w, table), f"dkt:{table.table_id}:back")
        assert back.ephemeral and "**Your hand**" in back.content
        assert not table.stand_in(seat)
        await fake.wait_for(lambda: shows(t("note.back", None, name="carol")), 10)
        embed = str(public_message(w, table).embeds[0])
        assert f"**carol** · {badge}" not in embed
        again = await fake.slash(w.carol, w.channel, "durak", "back")
        assert again.ephemeral and again.content == t("err.not_away")
        await fake.slash(w.carol, w.channel, "durak", "leave")
        rejoined = await fake.slash(w.carol, w.channel, "durak", "join")  # as "I'm back"
        assert rejoined.ephemeral and "**Your hand**" in rejoined.content
        assert not table.stand_in(seat)


async def test_lobby_hand_answer_and_no_link_to_none(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        await fake.slash(w.alice, w.channel, "durak", "new")
        hand = await fake.slash(w.alice, w.channel, "durak", "hand")
        assert hand.ephemeral and hand.content == t("err.lobby_hand")
        table = table_of(bot, w.channel)
        lobby = table.lobby_message_id
        table.lobby_message_id = None  # the first /durak new is still posting its lobby
        again = await fake.slash(w.bob, w.channel, "durak", "new")
        link = f"https://discord.com/channels/{w.guild}/{w.channel}"
        assert again.ephemeral and again.content.endswith(link) and "None" not in again.content
        table.lobby_message_id = lobby
        again = await fake.slash(w.bob, w.channel, "durak", "new")
        assert again.content.endswith(f"{link}/{lobby}")


def _hand(state: GameState, seat: int) -> str:
    v = state.view(seat)
    return render_hand(v, HandContext("0123abcd", v.version, ["alice", "bob", "carol"])).content


def test_status_names_the_bouts_limit() -> None:
    """R12: bob held two cards when the bout began, so two attack cards are the limit; carol
    holds a seven but may not throw it in, and her hand says why."""
    g = alice_leads(["7S 7C 9H", "8S 8C", "7H QH 6C"], talon="6D 6S 10D")
    for action in ("attack 7S", "attack 7C"):
        g, _ = g.apply(0, parse_action(action))
    assert g.limit == 2 and not g.legal_actions(2)
    waiting = t("table.wait.defend", None, name="bob")
    assert t("hand.limit_reached", None, what=waiting) in _hand(g, 2)


def test_only_an_attacker_of_the_bout_may_be_done_for_it() -> None:
    """R9, R10: the defender, and anyone before the opening card, have nothing to be done with."""
    g = SEVENS
    assert not may_auto_pass(g.view(0))  # R10: the main attacker must lead first
    g, _ = g.apply(0, parse_action("attack 7S"))
    assert may_auto_pass(g.view(0)) and may_auto_pass(g.view(2))
    assert not may_auto_pass(g.view(1))  # R9: the defender


def test_who_leads_without_the_lowest_trump() -> None:
    """R8 with no trump in the game (V11): the seat left of the dealer leads; V10: a later game
    of a series starts left of the previous Durak, and the log says so."""
    no_trump = new_game(RuleSet(no_trump=True), 3, seed=5).public_view()
    assert [(n.key, n.seat) for n in opening_notes(no_trump, True)] == [
        ("no_trump", (no_trump.dealer + 1) % 3)
    ]
    later = new_game(RuleSet(under_the_fool=True), 3, seed=5, first_game=False).public_view()
    assert [n.key for n in opening_notes(later, False)] == ["v10"]
    first = new_game(RuleSet(under_the_fool=True), 3, seed=5).public_view()
    assert [n.key for n in opening_notes(first, True)] in (["r8"], ["r8_none"])


@pytest.mark.slow
async def test_a_hand_waits_only_for_moves_that_ask_nothing_of_its_player(
    tmp_path: Path,
) -> None:
    """A hand is refreshed at its idle pace while its buttons stay the same, and at once when
    what the player may do changes: alice leads 7S against bob (carol may now be done for the
    bout: her hand shows it at once); alice says she is done for the bout (nothing new for
    bob: his hand waits); bob beats it with 8S, and carol may throw in her 8D (R11), so her
    hand shows it at once."""
    state = alice_leads(["7S 7C 9H", "8S 8C 10H KS AS", "6D 8D QH"], talon="6H 6S 10D 10C 10S 6C")
    async with world(tmp_path) as w, running_bot(w, hand_idle_refresh_seconds=30) as bot:
        table = await three_at_a_bout(w, bot, state)

        def shown(user: int) -> int:
            return bot.notifier.links[(table.table_id, user)].shown_version

        hand = latest_hand(w.fake, w.alice)
        await w.fake.click(w.alice, hand, button(hand, code=code("attack 7S")))
        await w.fake.wait_for(lambda: shown(w.carol) == table.version, 5, what="carol's hand")
        before = shown(w.bob)
        hand = latest_hand(w.fake, w.alice)
        await w.fake.click(w.alice, hand, button(hand, code="p1"))
        await asyncio.sleep(0.5)
        assert shown(w.bob) == before < table.version  # the same buttons: it waits
        hand = latest_hand(w.fake, w.bob)
        await w.fake.click(w.bob, hand, button(hand, code=code("defend 7S 8S")))
        await w.fake.wait_for(lambda: shown(w.carol) == table.version, 5, what="carol's hand")
        button(latest_hand(w.fake, w.carol), code=code("attack 8D"))  # offered at once
        assert w.fake.violations == []
