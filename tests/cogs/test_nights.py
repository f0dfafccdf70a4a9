"""Game nights planned ahead: scheduled, announced as Discord events, opened and started on time
(the bot's clock and Discord's calendar are moved on together, the emulator and the database are
real), weekly, called off, and kept across a restart; Discord's rules for events (Create Events,
100 a server, the statuses it sets by itself); a weekly series that must end."""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections import Counter

import pytest

from bot.calling.nights import NIGHTS_PER_MEMBER, NIGHTS_PER_SERVER
from bot.storage import GameStatus, ScheduleStatus
from emulator import Emulator, Fault
from emulator.model import MAX_UNCOMPLETED_EVENTS, EventStatus, Permission
from engine.housie import HousieGame
from tests.cogs.helpers import button_id

# Discord's rate limits and a real network's delays (50-150 ms each way): a step that only
# works on loopback, or a wake-up lost while the loop looks, fails here.
pytestmark = [
    pytest.mark.backends("sqlite", "postgres"),
    pytest.mark.emulator(rate_limits=True, latency=(0.05, 0.15)),
]

MINUTE = 60.0
WEEK = 7 * 24 * 60 * MINUTE
EVENT_ROUTE = "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}"


async def move_clock(emulator: Emulator, bot, cog, seconds: float) -> None:
    """Let ``seconds`` pass for the bot's planned nights and for Discord (which starts and
    completes the nights' events at their times, as Discord does), and let the bot look."""
    emulator.advance_clock(seconds)
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

    await move_clock(emulator, bot, cog, 19 * MINUTE)
    assert not [m for m in channel.messages if "Planned game night" in m.content]
    await move_clock(emulator, bot, cog, 2 * MINUTE)  # 9 minutes to go: the lobby is open
    lobby = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await (await player.click(lobby, button_id(lobby, "join"))).reply()
    (night,) = await bot.storage.pending_schedules("loteria")
    assert night.status is ScheduleStatus.LOBBY

    await move_clock(emulator, bot, cog, 10 * MINUTE)
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
    await move_clock(emulator, bot, cog, 55 * MINUTE)
    lobby = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await move_clock(emulator, bot, cog, 5 * MINUTE)
    await wait_for(emulator, lambda: "called off" in lobby.content, "the lobby to say so")
    game = await bot.storage.get_game((await bot.storage.get_schedule(first.id)).game_id)
    assert game.status is GameStatus.CANCELLED
    (following,) = await bot.storage.pending_schedules("housie")
    assert following.starts_at == first.starts_at + 7 * 24 * 3600
    assert following.weekly
    # The first night's event is gone; the next one's is announced.
    following = await with_event(bot, following.id)
    await wait_for(
        emulator,
        lambda: [e["id"] for e in guild.scheduled_events.values()] == [str(following.event_id)],
        "week 1's event gone, week 2's there",
    )


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
    await move_clock(emulator, bot, bot.get_cog("Lotería"), 116 * MINUTE)
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
    await move_clock(emulator, bot, bot.get_cog("Lotería"), 15 * MINUTE)
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
    await move_clock(emulator, bot, bot.get_cog("Housie"), 15 * MINUTE)
    await channel.wait_for_message(lambda m: "#1" in m.content and m.components)
    (night,) = await bot.storage.pending_schedules("housie")
    game = await bot.storage.get_game(night.game_id)
    assert game.options["interval"] == 45
    assert game.options["guild_locale"] == "es-ES"
    prizes = [prize.value for prize in HousieGame.from_state(game.state).prizes]
    assert prizes == ["TL", "ML", "BL", "FH"]


