"""Bingo's words: what its cog says, its pages of /help and its engine's reasons, in English and
Spanish, and its commands' Spanish names and descriptions.

The cog imports this module, which registers them with ``bot.i18n`` (``register_messages``).
The words every game shares stay in ``bot/i18n.py``; those its pictures draw sit beside its
renderer (``bot/render/bingo/words.py``)."""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages
from engine.bingo import PATTERN_BOOK

# The built-in patterns' codes, as the host types them (the /help page lists them, in bold: its
# code spans are commands and options only).
PATTERN_CODES = ", ".join(f"**{code}**" for code in PATTERN_BOOK)

# Command, option and choice names and descriptions: English source -> Spanish.
COMMAND_TRANSLATIONS: dict[str, str] = {
    "bingo": "bingo",
    "card": "cartón",
    "board": "tablero",
    "patterns": "figuras",
    "pattern": "figura",
    "Play 75-ball Bingo with a pattern book": "Juega al bingo de 75 bolas con figuras",
    "Open a Bingo lobby in this channel": "Abre una sala de bingo en este canal",
    "Join the Bingo game in this channel": "Únete a la partida de bingo de este canal",
    "Show your card with the called numbers daubed": (
        "Muestra tu cartón con los números cantados marcados"
    ),
    "Show the caller's board of called numbers": "Muestra el tablero de números cantados",
    "BINGO! Claim the pattern being played": "¡BINGO! Reclama la figura en juego",
    "Patterns in order, e.g. line, x, blackout": "Figuras en orden, p. ej. line, x, blackout",
    "Seconds between numbers (5-120)": "Segundos entre números (5-120)",
    "A win must include the last number called": (
        "Para ganar hay que incluir el último número cantado"
    ),
    "The pattern you completed": "La figura que completaste",
    "calls": "cantos",
    "Call the numbers plainly, or with their traditional names": (
        "Cantar los números sin más, o con sus nombres tradicionales"
    ),
    "Classic: with their names": "Clásico: con sus nombres",
    "Plain: the numbers only": "Sencillo: solo los números",
    # /bingo pattern: the server's own patterns (cogs/bingo/patterns.py).
    "create": "crear",
    "name": "nombre",
    "list": "lista",
    "delete": "borrar",
    "cells": "casillas",
    "any_way_round": "cualquier_giro",
    "anywhere": "cualquier_lugar",
    "This server's own Bingo patterns": "Las figuras de bingo propias de este servidor",
    "Draw a pattern of this server's own (hosts)": (
        "Dibuja una figura propia de este servidor (anfitriones)"
    ),
    "The pattern's name": "El nombre de la figura",
    "5 rows of 5 X or . such as X...X .X.X. ..X.. .X.X. X...X; leave empty to draw it": (
        "5 filas de 5 X o . como X...X .X.X. ..X.. .X.X. X...X; vacío para dibujarla"
    ),
    "It also counts turned a quarter, a half or three quarters round": (
        "También vale girada un cuarto, media o tres cuartos de vuelta"
    ),
    "It also counts moved anywhere on the card": "También vale movida a cualquier lugar del cartón",
    "Delete one of this server's patterns (hosts)": (
        "Borra una de las figuras de este servidor (anfitriones)"
    ),
    "The pattern to delete": "La figura que quieres borrar",
}

