"""Dots and Boxes end to end: the real bot and cog against the emulator and a real SQLite file."""

from __future__ import annotations

import re

import pytest

from bot.storage import GameStatus
from cogs.dots.solution import solved_board
from emulator import Emulator
from engine.dots import DotsGame, Player

pytestmark = pytest.mark.backends()

EXTENSIONS = ("cogs.dots", "cogs.stats")


def game_id_of(message) -> int:
    match = re.search(r"#(\d+)", message.content)
    assert match, message.content
    return int(match[1])


def select_ids(message) -> list[str]:
    return [cid for cid in message.custom_ids if cid.startswith("gs:dots:line:")]


def offered(message) -> list[str]:
    """Every line offered in the message's selects, in order."""
    return [
        option["value"]
        for cid in select_ids(message)
        for option in message.component(cid)["options"]
    ]


async def pick(member, message, line: str):
    """Draw ``line`` through whichever select offers it."""
    for cid in select_ids(message):
        if any(o["value"] == line for o in message.component(cid)["options"]):
            return await (await member.select(message, cid, [line])).reply()
    raise AssertionError(f"{line} is not offered: {offered(message)}")


async def result_message(channel, game_id: int):
    return await channel.wait_for_message(
        lambda m: m.content.startswith(f"🏁 Dots and Boxes #{game_id}:")
    )


