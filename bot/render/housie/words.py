"""Housie's pictures' words, in English and Spanish: those drawn on its tickets, the caller's
board and its calls, its prizes' names, those of its /help picture of the prizes (``help.py``)
and of its tickets in the end picture (``results.py``), and their alt text.

The renderer imports this module, which registers them with ``bot.i18n`` (``register_messages``):
whatever draws or names them has them once the renderer is imported."""

from __future__ import annotations

from bot.i18n import Text, register_messages

MESSAGES: dict[str, tuple[Text, Text]] = {
    # Its tickets in the end picture (results.py).
    "result_call_number": (
        "Ticket {ticket} · call {seq}: number {number}",
        "Cartón {ticket} · cantada {seq}: el {number}",
    ),
    "result_housie_title": ("HOUSIE", "TÓMBOLA"),
    "result_alt_housie_head": (
        "Housie game {game}, the winners{page}.",
        "Tómbola, partida {game}: los ganadores{page}.",
    ),
    "result_alt_housie": (
        "{prize}{shared}: {name}, ticket {ticket}, on call {seq} (number {number}), with "
        "{numbers}.",
        "{prize}{shared}: {name}, cartón {ticket}, en la cantada {seq} (el {number}), con "
        "{numbers}.",
    ),
    "result_alt_housie_short": (
        "{prize}{shared}: {name}, ticket {ticket}, on call {seq} (number {number}).",
        "{prize}{shared}: {name}, cartón {ticket}, en la cantada {seq} (el {number}).",
    ),
    # Its /help picture of the prizes (help.py) and its alt text.
    "help_pic_housie_name": ("Housie", "Tómbola"),
    "help_pic_housie_title": ("Prizes", "Premios"),
    "help_pic_early_five": ("any five numbers", "cinco números cualesquiera"),
    "help_pic_top_line": ("the five numbers of the top row", "los cinco números de arriba"),
    "help_pic_middle_line": ("the five numbers of the middle row", "los cinco números del medio"),
    "help_pic_bottom_line": ("the five numbers of the bottom row", "los cinco números de abajo"),
    "help_pic_four_corners": (
        "the first and last numbers of the top and bottom rows",
        "primer y último número de las filas de arriba y de abajo",
    ),
    "help_pic_full_house": ("all fifteen numbers", "los quince números"),
    "help_pic_extra_houses": (
        "{second} and {third}, when played: the next tickets to fill all fifteen numbers.",
        "{second} y {third}, si se juegan: los siguientes cartones en llenar los quince números.",
    ),
    "help_alt_housie": (
        "Housie prizes: six copies of one ticket, each with the numbers of one prize dabbed on "
        "gold. The ticket: {rows}.",
        "Premios de la tómbola: seis copias de un cartón, cada una con los números de un premio "
        "marcados sobre dorado. El cartón: {rows}.",
    ),
    "help_alt_ticket_row": ("row {row}: {numbers}", "fila {row}: {numbers}"),
    # Its tickets, the caller's board and its calls.
    "pic_ticket_number": ("TICKET {number}", "CARTÓN {number}"),
    "pic_ticket_out": ("Out", "Fuera"),
    "pic_ticket_won": ("{prize}!", "¡{prize}!"),
    "pic_ticket_winner": ("Winner!", "¡Premio!"),
    "pic_ticket_code": ("Code", "Código"),
    "pic_housie_called": ("Called {count} of {total}", "Cantados {count} de {total}"),
    "pic_housie_latest": ("Latest", "Último"),
    "pic_housie_before": ("before: {numbers}", "antes: {numbers}"),
    "pic_housie_earlier": ("Earlier calls, latest first", "Números anteriores, el último primero"),
    "pic_housie_first": ("First call of the game", "Primer número de la partida"),
    # The prizes by name (``prize_name``; ``Prize.display_name`` in English).
    "housie_prize_early_five": ("Early Five", "Cinco primeros"),
    "housie_prize_top_line": ("Top Line", "Línea de arriba"),
    "housie_prize_middle_line": ("Middle Line", "Línea del medio"),
    "housie_prize_bottom_line": ("Bottom Line", "Línea de abajo"),
    "housie_prize_four_corners": ("Four Corners", "Cuatro esquinas"),
    "housie_prize_full_house": ("Full House", "Cartón lleno"),
    "housie_prize_second_house": ("Second Full House", "Segundo cartón lleno"),
    "housie_prize_third_house": ("Third Full House", "Tercer cartón lleno"),
    # The alt text of its tickets, the caller's board and its calls.
    "alt_housie_ticket": ("Housie ticket", "Cartón de tómbola"),
    "alt_housie_ticket_number": ("Housie ticket {number}", "Cartón de tómbola {number}"),
    "alt_housie_ticket_head": (
        "{name} (code {code}), game {game}.",
        "{name} (código {code}), partida {game}.",
    ),
    "alt_housie_out": (
        " Out of the game after a false claim.",
        " Fuera de la partida tras un reclamo falso.",
    ),
    "alt_housie_marked": (" Marked {count} of {total}", " Marcados {count} de {total}"),
    "alt_housie_winning": (
        " Winning {prize}: {numbers}.",
        " Números premiados ({prize}): {numbers}.",
    ),
    "alt_housie_winning_numbers": (" Winning: {numbers}.", " Números ganadores: {numbers}."),
    "alt_housie_board_empty": (
        "Housie caller's board: no numbers called yet.",
        "Tablero de la tómbola: aún no se ha cantado ningún número.",
    ),
    "alt_housie_board": (
        "Housie caller's board: {count} of {total} called, latest {latest}.",
        "Tablero de la tómbola: {count} de {total} cantados, el último el {latest}.",
    ),
    "alt_housie_board_all": (
        " Every number has been called.",
        " Ya se cantaron todos los números.",
    ),
    "alt_housie_board_called": (" Called: {numbers}.", " Cantados: {numbers}."),
    "alt_housie_board_waiting": (" Not yet called: {numbers}.", " Sin cantar aún: {numbers}."),
    "alt_housie_call": (
        "Housie call {seq} of {total}: number {number}",
        "Tómbola, cantada {seq} de {total}: el número {number}",
    ),
}

register_messages(MESSAGES, owner=__name__)