async def test_planned_nights_are_limited_per_member_and_per_server(emulator: Emulator, start_bot):
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
            (member, game) for member in members for game in ("loteria", "housie") for _ in range(3)
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
    await move_clock(emulator, bot, cog, 15 * MINUTE)
    lobby = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await move_clock(emulator, bot, cog, 5 * MINUTE)
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

    await move_clock(emulator, bot, cog, 55 * MINUTE)
    notice = await host.wait_for_dm(lambda m: f"#{night.id}" in m.content)
    assert "called off" in notice.content
    assert "deleted" in notice.content
    assert (await bot.storage.get_schedule(night.id)).status is ScheduleStatus.CANCELLED
    assert await bot.storage.pending_schedules("housie") == []
    await wait_for(emulator, lambda: guild.scheduled_events == {}, "its event deleted")
    assert await bot.storage.live_games() == []

    # Weeks later: nothing more is planned, posted or sent.
    for _ in range(3):
        await move_clock(emulator, bot, cog, 7 * 24 * 60 * MINUTE)
    assert await bot.storage.pending_schedules("housie") == []
    assert guild.scheduled_events == {}
    assert len(host.dms) == 1


async def test_a_weekly_night_whose_lobby_automod_blocks_misses_this_week_only(
    emulator: Emulator, start_bot
):
    """AutoMod refuses the lobby (400 / 200000): not "channel gone" (a moderator can mend it)
    and not retried forever: the host hears this week's night could not open, and next week's
    is planned."""
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")
    await (await host.slash("housie schedule", when="in 1 hour", weekly=True)).reply()
    (night,) = await bot.storage.pending_schedules("housie")
    block = emulator.block_messages("hosted by", channel=general)

    await move_clock(emulator, bot, cog, 55 * MINUTE)
    notice = await host.wait_for_dm(lambda m: f"#{night.id}" in m.content)
    assert "could not open" in notice.content
    assert emulator.rest.automod_blocked == 1
    assert (await bot.storage.get_schedule(night.id)).status is ScheduleStatus.MISSED
    (next_week,) = await bot.storage.pending_schedules("housie")
    assert next_week.starts_at == night.starts_at + 7 * 24 * 3600
    assert await bot.storage.live_games() == []
    emulator.unblock_messages(block)


def refused_event_requests(emulator: Emulator) -> list:
    """The bot's scheduled-event requests Discord refused (injected faults aside)."""
    return [
        r
        for r in emulator.requests
        if "/scheduled-events" in r.path and r.status >= 400 and not r.injected
    ]


def errors_logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# -- the Discord event: permissions, the server's limit, Discord's own moves ----------------------


async def test_manage_events_alone_announces_no_event(emulator: Emulator, start_bot):
    """Discord creates an event for Create Events only: with Manage Events and not Create
    Events the bot asks for nothing it would be refused, says what it needs, and the night
    happens."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    guild.bot_role.permissions = (
        guild.bot_role.permissions & ~int(Permission.CREATE_EVENTS)
    ) | int(Permission.MANAGE_EVENTS)
    bot = await start_bot(time_scale=100)
    planned = await (await host.slash("loteria schedule", when="in 20 minutes")).reply()
    assert not planned.ephemeral
    assert "Create Events" in planned.content
    assert guild.scheduled_events == {}
    assert not [r for r in emulator.requests if "/scheduled-events" in r.path]
    await move_clock(emulator, bot, bot.get_cog("Lotería"), 15 * MINUTE)
    await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)


async def test_a_server_with_100_events_gets_the_night_without_one(emulator: Emulator, start_bot):
    """Discord's 100 events to come (30038) are the server's, members' included: the night is
    planned and happens, its host is told why there is no event; a weekly night whose next week
    finds the server full tells its host once, not every week."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    owner, host, player = (guild.add_member(name) for name in ("owner", "host", "player"))
    far = emulator.now() + datetime.timedelta(days=60)
    for n in range(MAX_UNCOMPLETED_EVENTS - 1):
        guild.add_scheduled_event(
            f"Event {n}", creator=owner, start=far, end=far + datetime.timedelta(hours=1)
        )
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")

    weekly = await (await host.slash("housie schedule", when="in 1 hour", weekly=True)).reply()
    assert "in the server's events" in weekly.content  # the 100th
    once = await (await host.slash("housie schedule", when="in 3 hours")).reply()
    assert not once.ephemeral
    assert "already has 100 events to come" in once.content
    assert "Create Events" not in once.content
    assert len(await bot.storage.pending_schedules("housie")) == 2
    assert len(guild.scheduled_events) == MAX_UNCOMPLETED_EVENTS
    assert emulator.rest.events_limit_refused == 1
    await (await host.slash("housie unschedule", night=2)).reply()  # (same channel as week 2)

    # Week 1 is played (its event active): week 2 finds the server full. The host hears once.
    await move_clock(emulator, bot, cog, 55 * MINUTE)
    lobby = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await (await player.click(lobby, button_id(lobby, "join"))).reply()
    await move_clock(emulator, bot, cog, 5 * MINUTE)
    notice = await host.wait_for_dm(lambda m: "no server event" in m.content)
    assert "100 events to come" in notice.content
    (week2,) = [n for n in await bot.storage.pending_schedules("housie") if n.weekly]
    assert week2.event_id is None
    assert f"#{week2.id}" in notice.content
    game = await bot.storage.get_game((await bot.storage.get_schedule(1)).game_id)
    assert game.status is GameStatus.RUNNING
    await (await host.slash("housie stop")).reply()
    await channel.wait_for_message(lambda m: "Housie #1 is over" in m.content)
    guild.add_scheduled_event(  # the place week 1's completed event frees is taken
        "Quiz", creator=owner, start=far, end=far + datetime.timedelta(hours=1)
    )

    # Week 2 (nobody comes) plans week 3, still without an event: no second word.
    await move_clock(emulator, bot, cog, WEEK - 5 * MINUTE)
    await channel.wait_for_message(lambda m: f"Planned game night #{week2.id}" in m.content)
    await move_clock(emulator, bot, cog, 5 * MINUTE)
    await wait_for(
        emulator,
        lambda: len([m for m in channel.messages if "called off" in m.content]) >= 1,
        "week 2 to be called off",
    )
    await emulator.wait_until(
        lambda: emulator.rest.events_limit_refused >= 3 or None, 10, lambda: "week 3's try"
    )
    assert len([m for m in host.dms if "no server event" in m.content]) == 1
    assert emulator.failures == []


