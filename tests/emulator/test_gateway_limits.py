"""Gateway rules (Gateway: Gateway Intents, Sending Heartbeats, Rate Limiting): invalid intents
(4013), privileged intents the app has not enabled (4014), a connection without heartbeats
(4009, then the bot resumes) and more than 120 frames a minute (4008)."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from emulator import Emulator, GatewayLimits, run_bot
from emulator.gateway import DOCUMENTED_INTENTS
from tests.emulator.minimal_bot import MinimalBot


async def identify(socket: aiohttp.ClientWebSocketResponse, token: str, intents: int) -> None:
    await socket.send_json({"op": 2, "d": {"token": token, "intents": intents, "properties": {}}})


async def closing_code(socket: aiohttp.ClientWebSocketResponse) -> int | None:
    """Read until the emulator closes the socket; its close code."""
    while True:
        message = await socket.receive(timeout=5)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            return socket.close_code


def test_the_documented_intents_are_the_ones_discord_py_knows():
    assert discord.Intents.all().value == DOCUMENTED_INTENTS


async def test_an_undefined_intent_closes_with_4013_with_the_limits_on():
    async with Emulator(gateway_limits=True) as emu:
        emu.add_guild("g")
        async with aiohttp.ClientSession() as session, session.ws_connect(emu.gateway_url) as ws:
            await ws.receive_json()  # HELLO
            await identify(ws, emu.token, (1 << 9) | (1 << 30))
            assert await closing_code(ws) == 4013
        assert [f.kind for f in emu.take_failures()] == ["invalid_intents"]
        assert emu.gateway.identify_count == 0
    # With the gateway limits off (the default), the same IDENTIFY is let through.
    async with (
        Emulator() as emu,
        aiohttp.ClientSession() as session,
        session.ws_connect(emu.gateway_url) as ws,
    ):
        await ws.receive_json()
        await identify(ws, emu.token, (1 << 9) | (1 << 30))
        assert (await ws.receive_json())["t"] == "READY"


async def test_a_privileged_intent_the_app_has_not_enabled_closes_with_4014(tmp_path):
    # The app has Server Members enabled in the Developer Portal, not Message Content.
    async with Emulator(privileged_intents=int(discord.Intents(members=True).value)) as emu:
        emu.add_guild("g").add_channel("general")
        members_only = MinimalBot(tmp_path / "a.sqlite3")
        members_only.intents.members = True
        async with run_bot(emu, members_only):
            assert members_only.is_ready()
        wants_content = discord.Client(
            intents=discord.Intents(guilds=True, message_content=True), guild_ready_timeout=0.05
        )
        with pytest.raises(discord.PrivilegedIntentsRequired):
            async with run_bot(emu, wants_content):
                pass
        (failure,) = emu.take_failures()
        assert failure.kind == "disallowed_intents"
        assert "MESSAGE_CONTENT" in failure.message


async def test_a_connection_without_heartbeats_is_closed_and_its_session_resumes():
    limits = GatewayLimits(heartbeat_grace=0.5)
    async with Emulator(gateway_limits=limits, heartbeat_interval=0.2) as emu:
        emu.add_guild("g")
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(emu.gateway_url) as ws:
                await ws.receive_json()
                await identify(ws, emu.token, 513)
                ready: dict[str, Any] = await ws.receive_json()
                # No heartbeat at all: closed once 0.2 s and its grace have passed.
                assert await closing_code(ws) == 4009
            assert [f.kind for f in emu.take_failures()] == ["heartbeat_timeout"]
            async with session.ws_connect(emu.gateway_url) as ws:
                await ws.receive_json()
                session_id = ready["d"]["session_id"]
                await ws.send_json(
                    {"op": 6, "d": {"token": emu.token, "session_id": session_id, "seq": 1}}
                )
                replayed = [await ws.receive_json() for _ in range(2)]
                assert [frame["t"] for frame in replayed] == ["GUILD_CREATE", "RESUMED"]
        assert emu.gateway.resume_count == 1


async def test_discord_py_keeps_its_heartbeats_in_time(tmp_path):
    async with Emulator(gateway_limits=True, heartbeat_interval=0.25) as emu:
        guild = emu.add_guild("g")
        guild.add_channel("general")
        alice = guild.add_member("alice")
        async with run_bot(emu, MinimalBot(tmp_path / "bot.sqlite3")):
            # Four intervals and more: one heartbeat missed would have closed the socket.
            await emu.wait_until(lambda: emu.gateway.heartbeats >= 5, 10, lambda: "5 heartbeats")
            assert (await (await alice.slash("ping")).reply()).content == "pong"
        assert emu.gateway.resume_count == 0
        assert emu.gateway.identify_count == 1


async def test_more_than_the_send_limit_closes_with_4008():
    async with Emulator(gateway_limits=GatewayLimits(sends=10, send_window=60.0)) as emu:
        async with aiohttp.ClientSession() as session, session.ws_connect(emu.gateway_url) as ws:
            await ws.receive_json()
            await identify(ws, emu.token, 513)
            await ws.receive_json()  # READY
            for _ in range(9):  # the IDENTIFY and 9 heartbeats: 10 frames, the limit
                await ws.send_json({"op": 1, "d": None})
            acks = [await ws.receive_json() for _ in range(9)]
            assert {a["op"] for a in acks} == {11}
            await ws.send_json({"op": 1, "d": None})  # the 11th frame in the window
            assert await closing_code(ws) == 4008
        assert [f.kind for f in emu.take_failures()] == ["gateway_rate_limited"]
