"""Headroom for crowds: dealing happens off the event loop, and a returning player's board costs
one request (their DM channel is kept)."""

from __future__ import annotations

import threading

import pytest

from emulator import Emulator
from tests.cogs.helpers import button_id

pytestmark = pytest.mark.backends("sqlite", "postgres")

OPEN_DM = "/users/@me/channels"
MESSAGES = "/channels/{channel_id}/messages"


def posts(emulator: Emulator, route: str) -> int:
    return sum(1 for r in emulator.requests if r.method == "POST" and r.route == route)


async def test_a_returning_player_costs_one_request(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    assert posts(emulator, OPEN_DM) == 1
    await (await host.click(lobby, button_id(lobby, "cancel"))).reply()
    await bot.stop_for_test()

    # After a restart discord.py remembers nothing: the database does.
    await start_bot(time_scale=100)
    opened_before, sent_before = posts(emulator, OPEN_DM), posts(emulator, MESSAGES)
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    assert host.dms[-1].attachments
    assert posts(emulator, OPEN_DM) == opened_before  # no new DM channel
    assert posts(emulator, MESSAGES) == sent_before + 1  # the board, one request


async def test_a_dm_channel_discord_no_longer_knows_is_opened_again(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    await bot.storage.set_dm_channel(host.id, 4242)  # kept from long ago, gone since
    lobby = await (await host.slash("loteria start")).reply()
    joined = await (await host.click(lobby, button_id(lobby, "join"))).reply()
    assert "Check your DMs" in joined.content
    assert host.dms[-1].attachments
    assert await bot.storage.dm_channel(host.id) == host.dms[-1].channel.id
    emulator.take_failures()  # the one 404 to the forgotten channel


async def test_boards_are_dealt_off_the_event_loop(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    members = [guild.add_member(f"m{i}") for i in range(3)]
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")
    real_deal = type(cog).deal
    dealt_in: list[str] = []

    def deal(self, game, first, count):  # observes where the real deal runs
        dealt_in.append(threading.current_thread().name)
        return real_deal(self, game, first, count)

    type(cog).deal = deal
    try:
        lobby = await (await members[0].slash("housie start", tickets=6)).reply()
        for member in members:
            await (await member.slash("housie join", tickets=6)).reply()
    finally:
        type(cog).deal = real_deal
    assert len(dealt_in) == 3
    assert threading.main_thread().name not in dealt_in
    (game,) = await bot.storage.live_games()
    assert [b.deal_index for b in await bot.storage.boards(game.id)] == list(range(18))
    assert lobby.content
