"""The recap of a calling game's end, end to end: the replay (a GIF of the calls on the caller's
board) posted with the end picture, and each player who won nothing told their near miss by DM,
in their language; the same after a restart, and none to a member whose DMs are closed nor in
a server that turned them off."""

from __future__ import annotations

import asyncio
import io
import re

import pytest
from PIL import Image

from bot.render.replay import ReplayWin, replay_plan
from emulator import Emulator, RateLimits
from engine.fairness import draw_order
from engine.housie import HousieGame, Prize, Ticket
from engine.loteria import Pattern, Tabla
from tests.cogs.helpers import button_id, grace_over, run_calls

pytestmark = [pytest.mark.emulator(rate_limits=RateLimits().faster(5))]


def loteria_missing(tabla: Tabla, pattern: Pattern, called: tuple[int, ...]) -> int:
    """Cards ``tabla`` still needs for ``pattern``, counted here from the pattern's masks."""
    seen = set(called)
    return min(
        sum(1 for cell, card in enumerate(tabla.numbers) if mask >> cell & 1 and card not in seen)
        for mask in pattern.masks
    )


def closest(missing_at, first: int, last: int) -> tuple[int, int]:
    """(fewest missing, first call with that few) over calls ``first..last``, call by call."""
    values = [(missing_at(k), k) for k in range(first, last + 1)]
    fewest = min(value for value, _ in values)
    return fewest, min(k for value, k in values if value == fewest)


def gif_frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    frames = []
    for index in range(gif.n_frames):
        gif.seek(index)
        frames.append(gif.convert("RGB"))
    return frames


async def test_a_loteria_night_ends_with_its_replay_and_the_near_misses(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    seed = bytes(range(8, 40))
    order = draw_order(seed, 54)
    guild = emulator.add_guild("Lotería Club")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    others = [guild.add_member(f"p{i}", locale="es-ES" if i % 2 else "en-US") for i in range(4)]
    spanish = {member.id for index, member in enumerate(others) if index % 2}
    closed = guild.add_member("closed", dms_open=False)
    players = [host, *others, closed]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Lotería")
    lobby = await (await host.slash("loteria start", prizes="line")).reply()
    for member in players:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    emulator.take_failures("dm_closed")
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    tablas = {
        board.user_id: Tabla.from_state(board.state) for board in await bot.storage.boards(game.id)
    }

    # The first tabla to complete a line wins it (the lowest deal first on the same call).
    def line_at(tabla: Tabla) -> int:
        return next(k for k in range(1, 55) if loteria_missing(tabla, Pattern.LINE, order[:k]) == 0)

    won_at, winner_id = min((line_at(tabla), user) for user, tabla in tablas.items())
    winner = next(member for member in players if member.id == winner_id)
    assert winner is not closed  # (the seed's: the closed DMs are a non-winner's)
    await run_calls(cog, game.id, won_at)
    claim = await (await winner.slash("loteria claim")).reply()
    assert "wins" in claim.content
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)

    # The summary carries the winners' picture and the replay: every call on the board, and a
    # frame held for the win.
    summary = channel.messages[-1]
    assert seed.hex() in summary.content
    picture, replay = summary.attachments
    assert picture.filename.endswith(".png")
    assert replay.filename.endswith(".gif")
    assert len(replay.data) < 2 * 1024 * 1024
    line = cog.prize_name(Pattern.LINE.value)
    assert f"Call {won_at}: {line}, {winner.name}" in replay.description
    wins = [ReplayWin(won_at, line, (winner.name,))]
    frames = gif_frames(replay.data)
    assert len(frames) == len(replay_plan(won_at, wins, None)) == won_at + 2
    # A card called shows its art on the board; one not called yet, the board's red around
    # its number. Card 1's slot is the first on the board (22, 78 on a 64x90 grid).
    first_card_called_at = order.index(1) + 1 if 1 in order[:won_at] else None
    for index in (1, won_at):
        shown = frames[index].getpixel((22 + 32, 78 + 30))
        called = first_card_called_at is not None and first_card_called_at <= index
        red = shown[0] > 100 and shown[1] < 60 and shown[2] < 80
        assert red is not called, (index, shown)

    # Each player who won nothing hears their closest, in their language; not the closed DMs.
    for member in players:
        if member is winner or member is closed:
            continue
        fewest, seq = closest(
            lambda k, tabla=tablas[member.id]: loteria_missing(tabla, Pattern.LINE, order[:k]),
            1,
            won_at,
        )
        dm = await member.wait_for_dm(lambda m: "🎯" in m.content)
        if member.id in spanish:
            assert f"en la cantada {seq}" in dm.content, dm.content
        else:
            assert f"at call {seq}" in dm.content, dm.content
        if fewest == 0:
            assert "complet" in dm.content
        else:
            assert re.search(rf"\b{fewest}\b", dm.content), dm.content
    assert not any("🎯" in dm.content for dm in winner.dms)
    assert not closed.dms
    assert not emulator.take_failures("dm_closed")


