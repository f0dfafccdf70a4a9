"""Floods, end to end: a member asking too often is told privately when to try again and nothing
else happens; a server asking for a crowd of pictures at once does not hold up another server's
board view, and what its line of heavy work cannot hold is refused politely.

The flooding server's pictures are held (their drawing waits on an event the test sets), so the
assertions are about who is answered and who waits, never about how long anything took."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Sequence
from typing import Any

from bot.app import GameNightBot
from bot.throttle import BOARD_VIEW_RATE, HEAVY_PER_SERVER, HINT_RATE, Lane
from emulator import Channel, Emulator, Guild, InteractionResult, Member
from tests.cogs.helpers import button_id, run_calls

RETRY = re.compile(r"<t:(\d+):R>")
HELD_FOR = 30.0  # the longest a held picture waits (the test releases it long before)


async def running_game(
    bot: GameNightBot, host: Member, channel: Channel, players: Sequence[Member]
) -> int:
    """A Lotería game in ``channel`` that ``players`` joined, started; its id."""
    lobby = await (await host.slash("loteria start", in_channel=channel, prizes="full")).reply()
    joins = [await player.click(lobby, button_id(lobby, "join")) for player in players]
    await asyncio.gather(*(join.reply(30) for join in joins))
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = [g for g in await bot.storage.live_games("loteria") if g.channel_id == channel.id]
    return game.id


def hold_pictures(bot: GameNightBot, guild: Guild) -> threading.Event:
    """Hold the drawing of every board of ``guild``'s games until the event returned is set: the
    jobs of its views stay in their slots for as long as the test needs."""
    cog: Any = bot.get_cog("Lotería")
    release = threading.Event()
    draw = cog.render_boards

    def held(game: Any, boards: Any, called: Any, locale: Any = None) -> Any:
        if game.guild_id == guild.id:
            release.wait(HELD_FOR)
        return draw(game, boards, called, locale)

    cog.render_boards = held
    return release


def refusals(bot: GameNightBot, reason: str) -> float | None:
    """``gamenight_flood_refusals_total{reason}`` as the operator's /metrics shows it."""
    return bot.metrics.registry.get_sample_value(
        "gamenight_flood_refusals_total", {"reason": reason}
    )


async def acknowledged(emulator: Emulator, result: InteractionResult) -> None:
    await emulator.wait_until(
        lambda: result.acknowledged or None, 10, lambda: f"{result.describe()} acknowledged"
    )


