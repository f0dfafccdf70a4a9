"""Closed DMs and Discord's invalid-request limit: a member whose DMs refuse the bot is not DMed
again unasked (each 403 counts toward the 10,000 in 10 minutes that get the bot's address
banned), their board still reaches them, and the bot counts invalid requests as Discord does.
The real bot against the emulator."""

from __future__ import annotations

import asyncio
import logging

import pytest
from discord.http import Route

from bot.ops.metrics import InvalidRequests, Metrics
from bot.storage import Delivery
from emulator import Emulator, Fault, RateLimits
from emulator.model import Channel, Guild, Member, Message
from tests.cogs.helpers import button_id


def forbidden(emulator: Emulator) -> int:
    """The 403s Discord has answered the bot so far."""
    return sum(request.status == 403 for request in emulator.requests)


def invalid_counted(bot) -> int:
    """The bot's own count of invalid requests, as its /metrics shows it (every status)."""
    families = bot.metrics.registry.collect()
    return int(
        sum(
            sample.value
            for family in families
            if family.name == "gamenight_invalid_requests"
            for sample in family.samples
            if sample.name == "gamenight_invalid_requests_total"
        )
    )


async def seat_undelivered(bot, game_id: int, member: Member) -> None:
    """What Join stores before it sends: the member seated and dealt, the boards not sent (the
    bot stopped in between)."""
    cog = bot.get_cog("Lotería")
    game = await bot.storage.get_game(game_id)
    await bot.storage.add_player(
        game_id,
        member.id,
        display_name=member.name,
        locale="en-US",
        boards=lambda _seat, first: cog.deal(game, first, 1),
        board_count=1,
    )


async def redelivered(emulator: Emulator, bot, game_id: int) -> None:
    """Until the start-up's re-delivery of game ``game_id``'s boards is over."""
    live = bot.get_cog("Lotería").live_game(game_id)
    await emulator.wait_until(
        lambda: (live.redeal_task is not None and live.redeal_task.done()) or None,
        10,
        lambda: "the boards' re-delivery to end",
    )


async def lobby_with(guild: Guild, host: Member, channel_name: str) -> tuple[Channel, Message]:
    """A Lotería lobby in a new channel, the host seated."""
    channel = guild.add_channel(channel_name)
    lobby = await (await host.slash("loteria start", in_channel=channel)).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    return channel, lobby


