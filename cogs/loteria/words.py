"""Lotería's words: what its cog says, its pages of /help and its engine's reasons, in
English and Spanish, and its commands' Spanish names and descriptions.

The cog imports this module, which registers them with ``bot.i18n`` (``register_messages``).
The words every game shares stay in ``bot/i18n.py``; those its pictures draw sit beside its
renderer (``bot/render/loteria/words.py``)."""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages

# Command, option and choice names and descriptions: English source -> Spanish.
COMMAND_TRANSLATIONS: dict[str, str] = {
    "loteria": "loteria",
    "tabla": "tabla",
    "pattern": "figura",
    "Line": "Chorro (línea)",
    "Four corners": "Cuatro esquinas",
    "Centre": "Centrito",
    "Square": "Cuadrito",
    "Full tabla": "Llena",
    "Play Lotería, the Mexican bingo": "Juega a la Lotería mexicana",
    "Open a Lotería lobby in this channel": "Abre una sala de Lotería en este canal",
    "Join the Lotería game in this channel": "Únete a la partida de Lotería de este canal",
    "Show your tabla with the called cards marked": "Muestra tu tabla con las cartas cantadas",
    "¡Lotería! Claim the prize being played": "¡Lotería! Reclama el premio en juego",
    "Prizes in order, e.g. line, corners, full": "Premios en orden, p. ej. line, corners, full",
    "Seconds between cards (5-120)": "Segundos entre cartas (5-120)",
    "Classic deck or family deck": "Baraja clásica o familiar",
    "A win must include the last card called": "Para ganar hay que incluir la última carta cantada",
    "verses": "versos",
    "The cantor's verse with each card, or first as a riddle": (
        "El verso del cantor con cada carta, o antes como adivinanza"
    ),
    "On": "Sí",
    "Off": "No",
    "Riddle: the verse first, the card after": "Adivinanza: primero el verso, luego la carta",
    "The pattern you completed": "La figura que completaste",
    # Its option of /gamenight settings (bot.game_settings).
    "The Lotería deck when the host does not choose one": (
        "La baraja de la lotería si el anfitrión no elige una"
    ),
}

