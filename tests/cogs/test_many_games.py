"""Several games at once, one per channel, across servers, each on its own timer."""

from __future__ import annotations

import re

import pytest

from emulator import Emulator
from engine.fairness import draw_order
from tests.cogs.helpers import button_id

pytestmark = pytest.mark.backends()


def calls_in(channel, pattern: str) -> list[int]:
    return [int(m[1]) for msg in channel.messages if (m := re.search(pattern, msg.content))]


async def test_three_games_in_three_channels_of_two_servers(emulator: Emulator, start_bot):
    first = emulator.add_guild("Server A")
    second = emulator.add_guild("Server B")
    games = [
        (first.add_channel("loteria-1"), first, "loteria", r"card (\d+) of 54"),
        (first.add_channel("loteria-2"), first, "loteria", r"card (\d+) of 54"),
        (second.add_channel("housie"), second, "housie", r"number (\d+) of 90"),
    ]
    bot = await start_bot(time_scale=0.02)
    hosts = []
    for index, (channel, guild, kind, _) in enumerate(games):
        host = guild.add_member(f"host{index}")
        player = guild.add_member(f"player{index}")
        hosts.append(host)
        options = {"prizes": "full"} if kind == "loteria" else {}
        lobby = await (await host.slash(f"{kind} start", in_channel=channel, **options)).reply()
        for member in (host, player):
            await (await member.click(lobby, button_id(lobby, "join"))).reply()
        await (await host.click(lobby, button_id(lobby, "start"))).reply()

    for channel, _, _, pattern in games:
        await emulator.wait_until(
            lambda c=channel, p=pattern: len(calls_in(c, p)) >= 5 or None, 20, lambda: "calls"
        )
    for (channel, _, kind, _), host in zip(games, hosts, strict=True):
        await (await host.slash(f"{kind} stop", in_channel=channel)).reply()
        await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)

    stored = await bot.storage.live_games()
    assert stored == []
    for game_id, (channel, _, kind, pattern) in enumerate(games, start=1):
        game = await bot.storage.get_game(game_id)
        assert game is not None
        assert game.channel_id == channel.id
        announced = calls_in(channel, pattern)
        assert announced == list(range(1, len(announced) + 1))
        draws = await bot.storage.draws(game_id)
        size = 54 if kind == "loteria" else 90
        assert [d.value for d in draws] == list(draw_order(game.seed, size)[: len(draws)])
    seeds = {(await bot.storage.get_game(i)).seed for i in (1, 2, 3)}
    assert len(seeds) == 3
