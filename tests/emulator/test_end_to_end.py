"""A minimal bot built here, run by the unmodified discord.py client against the emulator."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from emulator import CallbackType, DriverError, Emulator, run_bot
from tests.emulator.minimal_bot import MinimalBot

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def make_world(emu: Emulator):
    """A guild with #general, alice (a server manager) and bob."""
    guild = emu.add_guild("Game Night")
    general = guild.add_channel("general")
    alice = guild.add_member("alice", manage_guild=True)
    bob = guild.add_member("bob")
    return guild, general, alice, bob


async def test_bot_connects_and_sees_the_guild(emulator, tmp_path):
    guild, *_ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        seen = bot.get_guild(guild.id)
        assert seen is not None
        assert seen.name == "Game Night"
        assert [c.name for c in seen.text_channels] == ["general"]
        assert seen.member_count == 3  # alice, bob and the bot itself
        assert bot.user is not None
        assert bot.user.id == emulator.bot_user.id
        assert bot.application_id == emulator.application_id


async def test_command_sync_is_kept_for_inspection(emulator, tmp_path):
    make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        names = {c["name"] for c in emulator.synced_commands}
        assert {"ping", "echo", "lobby", "card", "countdown"} <= names
        echo = emulator.command("echo")
        assert [(o["name"], o["type"], o.get("required", False)) for o in echo["options"]] == [
            ("text", 3, True),
            ("times", 4, False),
        ]
        assert emulator.command("admin")["default_member_permissions"] == str(1 << 5)


async def test_guild_sync_makes_guild_commands(emulator, tmp_path):
    guild, _, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3", guild_id=guild.id)):
        assert {c.get("guild_id") for c in emulator.synced_commands} == {str(guild.id)}
        reply = await (await alice.slash("ping")).reply()
        assert reply.content == "pong"


async def test_slash_command_with_options_gets_a_reply(emulator, tmp_path):
    _, general, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        result = await alice.slash("echo", text="hi ", times=3)
        reply = await result.reply()
        assert reply.content == "hi hi hi "
        assert result.response_type == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
        assert not result.ephemeral
        assert general.last_message is reply
        assert reply.interaction_metadata is not None
        assert reply.interaction_metadata["user"]["id"] == str(alice.id)


async def test_button_click_on_a_persistent_view(emulator, tmp_path):
    _, general, alice, bob = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        opened = await (await alice.slash("lobby")).reply()
        assert opened.content == "Lobby opened"
        assert opened.ephemeral
        lobby = general.last_message
        assert lobby is not None
        assert lobby.custom_ids == ["lobby:join", "lobby:refresh"]
        assert lobby.button("Join")["custom_id"] == "lobby:join"
        first = await bob.click(lobby, "lobby:join")
        updated = await first.reply()
        assert first.response_type == CallbackType.UPDATE_MESSAGE
        assert updated is lobby
        assert lobby.content == "Lobby (answered by A): bob"
        await (await alice.click(lobby, "lobby:join")).reply()
        assert lobby.content == "Lobby (answered by A): alice, bob"
        # The bot saw its lobby created (MESSAGE_CREATE) and updated (MESSAGE_UPDATE).
        await emulator.wait_until(
            lambda: bot.edited_message_ids.count(lobby.id) == 2, 5, lambda: "MESSAGE_UPDATE"
        )
        assert lobby.id in [m.id for m in bot.seen_messages]


async def test_silent_defer_then_edit_of_the_original(emulator, tmp_path):
    _, general, alice, bob = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        await (await alice.slash("lobby")).reply()
        lobby = general.last_message
        assert lobby is not None
        result = await bob.click(lobby, "lobby:refresh")
        edited = await result.reply()
        assert result.response_type == CallbackType.DEFERRED_UPDATE_MESSAGE
        assert edited is lobby
        assert lobby.content == "Lobby (refreshed)"
        assert lobby.edited_at is not None


async def test_thinking_defer_then_edit_and_followup(emulator, tmp_path):
    _, general, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        result = await alice.slash("later")
        answer = await result.reply()
        assert result.response_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
        assert answer.content == "thought about it"
        assert not answer.loading
        followup = await result.followup()
        assert followup.content == "and one more thing"
        assert [m.content for m in general.messages] == ["thought about it", "and one more thing"]


