"""The invalid-request limit (Topics: Rate Limits, "Invalid Request Limit aka Cloudflare bans"):
answers of 401, 403 and 429 are counted (not a 429 for a shared resource), and past the limit
the bot is banned from the API: every request is answered by Cloudflare, not Discord."""

from __future__ import annotations

import json

import aiohttp
import discord
import pytest

from emulator import Emulator, Fault, InvalidRequestLimit, RateLimits, run_bot
from emulator.ratelimit import InvalidRequests
from tests.emulator.minimal_bot import MinimalBot


async def send(emu: Emulator, channel_id: int, text: str, *, token: str | None = None) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{emu.api_base_url}/channels/{channel_id}/messages",
            data=json.dumps({"content": text}),
            headers={
                "Authorization": f"Bot {emu.token if token is None else token}",
                "Content-Type": "application/json",
            },
        ) as response,
    ):
        await response.read()
        return response.status


def test_what_counts_as_an_invalid_request():
    assert InvalidRequests.is_invalid(401, {})
    assert InvalidRequests.is_invalid(403, {})
    assert InvalidRequests.is_invalid(429, {"X-RateLimit-Scope": "user"})
    assert InvalidRequests.is_invalid(429, {"X-RateLimit-Scope": "global"})
    # "429 errors returned with X-RateLimit-Scope: shared are not counted against you."
    assert not InvalidRequests.is_invalid(429, {"X-RateLimit-Scope": "shared"})
    assert not InvalidRequests.is_invalid(404, {})
    assert not InvalidRequests.is_invalid(400, {})


def test_the_limit_is_discords_unless_a_test_lowers_it():
    limit = InvalidRequestLimit()
    assert (limit.limit, limit.window) == (10_000, 600.0)
    with pytest.raises(ValueError, match="positive"):
        InvalidRequestLimit(limit=0)


async def test_401_403_and_user_429_are_counted_but_not_shared_429():
    async with Emulator(rate_limits=RateLimits(channel_messages=1)) as emu:
        guild = emu.add_guild("g")
        channel = guild.add_channel("general")
        closed = guild.add_member("closed", dms_open=False).open_dm()
        assert await send(emu, channel.id, "one") == 200
        assert await send(emu, channel.id, "two") == 429  # the channel's bucket: scope user
        assert await send(emu, closed.id, "hi") == 403  # DMs closed
        assert await send(emu, channel.id, "x", token="wrong") == 401
        assert emu.invalid_requests == 3
        emu.inject_fault(Fault(429, limit=1))  # a shared-resource 429, not the bot's fault
        assert await send(emu, guild.add_channel("other").id, "shared") == 429
        assert emu.invalid_requests == 3
        assert emu.rest.invalid_requests.in_window() == 3
        assert not emu.banned  # counting only: no limit was set
        emu.take_failures("dm_closed", "unauthorized")


async def test_past_the_limit_every_request_meets_a_cloudflare_ban(tmp_path):
    async with Emulator(invalid_request_limit=InvalidRequestLimit(limit=3)) as emu:
        guild = emu.add_guild("g")
        general = guild.add_channel("general")
        closed = guild.add_member("closed", dms_open=False).open_dm()
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            channel = bot.get_channel(general.id)
            assert isinstance(channel, discord.TextChannel)
            await channel.send("before")
            for _ in range(3):
                with pytest.raises(discord.Forbidden):
                    await bot.http.send_message(closed.id, params=_params("knock"))
            assert emu.banned
            # A ban is Cloudflare's 429: no Via, no JSON, so discord.py gives up at once.
            with pytest.raises(discord.HTTPException) as banned:
                await channel.send("after")
            assert banned.value.status == 429
            assert "1015" in str(banned.value.text)
        assert [m.content for m in general.messages] == ["before"]
        assert emu.invalid_requests == 3
        emu.take_failures("dm_closed")


def _params(text: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=text)
