"""Guild scheduled events, as Discord keeps them: the real discord.py client creates, edits and
deletes an external event (a game night in a text channel), within Discord's rules: who may
create or change which event, at most 100 to come in a server, and the statuses Discord sets by
itself at an external event's start and end (Guild Scheduled Event: Status Update Automation,
Permissions Requirements)."""

from __future__ import annotations

import datetime

import discord
import pytest

from emulator import Emulator, run_bot
from emulator.model import MAX_UNCOMPLETED_EVENTS, EventStatus, Permission
from tests.emulator.minimal_bot import MinimalBot

MINUTE = 60.0


def soon(minutes: float, emulator: Emulator | None = None) -> datetime.datetime:
    """``minutes`` from now, on the emulator's calendar if given (it may have been moved on)."""
    now = emulator.now() if emulator is not None else datetime.datetime.now(datetime.UTC)
    return now + datetime.timedelta(minutes=minutes)


async def external_event(guild: discord.Guild, start: datetime.datetime, minutes: float = 60):
    return await guild.create_scheduled_event(
        name="Game night",
        start_time=start,
        end_time=start + datetime.timedelta(minutes=minutes),
        entity_type=discord.EntityType.external,
        location="#general",
        privacy_level=discord.PrivacyLevel.guild_only,
    )


async def test_an_external_event_from_creation_to_its_end(emulator: Emulator, tmp_path):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        seen = bot.get_guild(guild.id)
        assert seen is not None
        event = await seen.create_scheduled_event(
            name="Lotería night",
            description="In #general",
            start_time=soon(60),
            end_time=soon(120),
            entity_type=discord.EntityType.external,
            location="#general",
            privacy_level=discord.PrivacyLevel.guild_only,
        )
        stored = guild.scheduled_events[event.id]
        assert stored["name"] == "Lotería night"
        assert stored["entity_metadata"] == {"location": "#general"}
        assert event.status is discord.EventStatus.scheduled
        fetched = await seen.fetch_scheduled_event(event.id)
        assert fetched.name == "Lotería night"
        assert [e.id for e in await seen.fetch_scheduled_events()] == [event.id]

        started = await event.start()
        assert started.status is discord.EventStatus.active
        ended = await started.end()
        assert ended.status is discord.EventStatus.completed
        with pytest.raises(discord.HTTPException) as refused:  # a completed event stays so
            await bot.http.edit_scheduled_event(seen.id, ended.id, status=2)
        assert (refused.value.status, refused.value.code) == (400, 180000)
        assert len(emulator.take_failures("rule")) == 1

        other = await seen.create_scheduled_event(
            name="Housie night",
            start_time=soon(30),
            end_time=soon(90),
            entity_type=discord.EntityType.external,
            location="#general",
            privacy_level=discord.PrivacyLevel.guild_only,
        )
        await other.delete()
        assert other.id not in guild.scheduled_events


async def test_discords_rules_for_events(emulator: Emulator, tmp_path):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        seen = bot.get_guild(guild.id)
        assert seen is not None
        for start, end in ((soon(-5), soon(60)), (soon(60), soon(30))):
            with pytest.raises(discord.HTTPException) as refused:
                await seen.create_scheduled_event(
                    name="Too late",
                    start_time=start,
                    end_time=end,
                    entity_type=discord.EntityType.external,
                    location="#general",
                    privacy_level=discord.PrivacyLevel.guild_only,
                )
            assert refused.value.status == 400
        assert len(emulator.take_failures("rule")) == 2

        guild.bot_role.permissions &= ~int(Permission.CREATE_EVENTS)
        with pytest.raises(discord.Forbidden):
            await seen.create_scheduled_event(
                name="Not allowed",
                start_time=soon(60),
                end_time=soon(90),
                entity_type=discord.EntityType.external,
                location="#general",
                privacy_level=discord.PrivacyLevel.guild_only,
            )
        assert len(emulator.take_failures("missing_permissions")) == 1
        assert guild.scheduled_events == {}


