"""Housie's words: what its cog says, its pages of /help and its engine's reasons, in
English and Spanish, and its commands' Spanish names and descriptions.

The cog imports this module, which registers them with ``bot.i18n`` (``register_messages``).
The words every game shares stay in ``bot/i18n.py``; those its pictures draw sit beside its
renderer (``bot/render/housie/words.py``)."""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages

# Command, option and choice names and descriptions: English source -> Spanish.
COMMAND_TRANSLATIONS: dict[str, str] = {
    "housie": "tombola",
    "ticket": "cartón",
    "tickets": "cartones",
    "board": "tablero",
    "check": "comprobar",
    "prize": "premio",
    "early_five": "cinco_primeros",
    "lines": "líneas",
    "corners": "esquinas",
    "extra_houses": "casas_extra",
    "code": "código",
    "Play Housie (Tambola), 90-ball bingo": "Juega a la tómbola (Housie), bingo de 90 bolas",
    "Open a Housie lobby in this channel": "Abre una sala de tómbola en este canal",
    "Join the Housie game in this channel": "Únete a la partida de tómbola de este canal",
    "Show your tickets with the called numbers marked": (
        "Muestra tus cartones con los números cantados"
    ),
    "Show the caller's board of called numbers": "Muestra el tablero de números cantados",
    "Claim a prize": "Reclama un premio",
    "Check a ticket code: valid, which game, or tampered": (
        "Comprueba un código de cartón: válido, de qué partida o alterado"
    ),
    "Seconds between numbers (5-120)": "Segundos entre números (5-120)",
    "calls": "cantos",
    "Call the numbers plainly, or with their traditional names": (
        "Cantar los números sin más, o con sus nombres tradicionales"
    ),
    "Classic: with their names": "Clásico: con sus nombres",
    "Plain: the numbers only": "Sencillo: solo los números",
    "A win must include the last number called": (
        "Para ganar hay que incluir el último número cantado"
    ),
    "Most tickets a player may take (1-6)": "Máximo de cartones por jugador (1-6)",
    "Play Early Five": "Jugar los cinco primeros",
    "Play Top, Middle and Bottom Line": "Jugar las líneas de arriba, del medio y de abajo",
    "Play Four Corners": "Jugar las cuatro esquinas",
    "Also play 2nd and 3rd Full House": "Jugar también el 2.º y 3.er cartón lleno",
    "How many tickets you want": "Cuántos cartones quieres",
    "The prize you completed": "El premio que completaste",
    "Which of your tickets": "Cuál de tus cartones",
    "The code printed under the ticket": "El código impreso bajo el cartón",
}

