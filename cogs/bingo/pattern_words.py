"""(temporary: folded into cogs/bingo/words.py once the cog is merged)"""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages

PATTERN_COMMAND_TRANSLATIONS: dict[str, str] = {
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

PATTERN_MESSAGES: dict[str, tuple[Text, Text]] = {
    # Custom patterns (cogs/bingo/patterns.py).
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

register_messages(PATTERN_MESSAGES, PATTERN_COMMAND_TRANSLATIONS, owner=__name__)
