"""Sharding as Discord does it: GET /gateway/bot, IDENTIFY's shard checked (4010) and required
for big bots (4011), each guild's events and interactions only on its shard's session, several
clients of one bot sharing its session start limit, its IDENTIFY buckets and its global rate
limit, and the same shard connected twice."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from emulator import Emulator, RateLimits, run_bot
from emulator.gateway import SessionStartLimit, parse_shard
from emulator.model import SnowflakeSource, shard_of

GUILDS_AND_MESSAGES = (1 << 0) | (1 << 9)


class ShardedBot(discord.AutoShardedClient):
    """Answers /where with its label and the shard of the guild; records the messages it sees."""

    def __init__(self, label: str = "bot", **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self.label = label
        self.seen: list[discord.Message] = []  # members' messages
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Which client and shard answer")
        async def where(interaction: discord.Interaction) -> None:
            shard = interaction.guild.shard_id if interaction.guild else 0
            await interaction.response.send_message(f"{self.label} on shard {shard}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between shards (the emulator's max_concurrency says how many may go)."""

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.seen.append(message)


def sessions_that_got(emu: Emulator, event: str, object_id: int) -> list[tuple[int, int] | None]:
    """The shards of the sessions that were sent ``event`` about the object ``object_id``."""
    shards = []
    for session in emu.gateway.sessions.values():
        for _, frame in session.sent:
            sent = json.loads(frame)
            if sent["t"] == event and sent["d"].get("id") == str(object_id):
                shards.append(session.shard)
                break
    return shards


async def gateway_bot(emu: Emulator) -> dict[str, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{emu.api_base_url}/gateway/bot", headers={"Authorization": f"Bot {emu.token}"}
        ) as response,
    ):
        assert response.status == 200
        body: dict[str, Any] = await response.json()
    assert emu.spec is not None
    assert emu.spec.response_errors("/gateway/bot", "GET", 200, body) == []
    return body


