"""Tic-tac-toe's words: what its cog says, its pages of /help and its engine's reasons, in
English and Spanish, and its commands' Spanish names and descriptions.

The cog imports this module, which registers them with ``bot.i18n`` (``register_messages``).
The words every game shares stay in ``bot/i18n.py``; those its pictures draw sit beside its
renderer (``bot/render/tictactoe/words.py``)."""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages

# Command, option and choice names and descriptions: English source -> Spanish.
COMMAND_TRANSLATIONS: dict[str, str] = {
    "tictactoe": "tresenraya",
    "size": "tamaño",
    "Perfect": "Perfecto",
    "Play tic-tac-toe on buttons": "Juega al tres en raya (gato) con botones",
    "Challenge a member to tic-tac-toe, or play me": (
        "Reta a un miembro al tres en raya, o juega contra mí"
    ),
    "Board size": "Tamaño del tablero",
    "Resign your tic-tac-toe game": "Ríndete en tu partida de tres en raya",
}

# key -> (English, Spanish), formatted with str.format(**values).
MESSAGES: dict[str, tuple[Text, Text]] = {
    # What the cog says (cogs/tictactoe/__init__.py). English templates name the game
    # {title}; Spanish ones {titulo}, its Spanish name.
    "ttt_sizes": (
        "Boards go from {low}x{low} to {high}x{high}.",
        "Los tableros van de {low}x{low} a {high}x{high}.",
    ),
    "ttt_not_a_cell": ("{move} is not a cell.", "{move} no es una casilla."),
    "ttt_cell_taken": (
        "cell {cell} is already taken by {mark}",
        "la casilla {cell} ya es de {mark}",
    ),
    "ttt_cell": ("row {row}, column {column}", "fila {row}, columna {column}"),
    "ttt_said": ("{mark} on {cell}", "{mark} en {cell}"),
    "ttt_settings": (
        "{size}x{size}, {k} in a row wins",
        "{size}x{size}, gana quien haga {k} en raya",
    ),
    "ttt_to_move": (
        "{who} to move ({mark}), <t:{deadline}:R> or it's a loss on time.",
        "Le toca a {who} ({mark}): juega <t:{deadline}:R> o pierdes por tiempo.",
    ),
    "ttt_resign_hint": ("`/{kind} resign` to resign.", "`/{kind} resign` para rendirse."),
    "ttt_result": (
        Plural(
            "🏁 {title} #{game}: **{verdict}** after {count} move.",
            "🏁 {title} #{game}: **{verdict}** after {count} moves.",
        ),
        Plural(
            "🏁 {titulo} #{game}: **{verdict}** tras {count} jugada.",
            "🏁 {titulo} #{game}: **{verdict}** tras {count} jugadas.",
        ),
    ),
    # Its pages of /help (``TicTacToeCog.help_keys``).
    "help_tictactoe_summary": (
        "Noughts and crosses on a board of buttons, 3x3 to 5x5, against a member or the bot.",
        "Tres en raya (gato) en un tablero de botones, de 3x3 a 5x5, contra un miembro o contra "
        "el bot.",
    ),
    "help_tictactoe_rules": (
        "**How to play**\n"
        "- `/tictactoe play` challenges the member you name (`opponent`), who has five minutes to "
        "press **Accept** or **Decline**. Name nobody to play the bot, at the level you pick: "
        "easy, normal or perfect.\n"
        "- X moves first. On your turn press an empty cell. A whole row, column or diagonal wins "
        "on 3x3 and 4x4; four in a row on 5x5.\n"
        "- Each move has a time limit (`turn_time`, two minutes unless chosen): run out and you "
        "lose. **Resign** (or `/tictactoe resign`) gives up.\n"
        "- At the end a picture of the board is posted, with a **Rematch** button (sides "
        "swapped).",
        "**Cómo se juega**\n"
        "- `/tresenraya jugar` reta al miembro que nombres (`rival`), que tiene cinco minutos "
        "para pulsar **Aceptar** o **Rechazar**. Si no nombras a nadie, juegas contra el bot en "
        "el nivel que elijas: fácil, normal o perfecto.\n"
        "- Empieza X. En tu turno pulsa una casilla vacía. Gana una fila, columna o diagonal "
        "entera en 3x3 y 4x4, y cuatro en raya en 5x5.\n"
        "- Cada jugada tiene un tiempo límite (`tiempo_turno`, dos minutos si no eliges otro): "
        "si se te acaba, pierdes. **Rendirse** (o `/tresenraya rendirse`) abandona la partida.\n"
        "- Al final se publica una imagen del tablero, con un botón de **Revancha** (con los "
        "lados cambiados).",
    ),
    # The engine's reasons: each key a code of engine.tictactoe.TicTacToeReason,
    # its placeholders the code's values (bot/reasons.py fills them in).
    "ttt_off_board": (
        "cell {cell} is off the {size}x{size} board (cells are 0..{last})",
        "la casilla {cell} está fuera del tablero de {size}x{size} (las casillas van de 0 a "
        "{last})",
    ),
}

register_messages(MESSAGES, COMMAND_TRANSLATIONS, owner=__name__)