async def test_a_followup_after_a_deleted_placeholder_is_refused(emulator, tmp_path):
    """Discord documents that the first follow-up after a deferred response fills its
    "thinking..." placeholder, and not what one does after the placeholder was deleted
    unfilled: the emulator refuses it (404 / 10008, as Discord once did) and records it."""
    _, general, alice, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        result = await alice.slash("hide")
        await emulator.wait_until(lambda: bot.errors, 5, lambda: "the follow-up's answer")
        (error,) = bot.errors
        assert isinstance(error, discord.NotFound)
        assert error.code == 10008
        assert result.message is not None
        assert result.message.deleted
        assert result.followups == []
        assert general.messages_seen_by(alice.user) == []
        (failure,) = emulator.take_failures("followup_after_deleted_placeholder")
        assert "hide" in str(failure)


async def test_slash_command_in_a_dm(emulator, tmp_path):
    _, _, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        dm = alice.open_dm()
        reply = await (await alice.slash("ping", in_channel=dm)).reply()
        assert reply.content == "pong"
        assert reply.channel is dm
        assert alice.dms == [reply]


async def test_dm_with_a_png_and_alt_text(emulator, tmp_path):
    _, general, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        result = await alice.slash("card")
        reply = await result.reply()
        assert reply.content == "Check your DMs"
        assert result.deferred
        assert result.ephemeral
        assert reply not in general.messages  # only alice sees it
        dm = await alice.wait_for_dm(lambda m: bool(m.attachments))
        picture = dm.attachments[0]
        assert picture.filename == "card.png"
        assert picture.description == "Your red card"
        assert picture.data.startswith(b"\x89PNG\r\n\x1a\n")
        assert picture.payload()["width"] == 40


async def test_attachment_bytes_come_back_from_the_cdn(emulator, tmp_path):
    """discord.py's Attachment.read() fetches the attachment URL: the CDN route serves it."""
    _, _, alice, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        await (await alice.slash("card")).reply()
        dm = await alice.wait_for_dm()
        channel = await bot.fetch_channel(dm.channel.id)
        assert isinstance(channel, discord.DMChannel)
        fetched = await channel.fetch_message(dm.id)
        assert await fetched.attachments[0].read() == dm.attachments[0].data


async def test_timer_posts_to_the_channel(emulator, tmp_path):
    _, general, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        await (await alice.slash("countdown", start=3)).reply()
        await general.wait_for_message(lambda m: m.content == "Liftoff!")
        assert [m.content for m in general.messages] == [
            "Counting down from 3",
            "3...",
            "2...",
            "1...",
            "Liftoff!",
        ]


async def test_select_menu_on_an_ephemeral_message(emulator, tmp_path):
    _, general, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        menu = await (await alice.slash("pick")).reply()
        assert menu.ephemeral
        assert menu not in general.messages
        assert menu in general.messages_seen_by(alice.user)
        picked = await (await alice.select(menu, "fruit", ["apple", "cherry"])).reply()
        assert picked.content == "picked apple, cherry"
        assert picked.components == []


async def test_modal_round_trip(emulator, tmp_path):
    _, _, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        asked = await alice.slash("ask")
        modal = await asked.modal_shown()
        assert modal["title"] == "A question"
        with pytest.raises(DriverError, match="modal"):
            await asked.reply()
        submitted = await alice.submit_modal(asked, {"answer": "forty-two"})
        assert (await submitted.reply()).content == "answer: forty-two"


async def test_autocomplete_returns_the_bots_choices(emulator, tmp_path):
    _, _, alice, _ = make_world(emulator)
    async with run_bot(emulator, MinimalBot(tmp_path / "bot.sqlite3")):
        choices = await alice.autocomplete("guess", "fruit", "ap")
        assert [c["value"] for c in choices] == ["apple", "apricot"]


async def test_member_messages_reach_the_bot(emulator, tmp_path):
    _, general, alice, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        await alice.say(general, "hello bot")
        await emulator.wait_until(lambda: bot.seen_messages, 5, lambda: "MESSAGE_CREATE")
        seen = bot.seen_messages[0]
        assert seen.author.id == alice.id
        assert seen.content == ""  # no message-content intent, as on Discord


