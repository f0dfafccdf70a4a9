"""The table games' options, typed (``bot.table.options``, and each game's subclass): the stored
form is the one the games always wrote, so rows stored before load, and are written back with
everything they held."""

from __future__ import annotations

import time

import pytest

from bot.storage import GameStatus
from bot.table import DuelOptions
from cogs.dots import DotsOptions
from cogs.tictactoe import TicTacToeOptions
from cogs.triangle import TriangleOptions
from emulator import Emulator
from engine.tictactoe import Rules, TicTacToe
from tests.cogs.test_components import OLD, post_old

# Options as the games stored them before they were typed (written out from their rows).
A_DUEL_AGAINST_THE_BOT = {
    "size": 3,
    "turn_time": 120,
    "guild_locale": "es-ES",
    "seats": [111, 0],
    "names": ["ana", "Game Night"],
    "level": "perfect",
    "deadline": 1767225600.25,
    "last": ["X en el centro", "O en la esquina"],
}
A_DRAW_WITH_A_REMATCH = {
    "rows": 2,
    "columns": 3,
    "turn_time": 60,
    "guild_locale": "",
    "seats": [222, 111],
    "names": ["bob", "ana"],
    "last": ["🟥 A1-B1"],
    "winner": None,
    "end": "",
    "rematch": 9,
}
A_PUZZLE_JUST_OPENED = {"deadline": 1767225600.5, "hints": 0, "guild_locale": "en-US"}
A_PUZZLE_PICKED = {"deadline": 1767225600.5, "hints": 2, "guild_locale": "", "selected": 4}


@pytest.mark.parametrize(
    ("options_type", "stored"),
    [
        (TicTacToeOptions, A_DUEL_AGAINST_THE_BOT),
        (DotsOptions, A_DRAW_WITH_A_REMATCH),
        (TriangleOptions, A_PUZZLE_JUST_OPENED),
        (TriangleOptions, A_PUZZLE_PICKED),
    ],
)
def test_stored_options_load_and_are_written_back_the_same(options_type, stored):
    options = options_type.from_stored(stored)
    assert options.to_stored() == stored
    assert options.extra == {}


def test_the_options_read_typed():
    duel = TicTacToeOptions.from_stored(A_DUEL_AGAINST_THE_BOT)
    assert (duel.size, duel.seats, duel.level, duel.turn_time) == (3, (111, 0), "perfect", 120)
    assert (duel.winner, duel.end, duel.rematch) == (None, None, None)  # not over
    draw = DotsOptions.from_stored(A_DRAW_WITH_A_REMATCH)
    assert (draw.rows, draw.columns, draw.winner, draw.end, draw.level) == (2, 3, None, "", None)
    puzzle = TriangleOptions.from_stored(A_PUZZLE_PICKED)
    assert (puzzle.hints, puzzle.selected, puzzle.end) == (2, 4, None)


def test_a_finished_duel_stores_its_winner_even_a_draw_and_a_running_one_none():
    running = DuelOptions.from_stored(A_DRAW_WITH_A_REMATCH).but(winner=None, end=None)
    assert "winner" not in running.to_stored()
    assert "end" not in running.to_stored()
    drawn = running.but(end="", deadline=None)
    assert drawn.to_stored()["winner"] is None
    assert drawn.to_stored()["end"] == ""


def test_a_puzzle_put_away_leaves_no_peg_picked():
    """The one difference: a peg no longer picked is left out, where it was stored as null;
    both read as none picked, by this version and the ones before (``options.get``)."""
    put_away = TriangleOptions.from_stored({**A_PUZZLE_PICKED, "selected": None, "end": "given up"})
    assert put_away.selected is None
    assert put_away.to_stored() == {
        "hints": 2,
        "guild_locale": "",
        "deadline": 1767225600.5,
        "end": "given up",
    }


def test_unknown_options_are_kept_and_misspelt_ones_refused():
    stored = {**A_DUEL_AGAINST_THE_BOT, "from_a_newer_version": [1, 2]}
    options = TicTacToeOptions.from_stored(stored)
    assert options.extra == {"from_a_newer_version": [1, 2]}
    assert options.but(deadline=None).to_stored() == {
        key: value for key, value in stored.items() if key != "deadline"
    }
    with pytest.raises(TypeError):
        options.but(szie=4)  # (and a type error for mypy: the option is named size)
    with pytest.raises(TypeError):
        TicTacToeOptions.from_stored({k: v for k, v in stored.items() if k != "size"})


async def test_a_game_stored_before_the_options_were_typed_plays_on(emulator: Emulator, start_bot):
    """A duel whose row was written before, an option of another version in it: after a
    restart its old buttons still play, and the row keeps everything it held."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    ana, bob = guild.add_member("ana"), guild.add_member("bob")
    bot = await start_bot(time_scale=1)
    stored = {
        "size": 3,
        "turn_time": 120,
        "guild_locale": "",
        "seats": [ana.id, bob.id],
        "names": ["ana", "bob"],
        "deadline": time.time() + 600,
        "from_an_older_version": "kept",
    }
    game = await bot.storage.create_game(
        kind="tictactoe",
        guild_id=guild.id,
        channel_id=channel.id,
        host_id=ana.id,
        seed=b"s" * 32,
        options=stored,
        state=TicTacToe(Rules.standard(3)).to_state(),
        status=GameStatus.RUNNING,
    )
    for member in (ana, bob):
        await bot.storage.add_player(
            game.id, member.id, display_name=member.name, locale="", boards=lambda _s, _f: []
        )
    old = await post_old(bot, channel, *(f"gn:ttt:cell:{game.id}:{cell}" for cell in (4, 0)))
    await bot.storage.update_game(game.id, lobby_message_id=old.id)
    await bot.stop_for_test()

    bot = await start_bot(time_scale=1)
    await (await ana.click(old, f"gn:ttt:cell:{game.id}:4")).acknowledgement()
    await emulator.wait_until(lambda: old.content != OLD, 5, "the board shown")
    after = (await bot.storage.get_game(game.id)).options
    assert after["from_an_older_version"] == "kept"
    assert after["last"] == ["X on row 2, column 2"]
    assert after["seats"] == [ana.id, bob.id]
    assert {key: after[key] for key in ("size", "turn_time", "names")} == {
        "size": 3,
        "turn_time": 120,
        "names": ["ana", "bob"],
    }
