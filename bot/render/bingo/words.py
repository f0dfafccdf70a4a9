"""Bingo's pictures' words, in English and Spanish: those drawn on its cards, its calls, the
caller's board and its pattern pictures, the built-in patterns' names, its cards in the end
picture (``results.py``), and their alt text.

The renderer imports this module, which registers them with ``bot.i18n`` (``register_messages``):
whatever draws or names them has them once the renderer is imported."""

from __future__ import annotations

from bot.i18n import Text, register_messages

# The built-in patterns' names (engine.bingo.PATTERN_BOOK, by code); a custom pattern keeps the
# name its server gave it.
PATTERN_NAMES: dict[str, tuple[str, str]] = {
    "line": ("Any line", "Cualquier línea"),
    "corners": ("Four corners", "Cuatro esquinas"),
    "x": ("X", "Equis"),
    "plus": ("Plus", "Cruz"),
    "stamp": ("Postage stamp", "Estampilla"),
    "any_stamp": ("Postage stamp anywhere", "Estampilla en cualquier lugar"),
    "small_diamond": ("Small diamond", "Diamante chico"),
    "large_diamond": ("Large diamond", "Diamante grande"),
    "frame": ("Picture frame", "Marco"),
    "inner_frame": ("Inner frame", "Marco interior"),
    "letter_t": ("Letter T", "Letra T"),
    "any_t": ("Letter T any way round", "Letra T en cualquier sentido"),
    "letter_l": ("Letter L", "Letra L"),
    "any_l": ("Letter L any way round", "Letra L en cualquier sentido"),
    "letter_h": ("Letter H", "Letra H"),
    "any_h": ("Letter H any way round", "Letra H en cualquier sentido"),
    "blackout": ("Blackout", "Cartón lleno"),
}

MESSAGES: dict[str, tuple[Text, Text]] = {
    **{f"pic_bingo_pattern_{code}": names for code, names in PATTERN_NAMES.items()},
    # Its cards.
    "pic_bingo_title": ("BINGO", "BINGO"),
    "pic_bingo_free": ("FREE", "LIBRE"),
    "pic_bingo_card_number": ("CARD {number}", "CARTÓN {number}"),
    "pic_bingo_won": ("{pattern}!", "¡{pattern}!"),
    "pic_bingo_playing": ("Playing: {pattern}", "Se juega: {pattern}"),
    "pic_bingo_marked": ("Marked {count} of {total}", "Marcados {count} de {total}"),
    # Its calls and the caller's board.
    "pic_bingo_earlier": ("Earlier calls", "Cantadas anteriores"),
    "pic_bingo_first": ("The first call", "La primera cantada"),
    "pic_bingo_called": ("{count} of {total} called", "{count} de {total} cantados"),
    "pic_bingo_latest": ("Latest", "Último"),
    # Its pattern pictures (the lobby and /help).
    "pic_bingo_patterns": ("Patterns", "Patrones"),
    "pic_bingo_ways": ("any of {count} ways", "vale de {count} formas"),
    # Its cards in the end picture (results.py).
    "result_bingo_title": ("BINGO!", "¡BINGO!"),
    "result_bingo_call": (
        "Card {card} · call {seq}: {call}",
        "Cartón {card} · cantada {seq}: {call}",
    ),
    "result_alt_bingo_head": (
        "Bingo game {game}, the winners{page}.",
        "Bingo, partida {game}: los ganadores{page}.",
    ),
    "result_alt_bingo": (
        "{prize}{shared}: {name}, card {card}, on call {seq} ({call}), with {numbers}.",
        "{prize}{shared}: {name}, cartón {card}, en la cantada {seq} ({call}), con {numbers}.",
    ),
    "result_alt_bingo_short": (
        "{prize}{shared}: {name}, card {card}, on call {seq} ({call}).",
        "{prize}{shared}: {name}, cartón {card}, en la cantada {seq} ({call}).",
    ),
    # Alt text.
    "alt_bingo_card_head": (
        "Bingo card {number}, game {game}, by column:",
        "Cartón de bingo {number}, partida {game}, por columna:",
    ),
    "alt_bingo_free": ("free", "libre"),
    "alt_bingo_playing": (" Playing for {pattern}.", " Se juega: {pattern}."),
    "alt_bingo_marked": (" Marked {count} of {total}", " Marcados {count} de {total}"),
    "alt_bingo_winning": (
        " Winning {pattern}, outlined: {numbers}.",
        " Premiado ({pattern}), recuadrado: {numbers}.",
    ),
    "alt_bingo_call": (
        "Bingo call {seq} of {total}: {name}.",
        "Bingo, cantada {seq} de {total}: {name}.",
    ),
    "alt_bingo_board_empty": (
        "Bingo caller's board: no numbers called yet.",
        "Tablero del bingo: aún no se ha cantado ningún número.",
    ),
    "alt_bingo_board": (
        "Bingo caller's board: {count} of {total} called, latest {latest}.",
        "Tablero del bingo: {count} de {total} cantados, el último {latest}.",
    ),
    "alt_bingo_board_all": (
        " Every number has been called.",
        " Ya se cantaron todos los números.",
    ),
    "alt_bingo_board_called": (" Called: {numbers}.", " Cantados: {numbers}."),
    "alt_bingo_board_waiting": (" Not yet called: {numbers}.", " Sin cantar aún: {numbers}."),
    "alt_bingo_pattern": ("Bingo pattern {name}: {rows}.", "Patrón de bingo {name}: {rows}."),
    "alt_bingo_pattern_ways": (
        " It counts in any of {count} ways; the first is shown.",
        " Vale de {count} formas; se muestra la primera.",
    ),
    "alt_bingo_pattern_row": ("row {row}: {columns}", "fila {row}: {columns}"),
    "alt_bingo_pattern_book": ("Bingo patterns: {items}", "Patrones de bingo: {items}"),
}

register_messages(MESSAGES, owner=__name__)
