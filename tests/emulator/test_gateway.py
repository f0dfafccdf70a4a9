"""The gateway: handshake, READY/GUILD_CREATE, resume after faults, invalid sessions, shards."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from emulator import Emulator, run_bot
from tests.emulator.minimal_bot import MinimalBot


def make_world(emu: Emulator):
    guild = emu.add_guild("Game Night")
    general = guild.add_channel("general")
    alice = guild.add_member("alice")
    return guild, general, alice


async def test_handshake_ready_and_one_guild_create_per_guild(emulator):
    first, _, _ = make_world(emulator)
    second = emulator.add_guild("Second")
    second.add_member("carol")
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(emulator.gateway_url) as socket,
    ):
        hello = await socket.receive_json()
        assert hello["op"] == 10
        assert hello["d"]["heartbeat_interval"] > 0
        await socket.send_json({"op": 1, "d": None})
        assert (await socket.receive_json())["op"] == 11
        await socket.send_json(
            {"op": 2, "d": {"token": emulator.token, "intents": 513, "properties": {}}}
        )
        ready = await socket.receive_json()
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["application"]["id"] == str(emulator.application_id)
        assert ready["d"]["resume_gateway_url"] == emulator.gateway_url
        assert [g["id"] for g in ready["d"]["guilds"]] == [str(first.id), str(second.id)]
        creates = [await socket.receive_json() for _ in range(2)]
    assert [c["t"] for c in creates] == ["GUILD_CREATE", "GUILD_CREATE"]
    assert [c["s"] for c in creates] == [2, 3]
    for create, guild in zip(creates, (first, second), strict=True):
        data = create["d"]
        assert data["id"] == str(guild.id)
        assert data["member_count"] == len(data["members"]) == len(guild.members) + 1  # + the bot
        assert {m["user"]["id"] for m in data["members"]} >= {str(m.id) for m in guild.members}
        assert data["roles"][0]["id"] == str(guild.id)  # @everyone


async def test_a_bad_token_closes_with_4004(emulator):
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(emulator.gateway_url) as socket,
    ):
        await socket.receive_json()
        await socket.send_json({"op": 2, "d": {"token": "wrong", "intents": 0, "properties": {}}})
        message = await socket.receive()
    assert message.type is aiohttp.WSMsgType.CLOSE
    assert socket.close_code == 4004


async def test_resuming_an_unknown_session_is_refused(emulator):
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(emulator.gateway_url) as socket,
    ):
        await socket.receive_json()
        await socket.send_json(
            {"op": 6, "d": {"token": emulator.token, "session_id": "nope", "seq": 3}}
        )
        assert await socket.receive_json() == {"op": 9, "d": False}


async def test_a_bad_token_fails_login(emulator, tmp_path):
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    with pytest.raises(discord.LoginFailure):
        async with run_bot(emulator, bot, token="not-the-token"):
            pass
    assert {f.kind for f in emulator.take_failures()} == {"unauthorized"}


async def test_reconnect_request_leads_to_resume(emulator, tmp_path):
    _, _, alice = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        emulator.request_reconnect()
        await emulator.wait_until(
            lambda: emulator.gateway.resume_count == 1, 5, lambda: "the bot to resume"
        )
        assert emulator.gateway.identify_count == 1
        assert (await (await alice.slash("ping")).reply()).content == "pong"


async def test_invalid_session_leads_to_a_new_identify(emulator, tmp_path):
    _, _, alice = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        emulator.invalidate_session(resumable=False)
        await emulator.wait_until(
            lambda: emulator.gateway.identify_count == 2 and emulator.bot_connected,
            5,
            lambda: "the bot to identify again",
        )
        assert emulator.gateway.resume_count == 0
        assert (await (await alice.slash("ping")).reply()).content == "pong"


async def test_resumable_invalid_session_leads_to_resume(emulator, tmp_path):
    _, _, alice = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        emulator.invalidate_session(resumable=True)
        await emulator.wait_until(
            lambda: emulator.gateway.resume_count == 1, 5, lambda: "the bot to resume"
        )
        assert (await (await alice.slash("ping")).reply()).content == "pong"


class ShardedBot(discord.AutoShardedClient):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)


async def test_a_sharded_client_asks_for_the_bot_gateway(emulator):
    guild, _, _ = make_world(emulator)
    bot = ShardedBot()
    async with run_bot(emulator, bot):
        assert bot.shard_count == 1
        assert bot.get_guild(guild.id) is not None
    assert "/gateway/bot" in [r.path for r in emulator.requests]


async def test_guilds_channels_and_members_added_later_reach_the_bot(emulator, tmp_path):
    guild, _, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        later = emulator.add_guild("Later")
        channel = guild.add_channel("announcements")
        await emulator.wait_until(
            lambda: bot.get_guild(later.id) and bot.get_channel(channel.id),
            5,
            lambda: "the new guild",
        )
        assert bot.get_channel(channel.id).name == "announcements"
