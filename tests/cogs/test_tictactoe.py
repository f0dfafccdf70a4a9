"""Tic-tac-toe end to end: the real bot and cog against the emulator and a real SQLite file."""

from __future__ import annotations

import re
import time

import pytest

from bot.storage import GameStatus
from emulator import Emulator
from engine.tictactoe import TicTacToe

pytestmark = pytest.mark.backends()

EXTENSIONS = ("cogs.tictactoe", "cogs.stats")
SUCCESS, DANGER, PRIMARY, SECONDARY = 3, 4, 1, 2


def cell(game_id: int, index: int) -> str:
    return f"gn:ttt:cell:{game_id}:{index}"


def game_id_of(message) -> int:
    match = re.search(r"#(\d+)", message.content)
    assert match, message.content
    return int(match[1])


def marks(message, game_id: int, size: int = 3) -> str:
    """The board as the buttons show it: X, O or . per cell."""
    labels = [message.component(cell(game_id, i))["label"] for i in range(size * size)]
    return "".join(label if label in {"X", "O"} else "." for label in labels)


async def result_message(channel, game_id: int):
    return await channel.wait_for_message(
        lambda m: m.content.startswith(f"🏁 Tic-tac-toe #{game_id}:")
    )


async def test_a_challenge_played_to_a_win_then_a_rematch(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob, carol = (guild.add_member(name) for name in ("alice", "bob", "carol"))
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    board = await (await alice.slash("tictactoe play", opponent=bob)).reply()
    game = game_id_of(board)
    assert bob.mention in board.content
    assert board.custom_ids == [f"gn:ttt:accept:{game}", f"gn:ttt:decline:{game}"]

    # Only the challenged member accepts; moves wait for the answer.
    refused = await (await carol.click(board, f"gn:ttt:accept:{game}")).reply()
    assert refused.ephemeral
    assert "Only" in refused.content
    await (await bob.click(board, f"gn:ttt:accept:{game}")).reply()
    assert len(board.buttons) == 10  # nine cells and Resign
    assert f"{alice.mention} to move" in board.content

    # Only the player to move can press; the others are turned away privately.
    for intruder, expected in ((bob, f"It's {alice.mention}'s turn"), (carol, "Start your own")):
        reply = await (await intruder.click(board, cell(game, 4))).reply()
        assert reply.ephemeral
        assert expected in reply.content
    assert marks(board, game) == "........."

    await (await alice.click(board, cell(game, 4))).reply()
    taken = await (await bob.click(board, cell(game, 4))).reply()
    assert taken.ephemeral
    assert "already taken by X" in taken.content
    for player, index in ((bob, 0), (alice, 2), (bob, 1), (alice, 6)):
        await (await player.click(board, cell(game, index))).reply()
    assert marks(board, game) == "OOX.X.X.."

    # Alice's diagonal 2-4-6 wins: highlighted, every button disabled, the result announced.
    assert f"{alice.mention} wins" in board.content
    styles = {i: board.component(cell(game, i))["style"] for i in range(9)}
    assert {i for i, style in styles.items() if style == SUCCESS} == {2, 4, 6}
    assert styles[0] == PRIMARY
    assert all(button.get("disabled") for button in board.buttons)
    result = await result_message(channel, game)
    assert "after 5 moves" in result.content
    (picture,) = result.attachments
    assert picture.data.startswith(b"\x89PNG")
    assert "alice wins" in picture.description
    assert "Winning cells: row 1 column 3, row 2 column 2, row 3 column 1" in picture.description

    stored = await bot.storage.get_game(game)
    assert stored.status is GameStatus.FINISHED
    assert TicTacToe.from_state(stored.state).outcome.line == (2, 4, 6)
    assert [(w.user_id, w.step) for w in await bot.storage.winners(game)] == [(alice.id, 5)]
    stats = await (await carol.slash("stats")).reply()
    assert "Tic-tac-toe" in stats.content
    assert alice.mention in stats.content

    # A rematch swaps the sides: bob asks, alice accepts, bob (now X) moves first.
    outsider = await (await carol.click(result, f"gn:ttt:rematch:{game}")).reply()
    assert outsider.ephemeral
    rematch = await (await bob.click(result, f"gn:ttt:rematch:{game}")).reply()
    second = game_id_of(rematch)
    assert second != game
    again = await (await alice.click(result, f"gn:ttt:rematch:{game}")).reply()
    assert f"already on: #{second}" in again.content
    await (await alice.click(rematch, f"gn:ttt:accept:{second}")).reply()
    assert f"{bob.mention} (X) vs {alice.mention} (O)" in rematch.content
    assert f"{bob.mention} to move" in rematch.content


async def test_the_bot_replies_at_once_and_never_loses_when_perfect(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice")
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    board = await (await alice.slash("tictactoe play", level="perfect")).reply()
    game = game_id_of(board)
    assert "(O, perfect bot)" in board.content
    while not board.buttons[0].get("disabled"):
        free = [i for i in range(9) if marks(board, game)[i] == "."]
        before = marks(board, game).count(".")
        await (await alice.click(board, cell(game, free[-1]))).reply()
        left = marks(board, game).count(".")
        assert left in {before - 1, before - 2}  # the bot answered in the same edit
        assert left == before - 2 or board.buttons[0].get("disabled")
    result = await result_message(channel, game)
    assert f"{alice.mention} wins" not in result.content
    assert await bot.storage.winners(game) == []  # a bot win or a draw: no member won

    # The rematch starts at once with the sides swapped: the bot, now X, has already moved.
    rematch = await (await alice.click(result, f"gn:ttt:rematch:{game}")).reply()
    second = game_id_of(rematch)
    assert marks(rematch, second).count("X") == 1
    assert f"{alice.mention} to move (O)" in rematch.content


async def test_sizes_resigning_and_one_game_of_a_kind_at_a_time(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob, carol, dave = (guild.add_member(n) for n in ("alice", "bob", "carol", "dave"))
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    # A 5x5 board takes all 25 buttons, in 5 rows of 5; resigning is a command there.
    big = await (await alice.slash("tictactoe play", size=5, level="easy")).reply()
    big_game = game_id_of(big)
    assert len(big.buttons) == 25
    assert [len(row["components"]) for row in big.components] == [5] * 5
    assert "4 in a row" in big.content
    busy = await (await alice.slash("tictactoe play", opponent=bob)).reply()
    assert busy.ephemeral
    assert "already in Tic-tac-toe game" in busy.content

    # Several games at once in one channel; a busy member cannot be challenged.
    duel = await (await bob.slash("tictactoe play", opponent=carol, size=4)).reply()
    duel_game = game_id_of(duel)
    taken = await (await dave.slash("tictactoe play", opponent=alice)).reply()
    assert "is already in Tic-tac-toe game" in taken.content
    await (await carol.click(duel, f"gn:ttt:accept:{duel_game}")).reply()
    assert len(duel.buttons) == 17  # 16 cells and Resign
    # A double press: both reach the bot before either is answered; one move lands.
    presses = [await bob.click(duel, cell(duel_game, index)) for index in (5, 6)]

    def refusals() -> list:
        # A follow-up after the lock, or the answer itself when the move already landed.
        return [
            message
            for press in presses
            for message in (press.message, *press.followups)
            if message is not None and message.ephemeral
        ]

    await emulator.wait_until(lambda: refusals() or None, 5, lambda: "a refusal")
    (refusal,) = refusals()
    assert refusal.ephemeral
    assert f"It's {carol.mention}'s turn" in refusal.content
    # (The refusal can come before the board shows the move that landed.)
    await emulator.wait_until(
        lambda: marks(duel, duel_game, 4) in {".....X..........", "......X........."} or None,
        5,
        lambda: f"one move on the board, not {marks(duel, duel_game, 4)}",
    )

    resigned = await (await alice.slash("tictactoe resign")).reply()
    assert resigned.ephemeral
    result = await result_message(channel, big_game)
    assert f"{alice.mention} resigned" in result.content
    assert "resigned" in result.attachments[0].description
    await (await carol.click(duel, f"gn:ttt:resign:{duel_game}")).reply()
    result = await result_message(channel, duel_game)
    assert f"{bob.mention} wins" in result.content
    assert [w.user_id for w in await bot.storage.winners(duel_game)] == [bob.id]

    # A declined challenge ends at once; the challenger is free again.
    offer = await (await dave.slash("tictactoe play", opponent=alice)).reply()
    await (await alice.click(offer, f"gn:ttt:decline:{game_id_of(offer)}")).reply()
    assert "declined" in offer.content
    assert offer.custom_ids == []
    assert not await bot.storage.live_games_of_player(dave.id, "tictactoe")


async def test_a_player_who_does_not_move_loses_on_time(emulator: Emulator, start_bot, monkeypatch):
    monkeypatch.setattr("bot.table.duel.CHALLENGE_SECONDS", 15)  # where duels read it
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    # 15 s turns at 1/10 speed: 1.5 s (room for a network away, as Discord is).
    bot = await start_bot(time_scale=0.1, extensions=EXTENSIONS)

    board = await (await alice.slash("tictactoe play", opponent=bob, turn_time=15)).reply()
    game = game_id_of(board)
    await (await bob.click(board, f"gn:ttt:accept:{game}")).reply()
    await (await alice.click(board, cell(game, 0))).reply()
    result = await result_message(channel, game)
    assert f"{bob.mention} ran out of time: {alice.mention} wins" in result.content
    assert "ran out of time" in board.content
    assert [w.user_id for w in await bot.storage.winners(game)] == [alice.id]

    # An unanswered challenge expires the same way.
    offer = await (await alice.slash("tictactoe play", opponent=bob)).reply()
    await channel.wait_for_message(lambda m: m.id == offer.id and "expired" in m.content)
    assert (await bot.storage.get_game(game_id_of(offer))).status is GameStatus.CANCELLED


async def test_a_restart_mid_game_keeps_old_buttons_working(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    board = await (await alice.slash("tictactoe play", opponent=bob)).reply()
    game = game_id_of(board)
    await (await bob.click(board, f"gn:ttt:accept:{game}")).reply()
    await (await alice.click(board, cell(game, 0))).reply()
    await (await bob.click(board, cell(game, 3))).reply()
    # Alice's time runs out while the bot is down: she gets a fresh clock, not a loss.
    stored = await bot.storage.get_game(game)
    await bot.storage.update_game(game, options={**stored.options, "deadline": time.time() - 60})
    await bot.stop_for_test()

    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)
    assert (await bot.storage.get_game(game)).status is GameStatus.RUNNING
    shown = int(re.search(r"<t:(\d+):R>", board.content)[1])
    assert shown > time.time() + 60
    wrong = await (await bob.click(board, cell(game, 8))).reply()
    assert f"It's {alice.mention}'s turn" in wrong.content
    for player, index in ((alice, 1), (bob, 4), (alice, 2)):
        await (await player.click(board, cell(game, index))).reply()
    result = await result_message(channel, game)
    assert f"{alice.mention} wins" in result.content
    assert [w.user_id for w in await bot.storage.winners(game)] == [alice.id]