async def test_closed_dms_are_tried_once_not_at_every_restart(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    closed = guild.add_member("closed", dms_open=False)
    bot = await start_bot()
    channel, lobby = await lobby_with(guild, host, "loteria")
    (game,) = await bot.storage.live_games()
    await seat_undelivered(bot, game.id, closed)
    await bot.stop_for_test()
    assert forbidden(emulator) == 0

    for _restart in range(3):
        before = emulator.invalid_requests
        bot = await start_bot()
        await redelivered(emulator, bot, game.id)
        # The bot's count of invalid requests is Discord's (the emulator's).
        assert invalid_counted(bot) == emulator.invalid_requests - before
        await bot.stop_for_test()
    # The first start tried the DM; the next two did not: one 403 in all.
    assert forbidden(emulator) == 1
    assert len(emulator.take_failures("dm_closed")) == 1
    assert closed.dms == []

    bot = await start_bot()
    await redelivered(emulator, bot, game.id)
    player = await bot.storage.get_player(game.id, closed.id)
    assert player.delivery is Delivery.UNDELIVERED
    await emulator.wait_until(
        lambda: "1 not delivered yet" in lobby.content or None, 10, lambda: "the lobby to say so"
    )
    # Their next interaction shows them their board, with no DM tried.
    shown = await (await closed.slash("loteria tabla", in_channel=channel)).reply()
    assert shown.ephemeral
    assert len(shown.attachments) == 1
    await emulator.wait_until(
        lambda: "dealt 2 of 2" in lobby.content or None, 10, lambda: "the lobby to say so"
    )
    assert (await bot.storage.get_player(game.id, closed.id)).delivery is Delivery.REPLY
    assert forbidden(emulator) == 1

    # They open their DMs; joining another game (asking) DMs them, which works: the mark goes.
    closed.dms_open = True
    _, other = await lobby_with(guild, host, "loteria-2")
    joined = await (await closed.click(other, button_id(other, "join"))).reply()
    assert "Check your DMs" in joined.content
    assert not await bot.storage.dms_closed(closed.id)
    # So a restart sends them a board stored but never sent, unasked, as it would anyone.
    third_channel, _ = await lobby_with(guild, host, "loteria-3")
    (third,) = [g for g in await bot.storage.live_games() if g.channel_id == third_channel.id]
    await seat_undelivered(bot, third.id, closed)
    await bot.stop_for_test()
    dms_before = len(closed.dms)
    bot = await start_bot()
    await redelivered(emulator, bot, third.id)
    assert len(closed.dms) == dms_before + 1
    assert (await bot.storage.get_player(third.id, closed.id)).delivery is Delivery.DM
    assert forbidden(emulator) == 1


async def test_a_member_asking_again_is_dmed_again_and_marked_again(emulator: Emulator, start_bot):
    """Pressing Join again is asking: the DM is tried once more (DMs may have opened since)."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    closed = guild.add_member("closed", dms_open=False)
    bot = await start_bot()
    _, lobby = await lobby_with(guild, host, "loteria")
    (game,) = await bot.storage.live_games()
    await seat_undelivered(bot, game.id, closed)
    await bot.storage.set_dms_closed(closed.id, closed=True)  # found closed in an earlier game
    await bot.stop_for_test()

    bot = await start_bot()
    await redelivered(emulator, bot, game.id)
    assert forbidden(emulator) == 0  # not asked: not tried
    shown = await (await closed.click(lobby, button_id(lobby, "join"))).reply()
    assert "couldn't DM you" in shown.content
    assert len(shown.attachments) == 1
    assert forbidden(emulator) == 1
    assert len(emulator.take_failures("dm_closed")) == 1
    assert await bot.storage.dms_closed(closed.id)


# A low global limit, so that a burst of the bot's requests meets a few 429s of scope "global".
@pytest.mark.emulator(rate_limits=RateLimits(global_requests=10, global_window=2.0))
async def test_invalid_requests_are_counted_as_discord_counts_them_and_warned_of(
    emulator: Emulator, start_bot, caplog: pytest.LogCaptureFixture
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    shut = [guild.add_member(f"shut{i}", dms_open=False) for i in range(2)]
    before = emulator.invalid_requests
    bot = await start_bot(metrics=Metrics(InvalidRequests(warn_at=3)))
    caplog.set_level(logging.WARNING, logger="bot.ops.metrics")

    _, lobby = await lobby_with(guild, host, "loteria")
    # A 429 for a shared resource does not count (Discord says so); discord.py retries it.
    emulator.inject_fault(
        Fault(429, method="POST", route="/channels/{channel_id}/messages", limit=1)
    )
    for member in shut:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    emulator.take_failures("dm_closed")
    # A burst past the global limit: each 429 of scope "global" counts.
    await asyncio.gather(*(bot.http.request(Route("GET", "/users/@me")) for _ in range(25)))

    registry = bot.metrics.registry
    assert invalid_counted(bot) == emulator.invalid_requests - before
    assert registry.get_sample_value("gamenight_invalid_requests_total", {"status": "403"}) == 2
    global_429s = registry.get_sample_value("gamenight_invalid_requests_total", {"status": "429"})
    assert global_429s >= 1
    # The shared 429 is among the REST errors, not among the invalid requests.
    assert emulator.faults.counts()["429"] == 1
    assert registry.get_sample_value("gamenight_rest_errors_total", {"status": "429"}) == (
        global_429s + 1
    )
    warnings = [r for r in caplog.records if "invalid requests" in r.getMessage()]
    assert len(warnings) == 1, warnings  # once, not at every one past the mark
    assert "bans the bot's address" in warnings[0].getMessage()
