"""Dealing to a crowd under Discord's rate limits, and people doing what they should not."""

from __future__ import annotations

import asyncio
import itertools
import re

import pytest

from emulator import Emulator
from tests.cogs.helpers import button_id, run_calls

pytestmark = pytest.mark.backends()

CROWD = 40


@pytest.mark.emulator(rate_limits=True)
async def test_a_crowd_joining_at_once_is_dealt_under_rate_limits(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Big Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    crowd = [guild.add_member(f"p{i}", dms_open=i % 10 != 3) for i in range(CROWD)]
    bot = await start_bot()

    lobby = await (await host.slash("loteria start", prizes="line")).reply()
    joins = await asyncio.gather(*(m.click(lobby, button_id(lobby, "join")) for m in crowd))
    replies = await asyncio.gather(*(join.reply(30) for join in joins))
    assert all(reply.ephemeral for reply in replies)
    closed = [m for i, m in enumerate(crowd) if i % 10 == 3]
    assert len(emulator.take_failures("dm_closed")) == len(closed)

    # Nobody is left without a board: a DM, or the image in the private reply.
    (game,) = await bot.storage.live_games("loteria")
    for member, reply in zip(crowd, replies, strict=True):
        assert len(await bot.storage.boards(game.id, member.id)) == 1
        if member in closed:
            assert reply.attachments
        else:
            assert member.dms[0].attachments
    players = await bot.storage.players(game.id)
    assert sorted(p.seat for p in players) == list(range(CROWD))
    assert all(p.delivered for p in players)

    # The lobby shows the progress and settles on everyone dealt, edited at most every 2 s.
    await emulator.wait_until(
        lambda: f"dealt {CROWD} of {CROWD}" in channel.get_message(lobby.id).content or None,
        10,
        lambda: "the lobby to show everyone dealt",
    )
    edits = sorted(
        r.at
        for r in emulator.requests
        if r.method == "PATCH" and r.path.endswith(f"/messages/{lobby.id}")
    )
    assert edits
    assert all(b - a >= 1.9 for a, b in itertools.pairwise(edits))


async def test_abuse_gets_clear_answers_and_changes_nothing(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    alice = guild.add_member("alice")
    mallory = guild.add_member("mallory")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")

    bad = await (await host.slash("loteria start", prizes="banana, line")).reply()
    assert bad.ephemeral
    assert "'banana' is not a prize" in bad.content
    twice = await (await host.slash("loteria start", prizes="line, line")).reply()
    assert "once per game" in twice.content
    assert await bot.storage.live_games() == []

    # Two hosts start at the same moment: one lobby opens, the other is told why not.
    starts = await asyncio.gather(
        *(member.slash("loteria start", prizes="line, full") for member in (host, alice))
    )
    replies = [await start.reply() for start in starts]
    lobby = next(r for r in replies if not r.ephemeral)
    busy = next(r for r in replies if r.ephemeral)
    assert "already on in this channel" in busy.content
    assert lobby.custom_ids
    (game,) = await bot.storage.live_games()
    if game.host_id != host.id:
        host, alice = alice, host  # whoever won the race hosts

    # Starting with nobody in is refused; double clicks on Join deal one tabla.
    empty = await (await host.click(lobby, button_id(lobby, "start"))).reply()
    assert "Nobody has joined" in empty.content
    double = await asyncio.gather(*(alice.click(lobby, button_id(lobby, "join")) for _ in range(3)))
    answers = [(await d.reply()).content for d in double]
    assert sum("You're in" in a for a in answers) == 1
    # The repeats are told the board is theirs already, or still on its way to them.
    assert sum("already in this game" in a or "is on its way" in a for a in answers) == 2
    assert len(await bot.storage.boards(game.id, alice.id)) == 1
    assert len(alice.dms) == 1

    # Leaving and cancelling are for players and hosts only.
    not_in = await (await mallory.click(lobby, button_id(lobby, "leave"))).reply()
    assert "not in this game" in not_in.content
    cancel = await (await mallory.click(lobby, button_id(lobby, "cancel"))).reply()
    assert "Only the host" in cancel.content

    # Two Start clicks at once: one starts the game, the other is told it already has.
    starts = await asyncio.gather(*(host.click(lobby, button_id(lobby, "start")) for _ in range(2)))
    texts = sorted([(await s.reply()).content for s in starts])
    assert sum("is starting" in t for t in texts) == 1
    assert sum("already started" in t or "not in its lobby" in t for t in texts) == 1
    assert (await bot.storage.get_game(game.id)).status.value == "running"

    # Host controls refuse others, and refuse what makes no sense.
    for command in ("loteria pause", "loteria resume", "loteria stop"):
        refusal = await (await mallory.slash(command)).reply()
        assert refusal.ephemeral
        assert "Only the host" in refusal.content
    speed = await (await mallory.slash("loteria speed", seconds=10)).reply()
    assert "Only the host" in speed.content
    not_paused = await (await host.slash("loteria resume")).reply()
    assert "not paused" in not_paused.content
    paused = await (await host.slash("loteria pause")).reply()
    assert "paused" in paused.content
    assert not await cog.call_next(game.id), "no call while paused"
    assert await bot.storage.draws(game.id) == []
    await (await host.slash("loteria resume")).reply()
    await run_calls(cog, game.id, 3)

    # Verifying a game that is still on, or that does not exist.
    early = await (await mallory.slash("loteria verify", game=game.id)).reply()
    assert "still on" in early.content
    missing = await (await mallory.slash("loteria verify", game=999)).reply()
    assert "no Lotería game #999" in missing.content

    # A claim from a non-player is refused privately and records nothing.
    refused = await (await mallory.slash("loteria claim")).reply()
    assert refused.ephemeral
    assert await bot.storage.claims(game.id) == []
    assert re.search(r"card 3 of 54", channel.messages[-1].content)


async def test_a_bug_gets_an_apology_and_a_log_line_with_the_game(
    emulator: Emulator, start_bot, caplog: pytest.LogCaptureFixture, monkeypatch
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    (game,) = await bot.storage.live_games()

    async def broken(self, interaction):  # stands in for a bug: nothing real can be made to fail
        raise RuntimeError("boom")

    monkeypatch.setattr(type(bot.get_cog("Lotería")), "show_boards", broken)
    reply = await (await host.slash("loteria tabla")).reply()
    assert reply.ephemeral
    assert "Sorry, something went wrong" in reply.content
    assert "boom" not in reply.content
    # The log line follows the answer (finding the game asks the database).
    logged = await emulator.wait_until(
        lambda: [
            r for r in caplog.records if r.levelname == "ERROR" and "loteria tabla" in r.message
        ],
        5,
        lambda: "the error's log line",
    )
    assert f"game {game.id}" in logged[0].message
    assert f"of server {guild.id}" in logged[0].message
