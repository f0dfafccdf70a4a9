"""The invite link: the scopes, and exactly the permissions the bot's checks require (one list in
``bot.permissions``), enough to play every game where only they are granted."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot.ops.invite import NoClientIdError, client_id_from_token, invite_url
from bot.permissions import (
    CHANNEL_PERMISSIONS,
    EVENT_PERMISSIONS,
    INVITE_PERMISSIONS,
    THREAD_PERMISSIONS,
    VOICE_PERMISSIONS,
    can_create_events,
    invite_permissions,
    missing_permissions,
    needed_in,
)
from emulator import Emulator
from tests.bot.test_startup import ROOT
from tests.cogs.helpers import button_id, run_calls

A_THREAD = discord.Thread.__new__(discord.Thread)  # only its type matters to the checks
A_TEXT_CHANNEL = discord.TextChannel.__new__(discord.TextChannel)


def token_for(user_id: int) -> str:
    head = base64.b64encode(str(user_id).encode()).decode().rstrip("=")
    return f"{head}.GkZ9aB.the-secret-part-of-the-token"


def bits(names: set[str] | tuple[str, ...]) -> int:
    return discord.Permissions(**dict.fromkeys(names, True)).value


# -- the bits ------------------------------------------------------------------------------------


def can_speak(granted: discord.Permissions) -> bool:
    """The check before a game joins a voice channel (``Voices.join``)."""
    return all(getattr(granted, name) for name in VOICE_PERMISSIONS)


def test_the_invite_asks_for_exactly_what_the_checks_require():
    required = set(needed_in(A_TEXT_CHANNEL)) | set(needed_in(A_THREAD)) | {"create_events"}
    required |= {"connect", "speak"}
    assert invite_permissions().value == bits(required)
    assert set(INVITE_PERMISSIONS) == (
        set(CHANNEL_PERMISSIONS)
        | set(THREAD_PERMISSIONS)
        | set(EVENT_PERMISSIONS)
        | set(VOICE_PERMISSIONS)
    )
    assert can_create_events(invite_permissions())
    # Enough for a game in a channel and in a thread, its calls spoken in a voice channel...
    assert missing_permissions(invite_permissions(), A_TEXT_CHANNEL) == []
    assert missing_permissions(invite_permissions(), A_THREAD) == []
    assert can_speak(invite_permissions())
    # ...and nothing spare: without any one of its bits, some check refuses.
    for name in INVITE_PERMISSIONS:
        fewer = discord.Permissions(invite_permissions().value)
        setattr(fewer, name, False)
        refused = missing_permissions(fewer, A_TEXT_CHANNEL) + missing_permissions(fewer, A_THREAD)
        assert refused or not can_create_events(fewer) or not can_speak(fewer)


def test_the_invite_bits_are_discords_values():
    # View Channel 1 << 10, Send Messages 1 << 11, Attach Files 1 << 15, Connect 1 << 20,
    # Speak 1 << 21, Send Messages in Threads 1 << 38, Create Events 1 << 44 (Discord's
    # permission table).
    assert invite_permissions().value == (
        (1 << 10) | (1 << 11) | (1 << 15) | (1 << 20) | (1 << 21) | (1 << 38) | (1 << 44)
    )
    assert invite_permissions().value == 17867067132928


# -- the link ------------------------------------------------------------------------------------


def test_the_url_has_discords_shape():
    url = urlsplit(invite_url(1045678901234567890))
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    assert parse_qs(url.query, strict_parsing=True) == {
        "client_id": ["1045678901234567890"],
        "scope": ["bot applications.commands"],
        "permissions": [str(invite_permissions().value)],
    }
    with_server = parse_qs(urlsplit(invite_url(5, guild_id=77)).query)
    assert with_server["guild_id"] == ["77"]


@pytest.mark.parametrize("user_id", [1, 80351110224678912, 1045678901234567890, 2**64 - 1])
def test_the_client_id_is_the_bot_id_at_the_head_of_its_token(user_id: int):
    assert client_id_from_token(token_for(user_id)) == user_id


def test_a_real_looking_token_head():
    # Discord's documented example id 80351110224678912 encodes as this first segment.
    assert client_id_from_token("ODAzNTExMTAyMjQ2Nzg5MTI.Gx.secret") == 80351110224678912


@pytest.mark.parametrize(
    "token", ["", "emulator.bot.token", "not a token", "bm90LWRpZ2l0cw.x.y", "%%%.x.y"]
)
def test_a_token_without_an_id_asks_for_the_client_id(token: str):
    with pytest.raises(NoClientIdError, match="--client-id"):
        client_id_from_token(token)


def run_invite(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "invite", *args],
        cwd=cwd,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_gamenight_invite_prints_the_link_alone_on_stdout(tmp_path: Path):
    token = token_for(1045678901234567890)
    result = run_invite([], {"DISCORD_TOKEN": token}, tmp_path)
    assert result.returncode == 0
    assert result.stdout == invite_url(1045678901234567890) + "\n"
    assert (
        "View Channel, Send Messages, Attach Files, Send Messages in Threads, Create Events, "
        "Connect, Speak (permissions=17867067132928)"
    ) in result.stderr
    assert "the-secret-part" not in result.stdout + result.stderr
    # .env works as for the bot, and --client-id wins over the token.
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={token}\n")
    chosen = run_invite(["--client-id", "42", "--guild-id", "7"], {}, tmp_path)
    assert chosen.stdout == invite_url(42, guild_id=7) + "\n"


def test_gamenight_invite_without_a_client_id_says_where_to_find_it(tmp_path: Path):
    result = run_invite([], {}, tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "--client-id" in result.stderr
    assert "General Information" in result.stderr
    odd = run_invite([], {"DISCORD_TOKEN": "pasted-the-client-secret"}, tmp_path)
    assert odd.returncode == 2
    assert "does not look like a bot token" in odd.stderr
    assert "pasted-the-client-secret" not in odd.stderr


# -- in a server that grants only them -----------------------------------------------------------


async def test_every_game_plays_with_only_the_invites_permissions(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    # Discord gives the bot @everyone's permissions too: here @everyone grants nothing, so the
    # bot has exactly the invite's bits (its managed role's).
    guild.everyone_role.permissions = 0
    guild.bot_role.permissions = invite_permissions().value
    channel = guild.add_channel("general")
    # What the bot holds in a text channel: the invite's bits, no more.
    assert int(channel.bot_permissions()) == invite_permissions().value
    host, player = guild.add_member("host"), guild.add_member("player")
    bot = await start_bot(time_scale=100)

    # A calling game from lobby to verification.
    lobby = await (await host.slash("loteria start")).reply()
    for member in (host, player):
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(bot.get_cog("Lotería"), game.id, 3)
    assert "3 calls so far" in (await (await player.slash("loteria tabla")).reply()).content
    claimed = await (await player.slash("loteria claim")).reply()
    assert "False claim" in claimed.content
    await (await host.slash("loteria stop")).reply()
    await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)
    verified = await (await player.slash("loteria verify", game=game.id)).reply()
    assert "verified" in verified.content

    # The table games: their boards are buttons, pictures and edits of the bot's own messages.
    board = await (await host.slash("tictactoe play", level="easy")).reply()
    await (await host.click(board, board.custom_ids[4])).reply()
    await (await host.slash("tictactoe resign")).reply()
    dots = await (await host.slash("dots play", rows=2, columns=2)).reply()
    assert dots.attachments
    await (await host.slash("dots move", line="A1-B1")).reply()
    await (await host.slash("dots resign")).reply()
    triangle = await (await player.slash("triangle play")).reply()
    await (
        await player.click(triangle, next(c for c in triangle.custom_ids if ":hint:" in c))
    ).reply()
    await (await player.slash("triangle quit")).reply()
    solved = await (await player.slash("triangle solve", start=0)).reply()
    assert solved.attachments

    posted = [m for m in channel.messages if m.author.bot and not m.ephemeral_for]
    assert any(m.attachments for m in posted), "pictures were posted with Attach Files"
    assert emulator.take_failures() == [], "no request needed a permission the invite lacks"
