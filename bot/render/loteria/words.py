"""Lotería's pictures' words, in English and Spanish: those drawn on its tablas and calls, on
its /help picture of the winning patterns (``help.py``) and on its boards in the end picture
(``results.py``), and their alt text.

The renderer imports this module, which registers them with ``bot.i18n`` (``register_messages``):
whatever draws or names them has them once the renderer is imported."""

from __future__ import annotations

from bot.i18n import Text, register_messages

MESSAGES: dict[str, tuple[Text, Text]] = {
    # The caller's board, the frames of the replay (bot/render/replay.py).
    "pic_loteria_board_called": (
        "Cards called: {count} of {total}",
        "Cartas cantadas: {count} de {total}",
    ),
    # Its boards in the end picture (results.py).
    "result_call_card": ("Call {seq}: {card}", "Cantada {seq}: {card}"),
    "result_alt_loteria_head": (
        "Lotería game {game}, the winners{page}.",
        "Lotería, partida {game}: los ganadores{page}.",
    ),
    "result_alt_loteria": (
        "{prize}{shared}: {name}, on call {seq} ({card}), with {cards}.",
        "{prize}{shared}: {name}, en la cantada {seq} ({card}), con {cards}.",
    ),
    "result_alt_loteria_short": (
        "{prize}{shared}: {name}, on call {seq} ({card}).",
        "{prize}{shared}: {name}, en la cantada {seq} ({card}).",
    ),
    # Its /help picture of the winning patterns (help.py) and its alt text.
    "help_pic_loteria_title": ("Winning patterns", "Figuras ganadoras"),
    "help_pic_line": ("any row, column or diagonal", "cualquier fila, columna o diagonal"),
    "help_pic_corners": ("the four corner cards", "las cuatro cartas de las esquinas"),
    "help_pic_centre": ("the four cards in the middle", "las cuatro cartas del centro"),
    "help_pic_square": ("any 2x2 block", "cualquier bloque de 2x2"),
    "help_pic_full": ("all sixteen cards", "las dieciséis cartas"),
    "help_pic_slept_name": ("Slept rule", "Regla del dormido"),
    "help_pic_slept": (
        "the shape must include the last card called (the star)",
        "la figura debe incluir la última carta cantada (la estrella)",
    ),
    "help_alt_loteria": (
        "Lotería's winning patterns: six small 4x4 tablas, with the cards that win under beans "
        "and ringed in gold.",
        "Las figuras ganadoras de la Lotería: seis tablas pequeñas de 4x4, con frijoles y un "
        "marco dorado en las cartas que ganan.",
    ),
    "help_alt_line": (
        "any row, column or diagonal; the picture shows the top row",
        "cualquier fila, columna o diagonal; la imagen muestra la fila de arriba",
    ),
    "help_alt_corners": ("the four corner cards", "las cuatro cartas de las esquinas"),
    "help_alt_centre": ("the four cards in the middle", "las cuatro cartas del centro"),
    "help_alt_square": (
        "any 2x2 block; the picture shows the top left one",
        "cualquier bloque de 2x2; la imagen muestra el de arriba a la izquierda",
    ),
    "help_alt_full": ("all sixteen cards", "las dieciséis cartas"),
    "help_alt_slept": (
        "with it on, the winning shape must include the last card called; the picture shows the "
        "second column completed, its third card starred as the last one called",
        "con ella, la figura ganadora debe incluir la última carta cantada; la imagen muestra la "
        "segunda columna completa, con una estrella en su tercera carta, la última cantada",
    ),
    # Its tablas and calls.
    "pic_tabla_number": ("Tabla {number}", "Tabla {number}"),
    "pic_loteria_earlier": ("Earlier calls, latest first", "Cartas anteriores, la última primero"),
    "pic_loteria_first": ("First call of the game", "Primera carta de la partida"),
    # The alt text of its tablas and calls.
    "alt_loteria_tabla": (
        "Lotería tabla {number}, game {game}.",
        "Tabla de Lotería {number}, partida {game}.",
    ),
    "alt_loteria_marked": (" Marked {count} of {total}", " Marcadas {count} de {total}"),
    "alt_loteria_winning": (
        " Winning {pattern}: {cards}.",
        " Cartas ganadoras ({pattern}): {cards}.",
    ),
    "alt_loteria_winning_cells": (" Winning: {cards}.", " Cartas ganadoras: {cards}."),
    "alt_loteria_card": ("Lotería card {number}: {name}.", "Carta de Lotería {number}: {name}."),
    "alt_loteria_call": (
        "Call {seq} of {total}: card {number}, {name}.",
        "Cantada {seq} de {total}: carta {number}, {name}.",
    ),
    "alt_loteria_verse": (" Verse: “{verse}”", " Verso: “{verse}”"),
}

register_messages(MESSAGES, owner=__name__)
