"""The Tricky Triangle end to end: the real bot and cog against the emulator and SQLite."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.storage import GameStatus
from emulator import Emulator
from engine.triangle import TriangleGame, best_line, start_board

pytestmark = pytest.mark.backends()

EXTENSIONS = ("cogs.triangle", "cogs.stats")
SUCCESS, PRIMARY, SECONDARY = 3, 1, 2


def hole(game_id: int, number: int) -> str:
    return f"gn:tri:hole:{game_id}:{number}"


def game_id_of(message) -> int:
    match = re.search(r"#(\d+)", message.content)
    assert match, message.content
    return int(match[1])


def short(custom_id: str) -> str:
    """A hole's number, or the action of the other buttons."""
    parts = custom_id.split(":")
    return parts[4] if len(parts) == 5 else parts[2]


def styles(message, game_id: int) -> list[int]:
    return [message.component(hole(game_id, h))["style"] for h in range(15)]


async def test_a_puzzle_solved_with_hints_and_explained_mistakes(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    board = await (await alice.slash("triangle play")).reply()
    game = game_id_of(board)
    # Rows of 1, 2, 3, 4 and 5 holes; Hint and Give up beside the top hole.
    assert [[short(c["custom_id"]) for c in row["components"]] for row in board.components] == [
        ["0", "hint", "quit"],
        ["1", "2"],
        ["3", "4", "5"],
        ["6", "7", "8", "9"],
        ["10", "11", "12", "13", "14"],
    ]
    assert "Press the hole to leave empty" in board.content
    assert styles(board, game) == [PRIMARY] * 15

    intruder = await (await bob.click(board, hole(game, 4))).reply()
    assert intruder.ephemeral
    assert f"This is {alice.mention}'s triangle" in intruder.content
    assert "Start your own" in intruder.content

    await (await alice.click(board, hole(game, 4))).reply()
    assert styles(board, game)[4] == SECONDARY
    assert "14 pegs left" in board.content

    # Mistakes are explained privately and change nothing.
    empty = await (await alice.click(board, hole(game, 4))).reply()
    assert "press a peg first" in empty.content
    await (await alice.click(board, hole(game, 0))).reply()
    assert styles(board, game)[0] == SUCCESS
    assert "Peg 0 picked, but it has no jump" in board.content
    illegal = await (await alice.click(board, hole(game, 4))).reply()
    assert illegal.ephemeral
    assert "not a straight jump" in illegal.content
    await (await alice.click(board, hole(game, 0))).reply()  # pressed again: dropped
    assert styles(board, game)[0] == PRIMARY

    # The hint is the solver's best jump; follow the solver's line to a single peg.
    hint = await (await alice.click(board, f"gn:tri:hint:{game}")).reply()
    assert hint.ephemeral
    solution = best_line(start_board(4))
    first = solution[0]
    assert f"Jump **{first.origin} → {first.target}**" in hint.content
    assert "1 peg" in hint.content
    for jump in solution:
        await (await alice.click(board, hole(game, jump.origin))).reply()
        assert f"Peg {jump.origin} picked: it can jump to" in board.content
        await (await alice.click(board, hole(game, jump.target))).reply()
    assert "1 peg left (with 1 hint). You're genius!" in board.content
    assert all(button.get("disabled") for button in board.buttons)
    (picture,) = board.attachments
    assert picture.data.startswith(b"\x89PNG")
    assert "1 peg left: You're genius. 1 peg in hole 12;" in picture.description

    stored = await bot.storage.get_game(game)
    assert stored.status is GameStatus.FINISHED
    assert TriangleGame.from_state(stored.state).history == solution
    assert [(w.prize, w.user_id) for w in await bot.storage.winners(game)] == [("solved", alice.id)]
    stats = await (await bob.slash("stats")).reply()
    assert "Tricky Triangle" in stats.content
    assert alice.mention in stats.content


async def test_solve_answers_with_an_animation_and_the_moves(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    alice = guild.add_member("alice")
    await start_bot(time_scale=1, extensions=EXTENSIONS)

    answer = await (await alice.slash("triangle solve", start=0)).reply()
    solution = best_line(start_board(0))
    assert "13 jumps, one peg left" in answer.content
    assert f"1. {solution[0].origin}→{solution[0].target}" in answer.content
    (animation,) = answer.attachments
    assert animation.filename.endswith(".gif")
    assert "one jump per frame (13 jumps)" in animation.description
    with Image.open(io.BytesIO(animation.data)) as image:
        assert image.format == "GIF"
        assert image.n_frames == 14


async def test_restart_one_puzzle_at_a_time_giving_up_and_idling(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    bot = await start_bot(time_scale=0.02, extensions=EXTENSIONS)

    board = await (await alice.slash("triangle play", start=0)).reply()
    game = game_id_of(board)
    await (await alice.click(board, hole(game, 3))).reply()
    busy = await (await alice.slash("triangle play")).reply()
    assert "already in Tricky Triangle game" in busy.content
    await bot.stop_for_test()

    bot = await start_bot(time_scale=0.02, extensions=EXTENSIONS)
    assert styles(board, game)[3] == SUCCESS  # the picked peg survived the restart
    await (await alice.click(board, hole(game, 0))).reply()
    assert "13 pegs left. Last jump: 3 over 1 to 0." in board.content
    await (await alice.click(board, f"gn:tri:quit:{game}")).reply()
    assert "Given up with 13 pegs left." in board.content
    assert all(button.get("disabled") for button in board.buttons)
    assert board.attachments[0].description.startswith("Tricky Triangle game")

    # Another puzzle, left untouched: put away when it has been idle too long.
    bot.get_cog("Tricky Triangle").idle_seconds = 10  # 0.2 s at 1/50 speed
    idle = await (await bob.slash("triangle play", start=4)).reply()
    await channel.wait_for_message(lambda m: m.id == idle.id and "Left idle" in m.content)
    assert (await bot.storage.get_game(game_id_of(idle))).status is GameStatus.CANCELLED
    assert await bot.storage.winners(game) == []
