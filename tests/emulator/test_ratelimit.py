"""Rate limits with Discord's headers: per-route buckets by top-level resource (message posts,
edits, deletes, reactions, interaction webhooks, DM opens and scheduled events when set) and the
global limit."""

from __future__ import annotations

import asyncio
import datetime
import json

import aiohttp
import discord

from emulator import Emulator, RateLimits, RouteLimit, run_bot
from emulator.ratelimit import RateLimiter, bucket_hash, bucket_of
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


async def test_the_tests_emulator_limits_a_channel_to_five_posts_as_discord_does(emulator):
    # The ``emulator`` fixture is as strict as Discord unless a test says otherwise.
    channel = emulator.add_guild("g").add_channel("general")
    statuses = [(await post_message(emulator, channel.id, f"m{i}")).status for i in range(6)]
    assert statuses == [200] * 5 + [429]
    assert emulator.rate_limited == 1


async def test_an_emulator_made_without_options_has_rate_limits_off():
    async with Emulator() as emu:
        channel = emu.add_guild("g").add_channel("general")
        statuses = [(await post_message(emu, channel.id, f"m{i}")).status for i in range(12)]
        assert statuses == [200] * 12
        assert emu.rate_limited == 0


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


# Per-route buckets (Topics: Rate Limits): each keyed by its top-level resource.


async def call(
    emu: Emulator,
    method: str,
    path: str,
    body: dict[str, object] | None = None,
    *,
    auth: bool = True,
) -> tuple[int, dict[str, str], object]:
    """One raw request; returns the status, the headers and the decoded body."""
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = f"Bot {emu.token}"
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method,
            emu.api_base_url + path,
            data=None if body is None else json.dumps(body),
            headers=headers,
        ) as response,
    ):
        text = await response.text()
        decoded = json.loads(text) if text and response.content_type == "application/json" else text
        return response.status, dict(response.headers), decoded


def test_each_route_falls_in_a_bucket_of_its_top_level_resource():
    params = {"channel_id": "1", "message_id": "2", "emoji_name": "x", "guild_id": "3"}
    webhook = {"webhook_id": "7", "webhook_token": "tok"}
    assert bucket_of("POST", "/channels/{channel_id}/messages", params) == (
        "messages.create",
        "1",
    )
    assert bucket_of("PATCH", "/channels/{channel_id}/messages/{message_id}", params) == (
        "messages.edit",
        "1",
    )
    assert bucket_of("DELETE", "/channels/{channel_id}/messages/{message_id}", params) == (
        "messages.delete",
        "1",
    )
    reaction = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me"
    assert bucket_of("PUT", reaction, params) == bucket_of("DELETE", reaction, params)
    assert bucket_of("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook) == (
        "webhook.execute",
        "7/tok",
    )
    original = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert bucket_of("PATCH", original, webhook) == ("webhook.message", "7/tok")
    assert bucket_of("POST", "/users/@me/channels", {}) == ("dm.open", "@me")
    events = "/guilds/{guild_id}/scheduled-events"
    assert bucket_of("POST", events, params) == ("scheduled_events", "3")
    assert bucket_of("GET", events, params) is None
    assert bucket_of("GET", "/channels/{channel_id}/messages/{message_id}", params) is None


def test_a_route_limit_applies_per_resource_with_one_bucket_hash():
    clock = FakeClock()
    limiter = RateLimiter(RateLimits(), clock=clock)
    first = limiter.check("reactions:1", counts_globally=True, kind="reactions")
    again = limiter.check("reactions:1", counts_globally=True, kind="reactions")
    other = limiter.check("reactions:2", counts_globally=True, kind="reactions")
    assert [first.allowed, again.allowed, other.allowed] == [True, False, True]
    assert again.retry_after == 0.25  # 1 per 0.25 s per channel
    assert first.headers["X-RateLimit-Bucket"] == other.headers["X-RateLimit-Bucket"]
    edit = limiter.check("messages.edit:1", counts_globally=True, kind="messages.edit")
    assert edit.headers["X-RateLimit-Bucket"] != first.headers["X-RateLimit-Bucket"]
    # A switched-off bucket only counts towards the global limit.
    off = RateLimiter(RateLimits(dm_opens=None), clock=clock)
    assert off.check("dm.open:@me", counts_globally=True, kind="dm.open").headers == {}
    clock.now += 0.25
    assert limiter.check("reactions:1", counts_globally=True, kind="reactions").allowed