# key -> (English, Spanish), formatted with str.format(**values).
MESSAGES: dict[str, tuple[Text, Text]] = {
    # What it adds to /gamenight settings (bot.game_settings).
    "housie_settings_prizes": ("Housie prizes", "premios de tómbola"),
    # What the cog says (cogs/housie/__init__.py).
    "housie_call": (
        "🔢 **{value}** · number {seq} of {total}",
        "🔢 **{value}** · número {seq} de {total}",
    ),
    "housie_bad_calls": (
        "Choose classic or plain calls.",
        "Elige cantos clásicos o sencillos.",
    ),
    "housie_board_after": (
        Plural("The board after {seq} number:", "The board after {seq} numbers:", by="seq"),
        Plural("El tablero tras {seq} número:", "El tablero tras {seq} números:", by="seq"),
    ),
    "housie_bogey": (
        "❌ Bogey! {user} claimed {prize} but {reason}. Ticket {ticket} is out for the rest of "
        "the game.",
        "❌ ¡Reclamo falso! {user} reclamó {prize}, pero {reason}. El cartón {ticket} queda "
        "fuera el resto de la partida.",
    ),
    "housie_options": (
        Plural(
            "Prizes: **{prizes}** · one number every {interval} s · up to {most} ticket each",
            "Prizes: **{prizes}** · one number every {interval} s · up to {most} tickets each",
            by="most",
        ),
        Plural(
            "Premios: **{prizes}** · un número cada {interval} s · hasta {most} cartón cada uno",
            "Premios: **{prizes}** · un número cada {interval} s · hasta {most} cartones cada uno",
            by="most",
        ),
    ),
    "housie_how_many": ("How many tickets would you like?", "¿Cuántos cartones quieres?"),
    "housie_which_prize": ("Which prize are you claiming?", "¿Qué premio reclamas?"),
    "housie_ticket_count": (
        Plural("Choose {most} ticket.", "Choose 1 to {most} tickets.", by="most"),
        Plural("Elige {most} cartón.", "Elige de 1 a {most} cartones.", by="most"),
    ),
    "housie_not_a_prize": (
        "{prize} is not a prize; pick one from the list.",
        "{prize} no es un premio; elige uno de la lista.",
    ),
    "housie_code_elsewhere": (
        "❌ That is not a ticket code from a game in this server.",
        "❌ Ese no es un código de cartón de una partida de este servidor.",
    ),
    "housie_board_now": (
        Plural("Housie #{game}: {count} number called.", "Housie #{game}: {count} numbers called."),
        Plural(
            "Housie #{game}: {count} número cantado.", "Housie #{game}: {count} números cantados."
        ),
    ),
    "housie_code_bad": (
        "❌ Not a valid ticket code: {error}.",
        "❌ Código de cartón no válido: {error}.",
    ),
    "housie_code_good": (
        "✅ Genuine ticket from Housie #{game}: {rows}.",
        "✅ Cartón auténtico de Housie #{game}: {rows}.",
    ),
    "housie_no_default_prizes": (
        "Name the prizes to play, e.g. early five, lines, corners (Full House is always played).",
        "Indica los premios que se juegan, p. ej. cinco primeros, líneas, esquinas (el cartón"
        " lleno se juega siempre).",
    ),
    "housie_bad_default_prize": (
        "{word} is not one of the Housie prizes to choose: {choices} (Full House is always"
        " played).",
        "{word} no es uno de los premios de tómbola a elegir: {choices} (el cartón lleno se"
        " juega siempre).",
    ),
    "housie_board": (Plural("ticket", "tickets"), Plural("cartón", "cartones")),
    "housie_dealt": ("dealt", "repartidos"),  # the lobby's "(dealt 3 of 4)": cartones
    "reason_numbers_out": ("all 90 numbers were called", "se cantaron los 90 números"),
    # Its pages of /help (``Housie.help_keys``).
    "help_housie_summary": (
        "90-ball bingo (Tambola): each player takes 1 to 6 tickets of 15 numbers, the numbers 1 "
        "to 90 are called on a timer, and a game has several prizes, from Early Five to Full "
        "House.",
        "Bingo de 90 bolas (tómbola): cada jugador toma de 1 a 6 cartones de 15 números, los "
        "números del 1 al 90 se cantan a intervalos, y una partida tiene varios premios, de los "
        "cinco primeros al cartón lleno.",
    ),
    "help_housie_round": (
        "**How a game goes**\n"
        "1. Someone opens a lobby with `/housie start`, choosing the prizes, how many tickets "
        "each player may take and the seconds between numbers. Players press **Join** (or use "
        "`/housie join`) and pick how many tickets; they arrive by DM.\n"
        "2. The host presses **Start**, and a number is called every few seconds, with its "
        "traditional name unless the host chose plain calls. Every ten numbers the caller's "
        "board is posted; `/housie board` shows it any time.\n"
        "3. `/housie ticket` shows your tickets with the called numbers dabbed (only you see "
        "them).\n"
        "4. When a ticket completes a prize, press **Claim** under a call and pick the prize (or "
        "use `/housie claim`).\n"
        "5. The game ends when every prize is won or all 90 numbers are out; then its seed is "
        "revealed for `/housie verify`. Every ticket carries a signed code: `/housie check` "
        "tells whether a code is genuine, and from which game.",
        "**Cómo va una partida**\n"
        "1. Alguien abre una sala con `/tombola empezar` y elige los premios, cuántos cartones "
        "puede tomar cada jugador y los segundos entre números. Los jugadores pulsan **Unirse** "
        "(o usan `/tombola unirse`) y eligen cuántos cartones quieren; les llegan por mensaje "
        "directo.\n"
        "2. El anfitrión pulsa **Empezar**, y se canta un número cada pocos segundos, con su "
        "nombre tradicional salvo que el anfitrión elija cantos sencillos. Cada diez números se "
        "publica el tablero del cantor; `/tombola tablero` lo muestra cuando quieras.\n"
        "3. `/tombola cartón` te muestra tus cartones con los números cantados marcados (solo "
        "los ves tú).\n"
        "4. Cuando un cartón complete un premio, pulsa **Reclamar** bajo una cantada y elige el "
        "premio (o usa `/tombola reclamar`).\n"
        "5. La partida termina cuando se ganan todos los premios o salen los 90 números; "
        "entonces se revela su semilla para `/tombola verificar`. Cada cartón lleva un código "
        "firmado: `/tombola comprobar` dice si un código es auténtico, y de qué partida es.",
    ),
    "help_housie_prizes": (
        "**Prizes** (see the picture)\n"
        "The host chooses which are played; they can be won in any order:\n"
        "- **Early Five**: any five numbers of a ticket.\n"
        "- **Top Line**, **Middle Line**, **Bottom Line**: the five numbers of that row.\n"
        "- **Four Corners**: the first and last numbers of the top and bottom rows.\n"
        "- **Full House**: all fifteen numbers.\n"
        "- **Second** and **Third Full House** (`extra_houses`): the next tickets to be filled, "
        "in that order; a ticket that has won a house cannot win another.\n"
        "With the **slept rule** (`slept_rule`) a win must include the last number called.",
        "**Premios** (mira la imagen)\n"
        "El anfitrión elige cuáles se juegan; se pueden ganar en cualquier orden:\n"
        "- **Cinco primeros**: cinco números cualesquiera de un cartón.\n"
        "- **Línea de arriba**, **Línea del medio**, **Línea de abajo**: los cinco números de esa "
        "fila.\n"
        "- **Cuatro esquinas**: el primer y el último número de las filas de arriba y de abajo.\n"
        "- **Cartón lleno**: los quince números.\n"
        "- **Segundo** y **Tercer cartón lleno** (`casas_extra`): los siguientes cartones en "
        "llenarse, en ese orden; un cartón que ya ganó un cartón lleno no puede ganar otro.\n"
        "Con la **regla del dormido** (`regla_dormido`), para ganar hay que incluir el último "
        "número cantado.",
    ),
    "help_housie_claims": (
        "**Claims and bogeys**\n"
        "- A claim is judged against the numbers already announced in the channel when you made "
        "it; right claims on the same number share the prize.\n"
        "- Name a ticket (`ticket`) or not: without one, every ticket of yours still in play is "
        "checked.\n"
        "- A false claim is a **bogey**: it is announced, and it costs you one ticket (the one "
        "that came closest to the prize), out for the rest of the game. Prizes it already won "
        "stay won.",
        "**Reclamos y reclamos falsos**\n"
        "- Un reclamo se juzga con los números ya anunciados en el canal cuando lo hiciste; los "
        "reclamos correctos con el mismo número comparten el premio.\n"
        "- Puedes nombrar un cartón (`cartón`) o no: sin él se revisan todos tus cartones aún en "
        "juego.\n"
        "- Un reclamo falso se anuncia y te cuesta un cartón (el que más cerca estuvo del "
        "premio), que queda fuera el resto de la partida. Los premios que ya ganó siguen "
        "ganados.",
    ),
    # The engine's reasons: each key a code of engine.housie.PrizeReason or CodeReason,
    # its placeholders the code's values (bot/reasons.py fills them in).
    "housie_nothing_called": ("no numbers have been called yet", "aún no ha salido ningún número"),
    "housie_early_five_short": (
        Plural(
            "Early Five needs 5 of the ticket's numbers called; {count} is",
            "Early Five needs 5 of the ticket's numbers called; {count} are",
        ),
        Plural(
            "para Cinco primeros hacen falta 5 números del cartón; solo ha salido {count}",
            "para Cinco primeros hacen falta 5 números del cartón; han salido {count}",
        ),
    ),
    # "el premio {prize}": Spanish prize names differ in gender and number.
    "housie_incomplete": (
        "{prize} is not complete: {missing} not called yet",
        Plural(
            "el premio {prize} no está completo: falta por salir el {missing}",
            "el premio {prize} no está completo: faltan por salir {missing}",
        ),
    ),
    "housie_slept_off_ticket": (
        "the last number called ({last}) is not on this ticket",
        "el último número cantado ({last}) no está en este cartón",
    ),
    "housie_slept": (
        "{prize} was complete before the last number called ({last}); it had to be claimed then",
        "el premio {prize} ya estaba completo antes del último número cantado ({last}); había "
        "que reclamarlo entonces",
    ),
    "housie_complete": ("{prize} complete", "premio {prize} completo"),
    "housie_completed_last": (
        "{prize} completed by the last number called, {last}",
        "premio {prize} completado con el último número cantado, el {last}",
    ),
    "housie_code_length": (
        "a ticket code has {shortest} to {longest} characters; this one has {length}",
        "un código de cartón tiene de {shortest} a {longest} caracteres; este tiene {length}",
    ),
    "housie_code_character": (
        "ticket codes use only {alphabet}; character {position} is {character!r}",
        "los códigos de cartón solo usan {alphabet}; el carácter {position} es {character!r}",
    ),
    "housie_code_leading_zeros": (
        "this ticket code has extra leading zeros; type it as it was given",
        "este código de cartón lleva ceros de más al principio; escríbelo tal como te lo dieron",
    ),
    "housie_code_forged": (
        "this ticket code does not check out: it was mistyped, edited, or not issued here",
        "este código de cartón no cuadra: está mal escrito, alterado o no se emitió aquí",
    ),
    "housie_code_other_game": (
        "this ticket code is for game {code_game}, not game {game}",
        "este código de cartón es de la partida {code_game}, no de la partida {game}",
    ),
}

register_messages(MESSAGES, COMMAND_TRANSLATIONS, owner=__name__)