async def test_create_events_for_the_bots_own_and_manage_events_for_others(
    emulator: Emulator, tmp_path
):
    """Creating an external event needs Create Events (Manage Events alone is refused); the
    bot's own events may be changed with either, a member's only with Manage Events."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    member = guild.add_member("member")
    theirs = guild.add_scheduled_event("Movie night", creator=member, start=soon(60), end=soon(120))
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        seen = bot.get_guild(guild.id)
        assert seen is not None
        # Create Events (what an invited bot asks for): its own events, not a member's.
        own = await external_event(seen, soon(30))
        await bot.http.edit_scheduled_event(seen.id, own.id, name="Lotería night")
        for change in (
            bot.http.edit_scheduled_event(seen.id, int(theirs["id"]), name="Mine now"),
            bot.http.delete_scheduled_event(seen.id, int(theirs["id"])),
        ):
            with pytest.raises(discord.Forbidden):
                await change
        assert len(emulator.take_failures("missing_permissions")) == 2
        assert guild.scheduled_events[int(theirs["id"])]["name"] == "Movie night"

        # Manage Events alone: no new event, but any event may be changed or deleted.
        guild.bot_role.permissions = (
            guild.bot_role.permissions & ~int(Permission.CREATE_EVENTS)
        ) | int(Permission.MANAGE_EVENTS)
        with pytest.raises(discord.Forbidden) as refused:
            await external_event(seen, soon(40))
        assert refused.value.code == 50013
        (failure,) = emulator.take_failures("missing_permissions")
        assert "Create Events" in str(failure)
        await bot.http.edit_scheduled_event(seen.id, int(theirs["id"]), name="Film night")
        await bot.http.delete_scheduled_event(seen.id, own.id)
        assert set(guild.scheduled_events) == {int(theirs["id"])}

        # Neither: not even its own event.
        guild.bot_role.permissions |= int(Permission.CREATE_EVENTS)
        again = await external_event(seen, soon(50))
        guild.bot_role.permissions &= ~int(Permission.MANAGE_EVENTS | Permission.CREATE_EVENTS)
        with pytest.raises(discord.Forbidden):
            await bot.http.delete_scheduled_event(seen.id, again.id)
        assert len(emulator.take_failures("missing_permissions")) == 1

        # Administrator holds every permission.
        guild.bot_role.permissions |= int(Permission.ADMINISTRATOR)
        await bot.http.delete_scheduled_event(seen.id, int(theirs["id"]))
        await external_event(seen, soon(70))


async def test_at_most_100_events_to_come_in_a_server(emulator: Emulator, tmp_path):
    """The 101st event scheduled or active is refused with 400 / 30038, which is the server's
    state (members' events count), not a rule the bot broke; a finished one frees a place."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    member = guild.add_member("member")
    for n in range(MAX_UNCOMPLETED_EVENTS - 1):
        guild.add_scheduled_event(f"Event {n}", creator=member, start=soon(60), end=soon(90))
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        seen = bot.get_guild(guild.id)
        assert seen is not None
        last = await external_event(seen, soon(30))
        with pytest.raises(discord.HTTPException) as refused:
            await external_event(seen, soon(30))
        assert (refused.value.status, refused.value.code) == (400, 30038)
        assert "Maximum number of uncompleted guild scheduled events" in refused.value.text
        assert emulator.failures == []
        assert emulator.rest.events_limit_refused == 1
        assert len(guild.scheduled_events) == MAX_UNCOMPLETED_EVENTS

        await last.cancel()  # a canceled event no longer counts
        await external_event(seen, soon(30))
        assert len(guild.scheduled_events) == MAX_UNCOMPLETED_EVENTS + 1


async def test_discord_starts_and_completes_external_events_by_itself(emulator: Emulator, tmp_path):
    """At its scheduled start an external event becomes active, at its end completed, without
    a request; a status change the bot sends after Discord's is refused (400), and a finished
    event cannot be changed at all (180000)."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        seen = bot.get_guild(guild.id)
        assert seen is not None
        event = await external_event(seen, soon(30), minutes=120)
        stored = guild.scheduled_events[event.id]
        requests = len(emulator.requests)

        emulator.advance_clock(29 * MINUTE)
        assert stored["status"] == EventStatus.SCHEDULED
        emulator.advance_clock(2 * MINUTE)
        assert stored["status"] == EventStatus.ACTIVE
        assert guild.event_moves_by_discord == [(event.id, EventStatus.ACTIVE)]
        assert len(emulator.requests) == requests  # Discord's doing, not the bot's
        fetched = await seen.fetch_scheduled_event(event.id)
        assert fetched.status is discord.EventStatus.active

        with pytest.raises(discord.HTTPException) as late:  # the bot starting it too late
            await bot.http.edit_scheduled_event(seen.id, event.id, status=2)
        assert (late.value.status, late.value.code) == (400, 50035)
        assert len(emulator.take_failures("rule")) == 1

        emulator.advance_clock(2 * 60 * MINUTE)
        assert stored["status"] == EventStatus.COMPLETED
        assert guild.event_moves_by_discord[-1] == (event.id, EventStatus.COMPLETED)
        with pytest.raises(discord.HTTPException) as finished:
            await bot.http.edit_scheduled_event(seen.id, event.id, status=3)
        assert (finished.value.status, finished.value.code) == (400, 180000)
        assert len(emulator.take_failures("rule")) == 1

        # A time long past moves straight through: scheduled, active and completed at once.
        skipped = await external_event(seen, soon(10, emulator), minutes=60)
        emulator.advance_clock(3 * 60 * MINUTE)
        assert guild.scheduled_events[skipped.id]["status"] == EventStatus.COMPLETED
        # The emulator's calendar moved on: a start in the wall clock's near future is past.
        with pytest.raises(discord.HTTPException):
            await external_event(seen, soon(60))
        assert len(emulator.take_failures("rule")) == 1


async def test_discords_clock_runs_without_anyone_looking(emulator: Emulator, tmp_path):
    """The start comes by the real clock too: no request and no clock move needed."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        seen = bot.get_guild(guild.id)
        assert seen is not None
        event = await external_event(seen, soon(1 / 60), minutes=60)  # a second from now
        stored = guild.scheduled_events[event.id]
        await emulator.wait_until(
            lambda: stored["status"] == EventStatus.ACTIVE, 10, lambda: "the event to start"
        )
        assert guild.event_moves_by_discord == [(event.id, EventStatus.ACTIVE)]