async def test_edits_deletes_and_reactions_have_their_own_buckets():
    limits = RateLimits(message_deletes=RouteLimit(2, 5.0))
    async with Emulator(rate_limits=limits) as emu:
        guild = emu.add_guild("g")
        channel, other = guild.add_channel("general"), guild.add_channel("other")
        messages = []
        for text in ("a", "b", "c"):
            status, _, body = await call(
                emu, "POST", f"/channels/{channel.id}/messages", {"content": text}
            )
            assert status == 200
            assert isinstance(body, dict)
            messages.append(body["id"])
        one = f"/channels/{channel.id}/messages/{messages[0]}"

        edits = [(await call(emu, "PATCH", one, {"content": f"e{i}"}))[0] for i in range(6)]
        assert edits == [200] * 5 + [429]  # 5 edits per 5 s per channel, apart from posts

        status, headers, body = await call(emu, "PUT", f"{one}/reactions/%F0%9F%8E%B2/@me")
        assert status == 204
        assert headers["X-RateLimit-Limit"] == "1"
        status, headers, body = await call(emu, "PUT", f"{one}/reactions/%F0%9F%8E%B1/@me")
        assert status == 429  # 1 per 0.25 s per channel, whatever the emoji
        assert headers["X-RateLimit-Scope"] == "user"
        assert isinstance(body, dict)
        assert body["global"] is False
        assert 0 < body["retry_after"] <= 0.25

        deletes = [
            (await call(emu, "DELETE", f"/channels/{channel.id}/messages/{m}"))[0] for m in messages
        ]
        assert deletes == [204, 204, 429]
        # Another channel has buckets of its own, under the same bucket hash.
        status, other_headers, _ = await call(
            emu, "POST", f"/channels/{other.id}/messages", {"content": "x"}
        )
        assert status == 200
        status, first_post, _ = await call(
            emu, "POST", f"/channels/{channel.id}/messages", {"content": "y"}
        )
        assert other_headers["X-RateLimit-Bucket"] == first_post["X-RateLimit-Bucket"]
        assert emu.rate_limited == 3


async def test_dm_opens_and_scheduled_events_are_limited_when_a_test_sets_a_number():
    limits = RateLimits(dm_opens=RouteLimit(2, 10.0), scheduled_events=RouteLimit(1, 10.0))
    async with Emulator(rate_limits=limits) as emu:
        guild = emu.add_guild("g")
        guild.add_channel("general")
        people = [guild.add_member(f"p{i}") for i in range(3)]
        opens = [
            (await call(emu, "POST", "/users/@me/channels", {"recipient_id": str(p.id)}))[0]
            for p in people
        ]
        assert opens == [200, 200, 429]
        start = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
        event = {
            "name": "Game night",
            "privacy_level": 2,
            "entity_type": 3,
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": (start + datetime.timedelta(hours=2)).isoformat(),
            "entity_metadata": {"location": "#general"},
        }
        path = f"/guilds/{guild.id}/scheduled-events"
        created = [(await call(emu, "POST", path, event))[0] for _ in range(2)]
        assert created == [200, 429]
        assert (await call(emu, "GET", path))[0] == 200  # reading is not in the bucket


async def test_dm_opens_are_a_bucket_of_their_own_by_default_with_the_global_numbers():
    async with Emulator(rate_limits=True) as emu:
        guild = emu.add_guild("g")
        member = guild.add_member("p")
        status, headers, _ = await call(
            emu, "POST", "/users/@me/channels", {"recipient_id": str(member.id)}
        )
        assert status == 200
        assert headers["X-RateLimit-Limit"] == "50"
        assert headers["X-RateLimit-Remaining"] == "49"
        assert headers["X-RateLimit-Bucket"] == bucket_hash("dm.open")


