"""A client RESUMEs the gateway sessions another client handed over (bot.fleet.gateway_sessions), as a
fleet's process does when it takes shards over: no IDENTIFY, the events missed in between
replayed, interactions past Discord's deadline dropped, the servers read over REST when needed."""

from __future__ import annotations

import asyncio

import pytest

from bot.app import GameNightBot
from bot.fleet.gateway_sessions import UNANSWERABLE_AFTER
from emulator import Emulator

pytestmark = pytest.mark.emulator(shards=2)

SHARDING = {"shard_ids": [0, 1], "shard_count": 2}


async def test_a_client_resumes_the_sessions_another_handed_over(emulator: Emulator, start_bot):
    zero = emulator.add_guild("zero", shard=(0, 2))
    one = emulator.add_guild("one", shard=(1, 2))
    zero.add_channel("games")
    host = zero.add_member("host")
    first: GameNightBot = await start_bot(**SHARDING, hands_over_sessions=True)
    assert first.get_guild(zero.id) is not None
    # Saved before two interactions that reach the first client but that it never handles (as
    # a process killed between a heartbeat and its next one): the RESUME replays them.
    saved = first.gateway_sessions()
    first._connection.parsers["INTERACTION_CREATE"] = lambda data: None
    late = await host.slash("help", game="chess")
    await asyncio.sleep(UNANSWERABLE_AFTER + 0.2)
    timely = await host.slash("help", game="chess")
    await first.stop_for_test()  # type: ignore[attr-defined]
    assert set(first.gateway_sessions()) == {0, 1}
    assert first.gateway_sessions()[0].seq > saved[0].seq
    gateway = emulator.gateway
    # Closed with a code that keeps them resumable, as Discord documents (1000 would end them).
    assert all(not session.invalidated for session in gateway.sessions.values())
    assert not gateway.live_sessions()

    identified, resumed = gateway.session_starts.used, gateway.resume_count
    second: GameNightBot = await start_bot(
        **SHARDING, resume_sessions=saved, hands_over_sessions=True
    )

    assert (gateway.session_starts.used, gateway.resume_count) == (identified, resumed + 2)
    assert second.is_ready()
    assert second.gateway_connected()
    assert second.resumed_shards == {0, 1}
    # The replayed interaction still answerable is answered; the other one is not tried.
    assert "There is no game called 'chess'" in (await timely.reply()).content
    assert late.response_type is None
    assert [f.kind for f in emulator.take_failures("interaction_failed")] == ["interaction_failed"]

    # No GUILD_CREATE came with the RESUME: a server is read over REST once, then cached.
    assert second.get_guild(zero.id) is None
    server = await second.server(zero.id)
    assert server is not None
    assert server.name == "zero"
    assert server.me is not None
    assert server.me.id == second.user.id  # type: ignore[union-attr]
    assert {channel.id for channel in server.channels} == {c.id for c in zero.channels}
    assert second.get_guild(zero.id) is server
    assert (await second.server(one.id)) is not None
    assert await second.server(12345 << 22) is None  # a server the bot is not in
