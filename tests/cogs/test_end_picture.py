"""The picture a calling game ends on, end to end: in the server's language, with players'
names in any script; none when nobody won; and the summary goes out even without it."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot import calling
from bot.storage import BoardRow, WinnerRow
from emulator import Emulator, RateLimits
from emulator.model import Member
from engine.fairness import draw_order
from engine.housie import Prize, Ticket, check_prize
from tests.cogs.helpers import button_id, grace_over, run_calls

# Whole games at the test clock's speed (a call every few hundredths of a second), about claims
# and summaries rather than Discord's pace: Discord's limits, on, over windows five times as
# short (a game of 90 calls takes 18 s, not 90). tests/cogs/test_housie.py plays at Discord's.
pytestmark = [pytest.mark.backends(), pytest.mark.emulator(rate_limits=RateLimits().faster(5))]

NAMES = ("محمد عبد الله", "李小龍", "Zoë the Extraordinarily Long Display Name")
SPANISH_PRIZES = {Prize.EARLY_FIVE: "Cinco primeros", Prize.FULL_HOUSE: "Cartón lleno"}


def first_win(
    tickets: list[tuple[Member, BoardRow]], order: tuple[int, ...], prize: Prize
) -> tuple[int, Member, BoardRow]:
    """The call at which the first ticket completes ``prize``, its player and its board (the
    lowest deal position among tickets completing it on the same call)."""

    def completion(board: BoardRow) -> int:
        ticket = Ticket.from_state(board.state)
        return next(seq for seq in range(1, 91) if check_prize(ticket, order[:seq], prize).valid)

    _, member, board = min(
        ((completion(board), board.deal_index), member, board) for member, board in tickets
    )
    return completion(board), member, board


async def test_a_spanish_housie_night_ends_on_a_picture_in_spanish(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    seed = bytes(range(40, 72))
    order = draw_order(seed, 90)
    guild = emulator.add_guild("Tómbola", locale="es-419")
    channel = guild.add_channel("general")
    players = [guild.add_member(name, locale="en-US") for name in NAMES]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Housie")
    lobby = await (
        await players[0].slash("housie start", tickets=2, lines=False, corners=False)
    ).reply()
    for member in players:
        await (await member.slash("housie join", tickets=2)).reply()
    await (await players[0].click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("housie")
    tickets = [
        (member, board)
        for member in players
        for board in await bot.storage.boards(game.id, member.id)
    ]

    # Early Five, then the Full House, each claimed by the first ticket to complete it.
    for prize in (Prize.EARLY_FIVE, Prize.FULL_HOUSE):
        seq, member, board = first_win(tickets, order, prize)
        done = len(await bot.storage.draws(game.id))
        await run_calls(cog, game.id, max(0, seq - done))
        won = await (
            await member.slash("housie claim", prize=prize.value, ticket=board.board_index + 1)
        ).reply()
        assert f"cantada {seq}" in won.content, won.content
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)

    summary = channel.messages[-1]
    assert "terminó" in summary.content
    picture, replay = summary.attachments  # (and the game's replay)
    assert replay.filename.endswith(".gif")
    Image.open(io.BytesIO(picture.data)).verify()
    alt = picture.description
    assert alt.startswith(f"Tómbola, partida {game.id}: los ganadores.")
    names = {member.id: member.name for member in players}
    boards = {board.id: board for _, board in tickets}
    winners = await bot.storage.winners(game.id)
    assert [Prize(w.prize) for w in winners] == [Prize.EARLY_FIVE, Prize.FULL_HOUSE]
    for winner in winners:
        assert winner.board_id is not None
        ticket = boards[winner.board_id].board_index + 1
        value = order[winner.step - 1]
        expected = (
            f"{SPANISH_PRIZES[Prize(winner.prize)]}: {names[winner.user_id]}, cartón {ticket},"
            f" en la cantada {winner.step} (el {value}), con "
        )
        assert expected in alt, alt


async def test_a_game_nobody_won_ends_without_a_picture(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(cog, game.id, 2)
    await (await host.slash("loteria stop")).reply()
    summary = await channel.wait_for_message(lambda m: "Seed" in m.content, timeout=10)
    assert "Nobody won" in summary.content
    assert [a.filename for a in summary.attachments] == ["replay-1.gif"]  # no picture


async def test_the_summary_goes_out_when_the_picture_cannot_be_drawn(
    emulator: Emulator, start_bot, monkeypatch
):
    seed = bytes(range(1, 33))
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Housie")
    lobby = await (await host.slash("housie start", lines=False, corners=False)).reply()
    await (await host.slash("housie join")).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("housie")
    tickets = [(host, board) for board in await bot.storage.boards(game.id, host.id)]
    seq, _, _ = first_win(tickets, draw_order(seed, 90), Prize.EARLY_FIVE)
    await run_calls(cog, game.id, seq)
    won = await (await host.slash("housie claim", prize="E5")).reply()
    assert "wins on call" in won.content

    def broken(*args: object) -> list[object]:
        raise OSError("the fonts are gone")

    monkeypatch.setattr(cog, "render_result", broken)
    await (await host.slash("housie stop")).reply()
    summary = await channel.wait_for_message(lambda m: "Seed" in m.content, timeout=10)
    assert f"Early Five: <@{host.id}> (call {seq})" in summary.content
    assert [a.filename for a in summary.attachments] == ["replay-1.gif"]  # no picture


SUMMARY_WORDS = {
    "en-US": ("is over", "Seed: `", "60 winners, all named below", "the winners (", "Check it"),
    "es-419": ("terminó", "Semilla: `", "60 ganadores, todos nombrados", "los ganadores (", "Compr"),
}


@pytest.mark.parametrize("locale", ["en-US", "es-419"])
async def test_sixty_winners_fit_the_summary_and_every_one_is_named(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch, locale: str
):
    """A crowded end: 60 players share the full tabla, which one line each would take past
    Discord's 2,000 characters. The summary names the first few and how many more, and still
    reveals the seed with the way to check it; the messages after it name every winner."""
    over, seed_word, condensed, page_word, check_word = SUMMARY_WORDS[locale]
    seed = bytes(range(7, 39))
    guild = emulator.add_guild("Game Night", locale=locale)
    channel = guild.add_channel("general")
    members = [guild.add_member(f"player{i:02}") for i in range(60)]
    bot = await start_bot(
        time_scale=100,
        seed_source=lambda: seed,
        settings_changes={"public_url": "https://games.example"},
    )
    cog = bot.get_cog("Lotería")
    lobby = await (await members[0].slash("loteria start", prizes="full")).reply()
    for member in members:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await members[0].click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(cog, game.id, 54)  # the whole deck: every tabla is full on the last card
    monkeypatch.setattr(calling.live, "PRIZE_SHARING_GRACE", 600.0)  # (the claims take a while)
    for member in members:
        claimed = await (await member.slash("loteria claim")).reply()
        assert not claimed.ephemeral, claimed.content
    winners = await bot.storage.winners(game.id)
    assert len(winners) == 60
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)

    summary = await channel.wait_for_message(lambda m: seed_word in m.content, timeout=10)
    assert over in summary.content
    assert seed.hex() in summary.content
    assert f"/loteria verify game:{game.id}" in summary.content
    assert check_word in summary.content
    assert condensed in summary.content
    assert len(summary.attachments) == 5 + 1  # the pictures (12 winners each), the replay
    pages = await emulator.wait_until(
        lambda: [m for m in channel.messages if page_word in m.content] or None,
        10,
        lambda: "the messages naming the winners",
    )
    assert all(len(m.content) <= 2000 for m in channel.messages)
    named = [
        int(user)
        for message in [summary, *pages]
        for user in re.findall(r"<@(\d+)>", message.content)
    ]
    assert set(named) == {member.id for member in members}
    listed = [int(u) for m in pages for u in re.findall(r"<@(\d+)>", m.content)]
    assert sorted(listed) == sorted(member.id for member in members)  # each one once


async def test_the_seed_and_the_way_to_check_it_always_fit(emulator: Emulator, start_bot):
    """The worst end the summary can meet: a thousand winners over five prizes and a
    verification link near its longest. Every message fits Discord's 2,000 characters, the
    first still reveals the seed with the way to check it, and the winners fill at most
    ``WINNER_MESSAGES`` more messages, which say how many they could not name."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100, settings_changes={"public_url": "https://games.example"})
    cog = bot.get_cog("Lotería")
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    prizes = ("line", "corners", "centre", "square", "full")
    winners = [
        WinnerRow(prizes[n // 200], 10**18 + n, None, 10 + n // 200) for n in range(1000)
    ]
    link = "🔎 [Check it yourself](https://games.example/verify/#" + "b" * 1700 + ")"
    texts = cog.summary_texts(game, "reason_all_won", 54, winners, link)

    assert all(len(text) <= 2000 for text in texts)
    first, *pages = texts
    assert game.seed.hex() in first
    assert f"/loteria verify game:{game.id}" in first
    # The page where the link did not fit.
    assert "open the verification page (https://games.example/verify/)" in first
    assert "bbbb" not in first
    assert len(pages) == calling.WINNER_MESSAGES
    assert [page.split("\n")[0] for page in pages] == [
        f"**Lotería #{game.id}**, the winners ({n}/{len(pages)}):" for n in range(1, 11)
    ]
    named = [int(user) for page in pages for user in re.findall(r"<@(\d+)>", page)]
    assert named == [w.user_id for w in winners][: len(named)]  # in order, each once
    left = 1000 - len(named)
    assert pages[-1].endswith(f"… and {left} more winners, too many to list here.")
    assert f"1000 winners, all but {left} named below:" in first
    # A summary that fits is one message, every winner on a line of their own.
    few = winners[:3]
    (whole,) = cog.summary_texts(game, "reason_all_won", 54, few, "🔎 short")
    assert [line for line in whole.split("\n") if line.startswith("- ")] == [
        f"- Line (Chorro): <@{w.user_id}> (call 10)" for w in few
    ]