async def test_discord_starts_the_event_and_the_bot_leaves_it(
    emulator: Emulator, start_bot, caplog
):
    """Discord starts an external event at its start and completes it at its end by itself:
    the bot's own moves come after Discord's and must not be refused (no 400, no ERROR, no
    retry), whether the game ends before the event's end or after it."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host, player = guild.add_member("host"), guild.add_member("player")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")
    for night in (1, 2):
        await (await host.slash("loteria schedule", when="in 30 minutes", lobby=10)).reply()
        event_id = max(guild.scheduled_events)
        await move_clock(emulator, bot, cog, 21 * MINUTE)
        lobby = await channel.wait_for_message(
            lambda m, night=night: f"Planned game night #{night}" in m.content
        )
        await (await player.click(lobby, button_id(lobby, "join"))).reply()
        await move_clock(emulator, bot, cog, 10 * MINUTE)  # Discord starts it, the bot too
        assert guild.event_moves_by_discord[-1] == (event_id, EventStatus.ACTIVE)
        (game,) = [g for g in await bot.storage.live_games() if g.options.get("night") == night]
        await eventually(lambda game=game: running(bot, game.id), f"night {night}'s game to start")
        if night == 2:  # the game outlasts its event: Discord completes it first
            await move_clock(emulator, bot, cog, 3 * 60 * MINUTE)
            assert guild.event_moves_by_discord[-1] == (event_id, EventStatus.COMPLETED)
        before = len(emulator.requests)
        await (await host.slash("loteria stop")).reply()
        await channel.wait_for_message(
            lambda m, game=game: f"#{game.id}" in m.content and "is over" in m.content
        )
        await wait_for(  # the bot has looked at the event (or moved it) since the stop
            emulator,
            lambda event_id=event_id, before=before: (
                guild.scheduled_events[event_id]["status"] == EventStatus.COMPLETED
                and any(
                    f"/scheduled-events/{event_id}" in r.path for r in emulator.requests[before:]
                )
            ),
            "the event completed, and the bot's look at it",
        )
    assert refused_event_requests(emulator) == []
    patches = [
        r for r in emulator.requests if r.method == "PATCH" and "/scheduled-events" in r.path
    ]
    assert [r.body for r in patches] == [{"status": 3}]  # night 1's end; the rest was Discord's
    assert errors_logged(caplog) == []


# -- weekly nights: written before Discord hears, and only while they may go on -------------------


async def test_a_crash_during_the_event_call_still_leaves_next_week_planned(
    emulator: Emulator, start_bot
):
    """The next week is written with the night's close, before the Discord event is touched:
    a bot that dies while Discord is not answering the event call (a 500, retried) finds the
    series going on when it is back."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")
    await (await host.slash("housie schedule", when="in 1 hour", weekly=True)).reply()
    (first,) = await bot.storage.pending_schedules("housie")
    await move_clock(emulator, bot, cog, 55 * MINUTE)
    await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)

    broken = emulator.inject_fault(Fault(500, method="DELETE", route=EVENT_ROUTE))
    await move_clock(emulator, bot, cog, 5 * MINUTE)  # nobody came: the event is deleted...
    await emulator.wait_until(
        lambda: emulator.faults.hits(broken) or None, 10, lambda: "the event call"
    )
    offset = bot.clock_offset
    await bot.stop_for_test()  # ...and the bot dies while discord.py waits to retry it
    emulator.faults.remove(broken)

    bot = await start_bot(time_scale=100)
    bot.clock_offset = offset
    assert (await bot.storage.get_schedule(first.id)).status is ScheduleStatus.DONE
    (following,) = await bot.storage.pending_schedules("housie")
    assert following.weekly
    assert following.starts_at == first.starts_at + WEEK
    assert following.host_id == host.id
    # And it is played: its lobby opens in a week.
    await move_clock(emulator, bot, bot.get_cog("Housie"), WEEK - 5 * MINUTE)
    await channel.wait_for_message(lambda m: f"Planned game night #{following.id}" in m.content)


