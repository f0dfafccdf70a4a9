"""Bingo end to end: the real bot and cogs against the emulator and a real database (SQLite and
PostgreSQL): patterns played in sequence, false claims, the slept rule, a restart mid-game, the
start command's patterns refused privately."""

from __future__ import annotations

import re

import pytest

from bot.call_names import nickname
from emulator import Emulator
from engine.bingo import HIGHEST_NUMBER, Card, call_name, cards_at, check_claim, pattern_named
from engine.fairness import commitment, draw_order
from tests.cogs.helpers import button_id, grace_over, run_calls

pytestmark = pytest.mark.backends()

# A call: its name, its nickname (classic calls, the default) and its number in the game.
CALL = re.compile(r"🎱 \*\*([BINGO]-\d+)\*\*(?: · \*([^*]+)\*)? · number (\d+) of 75")


def completion_calls(seed: bytes, players: int, code: str) -> list[int]:
    """For each deal position, the call at which its card first completes pattern ``code``."""
    order = draw_order(seed, HIGHEST_NUMBER)
    pattern = pattern_named(code)
    return [
        next(n for n in range(1, HIGHEST_NUMBER + 1) if check_claim(card, order[:n], pattern).valid)
        for card in cards_at(seed, 0, players)
    ]


def announced(channel) -> list[tuple[str, int]]:
    return [
        (match[1], int(match[3])) for m in channel.messages if (match := CALL.search(m.content))
    ]


async def open_game(host, players, lobby_options, bot):
    lobby = await (await host.slash("bingo start", **lobby_options)).reply()
    for member in players:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("bingo")
    return lobby, game