async def identify(
    socket: aiohttp.ClientWebSocketResponse, token: str, shard: Any = None
) -> dict[str, Any]:
    """HELLO, then IDENTIFY; returns the first answer (READY, or op 9)."""
    assert (await socket.receive_json())["op"] == 10
    data: dict[str, Any] = {"token": token, "intents": GUILDS_AND_MESSAGES, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await socket.send_json({"op": 2, "d": data})
    answer: dict[str, Any] = await socket.receive_json()
    return answer


# -- ids, shards and budgets -------------------------------------------------------------------


def test_guild_ids_made_one_after_another_spread_over_shards():
    ids = SnowflakeSource()
    made = [ids.next_millisecond() for _ in range(8)]
    assert made == sorted(set(made))
    assert {shard_of(guild_id, 4) for guild_id in made} == {0, 1, 2, 3}
    assert ids.next() > made[-1]  # other ids stay increasing


def test_a_guild_id_can_be_made_for_a_chosen_shard():
    ids = SnowflakeSource()
    for shard_id in (3, 0, 2, 2, 1):
        assert shard_of(ids.next_millisecond((shard_id, 5)), 5) == shard_id
    with pytest.raises(ValueError, match="not one of 5"):
        ids.next_millisecond((5, 5))


def test_identify_shards_are_checked():
    assert parse_shard(None) is None
    assert parse_shard([0, 1]) == (0, 1)
    assert parse_shard([2, 3]) == (2, 3)
    for bad in ([3, 3], [-1, 2], [0, 0], [1], "0,1", [0, True], [0.0, 1]):
        with pytest.raises(ValueError, match="shard"):
            parse_shard(bad)


def test_the_session_start_limit_resets_a_day_after_its_first_start():
    limit = SessionStartLimit(total=3)
    assert (limit.remaining(100.0), limit.reset_after_ms(100.0)) == (3, 0)
    limit.take(100.0)
    limit.take(160.0)
    assert limit.remaining(160.0) == 1
    assert limit.reset_after_ms(160.0) == (86_400 - 60) * 1000
    assert limit.remaining(100.0 + 86_400) == 3


async def test_gateway_bot_recommends_shards_by_guild_count_or_as_configured():
    async with Emulator() as emu:
        assert (await gateway_bot(emu))["shards"] == 1
        for index in range(1001):
            emu.add_guild(f"Guild {index}")
        body = await gateway_bot(emu)
        assert body["shards"] == 2  # one per 1,000 guilds
        assert body["url"] == emu.gateway_url
    async with Emulator(max_guilds_per_shard=10) as emu:
        for index in range(25):
            emu.add_guild(f"Guild {index}")
        assert (await gateway_bot(emu))["shards"] == 3  # never more than a shard may hold
    async with Emulator(shards=7, max_concurrency=4) as emu:
        body = await gateway_bot(emu)
        assert body["shards"] == 7
        assert body["session_start_limit"]["max_concurrency"] == 4


# -- a sharded discord.py bot ------------------------------------------------------------------


async def test_an_auto_sharded_bot_gets_each_guild_on_its_own_shard():
    async with Emulator(shards=3) as emu:
        guilds = [emu.add_guild(f"Guild {index}") for index in range(6)]
        assert {shard_of(guild.id, 3) for guild in guilds} == {0, 1, 2}
        members = []
        for guild in guilds:
            guild.add_channel("general")
            members.append(guild.add_member(f"member of {guild.name}"))
        bot = ShardedBot()
        async with run_bot(emu, bot):
            assert bot.shard_count == 3
            assert emu.gateway.identify_count == 3
            assert sorted(s.shard for s in emu.gateway.live_sessions()) == [(0, 3), (1, 3), (2, 3)]
            assert {guild.id for guild in bot.guilds} == {guild.id for guild in guilds}
            for guild in guilds:
                shard = (shard_of(guild.id, 3), 3)
                assert sessions_that_got(emu, "GUILD_CREATE", guild.id) == [shard]
            for member in members[:3]:
                result = await member.slash("where")
                expected = shard_of(member.guild.id, 3)
                assert (await result.reply()).content == f"bot on shard {expected}"
                assert sessions_that_got(emu, "INTERACTION_CREATE", result.id) == [(expected, 3)]
            in_dm = await members[4].slash("where", in_channel=members[4].open_dm())
            assert (await in_dm.reply()).content == "bot on shard 0"
            assert sessions_that_got(emu, "INTERACTION_CREATE", in_dm.id) == [(0, 3)]
    assert [r.route for r in emu.requests].count("/gateway/bot") == 1


async def test_an_invalid_shard_is_closed_with_4010(emulator):
    emulator.add_guild("Game Night")
    bot = discord.Client(
        intents=discord.Intents.default(), shard_id=2, shard_count=2, guild_ready_timeout=0.05
    )
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with run_bot(emulator, bot):
            pass
    assert closed.value.code == 4010
    assert [f.kind for f in emulator.take_failures()] == ["invalid_shard"]
    assert not emulator.gateway.sessions


async def test_a_bot_in_too_many_guilds_must_shard():
    async with Emulator(max_guilds_per_shard=3) as emu:
        guilds = [emu.add_guild(f"Guild {index}") for index in range(4)]
        unsharded = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        with pytest.raises(discord.ConnectionClosed) as closed:
            async with run_bot(emu, unsharded):
                pass
        assert closed.value.code == 4011
        assert [f.kind for f in emu.take_failures()] == ["sharding_required"]

        sharded = ShardedBot()  # follows GET /gateway/bot: 2 shards of 2 guilds
        async with run_bot(emu, sharded):
            assert sharded.shard_count == 2
            assert {guild.id for guild in sharded.guilds} == {guild.id for guild in guilds}


async def test_two_clients_each_running_half_the_shards_share_one_bot():
    limits = RateLimits(global_requests=20, global_window=1.0)
    async with Emulator(rate_limits=limits, max_concurrency=4) as emu:
        guilds = [emu.add_guild(f"Guild {shard}", shard=(shard, 4)) for shard in range(4)]
        members = []
        for guild in guilds:
            guild.add_channel("general")
            members.append(guild.add_member(f"member of {guild.name}"))
        first = ShardedBot("first", shard_ids=[0, 1], shard_count=4)
        second = ShardedBot("second", shard_ids=[2, 3], shard_count=4)
        async with run_bot(emu, first), run_bot(emu, second):
            assert {g.id for g in first.guilds} == {guilds[0].id, guilds[1].id}
            assert {g.id for g in second.guilds} == {guilds[2].id, guilds[3].id}
            for member, label in zip(members, ["first", "first", "second", "second"], strict=True):
                reply = await (await member.slash("where")).reply()
                assert reply.content == f"{label} on shard {guilds.index(member.guild)}"

            said = [await member.say(member.guild.default_channel, "hi") for member in members]
            await emu.wait_until(
                lambda: len(first.seen) + len(second.seen) >= 4, 5, lambda: "the messages"
            )
            # Each client sees its own shards' messages (Discord orders events per connection,
            # not across one client's shards).
            assert sorted(m.id for m in first.seen) == [said[0].id, said[1].id]
            assert sorted(m.id for m in second.seen) == [said[2].id, said[3].id]

            # One global limit for the bot, across its connections: 15 requests from one client
            # in a fresh window pass; 15 from each at once are 30 > 20.
            user_id = members[0].id
            await asyncio.sleep(limits.global_window)
            await asyncio.gather(*(first.fetch_user(user_id) for _ in range(15)))
            assert emu.rate_limited == 0
            await asyncio.sleep(limits.global_window)
            await asyncio.gather(
                *(client.fetch_user(user_id) for client in (first, second) for _ in range(15))
            )
            refused = [r for r in emu.requests if r.status == 429]
            assert refused
            assert all(r.response["global"] is True for r in refused)
            assert emu.rate_limited == len(refused)
        assert emu.gateway.identify_count == 4


# -- the session start limit ---------------------------------------------------------------------


async def test_each_identify_counts_against_the_session_start_limit_and_resumes_do_not(emulator):
    emulator.add_guild("Game Night")
    before = await gateway_bot(emulator)
    assert before["session_start_limit"] == {
        "total": 1000,
        "remaining": 1000,
        "reset_after": 0,
        "max_concurrency": 1,
    }
    async with run_bot(emulator, ShardedBot(shard_count=2)):
        after = (await gateway_bot(emulator))["session_start_limit"]
        assert after["remaining"] == 998
        assert 0 < after["reset_after"] <= 86_400_000
        await emulator.disconnect_bot()
        await emulator.wait_until(
            lambda: emulator.gateway.resume_count == 2 and emulator.bot_connected,
            10,
            lambda: "both shards to resume",
        )
        assert (await gateway_bot(emulator))["session_start_limit"]["remaining"] == 998


async def test_an_identify_beyond_the_limit_ends_every_session_and_resets_the_token():
    async with Emulator(session_start_limit=2) as emu:
        emu.add_guild("Game Night")
        old_token = emu.token
        bot = ShardedBot(shard_count=2)
        async with run_bot(emu, bot):
            assert (await gateway_bot(emu))["session_start_limit"]["remaining"] == 0
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(emu.gateway_url) as socket,
            ):
                assert (await socket.receive_json())["op"] == 10
                await socket.send_json(
                    {"op": 2, "d": {"token": old_token, "intents": 1, "properties": {}}}
                )
                assert (await socket.receive()).type is aiohttp.WSMsgType.CLOSE
                assert socket.close_code == 4004
            await emu.wait_until(lambda: not emu.bot_connected, 5, lambda: "every session to end")
            await emu.wait_until(bot.is_closed, 5, lambda: "the bot to stop (its token is gone)")
        assert emu.token != old_token
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"{emu.api_base_url}/users/@me", headers={"Authorization": f"Bot {old_token}"}
            ) as response,
        ):
            assert response.status == 401
        kinds = {failure.kind for failure in emu.take_failures()}
        assert "session_start_limit" in kinds
        assert kinds <= {"session_start_limit", "unauthorized"}


