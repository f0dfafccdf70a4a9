"""Every interaction is acknowledged before the database answers anything.

Discord gives an interaction 3 s for its first answer, and a database over a real network (or a
busy one) can take that long on its own. Here the bot's database is made to hang (every query
and every write waits until the test lets it go) while each kind of interaction arrives: every
slash command, button, select and autocomplete the bot has must still be acknowledged (or
answered, from what the bot holds in memory) while the database is stuck; once it answers
again, so does the bot. A handler that reads before it answers fails here.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from emulator import Emulator
from emulator.interactions import InteractionResult
from emulator.model import Message
from tests.cogs.helpers import StuckDatabase, button_id, over_the_network, run_calls

pytestmark = over_the_network

# Seconds the test waits for an acknowledgement while the database hangs: less than Discord's 3.
ACK_WAIT = 2.5

# Every slash command the bot has, each exercised below (checked by the first test).
EXERCISED = {
    "loteria start", "loteria join", "loteria tabla", "loteria claim", "loteria pause",
    "loteria resume", "loteria stop", "loteria speed", "loteria verify", "loteria schedule",
    "loteria schedules", "loteria unschedule",
    "housie start", "housie join", "housie ticket", "housie board", "housie claim",
    "housie check", "housie pause", "housie resume", "housie stop", "housie speed",
    "housie verify", "housie schedule", "housie schedules", "housie unschedule",
    "bingo start", "bingo join", "bingo card", "bingo board", "bingo claim", "bingo pause",
    "bingo resume", "bingo stop", "bingo speed", "bingo verify", "bingo schedule",
    "bingo schedules", "bingo unschedule",
    # (in tests/cogs/test_bingo_patterns.py, with the grid's buttons)
    "bingo pattern create", "bingo pattern list", "bingo pattern delete",
    "tictactoe play", "tictactoe resign",
    "dots play", "dots move", "dots resign",
    "triangle play", "triangle solve", "triangle quit",
    "stats", "help", "gamenight settings", "gamenight forget-me",
}  # fmt: skip


async def answered_while_stuck(
    db: StuckDatabase, act: Callable[[], Awaitable[InteractionResult]]
) -> InteractionResult:
    """Start an interaction while the database hangs; it must be acknowledged all the same.
    Returns it once the database is free again (its answer may follow)."""
    async with db.stuck():
        result = await act()
        await result.acknowledgement(ACK_WAIT)
    return result


async def choices_while_stuck(db: StuckDatabase, act: Callable[[], Awaitable[Any]]) -> Any:
    """An autocomplete answered while the database hangs."""
    async with db.stuck():
        return await act()


def game_id_of(message: Message) -> int:
    found = re.search(r"#(\d+)", message.content)
    assert found, message.content
    return int(found[1])


def latest_call(channel: Any) -> Message:
    return next(m for m in reversed(channel.messages) if any(":claim:" in c for c in m.custom_ids))


async def test_calling_games_answer_before_the_database(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    tambola = guild.add_channel("tambola")
    host = guild.add_member("host", manage_guild=True)
    player = guild.add_member("player")
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(32)))
    # Every slash command the bot has is exercised in these tests.
    commands = {
        command.qualified_name
        for command in bot.tree.walk_commands()
        if not hasattr(command, "walk_commands")  # leaves: what a member can run
    }
    assert commands == EXERCISED
    db = StuckDatabase(bot.storage)
    loteria, housie = bot.get_cog("Lotería"), bot.get_cog("Housie")

    # The lobbies and their buttons.
    opened = await answered_while_stuck(db, lambda: host.slash("loteria start"))
    lobby = await opened.reply()
    assert "Join" in str(lobby.components)
    joined = await answered_while_stuck(db, lambda: player.click(lobby, button_id(lobby, "join")))
    assert "Check your DMs" in (await joined.reply()).content
    left = await answered_while_stuck(db, lambda: player.click(lobby, button_id(lobby, "leave")))
    assert (await left.reply()).ephemeral
    again = await answered_while_stuck(db, lambda: player.slash("loteria join"))
    assert "Check your DMs" in (await again.reply()).content
    await (await host.slash("loteria join")).reply()

    housie_lobby = await (
        await answered_while_stuck(
            db, lambda: host.slash("housie start", tickets=2, in_channel=tambola)
        )
    ).reply()
    offer = await (
        await answered_while_stuck(
            db, lambda: player.click(housie_lobby, button_id(housie_lobby, "join"))
        )
    ).reply()
    dealt = await answered_while_stuck(
        db, lambda: player.click(offer, button_id(offer, "tickets2"))
    )
    assert "Check your DMs" in (await dealt.reply()).content
    by_command = await answered_while_stuck(
        db, lambda: host.slash("housie join", tickets=1, in_channel=tambola)
    )
    assert "Check your DMs" in (await by_command.reply()).content
    (housie_game,) = await bot.storage.live_games("housie")
    code = (await bot.storage.boards(housie_game.id, host.id))[0].code
    checked = await answered_while_stuck(
        db, lambda: player.slash("housie check", code=code, in_channel=tambola)
    )
    assert "Genuine" in (await checked.reply()).content

    # Planned nights.
    planned = await answered_while_stuck(
        db, lambda: host.slash("loteria schedule", when="in 2 hours", in_channel=general)
    )
    assert not (await planned.reply()).ephemeral
    listed = await answered_while_stuck(db, lambda: player.slash("housie schedules"))
    assert (await listed.reply()).ephemeral
    off = await answered_while_stuck(db, lambda: host.slash("loteria unschedule", night=1))
    assert not (await off.reply()).ephemeral

    # Start, then play.
    for started_lobby in (lobby, housie_lobby):
        pressed = await answered_while_stuck(
            db, lambda lb=started_lobby: host.click(lb, button_id(lb, "start"))
        )
        assert (await pressed.reply()).ephemeral
    (loteria_game,) = await bot.storage.live_games("loteria")
    await run_calls(loteria, loteria_game.id, 3)
    await run_calls(housie, housie_game.id, 3)

    claim = latest_call(general)
    pressed = await answered_while_stuck(db, lambda: player.click(claim, button_id(claim, "claim")))
    assert "False claim" in (await pressed.reply()).content
    claimed = await answered_while_stuck(db, lambda: host.slash("loteria claim"))
    assert "False claim" in (await claimed.reply()).content

    call = latest_call(tambola)
    picker = await (
        await answered_while_stuck(db, lambda: player.click(call, button_id(call, "claim")))
    ).reply()
    assert picker.ephemeral
    prize = next(cid for cid in picker.custom_ids if ":prize" in cid)
    judged = await answered_while_stuck(db, lambda: player.click(picker, prize))
    assert "Bogey" in (await judged.reply()).content
    choices = await choices_while_stuck(
        db, lambda: host.autocomplete("housie claim", "prize", "", in_channel=tambola)
    )
    assert choices
    bogey = await answered_while_stuck(
        db, lambda: host.slash("housie claim", prize="FH", in_channel=tambola)
    )
    assert "Bogey" in (await bogey.reply()).content

    for command in ("loteria tabla", "housie ticket", "housie board"):
        where = tambola if command.startswith("housie") else general
        shown = await answered_while_stuck(
            db, lambda c=command, w=where: host.slash(c, in_channel=w)
        )
        assert (await shown.reply()).attachments

    # The host's controls.
    for kind, where in (("loteria", general), ("housie", tambola)):
        for command, options in (("pause", {}), ("resume", {}), ("speed", {"seconds": 30})):
            done = await answered_while_stuck(
                db,
                lambda c=f"{kind} {command}", w=where, o=options: host.slash(c, in_channel=w, **o),
            )
            assert not (await done.reply()).ephemeral
        stopped = await answered_while_stuck(
            db, lambda c=f"{kind} stop", w=where: host.slash(c, in_channel=w)
        )
        assert not (await stopped.reply()).ephemeral
    for kind, game in (("loteria", loteria_game), ("housie", housie_game)):
        await emulator.wait_until(
            lambda g=game: any(
                f"#{g.id}" in m.content and "seed" in m.content.lower()
                for m in general.messages + tambola.messages
            ),
            5,
            lambda: "the game's summary",
        )
        verified = await answered_while_stuck(
            db, lambda k=kind, g=game: player.slash(f"{k} verify", game=g.id)
        )
        assert "verified" in (await verified.reply()).content.lower()
    emulator.take_failures("dm_closed")


async def test_bingo_answers_before_the_database(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("bingo-night")
    host = guild.add_member("host", manage_guild=True)
    player = guild.add_member("player")
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(32)))
    db = StuckDatabase(bot.storage)

    # The lobby, its patterns offered as they are typed, and joins.
    offered = await choices_while_stuck(
        db, lambda: host.autocomplete("bingo start", "patterns", "line, bl")
    )
    assert [choice["value"] for choice in offered] == ["line, blackout"]
    opened = await answered_while_stuck(db, lambda: host.slash("bingo start", patterns="line, x"))
    lobby = await opened.reply()
    assert "Join" in str(lobby.components)
    assert len(lobby.attachments) == 2  # the patterns' pictures
    joined = await answered_while_stuck(db, lambda: player.slash("bingo join"))
    assert "Check your DMs" in (await joined.reply()).content
    await (await host.click(lobby, button_id(lobby, "join"))).reply()

    # Planned nights.
    planned = await answered_while_stuck(
        db, lambda: host.slash("bingo schedule", when="in 2 hours")
    )
    assert not (await planned.reply()).ephemeral
    listed = await answered_while_stuck(db, lambda: player.slash("bingo schedules"))
    assert (await listed.reply()).ephemeral
    off = await answered_while_stuck(db, lambda: host.slash("bingo unschedule", night=1))
    assert not (await off.reply()).ephemeral

    # Start, then play: three calls complete no line (one takes four numbers at least).
    pressed = await answered_while_stuck(db, lambda: host.click(lobby, button_id(lobby, "start")))
    assert (await pressed.reply()).ephemeral
    (game,) = await bot.storage.live_games("bingo")
    await run_calls(bot.get_cog("Bingo"), game.id, 3)
    call = latest_call(channel)
    by_button = await answered_while_stuck(db, lambda: player.click(call, button_id(call, "claim")))
    assert "False claim" in (await by_button.reply()).content
    choices = await choices_while_stuck(db, lambda: host.autocomplete("bingo claim", "pattern", ""))
    assert [choice["value"] for choice in choices] == ["line"]  # the pattern played now
    claimed = await answered_while_stuck(db, lambda: host.slash("bingo claim", pattern="line"))
    assert "False claim" in (await claimed.reply()).content
    for command in ("bingo card", "bingo board"):
        shown = await answered_while_stuck(db, lambda c=command: host.slash(c))
        assert (await shown.reply()).attachments

    # The host's controls, then the game checked against its seed.
    for command, options in (("pause", {}), ("resume", {}), ("speed", {"seconds": 30})):
        done = await answered_while_stuck(
            db, lambda c=f"bingo {command}", o=options: host.slash(c, **o)
        )
        assert not (await done.reply()).ephemeral
    stopped = await answered_while_stuck(db, lambda: host.slash("bingo stop"))
    assert not (await stopped.reply()).ephemeral
    await emulator.wait_until(
        lambda: any(
            f"#{game.id}" in m.content and "seed" in m.content.lower() for m in channel.messages
        ),
        5,
        lambda: "the game's summary",
    )
    verified = await answered_while_stuck(db, lambda: player.slash("bingo verify", game=game.id))
    assert "verified" in (await verified.reply()).content.lower()


async def test_table_games_answer_before_the_database(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    admin = guild.add_member("admin", manage_guild=True)
    bot = await start_bot(time_scale=1)
    db = StuckDatabase(bot.storage)

    # Tic-tac-toe: a challenge, accepted, a move, resigned; a rematch, declined; against the bot.
    challenge = await (
        await answered_while_stuck(db, lambda: alice.slash("tictactoe play", opponent=bob))
    ).reply()
    game = game_id_of(challenge)
    accepted = await answered_while_stuck(db, lambda: bob.click(challenge, f"gn:ttt:accept:{game}"))
    await accepted.acknowledgement()
    await bot.wait_until_ready()
    await emulator.wait_until(lambda: len(challenge.buttons) == 10, 5, lambda: "the board")
    moved = await answered_while_stuck(db, lambda: alice.click(challenge, f"gn:ttt:cell:{game}:4"))
    await emulator.wait_until(
        lambda: challenge.component(f"gn:ttt:cell:{game}:4")["label"] == "X", 5, lambda: "X"
    )
    assert moved.acknowledged
    refused = await answered_while_stuck(
        db, lambda: alice.click(challenge, f"gn:ttt:cell:{game}:0")
    )
    assert (await refused.reply()).ephemeral  # not her turn
    resigned = await answered_while_stuck(db, lambda: bob.click(challenge, f"gn:ttt:resign:{game}"))
    assert (await resigned.reply()).ephemeral
    result = await guild.channels[0].wait_for_message(
        lambda m: m.content.startswith(f"🏁 Tic-tac-toe #{game}:")
    )
    rematch = await (
        await answered_while_stuck(db, lambda: alice.click(result, f"gn:ttt:rematch:{game}"))
    ).reply()
    second = game_id_of(rematch)
    declined = await answered_while_stuck(
        db, lambda: bob.click(rematch, f"gn:ttt:decline:{second}")
    )
    await emulator.wait_until(lambda: not rematch.custom_ids, 5, lambda: "the challenge declined")
    assert declined.acknowledged
    against_bot = await answered_while_stuck(db, lambda: alice.slash("tictactoe play"))
    assert (await against_bot.reply()).buttons
    gave_up = await answered_while_stuck(db, lambda: alice.slash("tictactoe resign"))
    assert (await gave_up.reply()).ephemeral

    # Dots and Boxes against the bot: a line by select and by command (autocompleted), resign.
    board = await (await answered_while_stuck(db, lambda: bob.slash("dots play"))).reply()
    choices = await choices_while_stuck(db, lambda: bob.autocomplete("dots move", "line", ""))
    assert choices
    select = next(cid for cid in board.custom_ids if cid.startswith("gs:dots:line:"))
    options = board.component(select)["options"]
    picked = await answered_while_stuck(
        db, lambda: bob.select(board, select, [options[0]["value"]])
    )
    await picked.acknowledgement()
    await emulator.wait_until(lambda: board.edits > 1, 5, lambda: "the board after a line")
    choices = await choices_while_stuck(db, lambda: bob.autocomplete("dots move", "line", ""))
    by_command = await answered_while_stuck(
        db, lambda: bob.slash("dots move", line=choices[0]["value"])
    )
    assert (await by_command.reply()).ephemeral
    resigned = await answered_while_stuck(db, lambda: bob.slash("dots resign"))
    assert (await resigned.reply()).ephemeral

    # The Tricky Triangle: play, press holes, a hint, quit (by button and by command).
    puzzle = await (await answered_while_stuck(db, lambda: alice.slash("triangle play"))).reply()
    tri_game = game_id_of(puzzle)
    hint = await answered_while_stuck(db, lambda: alice.click(puzzle, f"gn:tri:hint:{tri_game}"))
    assert (await hint.reply()).ephemeral
    pressed = await answered_while_stuck(
        db, lambda: alice.click(puzzle, f"gn:tri:hole:{tri_game}:4")
    )
    await pressed.acknowledgement()
    quit_button = await answered_while_stuck(
        db, lambda: alice.click(puzzle, f"gn:tri:quit:{tri_game}")
    )
    await quit_button.acknowledgement()
    await emulator.wait_until(
        lambda: "Given up" in puzzle.content, 5, lambda: "the puzzle put away"
    )
    await (await alice.slash("triangle play", start=0)).reply()
    quit_command = await answered_while_stuck(db, lambda: alice.slash("triangle quit"))
    assert (await quit_command.reply()).ephemeral
    solved = await answered_while_stuck(db, lambda: bob.slash("triangle solve", start=0))
    assert (await solved.reply()).attachments

    # The rest: stats, help, the server's settings, forget-me and their autocompletes.
    for command, options in (
        ("stats", {}),
        ("help", {}),
        ("help", {"game": "loteria"}),
        ("gamenight settings", {}),
        ("gamenight settings", {"language": "es"}),
    ):
        done = await answered_while_stuck(db, lambda c=command, o=options: admin.slash(c, **o))
        await done.reply()
    for command, option, typed in (
        ("loteria start", "prizes", "l"),
        ("gamenight settings", "game", "lo"),
        ("gamenight settings", "time_zone", "mex"),
        ("help", "game", "h"),
    ):
        assert await choices_while_stuck(
            db, lambda c=command, o=option, t=typed: admin.autocomplete(c, o, t)
        )
    assert await choices_while_stuck(
        db, lambda: admin.autocomplete("gamenight settings", "prizes", "l", game="loteria")
    )
    asked = await (
        await answered_while_stuck(db, lambda: alice.slash("gamenight forget-me"))
    ).reply()
    assert asked.ephemeral
    kept = await answered_while_stuck(  # her finished games: a confirmation, kept
        db, lambda: alice.click(asked, next(c for c in asked.custom_ids if ":no:" in c))
    )
    await kept.reply()