async def test_a_bingo_night_of_two_patterns_in_sequence(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    seed = bytes(range(32))
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    players = [host, *(guild.add_member(f"player{i}") for i in range(5))]
    outsider = guild.add_member("outsider")
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Bingo")

    lobby = await (await host.slash("bingo start", patterns="line, x")).reply()
    assert not lobby.ephemeral
    assert commitment(seed) in lobby.content
    assert "Patterns: **Any line → X**" in lobby.content
    # The lobby shows the patterns to be played, in order, each a small picture.
    assert [a.filename for a in lobby.attachments] == [
        "bingo-pattern-line.png",
        "bingo-pattern-x.png",
    ]
    assert all(a.data.startswith(b"\x89PNG") for a in lobby.attachments)
    assert lobby.attachments[0].description.startswith("Bingo pattern Any line: row 1: B, I, N")

    # Each player's card comes by DM as a picture, its alt text the numbers by column.
    for member in players:
        reply = await (await member.click(lobby, button_id(lobby, "join"))).reply()
        assert reply.ephemeral
        assert "Check your DMs" in reply.content
    cards = cards_at(seed, 0, len(players))
    (game,) = await bot.storage.live_games("bingo")
    for member, card in zip(players, cards, strict=True):
        (dm,) = member.dms
        (picture,) = dm.attachments
        assert picture.data.startswith(b"\x89PNG")
        columns = "; ".join(
            f"{letter}: " + ", ".join("free" if n == 0 else str(n) for n in column)
            for letter, column in zip("BINGO", card.columns, strict=True)
        )
        assert columns in picture.description
        stored = (await bot.storage.boards(game.id, member.id))[0]
        assert Card.from_state(stored.state) == card
    # The lobby's edits (players joining) keep its pictures.
    await emulator.wait_until(
        lambda: "dealt 6 of 6" in channel.get_message(lobby.id).content or None,
        10,
        lambda: "the lobby's progress",
    )
    assert len(channel.get_message(lobby.id).attachments) == 2

    await (await host.click(lobby, button_id(lobby, "start"))).reply()

    lines = completion_calls(seed, len(players), "line")
    first_line = min(lines)
    line_winner = players[lines.index(first_line)]
    cheater = next(p for i, p in enumerate(players) if lines[i] > first_line + 1)
    await run_calls(cog, game.id, first_line)

    # The calls are posted as "B-7", a picture each, in the seed's order; the caller's board
    # comes with every tenth.
    order = draw_order(seed, HIGHEST_NUMBER)
    assert announced(channel) == [(call_name(order[n]), n + 1) for n in range(first_line)]
    first = next(m for m in channel.messages if CALL.search(m.content))
    assert "playing for **Any line**" in first.content
    # Classic calls (the start command's default): each number with its traditional nickname,
    # in the text and on the picture.
    named = f"{call_name(order[0])}, “{nickname(order[0])}”"
    assert f"**{call_name(order[0])}** · *{nickname(order[0])}* · number 1" in first.content
    assert first.attachments[0].description.startswith(f"Bingo call 1 of 75: {named}.")
    if first_line >= 10:
        tenth = next(m for m in channel.messages if "number 10 of 75" in m.content)
        assert [a.filename for a in tenth.attachments][1] == "bingo-board-10.png"

    # The caller's board, asked for: public, the calls seen so far.
    board = await (await outsider.slash("bingo board")).reply()
    assert not board.ephemeral
    assert f"{first_line} numbers called so far" in board.content
    assert f"latest {call_name(order[first_line - 1])}" in board.attachments[0].description

    # A false claim is public and says why; the second takes the player out.
    false = await (await cheater.slash("bingo claim")).reply()
    assert not false.ephemeral
    assert "False claim" in false.content
    assert "the card does not complete Any line" in false.content
    second = await (await cheater.slash("bingo claim", pattern="line")).reply()
    assert "out of the game" in second.content
    third = await (await cheater.slash("bingo claim")).reply()
    assert third.ephemeral
    assert "out of this game" in third.content

    # The line, claimed by the call's BINGO! button: won, with the winning card shown.
    last_call = next(m for m in reversed(channel.messages) if CALL.search(m.content))
    win = await (await line_winner.click(last_call, button_id(last_call, "claim"))).reply()
    assert f"wins on call {first_line}" in win.content
    assert "Any line" in win.content
    assert "Winning Any line, outlined" in win.attachments[0].description
    # A claim names the pattern played now (X), or the line, shared while its call is the last.
    offered = await host.autocomplete("bingo claim", "pattern", "")
    assert [(c["name"], c["value"]) for c in offered] == [("Any line", "line"), ("X", "x")]

    # Then the X, played next, claimed by command as soon as someone completes it.
    crosses = completion_calls(seed, len(players), "x")
    eligible = [(c, i) for i, c in enumerate(crosses) if players[i] is not cheater]
    target, who = min(eligible)
    done = len(await bot.storage.draws(game.id))
    await run_calls(cog, game.id, max(0, target - done))
    won = await (await players[who].slash("bingo claim", pattern="x")).reply()
    assert "wins on call" in won.content, won.content
    recorded = await bot.storage.winners(game.id)
    assert [(w.prize, w.user_id) for w in recorded] == [
        ("line", line_winner.id),
        ("x", players[who].id),
    ]

    # Nothing left to play: the game ends on the caller's next tick, on its end picture.
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)
    summary = channel.messages[-1]
    assert seed.hex() in summary.content
    assert "is over" in summary.content
    # Its end picture, and the replay of the calls on the caller's board.
    picture, replay = summary.attachments
    assert picture.filename == f"results-{game.id}.png"
    assert replay.filename.endswith(".gif")
    assert replay.data.startswith(b"GIF8")
    assert f"Any line: {line_winner.name}, card {lines.index(first_line) + 1}, on call" in (
        picture.description
    )

    verified = await (await outsider.slash("bingo verify", game=game.id)).reply()
    assert "verified" in verified.content
    assert commitment(seed) in verified.content
    stats = await (await outsider.slash("stats")).reply()
    assert str(line_winner.id) in stats.content or line_winner.mention in stats.content


def seed_with_a_sleeper() -> tuple[bytes, int, int]:
    """A seed, a deal position among 3 and a call: that card completes a line on that call, and
    the next call does not complete another line on it (so a claim one call late slept)."""
    for counter in range(1000):
        seed = counter.to_bytes(32, "big")
        order = draw_order(seed, HIGHEST_NUMBER)
        lines = completion_calls(seed, 3, "line")
        position = lines.index(min(lines))
        card = cards_at(seed, position, 1)[0]
        late = order[: min(lines) + 1]
        if not check_claim(card, late, pattern_named("line"), require_last=True).valid:
            return seed, position, min(lines)
    raise AssertionError("no seed with a sleeper")