# -- raw sessions --------------------------------------------------------------------------------


# Both sessions IDENTIFY at once: with Discord's limits the second would wait out the 5 s
# max_concurrency window (test_identifies_beyond_max_concurrency_get_invalid_session), which
# is not what this shows.
@pytest.mark.emulator(rate_limits=False)
async def test_the_same_shard_may_connect_twice_and_both_sessions_get_its_events(emulator):
    ours = emulator.add_guild("On shard 0", shard=(0, 2))
    general = ours.add_channel("general")
    alice = ours.add_member("alice")
    theirs = emulator.add_guild("On shard 1", shard=(1, 2))
    elsewhere = theirs.add_channel("general")
    bob = theirs.add_member("bob")
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(emulator.gateway_url) as one,
        session.ws_connect(emulator.gateway_url) as two,
    ):
        for socket in (one, two):
            ready = await identify(socket, emulator.token, [0, 2])
            assert ready["t"] == "READY"
            assert ready["d"]["shard"] == [0, 2]
            assert [g["id"] for g in ready["d"]["guilds"]] == [str(ours.id)]
            assert (await socket.receive_json())["d"]["id"] == str(ours.id)  # GUILD_CREATE
        assert len(emulator.gateway.live_sessions()) == 2
        await bob.say(elsewhere, "for shard 1")
        mine = await alice.say(general, "for shard 0")
        for socket in (one, two):
            event = await socket.receive_json()
            assert (event["t"], event["d"]["id"]) == ("MESSAGE_CREATE", str(mine.id))

        # Both get the interaction too; the first answer wins, the second is 40060.
        emulator.replace_commands(None, [{"name": "ping", "description": "Ping"}])
        result = await alice.slash("ping")
        statuses = []
        for socket in (one, two):
            event = await socket.receive_json()
            assert (event["t"], event["d"]["id"]) == ("INTERACTION_CREATE", str(result.id))
            async with session.post(
                f"{emulator.api_base_url}/interactions/{result.id}/{result.token}/callback",
                json={"type": 4, "data": {"content": "pong"}},
            ) as response:
                statuses.append(response.status)
        assert statuses == [204, 400]
        assert [f.kind for f in emulator.take_failures()] == ["double_ack"]


async def test_identifies_beyond_max_concurrency_get_invalid_session():
    async with (
        Emulator(rate_limits=True, max_concurrency=2) as emu,
        aiohttp.ClientSession() as session,
        session.ws_connect(emu.gateway_url) as zero,
        session.ws_connect(emu.gateway_url) as two,
        session.ws_connect(emu.gateway_url) as one,
    ):
        assert (await identify(zero, emu.token, [0, 3]))["t"] == "READY"
        # Shard 2 is in shard 0's bucket (2 % 2 == 0): within 5 s, Discord says op 9.
        assert await identify(two, emu.token, [2, 3]) == {"op": 9, "d": False}
        assert (await identify(one, emu.token, [1, 3]))["t"] == "READY"
        assert emu.gateway.identify_refused == 1
        assert emu.gateway.bot_gateway()["session_start_limit"]["remaining"] == 998