async def test_a_member_asking_too_often_is_told_when_to_try_again_and_nothing_is_drawn(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host, other = guild.add_member("host"), guild.add_member("other")
    bot = await start_bot(time_scale=100)
    game_id = await running_game(bot, host, channel, [host, other])
    await run_calls(bot.get_cog("Lotería"), game_id, 3)

    for _ in range(BOARD_VIEW_RATE.uses):
        shown = await (await host.slash("loteria tabla")).reply()
        assert shown.ephemeral
        assert len(shown.attachments) == 1
    asked_at = time.time()
    refused = await host.slash("loteria tabla")
    reply = await refused.reply()
    assert reply.ephemeral
    assert "Slow down" in reply.content
    retry = RETRY.search(reply.content)
    assert retry is not None, reply.content
    assert asked_at < int(retry[1]) <= asked_at + BOARD_VIEW_RATE.seconds + 1
    # Answered at once, and that is all: no "thinking...", no tabla drawn or sent.
    assert not refused.deferred
    assert not reply.attachments
    assert refused.followups == []
    assert not any(message.attachments for message in host.dms[1:])  # only the deal's DM
    assert refusals(bot, "cooldown") == 1

    # The cooldown is the member's: another player is answered as usual.
    theirs = await (await other.slash("loteria tabla")).reply()
    assert len(theirs.attachments) == 1


async def test_the_hint_button_has_a_cooldown_and_a_refused_press_counts_no_hint(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    alice = guild.add_member("alice")
    bot = await start_bot(time_scale=1, extensions=("cogs.triangle",))
    board = await (await alice.slash("triangle play", start=4)).reply()
    (game,) = await bot.storage.live_games("triangle")
    hint = f"gn:tri:hint:{game.id}"

    for _ in range(HINT_RATE.uses):
        answered = await (await alice.click(board, hint)).reply()
        assert "Jump **" in answered.content
    refused = await (await alice.click(board, hint)).reply()
    assert refused.ephemeral
    assert RETRY.search(refused.content), refused.content
    stored = await bot.storage.get_game(game.id)
    assert stored is not None
    assert stored.options["hints"] == HINT_RATE.uses


async def test_a_flood_in_one_server_does_not_hold_up_another_servers_board_view(
    emulator: Emulator, start_bot
):
    flooded = emulator.add_guild("Flooded")
    flooded_channel = flooded.add_channel("general")
    crowd = [flooded.add_member(f"f{number}") for number in range(8)]
    quiet = emulator.add_guild("Quiet")
    quiet_channel = quiet.add_channel("general")
    quiet_host = quiet.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")
    flooded_game = await running_game(bot, crowd[0], flooded_channel, crowd)
    await running_game(bot, quiet_host, quiet_channel, [quiet_host])

    release = hold_pictures(bot, flooded)
    try:
        flood = [await m.slash("loteria tabla", in_channel=flooded_channel) for m in crowd]
        for view in flood:
            await acknowledged(emulator, view)
        # Every view of the flood is acknowledged; none can be answered while its picture is
        # held. The other server's view is answered all the same.
        elsewhere = await quiet_host.slash("loteria tabla", in_channel=quiet_channel)
        answer = await elsewhere.reply(10)
        assert len(answer.attachments) == 1
        # The flood holds two slots of its server, the rest waits in its line.
        assert bot.heavy.running(flooded.id) == HEAVY_PER_SERVER
        assert bot.heavy.waiting(flooded.id, Lane.VIEW) == len(crowd) - HEAVY_PER_SERVER
        assert all(view.message is not None and view.message.loading for view in flood)
        # The flooded server's own game goes on: its call does not wait behind the views.
        await run_calls(cog, flooded_game, 1)
        await flooded_channel.wait_for_message(lambda m: "card 1 of 54" in m.content, timeout=10)
    finally:
        release.set()
    replies = await asyncio.gather(*(view.reply(30) for view in flood))
    assert all(len(reply.attachments) == 1 for reply in replies)
    assert bot.heavy.running() == 0


async def test_a_flood_beyond_its_servers_line_is_refused_politely(emulator: Emulator, start_bot):
    flooded = emulator.add_guild("Flooded")
    channel = flooded.add_channel("general")
    crowd = [flooded.add_member(f"f{number}") for number in range(7)]
    bot = await start_bot(time_scale=100)
    line = 3
    bot.heavy.waiting_limits[Lane.VIEW] = line  # a short line: a small crowd fills it
    await running_game(bot, crowd[0], channel, crowd)

    release = hold_pictures(bot, flooded)
    try:
        flood = []
        for member in crowd:  # one after another: who is served and who is refused is known
            view = await member.slash("loteria tabla", in_channel=channel)
            await acknowledged(emulator, view)
            flood.append(view)
        served, refused = flood[: HEAVY_PER_SERVER + line], flood[HEAVY_PER_SERVER + line :]
        assert len(refused) == 2
        for view in refused:
            reply = await view.reply()
            assert reply.ephemeral
            assert "try again in a few seconds" in reply.content
            assert not reply.attachments
            assert not view.deferred  # refused before any work: no "thinking..." first
        assert all(view.deferred for view in served)
        assert bot.heavy.refused[Lane.VIEW] == len(refused)
        assert refusals(bot, "server_busy") == len(refused)
        assert bot.heavy.waiting(flooded.id, Lane.VIEW) == line
    finally:
        release.set()
    replies = await asyncio.gather(*(view.reply(30) for view in served))
    assert all(len(reply.attachments) == 1 for reply in replies)
    assert all(view.followups == [] or not view.followups[0].attachments for view in refused)