async def test_the_slept_rule_refuses_a_win_claimed_a_call_late(emulator: Emulator, start_bot):
    seed, position, line_at = seed_with_a_sleeper()
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    players = [guild.add_member(f"p{i}") for i in range(3)]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Bingo")
    lobby, game = await open_game(
        players[0], players, {"patterns": "line", "slept_rule": True, "calls": "plain"}, bot
    )
    assert "Patterns: **Any line**" in lobby.content
    await run_calls(cog, game.id, line_at + 1)
    # Plain calls: the numbers without their nicknames, in the text and on the picture.
    calls = [m for m in guild.channels[0].messages if CALL.search(m.content)]
    assert len(calls) == line_at + 1
    assert all(CALL.search(m.content)[2] is None for m in calls)
    assert all("“" not in m.attachments[0].description for m in calls)
    sleeper = players[position]
    late = await (await sleeper.slash("bingo claim")).reply()
    assert "False claim" in late.content
    last = call_name(draw_order(seed, HIGHEST_NUMBER)[line_at])
    assert f"the pattern does not include the last number called ({last})" in late.content
    assert await bot.storage.winners(game.id) == []


async def test_a_restart_mid_game_goes_on_with_the_same_cards(emulator: Emulator, start_bot):
    seed = bytes(range(3, 35))
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    players = [guild.add_member(f"p{i}") for i in range(3)]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    _, game = await open_game(players[0], players, {"patterns": "corners, blackout"}, bot)
    await run_calls(bot.get_cog("Bingo"), game.id, 12)
    before = {p.id: (await bot.storage.boards(game.id, p.id))[0].state for p in players}
    shown = await (await players[1].slash("bingo card")).reply()
    await bot.stop_for_test()

    bot = await start_bot(time_scale=0.02, seed_source=lambda: seed)
    # The caller picks up where it stopped: no call twice, none skipped, the seed's order.
    await emulator.wait_until(
        lambda: len(announced(channel)) >= 17 or None, 30, lambda: "five calls more"
    )
    await (await players[0].slash("bingo pause")).reply()
    order = draw_order(seed, HIGHEST_NUMBER)
    calls = announced(channel)
    assert calls == [(call_name(order[n]), n + 1) for n in range(len(calls))]
    after = {p.id: (await bot.storage.boards(game.id, p.id))[0].state for p in players}
    assert after == before
    again = await (await players[1].slash("bingo card")).reply()
    # The same card, with more numbers daubed.
    head = shown.attachments[0].description.split(" Playing for")[0]
    assert again.attachments[0].description.startswith(head)
    assert "Marked" in again.attachments[0].description
    assert int(re.search(r"(\d+) calls so far", again.content)[1]) >= 17


