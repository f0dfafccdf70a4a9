"""Every button and select reaches its game through one button class and one select class
(``bot.components``), routed by the prefix its cog registered when it was loaded.

Buttons posted before this version keep working: the messages here are posted raw by the bot,
their custom ids written out literally in the form every game used until now, and clicked
through the real bot against the emulator. A custom id no loaded cog registered is refused
politely, never "This interaction failed"."""

from __future__ import annotations

import re
from typing import Any

from discord.http import Route

from emulator.model import Message
from tests.cogs.helpers import button_id

OLD = "A message posted by an older version"


async def post_old(
    bot: Any, channel: Any, *custom_ids: str, select_options: list[dict[str, Any]] | None = None
) -> Message:
    """A message the bot posted earlier, its components written out raw: ids starting ``gs:``
    are selects (offering ``select_options``), the others buttons."""
    rows = []
    for custom_id in custom_ids:
        if custom_id.startswith("gs:"):
            component = {"type": 3, "custom_id": custom_id, "options": select_options or []}
        else:
            component = {"type": 2, "style": 2, "label": "old", "custom_id": custom_id}
        rows.append({"type": 1, "components": [component]})
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    posted = await bot.http.request(route, json={"content": OLD, "components": rows})
    return next(m for m in channel.messages if m.id == int(posted["id"]))


async def test_ids_in_todays_form_reach_every_game(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    loteria = guild.add_channel("loteria")
    housie = guild.add_channel("housie")
    tables = guild.add_channel("tables")
    host, alice, bob = (guild.add_member(name) for name in ("host", "alice", "bob"))
    bot = await start_bot(time_scale=100)

    # The calling games: a Join pressed on a message posted before, in each game's channel.
    for kind, channel in (("loteria", loteria), ("housie", housie)):
        lobby = await (await host.slash(f"{kind} start", in_channel=channel)).reply()
        (game,) = await bot.storage.live_games(kind)
        assert button_id(lobby, "join") == f"gn:{kind}:join:{game.id}"  # still made this way
        old = await post_old(bot, channel, f"gn:{kind}:join:{game.id}")
        await (await alice.click(old, f"gn:{kind}:join:{game.id}")).reply()
        assert [p.user_id for p in await bot.storage.players(game.id)] == [alice.user.id]

    # Tic-tac-toe: a challenge accepted and a cell played from old buttons.
    board = await (await alice.slash("tictactoe play", opponent=bob, in_channel=tables)).reply()
    (ttt,) = await bot.storage.live_games("tictactoe")
    assert board.custom_ids == [f"gn:ttt:accept:{ttt.id}", f"gn:ttt:decline:{ttt.id}"]
    old = await post_old(bot, tables, f"gn:ttt:accept:{ttt.id}", f"gn:ttt:cell:{ttt.id}:4")
    # (Pressed on another message than the game's, the press edits the game's message.)
    await (await bob.click(old, f"gn:ttt:accept:{ttt.id}")).acknowledgement()
    cell = f"gn:ttt:cell:{ttt.id}:4"
    await emulator.wait_until(lambda: board.component(cell), 5, "the game to start")
    await (await alice.click(old, cell)).acknowledgement()
    await emulator.wait_until(lambda: board.component(cell)["label"] == "X", 5, "X in the middle")

    # Dots and Boxes: a line drawn through an old select.
    dots_board = await (await host.slash("dots play", rows=2, columns=2, in_channel=tables)).reply()
    (dots,) = await bot.storage.live_games("dots")
    select = f"gs:dots:line:{dots.id}:0"
    assert select in dots_board.custom_ids
    options = dots_board.component(select)["options"]
    before = (await bot.storage.get_game(dots.id)).state
    old = await post_old(bot, tables, select, select_options=options)
    await (await host.select(old, select, [options[0]["value"]])).acknowledgement()
    await emulator.wait_until(
        lambda: dots_board.component(select)["options"] != options, 5, "the line drawn"
    )
    assert (await bot.storage.get_game(dots.id)).state != before

    # The Tricky Triangle: a hint asked from an old button.
    await (await bob.slash("triangle play", start=0, in_channel=tables)).reply()
    (tri,) = await bot.storage.live_games("triangle")
    old = await post_old(bot, tables, f"gn:tri:hint:{tri.id}")
    hint = await (await bob.click(old, f"gn:tri:hint:{tri.id}")).reply()
    assert hint.ephemeral
    assert "Jump **" in hint.content

    # The forget-me answers (for a member with a game over): kept, from an old button.
    await (await alice.slash("tictactoe resign", in_channel=tables)).reply()
    asked = await (await alice.slash("gamenight forget-me", in_channel=tables)).reply()
    (no,) = [cid for cid in asked.custom_ids if cid.startswith("gn:forget:no:")]
    assert re.fullmatch(rf"gn:forget:no:{alice.user.id}:\d+", no)
    old = await post_old(bot, tables, no)
    kept = await (await alice.click(old, no)).reply()
    assert kept.content == "Nothing was removed."


async def test_an_id_no_loaded_game_knows_is_refused_politely(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    member = guild.add_member("member")
    bot = await start_bot(time_scale=100)
    old = await post_old(
        bot,
        channel,
        "gn:chess:move:12:4",  # a game taken out (or never there)
        "gn:ttt:cell:twelve",  # a known game, not in its shape
        "gs:chess:square:12",
        select_options=[{"label": "e4", "value": "e4"}],
    )
    for custom_id, words in (
        ("gn:chess:move:12:4", "This game is not available right now."),
        ("gn:ttt:cell:twelve", "That button is not in use any more."),
    ):
        refused = await (await member.click(old, custom_id)).reply()
        assert refused.ephemeral
        assert refused.content == words
    refused = await (await member.select(old, "gs:chess:square:12", ["e4"])).reply()
    assert refused.ephemeral
    assert refused.content == "This game is not available right now."
