"""Tic-tac-toe's sample pictures (``python -m bot.render --sample``): a game won, a draw, a 5x5
board, long names in other scripts and one in Spanish."""

from __future__ import annotations

from bot.render import Rendered
from bot.render.common import SAMPLE_GAME
from bot.render.tictactoe import render_tictactoe
from engine.tictactoe import TicTacToe


def sample_pictures() -> list[tuple[str, Rendered]]:
    """Each kind of board once, then one as a Spanish server or player gets it (``-es``)."""
    won = TicTacToe.from_state("3/3/XOXOX.O.X")
    drawn = TicTacToe.from_state("3/3/XOXXOOOXX")
    big = TicTacToe.from_state("5/4/XOOO..X.....X.....X......")  # X's diagonal of four
    return [
        (
            "tictactoe-won.png",
            render_tictactoe(won, game_id=SAMPLE_GAME, x_name="Alice", o_name="Bob"),
        ),
        (
            "tictactoe-draw.png",
            render_tictactoe(drawn, game_id=SAMPLE_GAME, x_name="Alice", o_name="GameNight"),
        ),
        (
            "tictactoe-5x5.png",
            render_tictactoe(big, game_id=SAMPLE_GAME, x_name="Alice", o_name="Bob"),
        ),
        (
            "tictactoe-names.png",
            render_tictactoe(
                won,
                game_id=SAMPLE_GAME,
                x_name="Maximiliano Alessandro Fernández",
                o_name="अर्जुन शर्मा 🇮🇳",
                forfeit="अर्जुन शर्मा 🇮🇳 ran out of time: Maximiliano Alessandro Fernández wins",
            ),
        ),
        (
            "tictactoe-es.png",
            render_tictactoe(
                TicTacToe.from_state("3/3/XOXOX.O.X"),
                game_id=SAMPLE_GAME,
                x_name="Alicia",
                o_name="Beto",
                locale="es-ES",
            ),
        ),
    ]