# key -> (English, Spanish), formatted with str.format(**values).
MESSAGES: dict[str, tuple[Text, Text]] = {
    # Its decks, and what it adds to /gamenight settings (bot.game_settings).
    "deck_classic": ("classic deck", "baraja clásica"),
    "deck_family": ("family deck", "baraja familiar"),
    "loteria_bad_deck": (
        "Choose the classic or the family deck.",
        "Elige la baraja clásica o la familiar.",
    ),
    "settings_deck": (
        "**Lotería deck** when the host does not choose one: {deck}{deck_mark}",
        "**Baraja de la lotería** si el anfitrión no elige una: {deck}{deck_mark}",
    ),
    "loteria_settings_prizes": ("a Lotería plan", "un plan de Lotería"),
    # What the cog says (cogs/loteria/__init__.py).
    "call_line": (
        "🎴 **{spanish}** ({english}) · card {seq} of {total}{playing}",
        "🎴 **{spanish}** · carta {seq} de {total}{playing}",
    ),
    "playing_for": (" · playing for **{prize}**", " · se juega por **{prize}**"),
    "playing_nothing_left": (
        " · every prize is won: the game is ending",
        " · ya se ganaron todos los premios: la partida termina",
    ),
    "loteria_options": (
        Plural(
            "Prizes: **{prizes}** · one card every {interval} s · {deck} · up to {most} player",
            "Prizes: **{prizes}** · one card every {interval} s · {deck} · up to {most} players",
            by="most",
        ),
        Plural(
            "Premios: **{prizes}** · una carta cada {interval} s · {deck} · hasta {most} jugador",
            "Premios: **{prizes}** · una carta cada {interval} s · {deck} · hasta {most} jugadores",
            by="most",
        ),
    ),
    "riddle_line": (
        "🎴 Card {seq} of {total}: guess it from the cantor's verse…",
        "🎴 Carta {seq} de {total}: adivínala por el verso del cantor…",
    ),
    "loteria_bad_verses": (
        "Choose verses on, off or riddle.",
        "Elige versos sí, no o adivinanza.",
    ),
    "loteria_no_prizes": (
        "Name at least one prize, for example `line, corners, full`.",
        "Nombra al menos un premio, por ejemplo `line, corners, full`.",
    ),
    "loteria_bad_prize": (
        "{word} is not a prize; choose from {choices}.",
        "{word} no es un premio; elige entre {choices}.",
    ),
    "loteria_prize_twice": (
        "Each prize can be played once per game.",
        "Cada premio se juega una sola vez por partida.",
    ),
    "loteria_board": (Plural("tabla", "tablas"), Plural("tabla", "tablas")),
    "loteria_dealt": ("dealt", "repartidas"),  # the lobby's "(dealt 3 of 4)": tablas
    "reason_deck_out": ("the deck ran out", "se acabó la baraja"),
    # Its pages of /help (``Loteria.help_keys``).
    "help_loteria_summary": (
        "The Mexican bingo: each player gets a 4x4 tabla of cards, the cantor calls a card from "
        "the 54-card deck every few seconds, and the first to complete the pattern in play wins "
        "it.",
        "El bingo mexicano: cada jugador recibe una tabla de 4x4 cartas, el cantor canta una "
        "carta de la baraja de 54 cada pocos segundos, y quien primero completa la figura en "
        "juego la gana.",
    ),
    "help_loteria_round": (
        "**How a game goes**\n"
        "1. Someone opens a lobby with `/loteria start`, choosing the prizes, the seconds between "
        "cards, the deck and whether the cantor sings each card's verse. Players press **Join** "
        "(or use `/loteria join`); each gets a different tabla by DM.\n"
        "2. The host presses **Start**, and the cantor draws a card every few seconds and posts "
        "it in the channel.\n"
        "3. Check your tabla as the cards come: `/loteria tabla` shows it with the called cards "
        "under beans (only you see it).\n"
        "4. When you complete the pattern being played, press **¡Lotería!** under a call (or use "
        "`/loteria claim`).\n"
        "5. The game ends when the last prize is won or the deck runs out. Then its seed is "
        "revealed, and `/loteria verify` recomputes the whole game from it: nobody, not even the "
        "bot, could have changed the order of the cards.",
        "**Cómo va una partida**\n"
        "1. Alguien abre una sala con `/loteria empezar` y elige los premios, los segundos entre "
        "cartas, la baraja y si el cantor canta el verso de cada carta. Los jugadores pulsan "
        "**Unirse** (o usan `/loteria unirse`) y cada uno recibe por mensaje directo una tabla "
        "distinta.\n"
        "2. El anfitrión pulsa **Empezar**, y el cantor saca una carta cada pocos segundos y la "
        "publica en el canal.\n"
        "3. Revisa tu tabla según salen las cartas: `/loteria tabla` te la muestra con frijoles "
        "sobre las cartas cantadas (solo la ves tú).\n"
        "4. Cuando completes la figura en juego, pulsa **¡Lotería!** bajo una cantada (o usa "
        "`/loteria reclamar`).\n"
        "5. La partida termina cuando se gana el último premio o se acaba la baraja. Entonces se "
        "revela su semilla, y `/loteria verificar` recalcula con ella toda la partida: nadie, ni "
        "siquiera el bot, pudo cambiar el orden de las cartas.",
    ),
    "help_loteria_decks": (
        "**Classic or family deck**\n"
        "The **classic** deck is the traditional one, Don Clemente Gallo's, and the default. "
        "Three of its cards caricature people: *El Borracho* (25, a drunkard), *El Negrito* (26, "
        "a Black man drawn as a racist caricature) and *El Apache* (38, a caricature of a Native "
        "American). The **family** deck puts *La Piñata*, *El Elote* (the corn cob) and *La "
        "Mariposa* (the butterfly) in their place, under the same numbers, for tables where those "
        "cards would hurt or need explaining. Nothing else changes: the same 54 calls in the same "
        "order, the same tablas, prizes and verification. Choose it with `deck` when you start a "
        "game; a server's managers can make it the default with `/gamenight settings` and "
        "`deck`.",
        "**Baraja clásica o familiar**\n"
        "La baraja **clásica** es la tradicional, la de Don Clemente Gallo, y la de por defecto. "
        "Tres de sus cartas caricaturizan a personas: *El Borracho* (25), *El Negrito* (26, un "
        "hombre negro dibujado como caricatura racista) y *El Apache* (38, una caricatura de un "
        "indígena norteamericano). La baraja **familiar** pone en su lugar *La Piñata*, *El Elote* "
        "y *La Mariposa*, con los mismos números, para las mesas donde esas cartas dolerían o "
        "habría que explicarlas. Nada más cambia: las mismas 54 cantadas en el mismo orden, las "
        "mismas tablas, premios y verificación. Elígela con `baraja` al empezar una partida; "
        "quienes administran el servidor pueden hacerla la de por defecto con `/gamenight ajustes` "
        "y `baraja`.",
    ),
    "help_loteria_prizes": (
        "**Prizes** (see the picture)\n"
        "The prizes are played one after another, in the order the host chose (by default a "
        "line, then a full tabla):\n"
        "- **Line** (*Chorro*): any row, column or diagonal of four.\n"
        "- **Four corners** (*Cuatro esquinas*): the four corner cards.\n"
        "- **Centre** (*Centrito*): the four cards in the middle.\n"
        "- **Square** (*Cuadrito*): any 2x2 block.\n"
        "- **Full tabla** (*Llena*): all sixteen cards.\n"
        "With the **slept rule** (`slept_rule`) the winning shape must include the last card "
        "called: whoever sleeps on a win loses it, unless a later card completes another shape.",
        "**Premios** (mira la imagen)\n"
        "Los premios se juegan uno tras otro, en el orden que eligió el anfitrión (por defecto "
        "un chorro y luego la tabla llena):\n"
        "- **Chorro**: cualquier fila, columna o diagonal de cuatro.\n"
        "- **Cuatro esquinas**: las cuatro cartas de las esquinas.\n"
        "- **Centrito**: las cuatro cartas del centro.\n"
        "- **Cuadrito**: cualquier bloque de 2x2.\n"
        "- **Llena**: las dieciséis cartas.\n"
        "Con la **regla del dormido** (`regla_dormido`) la figura ganadora debe incluir la "
        "última carta cantada: quien se duerme pierde ese premio, salvo que una carta posterior "
        "le complete otra figura.",
    ),
    "help_loteria_claims": (
        "**Claims**\n"
        "- A claim is judged against the cards already announced in the channel when you made "
        "it.\n"
        "- Everyone who claims the prize rightly on the same card shares it.\n"
        "- A false claim is announced to everyone; a second one takes you out of the game.\n"
        "- The **¡Lotería!** button claims the prize being played now: if your tabla also "
        "completes the next prize on the same card, press it again.",
        "**Reclamos**\n"
        "- Un reclamo se juzga con las cartas ya anunciadas en el canal cuando lo hiciste.\n"
        "- Quienes reclaman bien el premio con la misma carta lo comparten.\n"
        "- Un reclamo falso se anuncia a todos; con el segundo quedas fuera de la partida.\n"
        "- El botón **¡Lotería!** reclama el premio que se juega ahora: si tu tabla también "
        "completa el siguiente con la misma carta, púlsalo otra vez.",
    ),
    # The engine's reasons: each key a code of engine.loteria.ClaimReason,
    # its placeholders the code's values (bot/reasons.py fills them in).
    "loteria_no_line": ("no line is complete", "ninguna línea está completa"),
    "loteria_corners_missing": (
        "the four corners are not all called",
        "no han salido las cuatro esquinas",
    ),
    "loteria_centre_missing": (
        "the four centre cells are not all called",
        "no han salido las cuatro casillas del centro",
    ),
    "loteria_no_square": ("no 2x2 square is complete", "ningún cuadrito de 2x2 está completo"),
    "loteria_not_full": ("the tabla is not full", "la tabla no está llena"),
    "loteria_nothing_called": ("no cards have been called", "aún no ha salido ninguna carta"),
    "loteria_slept": (
        "the pattern does not include the last card called ({card})",
        "la figura no incluye la última carta cantada ({card})",
    ),
}

register_messages(MESSAGES, COMMAND_TRANSLATIONS, owner=__name__)