async def test_a_challenge_played_out_with_selects_and_typed_moves(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob, carol = (guild.add_member(name) for name in ("alice", "bob", "carol"))
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    board = await (await alice.slash("dots play", opponent=bob, rows=2, columns=2)).reply()
    game = game_id_of(board)
    await (await bob.click(board, f"gn:dots:accept:{game}")).reply()
    (picture,) = board.attachments
    assert picture.data.startswith(b"\x89PNG")
    assert "2x2 boxes, dots A1 to C3" in picture.description
    assert "Free lines (12)" in picture.description
    assert len(offered(board)) == 12
    assert f"{alice.mention} to move" in board.content

    # Wrong player and outsiders are turned away; illegal lines are explained.
    wrong = await pick(bob, board, "A1-B1")
    assert wrong.ephemeral
    assert f"It's {alice.mention}'s turn" in wrong.content
    outsider = await (await carol.slash("dots move", line="A1-B1")).reply()
    assert "not in a Dots and Boxes game" in outsider.content
    for text, reason in (("A1-C1", "skips dots"), ("A1-B2", "diagonal"), ("Z9", "not a line")):
        refused = await (await alice.slash("dots move", line=text)).reply()
        assert refused.ephemeral
        assert reason in refused.content

    # Autocomplete offers the free lines matching what is typed.
    choices = await alice.autocomplete("dots move", "line", "b2")
    assert [c["value"] for c in choices] == ["B2-C2", "B2-B3"]

    # Play it out: first free line each turn, by select and by command in turn; a replica
    # engine says who should be on turn. Alice ends 3-1 up; three boxes earn another turn.
    replica = DotsGame(2, 2)
    members = {Player.FIRST: alice, Player.SECOND: bob}
    typed = False
    extra_turns = 0
    while not replica.is_over:
        mover = members[replica.turn]
        line = offered(board)[0]
        if typed:
            done = await (await mover.slash("dots move", line=line.lower())).reply()
            assert done.ephemeral
            assert line in done.content
            await channel.wait_for_message(
                lambda m, line=line: m.id == board.id and line not in offered(m)
            )
        else:
            await pick(mover, board, line)
        typed = not typed
        result = replica.play(line)
        if result.completed:
            assert f"{line} (+1 box)" in board.content
        if not replica.is_over:
            assert f"{members[replica.turn].mention} to move" in board.content
            extra_turns += members[replica.turn] is mover
    assert extra_turns == 3
    scores = replica.scores
    assert f"**{scores[Player.FIRST]}**" in board.content
    assert board.custom_ids == []  # no selects once it is over
    final = board.attachments[0].description
    assert "Free lines" not in final
    result = await result_message(channel, game)
    assert f"{scores[Player.FIRST]}–{scores[Player.SECOND]}" in result.content
    stored = await bot.storage.get_game(game)
    assert stored.status is GameStatus.FINISHED
    assert DotsGame.from_state(stored.state).scores == scores
    winners = [w.user_id for w in await bot.storage.winners(game)]
    expected = {Player.FIRST: [alice.id], Player.SECOND: [bob.id], None: []}[replica.winner]
    assert winners == expected


async def test_the_bot_plays_its_turns_and_big_boards_page_their_lines(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    board = await (await alice.slash("dots play", rows=2, columns=2, level="hard")).reply()
    game = game_id_of(board)
    assert "(hard bot) **0**" in board.content
    await pick(alice, board, "A1-B1")
    assert "Last: 🟥 A1-B1, 🟦 " in board.content  # the bot answered in the same edit
    while board.custom_ids:
        await pick(alice, board, offered(board)[0])
        # The bot plays all its turns (several after boxes) before the board comes back.
        stored = DotsGame.from_state((await bot.storage.get_game(game)).state)
        assert stored.is_over or stored.turn is Player.FIRST
    result = await result_message(channel, game)
    stored = DotsGame.from_state((await bot.storage.get_game(game)).state)
    assert len(stored.drawn_lines()) == 12
    first, second = stored.scores[Player.FIRST], stored.scores[Player.SECOND]
    assert f"{first}–{second}" in result.content
    winners = await bot.storage.winners(game)
    assert [w.user_id for w in winners] == ([alice.id] if first > second else [])

    # A 5x5 board's 60 lines come in three selects of at most 25, plus Resign.
    big = await (await bob.slash("dots play", rows=5, columns=5, level="easy")).reply()
    big_game = game_id_of(big)
    assert [len(big.component(cid)["options"]) for cid in select_ids(big)] == [25, 25, 10]
    assert len(set(offered(big))) == 60
    assert "A1-B1" in big.component(select_ids(big)[0])["placeholder"]
    await pick(bob, big, "F5-F6")
    assert len(offered(big)) == 58  # bob's line and the bot's
    await (await bob.click(big, f"gn:dots:resign:{big_game}")).reply()
    resigned = await result_message(channel, big_game)
    assert f"{bob.mention} resigned" in resigned.content


async def test_the_hard_bot_plays_3x3_perfectly(emulator: Emulator, start_bot):
    """On 3x3 the hard bot reads the solved table: every line it draws keeps the best value,
    so as second player it wins whatever alice does (here: her first free line each turn)."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice")
    bot = await start_bot(time_scale=1, extensions=EXTENSIONS)

    board = await (await alice.slash("dots play", rows=3, columns=3, level="hard")).reply()
    game = game_id_of(board)
    while board.custom_ids:
        await pick(alice, board, offered(board)[0])
    await result_message(channel, game)
    stored = DotsGame.from_state((await bot.storage.get_game(game)).state)
    assert stored.is_over
    assert stored.winner is Player.SECOND
    solved = solved_board(3, 3)
    assert solved is not None
    replay = DotsGame(3, 3)
    bot_lines = 0
    for line, player in stored.drawn_lines():
        if player is Player.SECOND:
            values = solved.line_values(replay.drawn_mask)
            assert values[replay.all_lines.index(line)] == max(values.values())
            bot_lines += 1
        replay.play(line)
    assert bot_lines >= 10
    assert [w.user_id for w in await bot.storage.winners(game)] == []


async def test_restart_mid_game_then_a_loss_on_time(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    bot = await start_bot(time_scale=0.02, extensions=EXTENSIONS)

    # 600 s turns at 1/50 speed: 12 s, plenty for the restart.
    board = await (
        await alice.slash("dots play", opponent=bob, rows=2, columns=3, turn_time=600)
    ).reply()
    game = game_id_of(board)
    await (await bob.click(board, f"gn:dots:accept:{game}")).reply()
    await pick(alice, board, "A1-B1")
    await bot.stop_for_test()

    bot = await start_bot(time_scale=0.02, extensions=EXTENSIONS)
    await pick(bob, board, "C2-D2")  # a select on a message from before the restart
    assert "🟦 C2-D2" in board.content
    assert "Free lines (15)" in board.attachments[0].description
    choices = await alice.autocomplete("dots move", "line", "")
    assert len(choices) == 15

    # Turns shortened to 15 s (0.3 s here) in the stored settings: bob runs out of time.
    stored = await bot.storage.get_game(game)
    assert stored.status is GameStatus.RUNNING
    await bot.storage.update_game(game, options={**stored.options, "turn_time": 15})
    await pick(alice, board, "A1-A2")
    result = await result_message(channel, game)
    assert f"{bob.mention} ran out of time: {alice.mention} wins" in result.content
    assert "ran out of time" in board.attachments[0].description
    assert [w.user_id for w in await bot.storage.winners(game)] == [alice.id]