async def test_wrong_patterns_are_refused_privately_naming_the_codes(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    await start_bot(time_scale=100)

    unknown = await (await host.slash("bingo start", patterns="line, zigzag")).reply()
    assert unknown.ephemeral
    assert "'zigzag' is not a pattern" in unknown.content
    for code in ("`line`", "`x`", "`blackout`", "`small_diamond`", "`any_h`"):
        assert code in unknown.content
    twice = await (await host.slash("bingo start", patterns="line, x, LINE")).reply()
    assert twice.ephemeral
    assert "once per game" in twice.content
    assert "`line`" in twice.content
    empty = await (await host.slash("bingo start", patterns=" , ")).reply()
    assert empty.ephemeral
    assert "at least one pattern" in empty.content
    assert not [m for m in channel.messages if not m.ephemeral]

    # The codes are offered while they are typed.
    offered = await host.autocomplete("bingo start", "patterns", "line, any_")
    assert [c["value"] for c in offered] == [
        "line, any_stamp",
        "line, any_t",
        "line, any_l",
        "line, any_h",
    ]
    plans = await host.autocomplete("bingo start", "patterns", "")
    assert {"name": "line, blackout", "value": "line, blackout"} in plans

    # A good list opens the lobby, in order.
    lobby = await (await host.slash("bingo start", patterns="blackout > stamp")).reply()
    assert "Patterns: **Blackout → Postage stamp**" in lobby.content


async def test_a_spanish_server_plays_bingo_in_spanish(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Noche de juegos", locale="es-ES")
    channel = guild.add_channel("general")
    players = [guild.add_member(f"p{i}", locale="es-ES") for i in range(2)]
    bot = await start_bot(time_scale=100)
    lobby, game = await open_game(players[0], players, {"patterns": "x"}, bot)
    assert "Figuras: **Equis**" in lobby.content
    # The lobby's progress agrees with the game's boards: cartones repartidos.
    await emulator.wait_until(
        lambda: "(repartidos 2 de 2)" in channel.get_message(lobby.id).content or None,
        10,
        lambda: channel.get_message(lobby.id).content,
    )
    assert lobby.attachments[0].description.startswith("Patrón de bingo Equis")
    await run_calls(bot.get_cog("Bingo"), game.id, 1)
    call = channel.messages[-1]
    (called, *_) = bot.get_cog("Bingo").called(await bot.storage.get_game(game.id))
    assert f"🎱 **{call_name(called)}** · *{nickname(called, 'es-ES')}* · número 1 de 75" in (
        call.content
    )
    assert re.search(r"número 1 de 75 · se juega \*\*Equis\*\*", call.content)
    assert "¡BINGO!" in str(call.buttons)
    false = await (await players[1].slash("bingo claim")).reply()
    assert "el cartón no completa Equis" in false.content


async def test_a_planned_night_plays_the_servers_patterns(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    other = guild.add_channel("other")
    manager = guild.add_member("manager", manage_guild=True)
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Bingo")

    # The server's default patterns, checked as the start command checks its own.
    wrong = await (
        await manager.slash("gamenight settings", game="bingo", prizes="corners, zigzag")
    ).reply()
    assert wrong.ephemeral
    assert "'zigzag' is not a pattern" in wrong.content
    chosen = await (
        await manager.slash("gamenight settings", game="bingo", prizes="Corners > X")
    ).reply()
    assert "Four corners → X" in chosen.content
    offered = await manager.autocomplete(
        "gamenight settings", "prizes", "corners, x, bl", game="bingo"
    )
    assert [c["value"] for c in offered] == ["corners, x, blackout"]

    # A start with no patterns plays them.
    lobby = await (await host.slash("bingo start", in_channel=other)).reply()
    assert "Patterns: **Four corners → X**" in lobby.content
    await (await host.click(lobby, button_id(lobby, "cancel"))).reply()

    # So does a planned night, its lobby opened on time with the patterns' pictures.
    planned = await (await host.slash("bingo schedule", when="in 20 minutes")).reply()
    assert not planned.ephemeral
    emulator.advance_clock(15 * 60)
    bot.clock_offset += 15 * 60
    cog.nights_wake.set()
    opened = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    assert "Patterns: **Four corners → X**" in opened.content
    assert [a.filename for a in opened.attachments] == [
        "bingo-pattern-corners.png",
        "bingo-pattern-x.png",
    ]
    (night,) = await bot.storage.pending_schedules("bingo")
    game = await bot.storage.get_game(night.game_id)
    assert cog.state_of(game).prize_codes == ("corners", "x")


async def test_the_verify_link_carries_the_patterns_played(emulator: Emulator, start_bot):
    seed = bytes(range(40, 72))
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(
        time_scale=100,
        seed_source=lambda: seed,
        settings_changes={"public_url": "https://games.example"},
    )
    _, game = await open_game(host, [host], {"patterns": "x, line"}, bot)
    await run_calls(bot.get_cog("Bingo"), game.id, 3)
    await (await host.slash("bingo stop")).reply()
    summary = await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)
    link = (
        f"(https://games.example/verify/verify.html#v=1&game=bingo&id={game.id}&seed={seed.hex()}&"
    )
    assert link in summary.content
    assert "&prizes=x,line&" in summary.content
    assert "&calls=3&" in summary.content
