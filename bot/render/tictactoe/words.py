"""Tic-tac-toe's picture's words, in English and Spanish: its title and its alt text.

The renderer imports this module, which registers them with ``bot.i18n`` (``register_messages``):
whatever draws or names them has them once the renderer is imported."""

from __future__ import annotations

from bot.i18n import Text, register_messages

MESSAGES: dict[str, tuple[Text, Text]] = {
    "pic_tictactoe_title": ("TIC-TAC-TOE", "TRES EN RAYA"),
    "alt_tictactoe": (
        "Tic-tac-toe game {game}, {size}x{size} board ({k} in a row wins), {x} as X against {o} "
        "as O.",
        "Tres en raya, partida {game}, tablero de {size}x{size} (gana quien haga {k} en raya), "
        "{x} con X contra {o} con O.",
    ),
    "alt_tictactoe_empty": ("empty", "vacía"),
    "alt_tictactoe_cell": ("row {row} column {column}", "fila {row} columna {column}"),
    "alt_tictactoe_winning": (" Winning cells: {cells}.", " Casillas ganadoras: {cells}."),
}

register_messages(MESSAGES, owner=__name__)