async def test_a_weekly_night_ends_when_its_host_may_no_longer_host(emulator: Emulator, start_bot):
    """Each week Discord is asked whether the host is still in the server with the host role:
    the series goes on while they are (and while Discord cannot say), and ends once, with one
    word to the host, when they lost the role; nothing is planned, posted or sent after."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    owner = guild.add_member("owner", manage_guild=True)  # (the owner may host anyway)
    hosts = guild.add_role("Hosts")
    host = guild.add_member("host", roles=[hosts])
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")
    chosen = await (await owner.slash("gamenight settings", host_role=hosts)).reply()
    assert f"<@&{hosts.id}>" in chosen.content
    await (await host.slash("loteria schedule", when="in 1 hour", weekly=True)).reply()
    (week1,) = await bot.storage.pending_schedules("loteria")

    # Week 1: Discord cannot say (503 on the member): the series goes on.
    unsure = emulator.inject_fault(
        Fault(503, method="GET", route="/guilds/{guild_id}/members/{user_id}")
    )
    await move_clock(emulator, bot, cog, 55 * MINUTE)
    await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await move_clock(emulator, bot, cog, 5 * MINUTE)
    await wait_for(emulator, lambda: emulator.faults.hits(unsure), "the host's look-up")
    emulator.faults.remove(unsure)
    (week2,) = await wait_pending(bot, "loteria", after=week1.id)
    await with_event(bot, week2.id)

    # Week 2: the host still has the role: it goes on.
    await move_clock(emulator, bot, cog, WEEK - 5 * MINUTE)
    await channel.wait_for_message(lambda m: f"Planned game night #{week2.id}" in m.content)
    await move_clock(emulator, bot, cog, 5 * MINUTE)
    (week3,) = await wait_pending(bot, "loteria", after=week2.id)

    # Before week 3 the host loses the role: week 3 is played (it was planned), no week 4.
    host.take_role(hosts)
    await move_clock(emulator, bot, cog, WEEK - 5 * MINUTE)
    await channel.wait_for_message(lambda m: f"Planned game night #{week3.id}" in m.content)
    await move_clock(emulator, bot, cog, 5 * MINUTE)
    notice = await host.wait_for_dm(lambda m: "will not come back" in m.content)
    assert f"#{week3.id}" in notice.content
    assert f"<@&{hosts.id}>" in notice.content
    assert await bot.storage.pending_schedules("loteria") == []
    assert (await bot.storage.get_schedule(week3.id)).status is ScheduleStatus.DONE
    assert not [e for e in guild.scheduled_events.values() if e["status"] == EventStatus.SCHEDULED]

    for _ in range(3):
        await move_clock(emulator, bot, cog, WEEK)
    assert await bot.storage.pending_schedules("loteria") == []
    assert len(host.dms) == 1


async def test_a_weekly_night_ends_when_its_host_left_the_server(emulator: Emulator, start_bot):
    """A host who left is not DMed (Discord would likely refuse it): the night's channel is
    told once that the weekly night will not come back."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    guild.add_member("owner")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Housie")
    await (await host.slash("housie schedule", when="in 1 hour", weekly=True)).reply()
    await move_clock(emulator, bot, cog, 55 * MINUTE)
    await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    guild.remove_member(host)
    await move_clock(emulator, bot, cog, 5 * MINUTE)
    said = await channel.wait_for_message(lambda m: "will not come back" in m.content)
    assert f"<@{host.id}>" in said.content
    assert "no longer in this server" in said.content
    assert await bot.storage.pending_schedules("housie") == []
    await wait_for(  # week 1's deleted (nobody came), no week 2
        emulator, lambda: guild.scheduled_events == {}, "no event left"
    )
    for _ in range(2):
        await move_clock(emulator, bot, cog, WEEK)
    assert host.dms == []
    assert len([m for m in channel.messages if "will not come back" in m.content]) == 1


