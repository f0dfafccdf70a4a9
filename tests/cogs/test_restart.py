"""Restarts: a running game survives the bot stopping (cleanly or by SIGKILL) and resumes from
the database with the seed's order, no call announced twice or skipped, old buttons working."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from emulator import Emulator
from engine.fairness import draw_order
from engine.housie import TicketDealer, tickets_at
from tests.cogs.helpers import button_id
from tests.conftest import SIGNING_KEY

pytestmark = pytest.mark.backends()

ROOT = Path(__file__).resolve().parents[2]


def announced(channel, pattern: str) -> list[int]:
    return [int(match[1]) for m in channel.messages if (match := re.search(pattern, m.content))]


async def wait_for_calls(emulator: Emulator, channel, pattern: str, count: int) -> None:
    await emulator.wait_until(
        lambda: len(announced(channel, pattern)) >= count or None,
        30,
        lambda: f"{count} calls (have {len(announced(channel, pattern))})",
    )


async def test_a_stopped_bot_resumes_its_game(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    players = [host, *(guild.add_member(f"p{i}") for i in range(3))]
    bot = await start_bot(time_scale=0.02)

    lobby = await (await host.slash("loteria start", prizes="full", interval=5)).reply()
    for member in players:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    await wait_for_calls(emulator, channel, r"card (\d+) of 54", 5)
    await bot.stop_for_test()
    stopped_at = len(announced(channel, r"card (\d+) of 54"))
    await asyncio.sleep(0.3)
    assert len(announced(channel, r"card (\d+) of 54")) == stopped_at

    bot = await start_bot(time_scale=0.02)
    await wait_for_calls(emulator, channel, r"card (\d+) of 54", stopped_at + 5)
    # A button from before the restart still works.
    first_call = next(m for m in channel.messages if "card 1 of 54" in m.content)
    claim = await (await players[1].click(first_call, button_id(first_call, "claim"))).reply()
    assert "False claim" in claim.content or "wins" in claim.content
    await (await host.slash("loteria stop")).reply()
    # Every call drawn before the end is posted before the summary.
    await channel.wait_for_message(lambda m: "is over" in m.content)

    (game,) = [g for g in [await bot.storage.get_game(1)] if g]
    calls = announced(channel, r"card (\d+) of 54")
    assert calls == list(range(1, len(calls) + 1))
    draws = await bot.storage.draws(game.id)
    assert len(draws) == len(calls)
    assert [d.value for d in draws] == list(draw_order(game.seed, 54)[: len(draws)])


@pytest.mark.backends("postgres")
async def test_a_database_restart_mid_game_loses_and_doubles_nothing(
    emulator: Emulator, start_bot, postgres_server, database: str, caplog
):
    """PostgreSQL restarts (and later every connection is cut) while calls are made and a
    player claims: the game goes on, every call stored once and announced once, in order."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    players = [host, *(guild.add_member(f"p{i}") for i in range(3))]
    bot = await start_bot(time_scale=0.02)
    lobby = await (await host.slash("loteria start", prizes="full", interval=5)).reply()
    for member in players:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    await wait_for_calls(emulator, channel, r"card (\d+) of 54", 4)

    first_call = next(m for m in channel.messages if "card 1 of 54" in m.content)
    restarting = asyncio.create_task(asyncio.to_thread(postgres_server.restart))
    claim = await players[1].click(first_call, button_id(first_call, "claim"))
    await restarting
    assert "False claim" in (await claim.reply(10)).content
    reached = len(announced(channel, r"card (\d+) of 54"))
    await wait_for_calls(emulator, channel, r"card (\d+) of 54", reached + 4)
    assert await postgres_server.terminate_connections(database) > 0
    await wait_for_calls(emulator, channel, r"card (\d+) of 54", reached + 8)
    await (await host.slash("loteria stop")).reply(10)
    await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)
    # A call stored just before the stop may still be on its way to the channel.
    for _ in range(50):
        draws = await bot.storage.draws(1)
        if all(d.message_id is not None for d in draws):
            break
        await asyncio.sleep(0.1)

    calls = announced(channel, r"card (\d+) of 54")
    assert calls == list(range(1, len(calls) + 1))
    assert [d.seq for d in draws] == calls
    assert all(d.message_id is not None for d in draws)
    assert len(await bot.storage.claims(1)) == 1
    assert (await bot.storage.get_player(1, players[1].id)).false_claims == 1
    assert "the database connection was lost" in caplog.text


