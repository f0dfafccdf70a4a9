"""Rate limits with Discord's headers: per-channel message buckets and the global limit."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import discord

from emulator import Emulator, RateLimits, run_bot
from emulator.ratelimit import RateLimiter
from tests.emulator.minimal_bot import MinimalBot


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def post_message(emu: Emulator, channel_id: int, content: str) -> aiohttp.ClientResponse:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{emu.api_base_url}/channels/{channel_id}/messages",
            data=json.dumps({"content": content}),
            headers={"Authorization": f"Bot {emu.token}", "Content-Type": "application/json"},
        ) as response,
    ):
        await response.read()
        return response


def test_bucket_refills_after_its_window():
    clock = FakeClock()
    limiter = RateLimiter(RateLimits(channel_messages=2, channel_messages_window=5.0), clock=clock)
    first = limiter.check("messages:1", counts_globally=True)
    second = limiter.check("messages:1", counts_globally=True)
    third = limiter.check("messages:1", counts_globally=True)
    other_channel = limiter.check("messages:2", counts_globally=True)
    assert [first.allowed, second.allowed, third.allowed, other_channel.allowed] == [
        True,
        True,
        False,
        True,
    ]
    assert first.headers["X-RateLimit-Remaining"] == "1"
    assert second.headers["X-RateLimit-Remaining"] == "0"
    assert third.retry_after == 5.0
    clock.now += 5.0
    assert limiter.check("messages:1", counts_globally=True).allowed


def test_global_limit_counts_every_counted_request():
    clock = FakeClock()
    limiter = RateLimiter(RateLimits(global_requests=3, global_window=1.0), clock=clock)
    verdicts = [limiter.check(None, counts_globally=True) for _ in range(4)]
    assert [v.allowed for v in verdicts] == [True, True, True, False]
    assert verdicts[-1].is_global
    assert verdicts[-1].headers["X-RateLimit-Global"] == "true"
    # Interaction callbacks do not count towards the global limit, as on Discord.
    assert limiter.check(None, counts_globally=False).allowed
    assert limiter.refused == 1


async def test_sixth_message_in_a_window_gets_429_with_discords_headers():
    async with Emulator(rate_limits=True) as emu:
        channel = emu.add_guild("g").add_channel("general")
        other = channel.guild.add_channel("other") if channel.guild else None
        assert other is not None
        responses = [await post_message(emu, channel.id, f"m{i}") for i in range(6)]
        assert [r.status for r in responses] == [200, 200, 200, 200, 200, 429]
        assert [r.headers["X-RateLimit-Remaining"] for r in responses[:5]] == [
            "4",
            "3",
            "2",
            "1",
            "0",
        ]
        assert responses[0].headers["X-RateLimit-Limit"] == "5"
        limited = responses[-1]
        assert limited.headers["X-RateLimit-Scope"] == "user"
        assert limited.headers["Via"]  # discord.py only retries 429s that carry it
        assert float(limited.headers["X-RateLimit-Reset-After"]) > 0
        assert (await post_message(emu, other.id, "elsewhere")).status == 200
        assert len(channel.messages) == 5
        assert emu.rate_limited == 1


async def test_rate_limits_are_off_by_default(emulator):
    channel = emulator.add_guild("g").add_channel("general")
    statuses = [(await post_message(emulator, channel.id, f"m{i}")).status for i in range(12)]
    assert statuses == [200] * 12
    assert emulator.rate_limited == 0


async def test_discord_py_waits_out_the_message_bucket(tmp_path):
    # A short window keeps the test fast; the bot must still stay within 5 messages per window.
    limits = RateLimits(channel_messages=5, channel_messages_window=0.3)
    async with Emulator(rate_limits=limits) as emu:
        general = emu.add_guild("g").add_channel("general")
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            channel = bot.get_channel(general.id)
            assert isinstance(channel, discord.TextChannel)
            # A burst, as when a game deals to a table: 12 posts at once to one channel.
            await asyncio.gather(*(channel.send(f"post {n}") for n in range(12)))
        assert sorted(m.content for m in general.messages) == sorted(f"post {n}" for n in range(12))
        assert emu.rate_limiter is not None
        assert emu.rate_limiter.exhausted >= 2  # the bucket ran dry more than once...
        assert emu.rate_limited == 0  # ...and discord.py waited, reading the headers
