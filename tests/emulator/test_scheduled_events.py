"""Guild scheduled events, as Discord keeps them: the real discord.py client creates, edits and
deletes an external event (a game night in a text channel), within Discord's rules."""

from __future__ import annotations

import datetime

import discord
import pytest

from emulator import Emulator, run_bot
from emulator.model import Permission
from tests.emulator.minimal_bot import MinimalBot


def soon(minutes: int) -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=minutes)


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
        assert refused.value.status == 400
        emulator.take_failures("rule")

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