async def test_a_housie_night_recap_is_the_same_after_a_restart(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    seed = bytes(range(60, 92))
    order = draw_order(seed, 90)
    guild = emulator.add_guild("Tambola Club")
    channel = guild.add_channel("housie")
    host = guild.add_member("host")
    others = [guild.add_member(f"p{i}") for i in range(3)]
    players = [host, *others]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    lobby = await (
        await host.slash("housie start", tickets=1, lines=False, corners=False)
    ).reply()
    for member in players:
        await (await member.slash("housie join", tickets=1)).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("housie")
    tickets = {
        board.user_id: Ticket.from_state(board.state) for board in await bot.storage.boards(game.id)
    }
    rules = HousieGame.from_state(game.state)

    def completes(ticket: Ticket, prize: Prize) -> int:
        return next(
            k for k in range(1, 91) if rules.missing(ticket, prize.value, order[:k]) == 0
        )

    five_at, five_id = min((completes(t, Prize.EARLY_FIVE), u) for u, t in tickets.items())
    house_at, house_id = min(
        (completes(t, Prize.FULL_HOUSE), u) for u, t in tickets.items() if u != five_id
    )
    await run_calls(bot.get_cog("Housie"), game.id, five_at)
    five = next(m for m in players if m.id == five_id)
    assert "wins" in (await (await five.slash("housie claim", prize="E5")).reply()).content

    # The bot restarts mid-game; the rest of the game, its replay and near misses come from
    # what was stored.
    await bot.stop_for_test()
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Housie")
    await run_calls(cog, game.id, house_at - five_at)
    house = next(m for m in players if m.id == house_id)
    assert "wins" in (await (await house.slash("housie claim", prize="FH")).reply()).content
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)

    summary = channel.messages[-1]
    _picture, replay = summary.attachments
    wins = [
        ReplayWin(five_at, cog.prize_name("E5"), (five.name,)),
        ReplayWin(house_at, cog.prize_name("FH"), (house.name,)),
    ]
    frames = gif_frames(replay.data)
    assert len(frames) == len(replay_plan(house_at, wins, None))
    assert len(replay.data) < 2 * 1024 * 1024
    # The board's balls: number n at row (n-1)//10, column (n-1)%10 of 56-pixel balls 8 apart
    # from (22, 112); a called one is filled teal, one not called is paper.
    last_frame = frames[-1]
    for number in range(1, 91):
        row, column = divmod(number - 1, 10)
        centre = (22 + column * 64 + 28 + 14, 112 + row * 64 + 28)
        colour = last_frame.getpixel(centre)
        paper = all(value > 200 for value in colour)
        assert paper is (number not in order[:house_at]), (number, colour)

    for member in players:
        if member.id in (five_id, house_id):
            continue
        ticket = tickets[member.id]
        found = []
        for rank, (prize, last) in enumerate(
            ((Prize.EARLY_FIVE, five_at), (Prize.FULL_HOUSE, house_at))
        ):
            fewest, seq = closest(
                lambda k, code=prize.value, ticket=ticket: rules.missing(ticket, code, order[:k]),
                1,
                last,
            )
            found.append((fewest, -rank, seq))
        fewest, _, seq = min(found)
        best = (fewest, seq, None)
        fewest, seq, _ = best
        dm = await member.wait_for_dm(lambda m: "🎯" in m.content)
        assert f"at call {seq}" in dm.content, dm.content
        assert re.search(rf"\b{fewest}\b", dm.content), dm.content


async def test_a_server_can_turn_the_near_misses_off(emulator: Emulator, start_bot):
    seed = bytes(range(1, 33))
    guild = emulator.add_guild("Quiet Club")
    channel = guild.add_channel("general")
    host = guild.add_member("host", manage_guild=True)
    other = guild.add_member("other")
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    turned = await (
        await host.slash("gamenight settings", game="loteria", near_misses=False)
    ).reply()
    assert "no near-miss DMs" in turned.content
    lobby = await (await host.slash("loteria start", prizes="line")).reply()
    for member in (host, other):
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    cog = bot.get_cog("Lotería")
    await run_calls(cog, game.id, 3)
    await (await host.slash("loteria stop")).reply()
    await channel.wait_for_message(lambda m: seed.hex() in m.content)
    # No near misses are being told, and none were.
    assert not cog.recap_tasks
    for member in (host, other):
        assert not any("🎯" in dm.content for dm in member.dms)


@pytest.mark.emulator(rate_limits=RateLimits().faster(5), latency=(0.1, 0.1))
async def test_a_stop_ends_the_near_misses_before_the_database_closes(
    emulator: Emulator, start_bot, caplog: pytest.LogCaptureFixture
):
    seed = bytes(range(2, 34))
    guild = emulator.add_guild("Closing Club")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    others = [guild.add_member(f"p{i}") for i in range(4)]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    lobby = await (await host.slash("loteria start", prizes="line")).reply()
    for member in (host, *others):
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    cog = bot.get_cog("Lotería")
    await run_calls(cog, game.id, 3)
    await (await host.slash("loteria stop")).reply()
    await channel.wait_for_message(lambda m: seed.hex() in m.content)
    # The bot stops while the near misses are being told (each DM a few trips over the network).
    while not cog.recap_tasks:  # noqa: ASYNC110 - the cog's own set, no event to wait on
        await asyncio.sleep(0.01)
    await bot.stop_for_test()
    # The DM under way went out and the rest were dropped before the database closed: nothing
    # is left running against it, and nothing failed.
    assert not cog.recap_tasks
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
