"""Bingo's custom patterns end to end: the real bot against the emulator, on a real database.

A pattern drawn on the 5x5 grid of buttons (its picture redrawn at each press, the centre its
Save button, only its creator's presses counted, a press after a restart carrying on) or given as
``cells:``; listed in a picture, offered by the start command's autocomplete, played and won;
deleted, while games played with it keep it whole (they restart and verify); refused clearly:
an empty drawing, a built-in's or a taken name, too long a name, a full server, a member who
may not host."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

import pytest

from bot.render.bingo import render_pattern
from emulator import Emulator
from emulator.interactions import InteractionType
from emulator.model import Message
from engine.bingo import FREE_CELL, Pattern, cards_at
from engine.fairness import draw_order
from tests.cogs.helpers import StuckDatabase, button_id, grace_over, run_calls
from tests.cogs.test_stuck_database import answered_while_stuck

# The patterns are stored: every test on both backends, as the games' own tests are.
pytestmark = pytest.mark.backends()

SEED = bytes(range(32))


def host_cells(seed: bytes) -> list[int]:
    """The cells of the first card dealt from ``seed`` (the host's), in the order they are
    called (the free centre aside)."""
    (card,) = cards_at(seed, 0, 1)
    cells = [card.cell_of(number) for number in draw_order(seed, 75)]
    return [cell for cell in cells if cell is not None and cell != FREE_CELL]


def cell_button(message: Message, cell: int) -> str:
    return next(
        cid
        for cid in message.custom_ids
        if re.fullmatch(rf"gn:bingopattern:cell:\d+:{cell:02d}\d[0-9a-f]{{7}}", cid)
    )


def save_button(message: Message) -> str:
    return next(cid for cid in message.custom_ids if ":save:" in cid)


def stored(bot: Any, guild: Any) -> Any:
    return bot.storage.server_records(guild.id, "bingo")


async def draw(member: Any, name: str, cells: list[int], **options: Any) -> Message:
    """``/bingo pattern create name`` and ``cells`` pressed on its grid; the drawing as it
    stands (not saved)."""
    drawing = await (await member.slash("bingo pattern create", name=name, **options)).reply()
    for cell in cells:
        drawing = await (await member.click(drawing, cell_button(drawing, cell))).reply()
    return drawing


async def test_a_pattern_drawn_on_buttons_is_saved_played_and_won(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    grace_over(monkeypatch)
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(
        time_scale=100,
        seed_source=lambda: SEED,
        settings_changes={"public_url": "https://games.example"},
    )
    first, second = host_cells(SEED)[:2]

    drawing = await (await host.slash("bingo pattern create", name="Two Spots")).reply()
    assert drawing.ephemeral
    assert drawing.content.startswith("**Two Spots**")
    assert "Save" in drawing.content
    assert "centre is free" in drawing.content
    assert len(drawing.custom_ids) == 25
    assert drawing.button("Save") is not None
    assert not drawing.attachments  # nothing marked yet: no picture

    drawing = await (await host.click(drawing, cell_button(drawing, first))).reply()
    assert "(1 marked)" in drawing.content
    (picture,) = drawing.attachments
    assert picture.data.startswith(b"\x89PNG")
    assert "Two Spots" in picture.description
    drawing = await (await host.click(drawing, cell_button(drawing, second))).reply()
    assert "(2 marked)" in drawing.content
    # The picture is drawn again with the new cell: the alt text names each row's columns.
    (redrawn,) = drawing.attachments
    assert redrawn.data != picture.data
    assert (
        redrawn.description
        == render_pattern(Pattern.from_cells("two_spots", "Two Spots", [first, second])).alt_text
    )
    # A cell pressed twice is unmarked again.
    drawing = await (
        await host.click(drawing, cell_button(drawing, 0 if 0 not in (first, second) else 4))
    ).reply()
    assert "(3 marked)" in drawing.content
    drawing = await (
        await host.click(drawing, cell_button(drawing, 0 if 0 not in (first, second) else 4))
    ).reply()
    assert "(2 marked)" in drawing.content
    assert await stored(bot, guild) == {}  # not saved until Save

    saved = await (await host.click(drawing, save_button(drawing))).reply()
    assert "Pattern **Two Spots** saved" in saved.content
    assert "patterns:two_spots" in saved.content
    assert saved.custom_ids == []  # the grid is gone
    assert saved.attachments[0].data.startswith(b"\x89PNG")
    expected = Pattern.from_cells("two_spots", "Two Spots", [first, second])
    assert await stored(bot, guild) == {"two_spots": expected.to_text()}

    # The start command offers it, and plays it.
    choices = await host.autocomplete("bingo start", "patterns", "two")
    assert "two_spots" in [choice["value"] for choice in choices]
    lobby = await (await host.slash("bingo start", patterns="two_spots")).reply()
    assert "Two Spots" in lobby.content
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("bingo")
    cog = bot.get_cog("Bingo")
    order = draw_order(SEED, 75)
    (card,) = cards_at(SEED, 0, 1)
    wins_at = max(order.index(card.numbers[cell]) for cell in (first, second)) + 1
    await run_calls(cog, game.id, wins_at)
    won = await (await host.slash("bingo claim")).reply()
    assert f"wins on call {wins_at}" in won.content, won.content
    assert "**Two Spots!**" in won.content
    await emulator.wait_until(
        lambda: not any(g.id == game.id for g in cog.known.values()), 10, lambda: "the game's end"
    )

    # Deleted, the pattern leaves the server; the game played with it still verifies.
    deleted = await (await host.slash("bingo pattern delete", name="two_spots")).reply()
    assert "Pattern **Two Spots** deleted" in deleted.content
    assert await stored(bot, guild) == {}
    verified = await (await host.slash("bingo verify", game=game.id)).reply()
    assert "verified" in verified.content, verified.content
    # Its verification link carries the pattern whole, for the page to recompute the game.
    link = unquote(re.search(r"https://games\.example/verify/\S+", verified.content)[0])
    assert f"patterns={expected.to_text()}&" in link
    assert "prizes=two_spots&" in link
    ending = next(m for m in channel.messages if "https://games.example/verify/" in m.content)
    assert expected.to_text() in unquote(ending.content)


async def test_a_pattern_from_cells_is_listed_and_deleted(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    elsewhere = emulator.add_guild("Elsewhere")
    elsewhere.add_channel("general")
    stranger = elsewhere.add_member("stranger", locale="es-ES")
    bot = await start_bot(time_scale=100)

    made = await (
        await host.slash(
            "bingo pattern create",
            name="Arrow",
            cells="..X.. .XXX. X.X.X ..X.. ..X..",
            any_way_round=True,
        )
    ).reply()
    assert made.ephemeral
    assert "Pattern **Arrow** saved" in made.content
    assert "4 ways count" in made.content
    arrow = Pattern.from_text((await stored(bot, guild))["arrow"])
    assert arrow.name == "Arrow"
    assert len(arrow.masks) == 4
    await (
        await host.slash(
            "bingo pattern create", name="Corazón", cells="..... .X.X. XXXXX .XXX. ..X.."
        )
    ).reply()

    listed = await (await host.slash("bingo pattern list")).reply()
    assert listed.ephemeral
    assert "(2 of at most 25)" in listed.content
    assert "**Arrow** (`arrow`)" in listed.content
    assert "**Corazón** (`corazon`)" in listed.content
    (book,) = listed.attachments
    assert "Arrow" in book.description
    assert "Corazón" in book.description

    choices = await host.autocomplete("bingo pattern delete", "name", "cora")
    assert [choice["value"] for choice in choices] == ["corazon"]

    # Another server has patterns of its own (none yet), and its Spanish member reads Spanish.
    assert await stranger.autocomplete("bingo pattern delete", "name", "") == []
    theirs = await (await stranger.slash("bingo pattern list")).reply()
    assert "aún no tiene figuras propias" in theirs.content
    grid = await (await stranger.slash("bingo pattern create", name="Corazón")).reply()
    assert grid.button("Guardar") is not None
    assert "El centro es libre" in grid.content
    refused = await (await stranger.slash("bingo start", patterns="corazon")).reply()
    assert refused.ephemeral
    assert "no es una figura" in refused.content
    assert await bot.storage.server_records(elsewhere.id, "bingo") == {}
    gone = await (await host.slash("bingo pattern delete", name="corazon")).reply()
    assert "Pattern **Corazón** deleted" in gone.content
    unknown = await (await host.slash("bingo pattern delete", name="corazon")).reply()
    assert unknown.ephemeral
    assert "no pattern of its own called corazon" in unknown.content
    assert list(await stored(bot, guild)) == ["arrow"]


async def test_refusals_are_private_and_clear(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    monkeypatch.setattr(bot.get_cog("Bingo"), "pattern_limit", 2)

    async def refused(**options: Any) -> str:
        reply = await (await host.slash("bingo pattern create", **options)).reply()
        assert reply.ephemeral
        return reply.content

    assert "built-in pattern's name" in await refused(name="Blackout", cells="XXXXX " * 5)
    assert "built-in pattern's name" in await refused(name="cualquier línea", cells="XXXXX " * 5)
    assert "at most 40 characters; that one has 41" in await refused(name="a" * 41)
    assert "without / , = +" in await refused(name="one, two")
    assert "is not a drawing" in await refused(name="Odd", cells="XXXX")
    assert "Mark at least one cell" in await refused(
        name="Empty", cells="..... ..... ..X.. ..... ....."
    )
    # The drawing's Save refuses an empty grid and keeps it.
    drawing = await (await host.slash("bingo pattern create", name="Empty")).reply()
    empty = await (await host.click(drawing, save_button(drawing))).reply()
    assert empty.ephemeral
    assert "Mark at least one cell" in empty.content
    assert len(drawing.custom_ids) == 25

    await (
        await host.slash("bingo pattern create", name="Dot", cells="X.... ..... ..... ..... .....")
    ).reply()
    assert "already has a pattern called **Dot**" in await refused(
        name="dot!", cells="....X " + "..... " * 4
    )
    late = await draw(host, "Late", [3])  # begun while there is room
    dash = await (
        await host.slash("bingo pattern create", name="Dash", cells="XX... ..... ..... ..... .....")
    ).reply()
    assert "saved" in dash.content, dash.content
    assert "already keeps 2 patterns" in await refused(name="Third", cells="XXX.. " + "..... " * 4)
    assert "already keeps 2 patterns" in await refused(name="Third")
    # The drawing begun before the server filled up is refused at its Save, and stays.
    full = await (await host.click(late, save_button(late))).reply()
    assert full.ephemeral
    assert "already keeps 2 patterns" in full.content
    assert len(late.custom_ids) == 25
    assert list(await stored(bot, guild)) == ["dash", "dot"]

    # Only those who may host create or delete.
    hosts = guild.add_role("hosts")
    manager = guild.add_member("manager", manage_guild=True)
    await (await manager.slash("gamenight settings", host_role=hosts)).reply()
    player = guild.add_member("player")
    for command, options in (
        ("bingo pattern create", {"name": "Mine", "cells": "X.... " * 5}),
        ("bingo pattern delete", {"name": "dot"}),
    ):
        reply = await (await player.slash(command, **options)).reply()
        assert reply.ephemeral
        assert f"Only members with <@&{hosts.id}>" in reply.content, reply.content
    assert list(await stored(bot, guild)) == ["dash", "dot"]


async def test_only_the_creator_presses_the_grid(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    other = guild.add_member("other")
    bot = await start_bot(time_scale=100)
    drawing = await draw(host, "Mine", [0, 6])

    # Discord shows the drawing to its creator alone: another member's press is crafted.
    for custom_id in (cell_button(drawing, 1), save_button(drawing)):
        crafted = await emulator.start_interaction(
            InteractionType.MESSAGE_COMPONENT,
            other.user,
            channel,
            {"custom_id": custom_id, "component_type": 2},
            source_message=drawing,
            custom_id=custom_id,
        )
        reply = await crafted.reply()
        assert reply.ephemeral
        assert "Only the member drawing this pattern" in reply.content
    assert "(2 marked)" in drawing.content
    assert await stored(bot, guild) == {}


async def test_a_restart_keeps_drawings_and_patterns(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100, seed_source=lambda: SEED)
    drawing = await draw(host, "Before", [0, 1])
    await bot.stop_for_test()

    # The bot restarts: the drawing carries on, and is saved.
    bot = await start_bot(time_scale=100, seed_source=lambda: SEED)
    drawing = await (await host.click(drawing, cell_button(drawing, 2))).reply()
    assert drawing.content.startswith("**Before**")
    assert "(3 marked)" in drawing.content
    saved = await (await host.click(drawing, save_button(drawing))).reply()
    assert "Pattern **Before** saved" in saved.content
    await bot.stop_for_test()

    # Another restart, then the pattern is played: held in memory from the database.
    bot = await start_bot(time_scale=100, seed_source=lambda: SEED)
    choices = await host.autocomplete("bingo start", "patterns", "bef")
    assert "before" in [choice["value"] for choice in choices]
    lobby = await (await host.slash("bingo start", patterns="before, blackout")).reply()
    assert "Before" in lobby.content
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("bingo")
    await run_calls(bot.get_cog("Bingo"), game.id, 5)

    # Deleted mid-game, the pattern stays in the game, which restarts with it.
    await (await host.slash("bingo pattern delete", name="before")).reply()
    await bot.stop_for_test()
    bot = await start_bot(time_scale=100, seed_source=lambda: SEED)
    assert await stored(bot, guild) == {}
    cog = bot.get_cog("Bingo")
    state = cog.state_of(await bot.storage.get_game(game.id))
    assert [pattern.name for pattern in state.patterns] == ["Before", "Blackout"]
    await run_calls(cog, game.id, 1)
    assert len(await bot.storage.draws(game.id)) == 6


async def test_every_pattern_interaction_is_answered_before_the_database(
    emulator: Emulator, start_bot
):
    """Commands, presses and the autocompletes are acknowledged (or answered from memory) while
    the database hangs, as every interaction of the bot is (tests/cogs/test_stuck_database.py)."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100)
    await (await host.slash("bingo pattern create", name="Held", cells="X.... " * 5)).reply()
    db = StuckDatabase(bot.storage)

    made = await answered_while_stuck(
        db, lambda: host.slash("bingo pattern create", name="Stuck", cells="XX... " * 5)
    )
    assert "Pattern **Stuck** saved" in (await made.reply()).content
    opened = await answered_while_stuck(db, lambda: host.slash("bingo pattern create", name="Grid"))
    grid = await opened.reply()
    pressed = await answered_while_stuck(db, lambda: host.click(grid, cell_button(grid, 0)))
    grid = await pressed.reply()
    saved = await answered_while_stuck(db, lambda: host.click(grid, save_button(grid)))
    assert "Pattern **Grid** saved" in (await saved.reply()).content
    listed = await answered_while_stuck(db, lambda: host.slash("bingo pattern list"))
    assert "(3 of at most 25)" in (await listed.reply()).content
    for command, option in (("bingo pattern delete", "name"), ("bingo start", "patterns")):
        async with db.stuck():
            choices = await host.autocomplete(command, option, "hel")
        assert "held" in [choice["value"] for choice in choices]
    deleted = await answered_while_stuck(
        db, lambda: host.slash("bingo pattern delete", name="held")
    )
    assert "deleted" in (await deleted.reply()).content
    assert list(await stored(bot, guild)) == ["grid", "stuck"]


async def test_a_custom_pattern_as_the_servers_default_and_a_planned_nights(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    other = guild.add_channel("other")
    manager = guild.add_member("manager", manage_guild=True)
    host = guild.add_member("host")
    elsewhere = emulator.add_guild("Elsewhere")
    elsewhere.add_channel("general")
    their_manager = elsewhere.add_member("their-manager", manage_guild=True)
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Bingo")
    await (
        await host.slash(
            "bingo pattern create", name="Corazón", cells="..... .X.X. XXXXX .XXX. ..X.."
        )
    ).reply()

    # The server's own pattern is a default it may choose, offered as it is typed; not another
    # server's.
    offered = await manager.autocomplete("gamenight settings", "prizes", "line, cora", game="bingo")
    assert [c["value"] for c in offered] == ["line, corazon"]
    theirs = await (
        await their_manager.slash("gamenight settings", game="bingo", prizes="corazon")
    ).reply()
    assert theirs.ephemeral
    assert "'corazon' is not a pattern" in theirs.content
    chosen = await (
        await manager.slash("gamenight settings", game="bingo", prizes="line, Corazon")
    ).reply()
    assert "Any line → Corazón" in chosen.content
    assert bot.settings_of(guild.id).defaults("bingo").prizes == "line, corazon"

    # A start with no patterns plays it, and so does a planned night.
    lobby = await (await host.slash("bingo start", in_channel=other)).reply()
    assert "Patterns: **Any line → Corazón**" in lobby.content
    await (await host.click(lobby, button_id(lobby, "cancel"))).reply()
    await (await host.slash("bingo schedule", when="in 20 minutes")).reply()
    emulator.advance_clock(15 * 60)
    bot.clock_offset += 15 * 60
    cog.nights_wake.set()
    opened = await channel.wait_for_message(lambda m: "Planned game night #1" in m.content)
    assert "Patterns: **Any line → Corazón**" in opened.content
    (night,) = await bot.storage.pending_schedules("bingo")
    game = await bot.storage.get_game(night.game_id)
    assert cog.state_of(game).prize_codes == ("line", "corazon")

    # Deleted since: the settings say so, a start with no patterns and a night are refused
    # clearly, and the prize is named as words rather than its code.
    await (await host.slash("bingo pattern delete", name="corazon")).reply()
    shown = await (await manager.slash("gamenight settings")).reply()
    assert "Any line → Corazon (deleted since)" in shown.content
    refused = await (await host.slash("bingo start", in_channel=other)).reply()
    assert refused.ephemeral
    assert (
        "The server's default Bingo patterns include Corazon, a pattern of this server's own "
        "that was deleted since: change them with `/gamenight settings game:bingo prizes:`."
    ) in refused.content
    assert [live.id for live in await bot.storage.live_games("bingo")] == [game.id]
    assert cog.prize_name("corazon") == "Corazon"
    await (await host.slash("bingo schedule", when="in 20 minutes", in_channel=other)).reply()
    emulator.advance_clock(15 * 60)
    bot.clock_offset += 15 * 60
    cog.nights_wake.set()
    missed = await host.wait_for_dm(lambda m: "could not open" in m.content)
    assert missed.content == (
        f"Your Bingo night #2 could not open in <#{other.id}>: The server's default Bingo "
        "patterns include Corazon, a pattern of this server's own that was deleted since: "
        "change them with `/gamenight settings game:bingo prizes:`."
    )
    assert not [m for m in other.messages if "Planned game night #2" in m.content]
