"""Injected faults: 429s and 5xx answers on chosen routes or a fraction of requests, and how the
unmodified discord.py client lives through them."""

from __future__ import annotations

import json

import aiohttp
import discord
import pytest

from emulator import Emulator, Fault, run_bot

MESSAGES = "/channels/{channel_id}/messages"


async def post(emu: Emulator, path: str, body: dict[str, object] | None = None) -> int:
    """Send one authorised request; returns the status."""
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            "POST" if body is not None else "GET",
            emu.api_base_url + path,
            data=None if body is None else json.dumps(body),
            headers={"Authorization": f"Bot {emu.token}", "Content-Type": "application/json"},
        ) as response,
    ):
        await response.read()
        return response.status


def quiet_client() -> discord.Client:
    return discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.05)


def test_a_fault_is_a_429_or_a_5xx_with_sane_options():
    with pytest.raises(ValueError, match="429 or 500-599"):
        Fault(404)
    with pytest.raises(ValueError, match="fraction"):
        Fault(500, fraction=0)
    with pytest.raises(ValueError, match="limit"):
        Fault(500, limit=0)
    with pytest.raises(ValueError, match="after_handling is for 5xx"):
        Fault(429, after_handling=True)


async def test_a_5xx_refuses_matching_requests_until_its_limit(emulator: Emulator):
    channel = emulator.add_guild("g").add_channel("general")
    fault = emulator.inject_fault(Fault(503, method="POST", route=MESSAGES, limit=2))
    path = f"/channels/{channel.id}/messages"
    statuses = [await post(emulator, path, {"content": f"m{i}"}) for i in range(3)]
    assert statuses == [503, 503, 200]
    # Refused before handling: only the third message exists.
    assert [m.content for m in channel.messages] == ["m2"]
    assert emulator.faults.hits(fault) == 2
    assert [r.injected for r in emulator.requests] == [True, True, False]
    assert emulator.requests[0].response == {"message": "503: Service Unavailable", "code": 0}
    assert emulator.faults.counts() == {"503": 2}


async def test_a_5xx_after_handling_loses_the_answer_of_a_request_that_took_effect(
    emulator: Emulator,
):
    channel = emulator.add_guild("g").add_channel("general")
    emulator.inject_fault(Fault(502, route=MESSAGES, after_handling=True, limit=1))
    path = f"/channels/{channel.id}/messages"
    assert await post(emulator, path, {"content": "lost answer"}) == 502
    assert await post(emulator, path, {"content": "lost answer"}) == 200
    # A client that retries without an enforced nonce has now posted twice.
    assert [m.content for m in channel.messages] == ["lost answer", "lost answer"]
    assert emulator.faults.counts() == {"502 after handling": 1}


async def test_other_routes_and_methods_are_not_hit(emulator: Emulator):
    channel = emulator.add_guild("g").add_channel("general")
    emulator.inject_fault(Fault(500, method="PATCH", route=MESSAGES + "/{message_id}"))
    emulator.inject_fault(Fault(502, route="/users/@me/channels"))
    assert await post(emulator, f"/channels/{channel.id}/messages", {"content": "hi"}) == 200
    assert await post(emulator, "/users/@me") == 200
    assert emulator.faults.injected == []
    emulator.faults.clear()
    assert emulator.faults.faults == ()


async def test_a_fraction_of_requests_is_hit_the_same_way_for_the_same_seed():
    hit_patterns = []
    for _ in range(2):
        async with Emulator(validate=False, fault_seed=7) as emu:
            channel = emu.add_guild("g").add_channel("general")
            emu.inject_fault(Fault(500, route=MESSAGES, fraction=0.3))
            statuses = [
                await post(emu, f"/channels/{channel.id}/messages", {"content": f"m{i}"})
                for i in range(40)
            ]
            hit_patterns.append(statuses)
            assert len(channel.messages) == statuses.count(200)
    assert hit_patterns[0] == hit_patterns[1]
    assert 0 < hit_patterns[0].count(500) < 40


async def test_discord_py_retries_a_lost_answer_and_its_nonce_prevents_a_double(
    emulator: Emulator,
):
    general = emulator.add_guild("g").add_channel("general")
    async with run_bot(emulator, quiet_client()) as client:
        channel = client.get_partial_messageable(general.id)
        # Created, then the answer is lost; discord.py retries the 500 after 1 s with the same
        # enforced nonce (its own random one when none is given) and gets the message back.
        emulator.inject_fault(Fault(500, route=MESSAGES, after_handling=True, limit=1))
        sent = await channel.send("once")
    assert [m.content for m in general.messages] == ["once"]
    assert sent.id == general.messages[0].id
    posts = [r for r in emulator.requests if r.route == MESSAGES]
    assert [(r.status, r.injected) for r in posts] == [(500, True), (200, False)]


async def test_discord_py_waits_out_an_injected_429_and_gives_up_on_a_503(emulator: Emulator):
    general = emulator.add_guild("g").add_channel("general")
    async with run_bot(emulator, quiet_client()) as client:
        channel = client.get_partial_messageable(general.id)
        emulator.inject_fault(Fault(429, route=MESSAGES, retry_after=0.05, limit=2))
        await channel.send("after two 429s")
        limited = [r for r in emulator.requests if r.status == 429]
        assert len(limited) == 2
        assert all(r.injected for r in limited)
        assert emulator.rate_limited == 0  # not the rate limiter's doing
        emulator.inject_fault(Fault(503, route=MESSAGES, limit=1))
        with pytest.raises(discord.DiscordServerError):
            await channel.send("refused")  # discord.py does not retry a 503
    assert [m.content for m in general.messages] == ["after two 429s"]
