"""Threads (Topics: Threads) and AutoMod blocks (Auto Moderation), as a test can set them up:
a thread archived or locked by a moderator, and an AutoMod rule blocking the bot's messages."""

from __future__ import annotations

import discord
import pytest

from emulator import DriverError, Emulator, run_bot
from emulator.model import Permission
from tests.emulator.minimal_bot import MinimalBot


def world(emu: Emulator):
    guild = emu.add_guild("g")
    general = guild.add_channel("general")
    alice = guild.add_member("alice")
    thread = guild.add_thread(general, "Game 1", owner=alice.user)
    return guild, general, alice, thread


async def test_the_bot_sees_a_thread_and_posts_in_it(tmp_path):
    async with Emulator() as emu:
        _, general, _, thread = world(emu)
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            found = bot.get_channel(thread.id)
            assert isinstance(found, discord.Thread)
            assert found.parent_id == general.id
            await found.send("in the thread")
        assert [m.content for m in thread.messages] == ["in the thread"]
        assert general.messages == []


async def test_posting_unarchives_an_archived_thread(tmp_path):
    async with Emulator() as emu:
        guild, _, _, thread = world(emu)
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            guild.set_thread_state(thread, archived=True)
            await bot.get_partial_messageable(thread.id).send("wake up")
            # discord.py forgets an archived thread and learns it again when it is unarchived.
            await emu.wait_until(
                lambda: isinstance(bot.get_channel(thread.id), discord.Thread),
                5,
                lambda: "THREAD_UPDATE",
            )
        assert not thread.archived
        assert [m.content for m in thread.messages] == ["wake up"]


async def test_an_archived_and_locked_thread_refuses_posts_with_50083(tmp_path):
    async with Emulator() as emu:
        guild, _, _, thread = world(emu)
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            channel = bot.get_partial_messageable(thread.id)
            message = await channel.send("before the lock")
            guild.set_thread_state(thread, archived=True, locked=True)
            with pytest.raises(discord.HTTPException) as refused:
                await channel.send("after the lock")
            assert (refused.value.status, refused.value.code) == (400, 50083)
            with pytest.raises(discord.HTTPException) as edit_refused:
                await message.edit(content="edited")  # archived threads are immutable
            assert edit_refused.value.code == 50083
        assert [m.content for m in thread.messages] == ["before the lock"]
        assert thread.archived
        assert [f.kind for f in emu.take_failures()] == ["thread_archived", "thread_archived"]


async def test_a_locked_thread_needs_manage_threads(tmp_path):
    async with Emulator() as emu:
        guild, _, _, thread = world(emu)
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            guild.set_thread_state(thread, locked=True)
            channel = bot.get_partial_messageable(thread.id)
            with pytest.raises(discord.Forbidden) as refused:
                await channel.send("locked out")
            assert refused.value.code == 50013
            guild.bot_role.permissions |= Permission.MANAGE_THREADS
            await channel.send("a moderator may")
        assert [m.content for m in thread.messages] == ["a moderator may"]
        assert [f.kind for f in emu.take_failures()] == ["missing_permissions"]


async def test_in_a_thread_send_messages_in_threads_is_what_counts(tmp_path):
    async with Emulator() as emu:
        guild, general, _, thread = world(emu)
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            guild.set_bot_denied(general, Permission.SEND_MESSAGES)
            await bot.get_partial_messageable(thread.id).send("threads are fine")
            guild.set_bot_denied(general, Permission.SEND_MESSAGES_IN_THREADS)
            with pytest.raises(discord.Forbidden):
                await bot.get_partial_messageable(thread.id).send("not any more")
        assert [m.content for m in thread.messages] == ["threads are fine"]
        emu.take_failures("missing_permissions")


async def test_no_commands_in_an_archived_thread(tmp_path):
    async with Emulator() as emu:
        guild, _, alice, thread = world(emu)
        async with run_bot(emu, MinimalBot(tmp_path / "bot.sqlite3")):
            reply = await (await alice.slash("ping", in_channel=thread)).reply()
            assert reply.channel is thread
            guild.set_thread_state(thread, archived=True)
            with pytest.raises(DriverError, match="archived thread"):
                await alice.slash("ping", in_channel=thread)


async def test_an_automod_block_refuses_matching_posts_and_edits(tmp_path):
    async with Emulator() as emu:
        guild, general, _, _ = world(emu)
        other = guild.add_channel("other")
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            channel = bot.get_channel(general.id)
            assert isinstance(channel, discord.TextChannel)
            kept = await channel.send("a clean message")
            block = emu.block_messages("Forbidden", channel=general)
            with pytest.raises(discord.HTTPException) as blocked:
                await channel.send("a forbidden word")
            assert (blocked.value.status, blocked.value.code) == (400, 200000)
            with pytest.raises(discord.HTTPException):
                await kept.edit(content="now FORBIDDEN")
            elsewhere = bot.get_channel(other.id)
            assert isinstance(elsewhere, discord.TextChannel)
            await elsewhere.send("forbidden, but not here")
            emu.unblock_messages(block)
            await channel.send("forbidden no more")
        assert [m.content for m in general.messages] == ["a clean message", "forbidden no more"]
        assert emu.rest.automod_blocked == 2
        assert emu.failures == []  # a block is the server's doing, not a broken rule


async def test_automod_never_blocks_a_dm(tmp_path):
    """AutoMod rules are a server's: the bot's DMs go through a block of every message."""
    async with Emulator() as emu:
        _, general, alice, _ = world(emu)
        bot = MinimalBot(tmp_path / "bot.sqlite3")
        async with run_bot(emu, bot):
            emu.block_messages()
            with pytest.raises(discord.HTTPException) as blocked:
                await bot.get_partial_messageable(general.id).send("in the server")
            assert blocked.value.code == 200000
            user = await bot.fetch_user(alice.id)
            await user.send("a word in private")
        assert [m.content for m in alice.dms] == ["a word in private"]
        assert emu.rest.automod_blocked == 1
