"""The picture a calling game ends on, end to end: in the server's language, with players'
names in any script; none when nobody won; and the summary goes out even without it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.storage import BoardRow
from emulator import Emulator
from emulator.model import Member
from engine.fairness import draw_order
from engine.housie import Prize, Ticket, check_prize
from tests.cogs.helpers import button_id, grace_over, run_calls

pytestmark = pytest.mark.backends()

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
    (picture,) = summary.attachments
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
        value = order[winner.draw_seq - 1]
        expected = (
            f"{SPANISH_PRIZES[Prize(winner.prize)]}: {names[winner.user_id]}, cartón {ticket},"
            f" en la cantada {winner.draw_seq} (el {value}), con "
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
    assert summary.attachments == []


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
    assert summary.attachments == []