def bot_process(emulator: Emulator, database: Path | str, folder: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DISCORD_TOKEN": emulator.token,
        "GAMENIGHT_SIGNING_KEY": SIGNING_KEY.hex(),
        "GAMENIGHT_DATABASE": str(database),
        "DISCORD_API_BASE_URL": emulator.api_base_url,
        "DISCORD_GATEWAY_URL": emulator.gateway_url,
        "GAMENIGHT_TIME_SCALE": "0.04",
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def test_a_killed_bot_process_resumes_its_game(
    emulator: Emulator, database: Path | str, tmp_path: Path
):
    guild = emulator.add_guild("Tambola Club")
    channel = guild.add_channel("housie")
    host = guild.add_member("host")
    players = [host, *(guild.add_member(f"p{i}") for i in range(4))]
    pattern = r"number (\d+) of 90"

    process = bot_process(emulator, database, tmp_path)
    try:
        await emulator.wait_for_bot(30)
        await emulator.wait_until(lambda: emulator.synced_commands or None, 30, lambda: "sync")
        lobby = await (await host.slash("housie start", interval=5)).reply(10)
        for member in players:
            await (await member.slash("housie join")).reply(10)
        await (await host.click(lobby, button_id(lobby, "start"))).reply(10)
        for kill in range(2):
            await wait_for_calls(emulator, channel, pattern, 4 * (kill + 1))
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            await emulator.wait_until(
                lambda: not emulator.bot_connected or None, 10, lambda: "the bot to drop"
            )
            process = bot_process(emulator, database, tmp_path)
            await emulator.wait_for_bot(30)
        await wait_for_calls(emulator, channel, pattern, 12)
        await (await host.slash("housie stop")).reply(10)
        await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)
    finally:
        process.kill()
        process.wait(10)

    from bot.storage import Storage

    async with Storage.open(database) as storage:
        game = await storage.get_game(1)
        assert game is not None
        draws = await storage.draws(game.id)
    calls = announced(channel, pattern)
    assert calls == list(range(1, len(calls) + 1)), "no call announced twice or skipped"
    assert len(draws) == len(calls)
    assert [d.value for d in draws] == list(draw_order(game.seed, 90)[: len(draws)])
    assert all(d.message_id is not None for d in draws)


async def test_discord_errors_while_calling_lose_and_double_nothing(emulator: Emulator, start_bot):
    """5xx answers on the calls (some after the message was posted): the caller retries, the
    enforced nonce keeps a retried call from appearing twice, and no call is skipped."""
    from emulator import Fault

    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=0.02)
    lobby = await (await host.slash("loteria start", prizes="full", interval=5)).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    await wait_for_calls(emulator, channel, r"card (\d+) of 54", 2)
    route = "/channels/{channel_id}/messages"
    lost_answers = emulator.inject_fault(
        Fault(500, method="POST", route=route, after_handling=True, limit=1)
    )
    refused = emulator.inject_fault(Fault(503, method="POST", route=route, limit=1))
    await wait_for_calls(emulator, channel, r"card (\d+) of 54", 8)
    assert emulator.faults.hits(lost_answers) == 1
    assert emulator.faults.hits(refused) == 1
    await (await host.slash("loteria stop")).reply()
    await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)

    calls = announced(channel, r"card (\d+) of 54")
    assert calls == list(range(1, len(calls) + 1))
    draws = await bot.storage.draws(1)
    assert [d.seq for d in draws] == calls
    assert all(d.message_id is not None for d in draws)


async def test_stopping_the_bot_finishes_answers_already_under_way(
    emulator: Emulator, start_bot, monkeypatch
):
    import time as clock

    from cogs import loteria

    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()

    real_render = loteria.render.render_tabla

    def slow_render(*args, **kwargs):  # a render that is still running when the bot stops
        clock.sleep(0.5)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(loteria.render, "render_tabla", slow_render)
    showing = await host.slash("loteria tabla")
    await showing.acknowledgement()
    await bot.stop_for_test()
    reply = await showing.reply()
    assert reply.attachments


async def test_a_lobby_deals_on_from_its_dealer_across_a_restart(
    emulator: Emulator, start_bot, monkeypatch
):
    # Joins deal from the lobby's dealer: rebuilt (by replay) only at the first join after a
    # restart, at the next deal position; a leaver's positions are never dealt again.
    seed = bytes(range(7, 39))
    resumed_at: list[int] = []
    resume = TicketDealer.resume.__func__

    def counted(cls, seed: bytes, position: int) -> TicketDealer:
        resumed_at.append(position)
        return resume(cls, seed, position)

    monkeypatch.setattr(TicketDealer, "resume", classmethod(counted))
    guild = emulator.add_guild("Tambola Club")
    guild.add_channel("housie")
    host = guild.add_member("host")
    players = [host, *(guild.add_member(f"p{i}") for i in range(4))]
    bot = await start_bot(seed_source=lambda: seed)
    lobby = await (await host.slash("housie start", tickets=4)).reply()
    for member in players[:3]:
        await (await member.slash("housie join", tickets=4)).reply()
    await (await players[1].click(lobby, button_id(lobby, "leave"))).reply()
    (game,) = await bot.storage.live_games("housie")
    assert bot.get_cog("Housie").dealers[game.id].position == 12
    assert resumed_at == [0]  # the first join starts the dealer; no replay after it

    await bot.stop_for_test()
    bot = await start_bot(seed_source=lambda: seed)
    cog = bot.get_cog("Housie")
    assert cog.dealers == {}
    for member in players[3:]:
        await (await member.slash("housie join", tickets=4)).reply()
    assert resumed_at == [0, 12]
    assert cog.dealers[game.id].position == 20
    dealt = tickets_at(seed, 0, 20)
    boards = [board for p in players for board in await bot.storage.boards(game.id, p.id)]
    assert sorted(board.deal_index for board in boards) == [*range(4), *range(8, 20)]
    assert all(board.state == dealt[board.deal_index].to_state() for board in boards)

    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    assert game.id not in cog.dealers  # a started game deals no more
