"""Game nights planned ahead: scheduled, announced as Discord events, opened and started on time
(the bot's clock is moved on, the emulator and the database are real), weekly, called off, and
kept across a restart."""

from __future__ import annotations

import asyncio
import datetime

import pytest

from bot.storage import GameStatus, ScheduleStatus
from emulator import Emulator
from emulator.model import Permission
from engine.housie import HousieGame
from tests.cogs.helpers import button_id

pytestmark = pytest.mark.backends("sqlite", "postgres")

MINUTE = 60.0


async def move_clock(bot, cog, seconds: float) -> None:
    """Let ``seconds`` pass for the bot's planned nights, and let it look."""
    bot.clock_offset += seconds
    cog.nights_wake.set()
    await asyncio.sleep(0.2)


async def wait_for(emulator: Emulator, check, what: str) -> None:
    await emulator.wait_until(lambda: check() or None, 10, lambda: what)


async def test_a_night_from_its_plan_to_its_end(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host, player = guild.add_member("host"), guild.add_member("player")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")

    planned = await (await host.slash("loteria schedule", when="in 30 minutes", lobby=10)).reply()
    assert not planned.ephemeral
    assert "night #1" in planned.content
    assert "in the server's events" in planned.content
    (event,) = guild.scheduled_events.values()
    assert event["name"] == "Lotería night"
    assert event["entity_metadata"] == {"location": "#general"}
    starts = datetime.datetime.fromisoformat(event["scheduled_start_time"]).timestamp()
    assert abs(starts - (bot.now() + 30 * MINUTE)) < 5
    listed = await (await player.slash("loteria schedules")).reply()
    assert listed.ephemeral
    assert "#1:" in listed.content

    await move_clock(bot, cog, 19 * MINUTE)
    assert not [m for m in channel.messages if "Planned game night" in m.content]
    await move_clock(bot, cog, 2 * MINUTE)  # 9 minutes to go: the lobby is open
    lobby = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await (await player.click(lobby, button_id(lobby, "join"))).reply()
    (night,) = await bot.storage.pending_schedules("loteria")
    assert night.status is ScheduleStatus.LOBBY

    await move_clock(bot, cog, 10 * MINUTE)
    await wait_for(
        emulator,
        lambda: guild.scheduled_events[int(event["id"])]["status"] == 2,
        "the event to start with the game",
    )
    game = await bot.storage.get_game(night.game_id)
    assert game.status is GameStatus.RUNNING
    assert game.host_id == host.id
    assert await bot.storage.pending_schedules("loteria") == []  # once only: not weekly

    await (await host.slash("loteria stop")).reply()
    await channel.wait_for_message(lambda m: "is over" in m.content)
    await wait_for(
        emulator,
        lambda: guild.scheduled_events[int(event["id"])]["status"] == 3,
        "the event to be completed with the game",
    )


async def test_a_weekly_night_nobody_came_to_goes_on_next_week(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")
    await (await host.slash("housie schedule", when="in 1 hour", weekly=True)).reply()
    (first,) = await bot.storage.pending_schedules("housie")
    assert first.weekly
    await move_clock(bot, cog, 55 * MINUTE)
    lobby = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await move_clock(bot, cog, 5 * MINUTE)
    await wait_for(emulator, lambda: "called off" in lobby.content, "the lobby to say so")
    game = await bot.storage.get_game((await bot.storage.get_schedule(first.id)).game_id)
    assert game.status is GameStatus.CANCELLED
    (following,) = await bot.storage.pending_schedules("housie")
    assert following.starts_at == first.starts_at + 7 * 24 * 3600
    assert following.weekly
    # The first night's event is gone; the next one's is announced.
    assert [e["id"] for e in guild.scheduled_events.values()] == [str(following.event_id)]


async def test_calling_off_and_who_may(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host, other = guild.add_member("host"), guild.add_member("other")
    bot = await start_bot(time_scale=100)
    await (await host.slash("loteria schedule", when="tomorrow 20:00")).reply()
    refused = await (await other.slash("loteria unschedule", night=1)).reply()
    assert refused.ephemeral
    assert "Only the host" in refused.content
    assert await bot.storage.pending_schedules("loteria")
    off = await (await host.slash("loteria unschedule", night=1)).reply()
    assert "called off" in off.content
    assert await bot.storage.pending_schedules("loteria") == []
    assert guild.scheduled_events == {}
    again = await (await host.slash("loteria unschedule", night=1)).reply()
    assert again.ephemeral
    assert "no planned" in again.content


async def test_a_planned_night_survives_a_restart(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    await (await host.slash("loteria schedule", when="in 2 hours", lobby=5)).reply()
    offset = bot.clock_offset
    await bot.stop_for_test()

    bot = await start_bot(time_scale=100)
    bot.clock_offset = offset
    await move_clock(bot, bot.get_cog("Lotería"), 116 * MINUTE)
    await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)


async def test_times_are_read_in_the_servers_zone_and_checked(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    manager = guild.add_member("manager", manage_guild=True)
    zoned = await (
        await manager.slash("gamenight settings", time_zone="America/Mexico_City")
    ).reply()
    assert "America/Mexico_City" in zoned.content
    await (await host.slash("loteria schedule", when="tomorrow 20:00")).reply()
    (night,) = await bot.storage.pending_schedules("loteria")
    local = datetime.datetime.fromtimestamp(night.starts_at, datetime.UTC).astimezone(
        datetime.timezone(datetime.timedelta(hours=-6))
    )
    assert (local.hour, local.minute) == (20, 0)
    for when, words in (("someday", "can't read"), ("2020-01-01 10:00", "already passed")):
        refused = await (await host.slash("loteria schedule", when=when)).reply()
        assert refused.ephemeral
        assert words in refused.content
        assert "America/Mexico_City" in refused.content
    assert len(await bot.storage.pending_schedules("loteria")) == 1


async def test_without_create_events_the_night_still_happens(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    guild.bot_role.permissions &= ~int(Permission.CREATE_EVENTS)
    bot = await start_bot(time_scale=100)
    planned = await (await host.slash("loteria schedule", when="in 20 minutes")).reply()
    assert "Create Events" in planned.content
    assert guild.scheduled_events == {}
    await move_clock(bot, bot.get_cog("Lotería"), 15 * MINUTE)
    await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)


async def test_a_night_follows_the_servers_settings(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night", locale="en-US")
    channel = guild.add_channel("general")
    manager = guild.add_member("manager", manage_guild=True)
    hosts = guild.add_role("hosts")
    host, member = guild.add_member("host", roles=[hosts]), guild.add_member("member")
    bot = await start_bot(time_scale=100)
    await (await manager.slash("gamenight settings", language="es", host_role=hosts)).reply()
    await (
        await manager.slash("gamenight settings", game="housie", interval=30, prizes="lines")
    ).reply()

    refused = await (await member.slash("housie schedule", when="in 20 minutes")).reply()
    assert refused.ephemeral
    assert f"<@&{hosts.id}>" in refused.content
    planned = await (await host.slash("housie schedule", when="in 20 minutes")).reply()
    assert "Noche de Tómbola #1" in planned.content  # in the server's chosen language
    assert await bot.storage.pending_schedules("housie", guild.id)

    # Chosen after the night was planned, still followed: the lobby reads them when it opens.
    await (await manager.slash("gamenight settings", game="housie", interval=45)).reply()
    await move_clock(bot, bot.get_cog("Housie"), 15 * MINUTE)
    await channel.wait_for_message(lambda m: "#1" in m.content and m.components)
    (night,) = await bot.storage.pending_schedules("housie")
    game = await bot.storage.get_game(night.game_id)
    assert game.options["interval"] == 45
    assert game.options["guild_locale"] == "es-ES"
    prizes = [prize.value for prize in HousieGame.from_state(game.state).prizes]
    assert prizes == ["TL", "ML", "BL", "FH"]
