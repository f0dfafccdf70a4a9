"""Housie end to end: the real bot and cogs against the emulator and a real SQLite file."""

from __future__ import annotations

import re

import pytest

from emulator import Emulator
from engine.fairness import commitment, draw_order
from engine.housie import Prize, Ticket, check_prize, decode_ticket_code, tickets_at
from tests.cogs.helpers import button_id, grace_over, run_calls
from tests.conftest import SIGNING_KEY

pytestmark = pytest.mark.backends()

PLAYERS = 21
CLOSED_DMS = {4, 9}
PRIZES = (
    Prize.EARLY_FIVE,
    Prize.TOP_LINE,
    Prize.MIDDLE_LINE,
    Prize.BOTTOM_LINE,
    Prize.FOUR_CORNERS,
    Prize.FULL_HOUSE,
    Prize.SECOND_HOUSE,
    Prize.THIRD_HOUSE,
)


def first_win(ticket: Ticket, order: tuple[int, ...], prize: Prize) -> int:
    check = Prize.FULL_HOUSE if prize.is_house else prize
    for n in range(1, 91):
        if check_prize(ticket, order[:n], check).valid:
            return n
    raise AssertionError("every prize completes by call 90")


async def test_a_full_housie_night(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    seed = bytes(range(100, 132))
    order = draw_order(seed, 90)
    guild = emulator.add_guild("Tambola Club")
    channel = guild.add_channel("housie")
    host = guild.add_member("host", manage_guild=True)
    members = [guild.add_member(f"p{i}", dms_open=i not in CLOSED_DMS) for i in range(PLAYERS - 1)]
    players = [host, *members]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Housie")

    lobby = await (
        await host.slash("housie start", tickets=3, extra_houses=True, interval=5)
    ).reply()
    assert commitment(seed) in lobby.content

    # Join: by the lobby button (choosing a count) or by command; 1 to 3 tickets each.
    wanted = {}
    for index, member in enumerate(players):
        count = index % 3 + 1
        wanted[member.id] = count
        if index % 2:
            offer = await (await member.click(lobby, button_id(lobby, "join"))).reply()
            assert offer.ephemeral
            reply = await (await member.click(offer, button_id(offer, f"tickets{count}"))).reply()
        else:
            reply = await (await member.slash("housie join", tickets=count)).reply()
        assert reply.ephemeral
        if index - 1 in CLOSED_DMS:
            assert len(reply.attachments) == count
        else:
            assert len(member.dms[-1].attachments) == count
    emulator.take_failures("dm_closed")
    too_many = await (await host.slash("housie join", tickets=3)).reply()
    assert "already" in too_many.content

    # Tickets come from the seed's strips in joining order, each with a signed code.
    position = 0
    tickets: dict[int, list[Ticket]] = {}
    for member in players:
        boards = await bot.storage.boards((await bot.storage.live_games("housie"))[0].id, member.id)
        assert len(boards) == wanted[member.id]
        tickets[member.id] = [Ticket.from_state(b.state) for b in boards]
        assert tickets[member.id] == tickets_at(seed, position, len(boards))
        for board in boards:
            assert decode_ticket_code(board.code, SIGNING_KEY)[0] == Ticket.from_state(board.state)
        position += len(boards)
    (game,) = await bot.storage.live_games("housie")
    code = (await bot.storage.boards(game.id, host.id))[0].code

    genuine = await (await members[0].slash("housie check", code=code)).reply()
    assert "Genuine" in genuine.content
    assert f"#{game.id}" in genuine.content
    tampered = code[:-1] + ("A" if code[-1] != "A" else "B")
    forged = await (await members[0].slash("housie check", code=tampered)).reply()
    assert forged.ephemeral
    assert "Not a valid ticket code" in forged.content

    await (await host.click(lobby, button_id(lobby, "start"))).reply()

    # Anyone can see the caller's board; a player sees their own tickets, marked, privately.
    await run_calls(cog, game.id, 2)
    board = await (await members[0].slash("housie board")).reply()
    assert not board.ephemeral
    assert "2 numbers called" in board.content
    assert board.attachments[0].description
    mine = await (await members[1].slash("housie ticket")).reply()
    assert mine.ephemeral
    assert len(mine.attachments) == wanted[members[1].id]

    # Autocomplete offers the prizes still open.
    choices = await members[0].autocomplete("housie claim", "prize", "line")
    assert {c["value"] for c in choices} == {"TL", "ML", "BL"}

    # A bogey takes that ticket out; the player keeps playing their other tickets.
    bogey_player = next(m for m in players if wanted[m.id] == 3)
    await run_calls(cog, game.id, 1)
    bogey = await (await bogey_player.slash("housie claim", prize="FH", ticket=2)).reply()
    assert "Bogey" in bogey.content
    assert "Ticket 2 is out" in bogey.content
    out_boards = [b for b in await bot.storage.boards(game.id, bogey_player.id) if b.out]
    assert [b.board_index for b in out_boards] == [1]

    # Every prize, claimed by the first ticket to complete it, in call order.
    live = {
        (m.id, i): t
        for m in players
        for i, t in enumerate(tickets[m.id])
        if not (m is bogey_player and i == 1)
    }
    wins = sorted(
        (first_win(t, order, prize), prize.value, key)
        for prize in PRIZES
        if not prize.is_house or prize is Prize.FULL_HOUSE
        for key, t in live.items()
    )
    claimed: set[str] = set()
    winners_of_houses: set[tuple[int, int]] = set()
    house_order = [Prize.FULL_HOUSE, Prize.SECOND_HOUSE, Prize.THIRD_HOUSE]
    for call, completed, key in wins:
        prize_code = completed
        if completed == "FH":
            if key in winners_of_houses or len(winners_of_houses) == 3:
                continue
            prize_code = house_order[len(winners_of_houses)].value
        elif prize_code in claimed:
            continue
        done = len(await bot.storage.draws(game.id))
        await run_calls(cog, game.id, max(0, call - done))
        member = next(m for m in players if m.id == key[0])
        result = await (
            await member.slash("housie claim", prize=prize_code, ticket=key[1] + 1)
        ).reply()
        assert "wins on call" in result.content, result.content
        assert result.attachments
        claimed.add(prize_code)
        if prize_code in {"FH", "H2", "H3"}:
            winners_of_houses.add(key)
        if prize_code == "FH":
            # The same ticket cannot take the second house too: refused, not a bogey.
            again = await (
                await member.slash("housie claim", prize="H2", ticket=key[1] + 1)
            ).reply()
            assert "cannot win" in again.content
            assert again.ephemeral
            assert "Bogey" not in again.content
            boards = await bot.storage.boards(game.id, member.id)
            assert not boards[key[1]].out
        if len(claimed) == len(PRIZES):
            break
    assert claimed == {p.value for p in PRIZES}

    # The caller's board is posted every 10 calls, and on demand.
    boards_posted = [m for m in channel.messages if "The board after" in m.content]
    draws = await bot.storage.draws(game.id)
    assert len(boards_posted) == len(draws) // 10
    assert all(m.attachments for m in boards_posted)

    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)
    summary = channel.messages[-1]
    assert seed.hex() in summary.content
    # Eight prizes on one picture: each winner's ticket, named and described.
    picture, replay = summary.attachments
    assert replay.filename.endswith(".gif")
    assert picture.data.startswith(b"\x89PNG")
    names = {member.id: member.name for member in players}
    boards = {board.id: board for board in await bot.storage.boards(game.id)}
    won = await bot.storage.winners(game.id)
    assert len(won) == len(PRIZES)
    for winner in won:
        assert winner.board_id is not None
        ticket = boards[winner.board_id].board_index + 1
        expected = (
            f"{Prize(winner.prize).display_name}: {names[winner.user_id]}, ticket {ticket},"
            f" on call {winner.step} (number {order[winner.step - 1]})"
        )
        assert expected in picture.description
    announced = [
        int(match[1])
        for m in channel.messages
        if (match := re.search(r"number (\d+) of 90", m.content))
    ]
    assert announced == list(range(1, len(draws) + 1))
    assert [d.value for d in draws] == list(order[: len(draws)])
    verified = await (await host.slash("housie verify", game=game.id)).reply()
    assert "verified" in verified.content