async def test_a_weekly_night_whose_channel_goes_while_its_lobby_is_open(
    emulator: Emulator, start_bot
):
    """The channel is deleted with the lobby open (someone joined): the night is called off,
    its game not started, and no next week is planned (no event, no DM a week later to call
    it off): the host hears once."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    doomed = guild.add_channel("doomed")
    host, player = guild.add_member("host"), guild.add_member("player")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")
    await (
        await host.slash("loteria schedule", in_channel=doomed, when="in 1 hour", weekly=True)
    ).reply()
    await move_clock(emulator, bot, cog, 55 * MINUTE)
    lobby = await doomed.wait_for_message(lambda m: "Planned game night #1" in m.content)
    await (await player.click(lobby, button_id(lobby, "join"))).reply()
    guild.delete_channel(doomed)
    await wait_for(emulator, lambda: bot.get_channel(doomed.id) is None, "the bot to hear it")

    await move_clock(emulator, bot, cog, 5 * MINUTE)
    notice = await host.wait_for_dm(lambda m: "called off" in m.content)
    assert "#1" in notice.content
    assert "deleted" in notice.content
    assert (await bot.storage.get_schedule(1)).status is ScheduleStatus.CANCELLED
    assert await bot.storage.pending_schedules("loteria") == []
    assert await bot.storage.live_games() == []
    await wait_for(emulator, lambda: guild.scheduled_events == {}, "its event deleted")
    for _ in range(3):
        await move_clock(emulator, bot, cog, WEEK)
    assert await bot.storage.pending_schedules("loteria") == []
    assert guild.scheduled_events == {}
    assert len(host.dms) == 1


async def running(bot, game_id: int) -> bool:
    return (await bot.storage.get_game(game_id)).status is GameStatus.RUNNING


async def eventually(check, what: str) -> None:
    """Until the coroutine ``check()`` is true (the database's state), for up to 10 s."""
    for _ in range(200):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def with_event(bot, night_id: int):
    """Night ``night_id`` once its Discord event is announced (stored after the night)."""

    async def announced() -> bool:
        return (await bot.storage.get_schedule(night_id)).event_id is not None

    await eventually(announced, f"night {night_id}'s event")
    return await bot.storage.get_schedule(night_id)


async def wait_pending(bot, kind: str, *, after: int = 0) -> list:
    """The nights of ``kind`` to come, once one numbered above ``after`` is planned."""

    async def later() -> list:
        return [n for n in await bot.storage.pending_schedules(kind) if n.id > after]

    await eventually(later, f"a {kind} night after #{after}")
    return await later()