async def test_interaction_webhooks_are_limited_per_interaction_and_not_globally(tmp_path):
    # A global limit of 6 a minute, which the interaction webhooks (10 requests here) never
    # touch: "The endpoints below are not bound to the application's Global Rate Limit"
    # (Receiving and Responding).
    limits = RateLimits(global_requests=6, global_window=60.0)
    async with Emulator(rate_limits=limits) as emu:
        guild = emu.add_guild("g")
        guild.add_channel("general")
        alice = guild.add_member("alice")
        async with run_bot(emu, MinimalBot(tmp_path / "bot.sqlite3")):
            first = await alice.slash("later")
            await first.followup(0)
            second = await alice.slash("later")
            await second.followup(0)
            app = emu.application_id
            # /later sent one follow-up: 4 more of the interaction's 5 per 2 s, then a 429.
            statuses = [
                (
                    await call(
                        emu,
                        "POST",
                        f"/webhooks/{app}/{first.token}",
                        {"content": f"f{i}"},
                        auth=False,
                    )
                )[0]
                for i in range(5)
            ]
            assert statuses == [204, 204, 204, 204, 429]
            # The other interaction's bucket is its own.
            status, _, _ = await call(
                emu, "POST", f"/webhooks/{app}/{second.token}", {"content": "s"}, auth=False
            )
            assert status == 204
            assert emu.rate_limiter is not None
        assert emu.rate_limited == 1


async def test_discord_py_waits_out_the_reaction_and_edit_buckets(tmp_path):
    limits = RateLimits(reactions=RouteLimit(1, 0.05), message_edits=RouteLimit(2, 0.2))
    async with Emulator(rate_limits=limits) as emu:
        general = emu.add_guild("g").add_channel("general")
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            channel = bot.get_channel(general.id)
            assert isinstance(channel, discord.TextChannel)
            message = await channel.send("react to me")
            emojis = ["🎲", "🎯", "🃏", "🎱", "🀄", "🎳"]
            await asyncio.gather(*(message.add_reaction(emoji) for emoji in emojis))
            await asyncio.gather(*(message.edit(content=f"edit {n}") for n in range(6)))
        stored = general.messages[0]
        assert set(stored.reactions) == set(emojis)
        assert stored.edits == 6
        assert emu.rate_limiter is not None
        assert emu.rate_limiter.exhausted >= 5
        assert emu.rate_limited == 0  # discord.py read the headers and waited


def test_faster_limits_keep_their_counts_over_shorter_windows():
    limits = RateLimits(dm_opens=RouteLimit(2, 4.0), scheduled_events=None).faster(5)
    assert (limits.channel_messages, limits.channel_messages_window) == (5, 1.0)
    assert (limits.global_requests, limits.global_window) == (50, 0.2)
    assert limits.message_edits == RouteLimit(5, 1.0)
    assert limits.reactions == RouteLimit(1, 0.05)
    assert limits.dm_opens == RouteLimit(2, 0.8)
    assert limits.scheduled_events is None
    assert limits.identify_window == RateLimits().identify_window


async def test_faster_limits_still_refuse_the_sixth_post_within_the_window():
    async with Emulator(rate_limits=RateLimits().faster(5)) as emu:
        channel = emu.add_guild("g").add_channel("general")
        statuses = [(await post_message(emu, channel.id, f"m{i}")).status for i in range(6)]
        assert statuses == [200] * 5 + [429]
        await asyncio.sleep(1.0)  # the 5 s window, five times as fast
        assert (await post_message(emu, channel.id, "again")).status == 200


async def test_as_strict_as_discord_turns_every_rule_on_and_a_test_may_change_one():
    async with Emulator.as_strict_as_discord() as strict:
        assert strict.rate_limiter is not None
        assert strict.rest.invalid_requests.limit is not None
        assert strict.gateway.limits is not None
    async with Emulator.as_strict_as_discord(rate_limits=RateLimits().faster(5)) as faster:
        assert faster.rate_limiter is not None
        assert faster.rate_limiter.limits.channel_messages_window == 1.0
        assert faster.gateway.limits is not None