async def test_bot_survives_a_forced_disconnect(emulator, tmp_path):
    _, general, alice, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        await emulator.disconnect_bot()
        # Sent while the bot is away: it gets it on RESUME.
        await alice.say(general, "while you were away")
        await emulator.wait_for_bot()
        await emulator.wait_until(lambda: bot.seen_messages, 5, lambda: "the replayed message")
        assert emulator.gateway.resume_count == 1
        assert emulator.gateway.identify_count == 1
        assert (await (await alice.slash("ping")).reply()).content == "pong"


async def test_second_bot_process_answers_a_click_on_the_first_ones_message(emulator, tmp_path):
    _, general, alice, bob = make_world(emulator)
    database = tmp_path / "shared.sqlite3"
    async with run_bot(emulator, MinimalBot(database, instance="A")):
        await (await alice.slash("lobby")).reply()
        lobby = general.last_message
        assert lobby is not None
    assert not emulator.bot_connected

    environment = {
        **os.environ,
        "DISCORD_API_BASE_URL": emulator.api_base_url,
        "DISCORD_GATEWAY_URL": emulator.gateway_url,
        "DISCORD_TOKEN": emulator.token,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.emulator.minimal_bot",
        "--db",
        str(database),
        "--instance",
        "B",
        cwd=PROJECT_ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        await emulator.wait_for_bot(timeout=20)
        answered = await bob.click(lobby, "lobby:join")
        await answered.reply()
        assert lobby.content == "Lobby (answered by B): bob"
    finally:
        process.terminate()
        await process.wait()


async def test_bot_edits_and_deletes_messages_with_files(emulator, tmp_path):
    _, general, _, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send(
            "first", file=discord.File(io.BytesIO(b"one"), "one.txt", description="file one")
        )
        [stored] = general.messages
        assert [(a.filename, a.data, a.description) for a in stored.attachments] == [
            ("one.txt", b"one", "file one")
        ]
        # Keep the first file, add a second one.
        edited = await sent.edit(
            content="second",
            attachments=[*sent.attachments, discord.File(io.BytesIO(b"two"), "two.txt")],
        )
        assert edited.content == "second"
        assert [a.filename for a in stored.attachments] == ["one.txt", "two.txt"]
        assert stored.edited_at is not None
        fetched = await channel.fetch_message(sent.id)
        assert await fetched.attachments[1].read() == b"two"
        await sent.delete()
        assert general.messages == []
        assert stored.deleted


async def test_typing_pins_and_reactions(emulator, tmp_path):
    _, general, _, _ = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        async with channel.typing():
            sent = await channel.send("pin me")
        await sent.pin()
        await sent.add_reaction("🎉")
        [stored] = general.messages
        assert stored.pinned
        assert stored.reactions == {"🎉": {emulator.bot_user.id}}
        await sent.unpin()
        assert not stored.pinned
        assert [g.name async for g in bot.fetch_guilds()] == ["Game Night"]


async def test_roles_reach_the_bot_and_ride_on_interactions(emulator, tmp_path):
    guild, _, alice, bob = make_world(emulator)
    bot = MinimalBot(tmp_path / "bot.sqlite3")
    async with run_bot(emulator, bot):
        hosts = guild.add_role("Hosts")
        carol = guild.add_member("carol", roles=[hosts])
        bob.give_role(hosts)
        seen = bot.get_guild(guild.id)
        assert seen is not None
        await emulator.wait_until(
            lambda: seen.get_role(hosts.id) is not None, 5, lambda: "the new role"
        )
        assert seen.get_role(hosts.id).name == "Hosts"
        seen_roles: dict[str, list[int]] = {}

        @bot.tree.command(name="whoami", description="my roles")
        async def whoami(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.user, discord.Member)
            seen_roles[interaction.user.name] = [r.id for r in interaction.user.roles[1:]]
            await interaction.response.send_message("ok")

        await bot.tree.sync()
        for member in (alice, bob, carol):
            await (await member.slash("whoami")).reply()
        assert seen_roles == {
            "alice": [guild.manager_role.id],
            "bob": [hosts.id],
            "carol": [hosts.id],
        }
        guild.delete_role(hosts)
        await emulator.wait_until(
            lambda: seen.get_role(hosts.id) is None, 5, lambda: "the role gone"
        )
        await (await carol.slash("whoami")).reply()
        assert seen_roles["carol"] == []
        with pytest.raises(DriverError):
            carol.give_role(guild.everyone_role)