# key -> (English, Spanish), formatted with str.format(**values).
MESSAGES: dict[str, tuple[Text, Text]] = {
    # What it adds to /gamenight settings (bot.game_settings).
    "bingo_settings_prizes": ("Bingo patterns", "figuras de bingo"),
    # What the cog says (cogs/bingo/__init__.py).
    "bingo_board": (Plural("card", "cards"), Plural("cartón", "cartones")),
    "bingo_dealt": ("dealt", "repartidos"),  # the lobby's "(dealt 3 of 4)": cartones
    "bingo_numbers_out": ("all 75 numbers were called", "se cantaron los 75 números"),
    "bingo_call_line": (
        "🎱 **{name}**{nickname} · number {seq} of {total}{playing}",
        "🎱 **{name}**{nickname} · número {seq} de {total}{playing}",
    ),
    "bingo_bad_calls": (
        "Choose classic or plain calls.",
        "Elige cantos clásicos o sencillos.",
    ),
    "bingo_playing_for": (" · playing for **{pattern}**", " · se juega **{pattern}**"),
    "bingo_playing_nothing_left": (
        " · every pattern is won: the game is ending",
        " · ya se ganaron todas las figuras: la partida termina",
    ),
    "bingo_board_after": (
        "The caller's board at call {seq}:",
        "El tablero en la cantada {seq}:",
    ),
    "bingo_board_now": (
        Plural(
            "Game {game}: the caller's board, {count} number called so far.",
            "Game {game}: the caller's board, {count} numbers called so far.",
            by="count",
        ),
        Plural(
            "Partida {game}: el tablero, {count} número cantado hasta ahora.",
            "Partida {game}: el tablero, {count} números cantados hasta ahora.",
            by="count",
        ),
    ),
    "bingo_claim_button": ("BINGO!", "¡BINGO!"),
    "bingo_options": (
        Plural(
            "Patterns: **{patterns}** · one number every {interval} s · up to {most} player",
            "Patterns: **{patterns}** · one number every {interval} s · up to {most} players",
            by="most",
        ),
        Plural(
            "Figuras: **{patterns}** · un número cada {interval} s · hasta {most} jugador",
            "Figuras: **{patterns}** · un número cada {interval} s · hasta {most} jugadores",
            by="most",
        ),
    ),
    "bingo_no_patterns": (
        "Name at least one pattern, for example `line, blackout`.",
        "Nombra al menos una figura, por ejemplo `line, blackout`.",
    ),
    "bingo_default_pattern_gone": (
        "The server's default Bingo patterns include {name}, a pattern of this server's own "
        "that was deleted since: change them with `/gamenight settings game:bingo prizes:`.",
        "Las figuras de bingo por defecto del servidor incluyen {name}, una figura propia de "
        "este servidor que se borró después: cámbialas con "
        "`/gamenight settings game:bingo prizes:`.",
    ),
    "bingo_pattern_deleted": ("{name} (deleted since)", "{name} (borrada)"),
    "bingo_bad_pattern": (
        "{word} is not a pattern; choose from {choices}.",
        "{word} no es una figura; elige entre {choices}.",
    ),
    "bingo_pattern_twice": (
        "Each pattern can be played once per game: {code} is named twice.",
        "Cada figura se juega una sola vez por partida: {code} aparece dos veces.",
    ),
    # Its pages of /help (``Bingo.help_keys``).
    "help_bingo_summary": (
        "75-ball Bingo: each player gets a 5x5 card under B-I-N-G-O with a free centre, the "
        "caller calls a number from 1 to 75 every few seconds, and the first to complete the "
        "pattern in play wins it.",
        "Bingo de 75 bolas: cada jugador recibe un cartón de 5x5 bajo B-I-N-G-O con el centro "
        "libre, el cantor canta un número del 1 al 75 cada pocos segundos, y quien primero "
        "completa la figura en juego la gana.",
    ),
    "help_bingo_round": (
        "**How a game goes**\n"
        "1. Someone opens a lobby with `/bingo start`, choosing the patterns to play in order "
        "and the seconds between numbers. Players press **Join** (or use `/bingo join`); each "
        "gets a different card by DM.\n"
        "2. The host presses **Start**, and the caller draws a number every few seconds and "
        "posts it in the channel as **B-7**, **N-42**...: the letter is the card's column; "
        "with its traditional name too, unless the host chose plain calls.\n"
        "3. Check your card as the numbers come: `/bingo card` shows it with the called numbers "
        "daubed (only you see it), and `/bingo board` shows everyone the numbers called so far.\n"
        "4. When you complete the pattern being played, press **BINGO!** under a call (or use "
        "`/bingo claim`).\n"
        "5. The game ends when the last pattern is won or all 75 numbers are out. Then its seed "
        "is revealed, and `/bingo verify` recomputes the whole game from it: nobody, not even "
        "the bot, could have changed the order of the numbers.",
        "**Cómo va una partida**\n"
        "1. Alguien abre una sala con `/bingo empezar` y elige las figuras que se juegan, en "
        "orden, y los segundos entre números. Los jugadores pulsan **Unirse** (o usan "
        "`/bingo unirse`) y cada uno recibe por mensaje directo un cartón distinto.\n"
        "2. El anfitrión pulsa **Empezar**, y el cantor saca un número cada pocos segundos y lo "
        "publica en el canal como **B-7**, **N-42**...: la letra es la columna del cartón; "
        "también con su nombre tradicional, salvo si el anfitrión eligió cantos sencillos.\n"
        "3. Revisa tu cartón según salen los números: `/bingo cartón` te lo muestra con los "
        "números cantados marcados (solo lo ves tú), y `/bingo tablero` muestra a todos los "
        "números cantados hasta ahora.\n"
        "4. Cuando completes la figura en juego, pulsa **¡BINGO!** bajo una cantada (o usa "
        "`/bingo reclamar`).\n"
        "5. La partida termina cuando se gana la última figura o salen los 75 números. Entonces "
        "se revela su semilla, y `/bingo verificar` recalcula con ella toda la partida: nadie, "
        "ni siquiera el bot, pudo cambiar el orden de los números.",
    ),
    "help_bingo_patterns": (
        "**Patterns** (see the picture)\n"
        "The patterns are played one after another, in the order the host chose with "
        "`patterns` (by default any line, then a blackout), each named by its code: "
        + PATTERN_CODES
        + ". "
        "The free centre counts in every pattern. An **any line** is a row, a column or a "
        "diagonal; the patterns **any way round** count in each of their four turns, and the "
        "**postage stamp anywhere** is any 2x2 block.\n"
        "With the **slept rule** (`slept_rule`) the winning pattern must include the last number "
        "called: whoever sleeps on a win loses it, unless a later number completes it another "
        "way.",
        "**Figuras** (mira la imagen)\n"
        "Las figuras se juegan una tras otra, en el orden que eligió el anfitrión con "
        "`figuras` (por defecto cualquier línea y luego el cartón lleno), cada una por su "
        "código: "
        + PATTERN_CODES
        + ". El centro libre cuenta en todas las figuras. **Cualquier línea** es "
        "una fila, una columna o una diagonal; las figuras **en cualquier sentido** valen en sus "
        "cuatro giros, y la **estampilla en cualquier lugar** es cualquier bloque de 2x2.\n"
        "Con la **regla del dormido** (`regla_dormido`) la figura ganadora debe incluir el "
        "último número cantado: quien se duerme pierde ese premio, salvo que un número posterior "
        "se la complete de otra forma.",
    ),
    "help_bingo_claims": (
        "**Claims**\n"
        "- A claim is judged against the numbers already announced in the channel when you made "
        "it.\n"
        "- Everyone who claims the pattern rightly on the same number shares it.\n"
        "- A false claim is announced to everyone; a second one takes you out of the game.\n"
        "- The **BINGO!** button claims the pattern being played now: if your card also "
        "completes the next pattern on the same number, press it again.",
        "**Reclamos**\n"
        "- Un reclamo se juzga con los números ya anunciados en el canal cuando lo hiciste.\n"
        "- Quienes reclaman bien la figura con el mismo número la comparten.\n"
        "- Un reclamo falso se anuncia a todos; con el segundo quedas fuera de la partida.\n"
        "- El botón **¡BINGO!** reclama la figura que se juega ahora: si tu cartón también "
        "completa la siguiente con el mismo número, púlsalo otra vez.",
    ),
    # The engine's reasons: each key a code of engine.bingo.ClaimReason, its placeholders the
    # code's values (bot/reasons.py fills them in).
    "bingo_nothing_called": ("no numbers have been called", "aún no ha salido ningún número"),
    "bingo_not_complete": ("the card does not complete {name}", "el cartón no completa {name}"),
    "bingo_slept": (
        "the pattern does not include the last number called ({call})",
        "la figura no incluye el último número cantado ({call})",
    ),
    # The server's own patterns (cogs/bingo/patterns.py).
    "help_bingo_custom": (
        "**The server's own patterns**\n"
        "Hosts draw new patterns with `/bingo pattern create`: press the cells of a 5x5 grid "
        "(the free centre is the Save button), or write them as `cells`, 5 rows of 5 X or . "
        "(X marked); `any_way_round` and `anywhere` make it count turned or moved too. A server "
        "keeps up to 25; `/bingo pattern list` shows them, and `/bingo start` plays them in "
        "`patterns` by code like the built-ins. A game keeps its patterns whole: deleting one "
        "(`/bingo pattern delete`) changes no game played with it.",
        "**Las figuras propias del servidor**\n"
        "Los anfitriones dibujan figuras nuevas con `/bingo figura crear`: pulsa las casillas "
        "de una cuadrícula de 5x5 (el centro libre es el botón Guardar), o escríbelas en "
        "`casillas`, 5 filas de 5 X o . (X marcada); `cualquier_giro` y `cualquier_lugar` hacen "
        "que valga también girada o movida. Un servidor guarda hasta 25; `/bingo figura lista` "
        "las muestra, y `/bingo empezar` las juega en `figuras` por su código como las de serie. "
        "Una partida conserva sus figuras enteras: borrar una (`/bingo figura borrar`) no "
        "cambia ninguna partida jugada con ella.",
    ),
    "bingo_custom_drawing": (
        Plural(
            "Press the cells to mark them ({count} marked).{how} The centre is free, so its "
            "button is **Save**: press it when the pattern is done.",
            "Press the cells to mark them ({count} marked).{how} The centre is free, so its "
            "button is **Save**: press it when the pattern is done.",
            by="count",
        ),
        Plural(
            "Pulsa las casillas para marcarlas ({count} marcada).{how} El centro es libre, así "
            "que su botón es **Guardar**: púlsalo cuando la figura esté lista.",
            "Pulsa las casillas para marcarlas ({count} marcadas).{how} El centro es libre, así "
            "que su botón es **Guardar**: púlsalo cuando la figura esté lista.",
            by="count",
        ),
    ),
    "bingo_custom_rotations": (
        "It counts turned any way round.",
        "Vale girada de cualquier forma.",
    ),
    "bingo_custom_anywhere": (
        "It counts anywhere on the card.",
        "Vale en cualquier lugar del cartón.",
    ),
    "bingo_custom_save_button": ("Save", "Guardar"),
    "bingo_custom_saved": (
        Plural(
            "✅ Pattern **{name}** saved for this server ({count} way counts). Play it with "
            "`/bingo start patterns:{code}`.",
            "✅ Pattern **{name}** saved for this server ({count} ways count). Play it with "
            "`/bingo start patterns:{code}`.",
            by="count",
        ),
        Plural(
            "✅ Figura **{name}** guardada en este servidor ({count} forma vale). Juégala con "
            "`/bingo empezar figuras:{code}`.",
            "✅ Figura **{name}** guardada en este servidor (valen {count} formas). Juégala con "
            "`/bingo empezar figuras:{code}`.",
            by="count",
        ),
    ),
    "bingo_custom_empty": (
        "Mark at least one cell besides the free centre first.",
        "Marca antes al menos una casilla además del centro libre.",
    ),
    "bingo_custom_name_builtin": (
        "**{name}** is a built-in pattern's name: choose another.",
        "**{name}** es el nombre de una figura de serie: elige otro.",
    ),
    "bingo_custom_name_taken": (
        "This server already has a pattern called **{name}**: choose another name, or delete "
        "that one first with `/bingo pattern delete`.",
        "Este servidor ya tiene una figura llamada **{name}**: elige otro nombre, o borra antes "
        "esa con `/bingo figura borrar`.",
    ),
    "bingo_custom_name_long": (
        "A pattern's name is at most {limit} characters; that one has {length}.",
        "El nombre de una figura tiene como mucho {limit} caracteres; ese tiene {length}.",
    ),
    "bingo_custom_name_bad": (
        "A pattern's name is printable text without {characters}.",
        "El nombre de una figura es texto imprimible sin {characters}.",
    ),
    "bingo_custom_full": (
        "This server already keeps {limit} patterns of its own, the most it can: delete one "
        "with `/bingo pattern delete` first.",
        "Este servidor ya guarda {limit} figuras propias, el máximo: borra antes una con "
        "`/bingo figura borrar`.",
    ),
    "bingo_custom_bad_cells": (
        "{cells} is not a drawing: write 5 rows of 5 `X` (marked) or `.` (not), such as "
        "`X...X .X.X. ..X.. .X.X. X...X`.",
        "{cells} no es un dibujo: escribe 5 filas de 5 `X` (marcada) o `.` (no), como "
        "`X...X .X.X. ..X.. .X.X. X...X`.",
    ),
    "bingo_custom_not_yours": (
        "Only the member drawing this pattern can press its buttons.",
        "Solo quien dibuja esta figura puede pulsar sus botones.",
    ),
    "bingo_custom_drawing_gone": (
        "This drawing cannot be read any more: start again with `/bingo pattern create`.",
        "Ya no se puede leer este dibujo: empieza otra vez con `/bingo figura crear`.",
    ),
    "bingo_custom_none": (
        "This server has no patterns of its own yet: draw one with `/bingo pattern create`.",
        "Este servidor aún no tiene figuras propias: dibuja una con `/bingo figura crear`.",
    ),
    "bingo_custom_list": (
        "This server's own patterns ({count} of at most {limit}): {names}",
        "Las figuras propias de este servidor ({count} de {limit} como mucho): {names}",
    ),
    "bingo_custom_unknown": (
        "This server has no pattern of its own called {name}.",
        "Este servidor no tiene ninguna figura propia llamada {name}.",
    ),
    "bingo_custom_deleted": (
        "🗑️ Pattern **{name}** deleted. Games played with it keep it: they still verify.",
        "🗑️ Figura **{name}** borrada. Las partidas jugadas con ella la conservan: se siguen "
        "verificando.",
    ),
}

register_messages(MESSAGES, COMMAND_TRANSLATIONS, owner=__name__)
