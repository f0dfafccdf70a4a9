"""Lotería end to end: the real bot and cogs against the emulator and a real database (SQLite
and PostgreSQL)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Any, NamedTuple

import pytest

from bot.app import GameNightBot
from bot.storage import GameRow
from emulator import Emulator
from emulator.driver import Member
from emulator.model import Channel
from engine.fairness import commitment, draw_order
from engine.loteria import Pattern, Tabla, tablas_at
from tests.cogs.helpers import button_id, first_completion, grace_over, run_calls
from tests.raw_sql import raw_execute

pytestmark = pytest.mark.backends()

PLAYERS = 22
CLOSED_DMS = {3, 11, 19}


def completion_calls(seed: bytes, players: int, pattern: Pattern) -> list[int]:
    """For each deal position, the call at which its tabla first completes ``pattern``."""
    order = draw_order(seed, 54)
    result = []
    for tabla in tablas_at(seed, 0, players):
        marks = [tabla.marks(order[:n]) for n in range(1, 55)]
        found = first_completion(pattern.masks, marks)
        assert found is not None
        result.append(found)
    return result


def seed_with_a_shared_line() -> bytes:
    """A seed whose first LINE is completed by two players on the same call."""
    for counter in range(5000):
        seed = counter.to_bytes(32, "big")
        lines = completion_calls(seed, PLAYERS, Pattern.LINE)
        if lines.count(min(lines)) >= 2:
            return seed
    raise AssertionError("no seed with a shared line")


async def test_a_full_loteria_night(emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch):
    seed = seed_with_a_shared_line()
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    other_channel = guild.add_channel("random")
    host = guild.add_member("host")
    members = [
        guild.add_member(f"player{i}", dms_open=i not in CLOSED_DMS) for i in range(PLAYERS - 1)
    ]
    players = [host, *members]
    outsider = guild.add_member("outsider")
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Lotería")

    lobby = await (await host.slash("loteria start", prizes="line, corners, full")).reply()
    assert commitment(seed) in lobby.content
    assert "Line" in lobby.content

    # Claims before the start are refused privately.
    early = await (await host.slash("loteria claim")).reply()
    assert early.ephemeral
    assert "not started" in early.content

    # Everyone joins; closed DMs get the tabla in the private reply instead.
    for index, member in enumerate(players):
        reply = await (await member.click(lobby, button_id(lobby, "join"))).reply()
        assert reply.ephemeral
        if index - 1 in CLOSED_DMS:
            assert reply.attachments
            assert "couldn't DM you" in reply.content
        else:
            assert "Check your DMs" in reply.content
            (dm,) = member.dms
            attachment = dm.attachments[0]
            assert attachment.data.startswith(b"\x89PNG")
            assert attachment.description  # alt text
    assert len(emulator.take_failures("dm_closed")) == len(CLOSED_DMS)
    again = await (await members[0].click(lobby, button_id(lobby, "join"))).reply()
    assert "already" in again.content

    (game,) = await bot.storage.live_games("loteria")
    boards = {
        p.id: Tabla.from_state((await bot.storage.boards(game.id, p.id))[0].state) for p in players
    }
    assert len({t.card_mask for t in boards.values()}) == PLAYERS
    assert [boards[p.id] for p in players] == tablas_at(seed, 0, PLAYERS)

    # Only the host (or Manage Server) starts and stops.
    refused = await (await members[0].click(lobby, button_id(lobby, "start"))).reply()
    assert refused.ephemeral
    assert "Only the host" in refused.content
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    late = await (await outsider.click(lobby, button_id(lobby, "join"))).reply()
    assert "joins are closed" in late.content
    stop = await (await members[1].slash("loteria stop")).reply()
    assert "Only the host" in stop.content

    lines = completion_calls(seed, PLAYERS, Pattern.LINE)
    first_line = min(lines)
    winners = [players[i] for i, call in enumerate(lines) if call == first_line]
    cheater = next(p for i, p in enumerate(players) if lines[i] > first_line + 2)
    await run_calls(cog, game.id, first_line - 1)

    # A player sees their own tabla with the calls so far marked, privately.
    shown = await (await winners[0].slash("loteria tabla")).reply()
    assert shown.ephemeral
    assert f"{first_line - 1} calls so far" in shown.content
    assert "Marked" in shown.attachments[0].description

    # A false claim is public; the second takes the player out.
    first_false = await (await cheater.slash("loteria claim", pattern="line")).reply()
    assert "False claim" in first_false.content
    assert not first_false.ephemeral
    second_false = await (await cheater.slash("loteria claim")).reply()
    assert "out of the game" in second_false.content
    third = await (await cheater.slash("loteria claim")).reply()
    assert third.ephemeral
    assert "out of this game" in third.content

    # Claims from a non-player and from another channel are refused privately.
    stranger = await (await outsider.slash("loteria claim")).reply()
    assert stranger.ephemeral
    assert "not playing" in stranger.content
    elsewhere = await (await winners[0].slash("loteria claim", in_channel=other_channel)).reply()
    assert elsewhere.ephemeral
    assert "no Lotería game in this channel" in elsewhere.content

    # The card that completes two lines: both claim, one by button, one by command; they share.
    await run_calls(cog, game.id, 1)
    call_message = channel.messages[-1]
    assert f"card {first_line} of 54" in call_message.content
    # Both claim at the same moment, one by the button, one by the command.
    win_click, shared_claim = await asyncio.gather(
        winners[0].click(call_message, button_id(call_message, "claim")),
        winners[1].slash("loteria claim", pattern="line"),
    )
    results = sorted([(await win_click.reply()).content, (await shared_claim.reply()).content])
    assert sum("sharing the prize" in r for r in results) == 1
    assert all("wins on call" in r for r in results)
    win = await win_click.reply()
    assert win.attachments, "the winning tabla is shown"
    double = await (await winners[0].slash("loteria claim", pattern="line")).reply()
    assert "already won" in double.content
    recorded = await bot.storage.winners(game.id)
    assert {(w.prize, w.user_id, w.step) for w in recorded} == {
        ("line", winners[0].id, first_line),
        ("line", winners[1].id, first_line),
    }

    # Corners, then the full tabla, each claimed as soon as someone completes it.
    for pattern in (Pattern.CORNERS, Pattern.FULL):
        calls = completion_calls(seed, PLAYERS, pattern)
        eligible = [(c, i) for i, c in enumerate(calls) if players[i] is not cheater]
        target, who = min(eligible)
        done = len(await bot.storage.draws(game.id))
        await run_calls(cog, game.id, max(0, target - done))
        result = await (await players[who].slash("loteria claim", pattern=pattern.value)).reply()
        assert "wins on call" in result.content, result.content

    # No prize is left: once the grace is over, the caller's tick ends the game and reveals
    # the seed.
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)
    summary = channel.messages[-1]
    assert seed.hex() in summary.content
    assert "is over" in summary.content
    # The summary carries one picture of the winners' tablas, named and described.
    picture, replay = summary.attachments
    assert replay.filename.endswith(".gif")
    assert picture.filename == f"results-{game.id}.png"
    assert picture.data.startswith(b"\x89PNG")
    names = {member.id: member.name for member in players}
    for member in winners:
        assert f"Line (Chorro), shared: {member.name}, on call {first_line} (" in (
            picture.description
        )
    for won in await bot.storage.winners(game.id):
        assert f"{names[won.user_id]}, on call {won.step} (" in picture.description
    over = await (await winners[0].slash("loteria claim", in_channel=channel)).reply()
    assert "no Lotería game" in over.content
    stale = await (await winners[0].click(call_message, button_id(call_message, "claim"))).reply()
    assert stale.ephemeral
    assert "is over" in stale.content

    # Every announcement in order, matching the seed: no duplicate, no gap.
    announced = [
        int(match[1])
        for m in channel.messages
        if (match := re.search(r"card (\d+) of 54", m.content))
    ]
    draws = await bot.storage.draws(game.id)
    assert announced == list(range(1, len(draws) + 1))
    assert [d.value for d in draws] == list(draw_order(seed, 54)[: len(draws)])

    verified = await (await outsider.slash("loteria verify", game=game.id)).reply()
    assert "verified" in verified.content
    assert commitment(seed) in verified.content

    # A tabla edited behind the bot's back is caught.
    swapped = Tabla(boards[winners[0].id].numbers[::-1]).to_state()
    await raw_execute(
        bot.settings.database,
        "UPDATE boards SET state = ? WHERE game_id = ? AND user_id = ?",
        swapped,
        game.id,
        winners[0].id,
    )
    tampered = await (await outsider.slash("loteria verify", game=game.id)).reply()
    assert "FAILED" in tampered.content
    assert f"<@{winners[0].id}> does not match the seed" in tampered.content

    stats = await (await outsider.slash("stats")).reply()
    assert winners[0].mention in stats.content or str(winners[0].id) in stats.content


class StartedGame(NamedTuple):
    """A Lotería game for centre then square, started by six players, its calls left to the test."""

    seed: bytes
    channel: Channel
    players: list[Member]
    bot: GameNightBot
    cog: Any
    game: GameRow


async def start_centre_and_square(emulator: Emulator, start_bot) -> StartedGame:
    """Six players join a lobby for ``centre, square`` on a known seed; the first starts it."""
    seed = bytes(range(7, 39))
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    players = [guild.add_member(f"p{i}") for i in range(6)]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    lobby = await (await players[0].slash("loteria start", prizes="centre, square")).reply()
    for member in players:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await players[0].click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    return StartedGame(seed, channel, players, bot, bot.get_cog("Lotería"), game)


async def test_centre_and_square_prizes(emulator: Emulator, start_bot):
    seed, _, players, bot, cog, game = await start_centre_and_square(emulator, start_bot)
    for pattern in (Pattern.CENTRE, Pattern.SQUARE):
        calls = completion_calls(seed, len(players), pattern)
        target = min(calls)
        who = players[calls.index(target)]
        done = len(await bot.storage.draws(game.id))
        await run_calls(cog, game.id, max(0, target - done))
        result = await (await who.slash("loteria claim", pattern=pattern.value)).reply()
        assert "wins on call" in result.content, result.content
    assert [w.prize for w in await bot.storage.winners(game.id)] == ["centre", "square"]


async def test_a_lobby_keeps_its_dealer_until_it_closes(emulator: Emulator, start_bot):
    # Each join deals on from the lobby's dealer; cancelling or stopping the lobby drops it.
    guild = emulator.add_guild("Game Night")
    channels = [guild.add_channel(name) for name in ("cancelled", "stopped")]
    host, guest = guild.add_member("host"), guild.add_member("guest")
    bot = await start_bot()
    cog = bot.get_cog("Lotería")
    lobbies = []
    for channel in channels:
        lobby = await (await host.slash("loteria start", in_channel=channel)).reply()
        for member in (host, guest):
            await (await member.click(lobby, button_id(lobby, "join"))).reply()
        lobbies.append(lobby)
    cancelled, stopped = sorted(game.id for game in await bot.storage.live_games("loteria"))
    assert cog.dealers[cancelled].position == cog.dealers[stopped].position == 2
    for game_id in (cancelled, stopped):
        seed = (await bot.storage.get_game(game_id)).seed
        boards = [(await bot.storage.boards(game_id, m.id))[0] for m in (host, guest)]
        assert [Tabla.from_state(b.state) for b in boards] == tablas_at(seed, 0, 2)

    await (await host.click(lobbies[0], button_id(lobbies[0], "cancel"))).reply()
    assert set(cog.dealers) == {stopped}
    stop = await (await host.slash("loteria stop", in_channel=channels[1])).reply()
    assert "stopped" in stop.content
    # The game ends just after the answer, revealing its seed: by then its dealer is gone too.
    revealed = (await bot.storage.get_game(stopped)).seed.hex()
    await emulator.wait_until(
        lambda: any(revealed in m.content for m in channels[1].messages) or None,
        10,
        lambda: "the stopped game's end",
    )
    assert cog.dealers == {}


async def test_each_call_posts_the_picture_drawn_for_it_ahead_or_not(emulator: Emulator, start_bot):
    """Once a call is posted, the next one's picture is drawn in the interval's slack; the call
    then posts exactly what drawing it at its turn gives, and words the prize played for as the
    game stands when it is posted (a win in between moves it on)."""
    seed, channel, players, bot, cog, game = await start_centre_and_square(emulator, start_bot)
    centre = completion_calls(seed, len(players), Pattern.CENTRE)
    winner = players[centre.index(min(centre))]
    draw_call, drawn = cog.render_call, []

    def counted(*args):  # (the real drawing, counted)
        drawn.append(args[2])
        return draw_call(*args)

    cog.render_call = counted
    calls = min(centre) + 2
    for seq in range(1, calls + 1):
        await run_calls(cog, game.id, 1)
        if seq == min(centre):
            result = await (await winner.slash("loteria claim", pattern="centre")).reply()
            assert "wins on call" in result.content
        (posted,) = [m for m in channel.messages if f"card {seq} of 54" in m.content]
        stored = await bot.storage.get_game(game.id)
        parts = stored.state.split("/")  # seed/deck/prizes/drawn/prize played for
        at_call = "/".join([*parts[:3], str(seq), parts[4]])
        value = draw_order(seed, 54)[seq - 1]
        _, pictures = draw_call(dataclasses.replace(stored, state=at_call), value, seq)
        assert [a.data for a in posted.attachments] == [p.png for p in pictures]
        prize = "Square" if seq > min(centre) else "Centre"
        assert f"playing for **{prize} (" in posted.content
        upcoming = cog.live_game(game.id).upcoming
        assert upcoming is not None
        assert upcoming[0][0] == seq + 1  # the next one, drawn ahead
    # Each call drawn once, ahead of its turn; only the first (drawn at its turn, and maybe
    # ahead at the start on a busy machine, before the boards are out) and the one after the win
    # (drawn again if it was drawn ahead before the win moved the game on) may be drawn twice.
    twice_at_most = {1, min(centre) + 1}
    for seq in range(1, calls + 1):
        assert 1 <= drawn.count(seq) <= (2 if seq in twice_at_most else 1), (seq, drawn)
    assert drawn.count(calls + 1) <= 1  # the one to come: its drawing may still be under way
    assert set(drawn) <= set(range(1, calls + 2))
