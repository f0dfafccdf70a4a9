"""Dots and Boxes's words: what its cog says, its pages of /help and its engine's reasons, in
English and Spanish, and its commands' Spanish names and descriptions.

The cog imports this module, which registers them with ``bot.i18n`` (``register_messages``).
The words every game shares stay in ``bot/i18n.py``; those its pictures draw sit beside its
renderer (``bot/render/dots/words.py``)."""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages

# Command, option and choice names and descriptions: English source -> Spanish.
COMMAND_TRANSLATIONS: dict[str, str] = {
    "dots": "timbiriche",
    "move": "mover",
    "rows": "filas",
    "columns": "columnas",
    "line": "línea",
    "Hard": "Difícil",
    "Play Dots and Boxes": "Juega a puntos y cajas (timbiriche)",
    "Challenge a member to Dots and Boxes, or play me": (
        "Reta a un miembro a puntos y cajas, o juega contra mí"
    ),
    "Rows of boxes (2-5)": "Filas de cajas (2-5)",
    "Columns of boxes (2-5)": "Columnas de cajas (2-5)",
    "Draw a line, e.g. A1-A2": "Traza una línea, p. ej. A1-A2",
    "Two neighbouring dots, e.g. A1-A2 or B2-C2": "Dos puntos vecinos, p. ej. A1-A2 o B2-C2",
    "Resign your Dots and Boxes game": "Ríndete en tu partida de timbiriche",
}

# key -> (English, Spanish), formatted with str.format(**values).
MESSAGES: dict[str, tuple[Text, Text]] = {
    # What the cog says (cogs/dots/__init__.py). English templates name the game
    # {title}; Spanish ones {titulo}, its Spanish name.
    "dots_gain": (
        Plural(" (+{count} box)", " (+{count} boxes)"),
        Plural(" (+{count} caja)", " (+{count} cajas)"),
    ),
    "dots_settings": ("{rows}x{columns} boxes", "{rows}x{columns} cajas"),
    "dots_across": ("across", "horizontal"),
    "dots_down": ("down", "vertical"),
    "dots_pick_line": ("Draw a line ({first} … {last})", "Traza una línea ({first} … {last})"),
    "dots_bot": (" ({level} bot)", " (bot {level})"),
    "dots_last": ("Last: {moves}", "Últimas jugadas: {moves}"),
    "dots_to_move": (
        "{square} {who} to move, <t:{deadline}:R> or it's a loss on time. Pick a line below or "
        "type `/{kind} move`. A box you close earns another turn.",
        "{square} Le toca a {who}: juega <t:{deadline}:R> o pierdes por tiempo. Elige una línea "
        "abajo o escribe `/{kind} move`. Quien cierra una caja vuelve a jugar.",
    ),
    "dots_result": (
        "🏁 {title} #{game}: **{verdict}**, {first}–{second}.",
        "🏁 {titulo} #{game}: **{verdict}**, {first}–{second}.",
    ),
    "dots_not_in_game": (
        "You are not in a {title} game. Start one with `/dots play`.",
        "No estás en una partida de {titulo}. Empieza una con `/dots play`.",
    ),
    # Its pages of /help (``DotsCog.help_keys``).
    "help_dots_summary": (
        "Take turns drawing lines between dots; close a box to win it and draw again. Most boxes "
        "wins. 2x2 to 5x5 boxes, against a member or the bot.",
        "Por turnos, traza líneas entre puntos; cierra una caja para ganarla y vuelve a tirar. "
        "Gana quien tenga más cajas. De 2x2 a 5x5 cajas, contra un miembro o contra el bot.",
    ),
    "help_dots_rules": (
        "**How to play**\n"
        "- `/dots play` challenges a member (`opponent`) or, with nobody named, the bot: easy, "
        "normal or hard (on 3x3, hard plays perfectly).\n"
        "- Dots are named like chess squares: a column letter and a row number, A1 at the top "
        "left. A line joins two neighbouring dots: A1-B1 across, A1-A2 down.\n"
        "- On your turn pick a free line in the menus under the board, or type it with "
        "`/dots move` (autocomplete lists the free lines).\n"
        "- Draw the fourth side of a box and it is yours, and you draw again. When every line is "
        "drawn, whoever has more boxes wins.\n"
        "- Each move has a time limit (`turn_time`, three minutes unless chosen); **Resign** (or "
        "`/dots resign`) gives up; **Rematch** at the end.",
        "**Cómo se juega**\n"
        "- `/timbiriche jugar` reta a un miembro (`rival`) o, si no nombras a nadie, al bot: "
        "fácil, normal o difícil (en 3x3, el difícil juega perfecto).\n"
        "- Los puntos se nombran como las casillas del ajedrez: una letra de columna y un número "
        "de fila, A1 arriba a la izquierda. Una línea une dos puntos vecinos: A1-B1 en "
        "horizontal, A1-A2 en vertical.\n"
        "- En tu turno elige una línea libre en los menús bajo el tablero, o escríbela con "
        "`/timbiriche mover` (el autocompletado muestra las libres).\n"
        "- Si trazas el cuarto lado de una caja, es tuya y vuelves a tirar. Cuando están todas "
        "las líneas, gana quien tenga más cajas.\n"
        "- Cada jugada tiene un tiempo límite (`tiempo_turno`, tres minutos si no eliges otro); "
        "**Rendirse** (o `/timbiriche rendirse`) abandona; **Revancha** al final.",
    ),
    # The engine's reasons: each key a code of engine.dots.DotsReason,
    # its placeholders the code's values (bot/reasons.py fills them in).
    "dots_not_a_line": (
        "{typed} is not a line: name two dots, like A1-B1",
        "{typed} no es una línea: nombra dos puntos, como A1-B1",
    ),
    "dots_dot_off_board": (
        "dot {dot} is not on a {rows}x{columns} board (columns A-{last_column}, rows 1-{last_row})",
        "el punto {dot} no está en un tablero de {rows}x{columns} (columnas A-{last_column}, "
        "filas 1-{last_row})",
    ),
    "dots_same_dot": ("{line} joins a dot to itself", "{line} une un punto consigo mismo"),
    "dots_diagonal": (
        "{line} is diagonal: lines run across or down between neighbours",
        "{line} es diagonal: las líneas van en horizontal o en vertical entre puntos vecinos",
    ),
    "dots_skips_dots": (
        "{line} skips dots: a line joins two neighbouring dots",
        "{line} se salta puntos: una línea une dos puntos vecinos",
    ),
    "dots_line_taken": ("line {line} is already drawn", "la línea {line} ya está trazada"),
}

register_messages(MESSAGES, COMMAND_TRANSLATIONS, owner=__name__)
