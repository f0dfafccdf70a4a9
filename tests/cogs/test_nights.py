"""Game nights planned ahead: scheduled, announced as Discord events, opened and started on time
(the bot's clock is moved on, the emulator and the database are real), weekly, called off, and
kept across a restart."""

from __future__ import annotations

import asyncio
import datetime
from collections import Counter

import pytest

from bot.nights import NIGHTS_PER_MEMBER, NIGHTS_PER_SERVER
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


async def test_planned_nights_are_limited_per_member_and_per_server(
    emulator: Emulator, start_bot
):
    """A burst of plans from several members at once (as the 120 weekly nights planned in 1.3 s
    that this limit answers) leaves each member at most NIGHTS_PER_MEMBER nights to come and
    the server at most NIGHTS_PER_SERVER, every extra plan refused privately with the limit
    named; a weekly night already planned still goes on to its next week."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    members = [guild.add_member(f"member{i}") for i in range(6)]
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")
    weekly = await (
        await members[0].slash("loteria schedule", when="in 20 minutes", weekly=True)
    ).reply()
    assert "night #1" in weekly.content

    plans = [
        member.slash(f"{game} schedule", when=f"in {2 + hour} hours")
        for hour, (member, game) in enumerate(
            (member, game) for member in members for game in ("loteria", "housie")
            for _ in range(3)
        )
    ]
    replies = [await plan.reply() for plan in await asyncio.gather(*plans)]
    refused = [reply for reply in replies if reply.ephemeral]
    assert len(refused) == 1 + 6 * 6 - NIGHTS_PER_SERVER
    for reply in refused:
        assert (
            f"already have {NIGHTS_PER_MEMBER} game nights planned in this server" in reply.content
            or f"server already has {NIGHTS_PER_SERVER} game nights planned" in reply.content
        ), reply.content
        assert "unschedule" in reply.content
    pending = [
        night
        for game in ("loteria", "housie")
        for night in await bot.storage.pending_schedules(game, guild.id)
    ]
    assert len(pending) == NIGHTS_PER_SERVER
    assert max(Counter(night.host_id for night in pending).values()) == NIGHTS_PER_MEMBER
    assert len(guild.scheduled_events) == NIGHTS_PER_SERVER  # none for a refused plan

    # Full: a member with none planned is refused too, by the server's limit.
    latecomer = guild.add_member("latecomer")
    late = await (await latecomer.slash("housie schedule", when="in 3 days")).reply()
    assert late.ephemeral
    assert f"already has {NIGHTS_PER_SERVER} game nights planned" in late.content

    # The weekly night plays (nobody comes) and plans its next week although the server is full.
    await move_clock(bot, cog, 15 * MINUTE)
    lobby = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await move_clock(bot, cog, 5 * MINUTE)
    await wait_for(emulator, lambda: "called off" in lobby.content, "the lobby to say so")
    (next_week,) = [n for n in await bot.storage.pending_schedules("loteria") if n.weekly]
    assert next_week.id != 1
    assert next_week.host_id == members[0].id

    # Calling a night off makes room for one more.
    await (await members[0].slash("loteria unschedule", night=next_week.id)).reply()
    planned = await (await latecomer.slash("housie schedule", when="in 3 days")).reply()
    assert not planned.ephemeral, planned.content


async def test_a_weekly_night_whose_channel_was_deleted_is_called_off(
    emulator: Emulator, start_bot
):
    """Once: one word to its host and no Discord event left, not a night planned (and a DM
    sent) every week for a channel that is gone."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    doomed = guild.add_channel("doomed")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")
    await (
        await host.slash("housie schedule", in_channel=doomed, when="in 1 hour", weekly=True)
    ).reply()
    (night,) = await bot.storage.pending_schedules("housie")
    assert len(guild.scheduled_events) == 1
    guild.delete_channel(doomed)

    await move_clock(bot, cog, 55 * MINUTE)
    notice = await host.wait_for_dm(lambda m: f"#{night.id}" in m.content)
    assert "called off" in notice.content
    assert "deleted" in notice.content
    assert (await bot.storage.get_schedule(night.id)).status is ScheduleStatus.CANCELLED
    assert await bot.storage.pending_schedules("housie") == []
    assert guild.scheduled_events == {}
    assert await bot.storage.live_games() == []

    # Weeks later: nothing more is planned, posted or sent.
    for _ in range(3):
        await move_clock(bot, cog, 7 * 24 * 60 * MINUTE)
    assert await bot.storage.pending_schedules("housie") == []
    assert guild.scheduled_events == {}
    assert len(host.dms) == 1
