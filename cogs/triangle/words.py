"""The Tricky Triangle's words: what its cog says, its pages of /help and its engine's reasons, in
English and Spanish, and its commands' Spanish names and descriptions.

The cog imports this module, which registers them with ``bot.i18n`` (``register_messages``).
The words every game shares stay in ``bot/i18n.py``; those its pictures draw sit beside its
renderer (``bot/render/triangle/words.py``)."""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages

# Command, option and choice names and descriptions: English source -> Spanish.
COMMAND_TRANSLATIONS: dict[str, str] = {
    "triangle": "triangulo",
    "solve": "resolver",
    "quit": "abandonar",
    "The Tricky Triangle peg puzzle": "El triángulo de clavijas",
    "Play the Tricky Triangle peg puzzle": "Juega al triángulo de clavijas",
    "The hole to leave empty (0-14); leave out to pick it": (
        "El hoyo que queda vacío (0-14); omítelo para elegirlo"
    ),
    "Show a solution as an animation": "Muestra una solución animada",
    "The hole left empty at the start (0-14)": "El hoyo vacío al empezar (0-14)",
    "Give up your Tricky Triangle game": "Abandona tu partida del triángulo",
}

# Option names whose Spanish differs from the command of the same English name.
OPTION_TRANSLATIONS: dict[str, str] = {"start": "hoyo_inicial"}

# key -> (English, Spanish), formatted with str.format(**values).
MESSAGES: dict[str, tuple[Text, Text]] = {
    # What the cog says (cogs/triangle/__init__.py). English templates name the game
    # {title}; Spanish ones {titulo}, its Spanish name.
    "tri_hints": (
        Plural("{count} hint", "{count} hints"),
        Plural("{count} pista", "{count} pistas"),
    ),
    "tri_solution": (
        "## Tricky Triangle solution, hole {hole} empty\n{jumps}, {ending}:\n{steps}",
        "## Solución del triángulo, hoyo {hole} vacío\n{jumps}, {ending}:\n{steps}",
    ),
    "tri_left_at_best": ("{pegs} left at best", "quedan {pegs} como mínimo"),
    "tri_hint_button": ("Hint", "Pista"),
    "tri_give_up_button": ("Give up", "Abandonar"),
    "tri_pick_start": (
        "Every hole has a peg. **Press the hole to leave empty** to begin.",
        "Todos los hoyos tienen clavija. **Pulsa el hoyo que quieres dejar vacío** para empezar.",
    ),
    "tri_left": ("{pegs} left.", Plural("Queda {pegs}.", "Quedan {pegs}.")),
    "tri_or": (" or ", " o "),
    "tri_picked": (
        "Peg {peg} picked: it can jump to {targets}.",
        "Clavija {peg} elegida: puede saltar a {targets}.",
    ),
    "tri_picked_stuck": (
        "Peg {peg} picked, but it has no jump: pick another peg.",
        "Clavija {peg} elegida, pero no tiene salto: elige otra.",
    ),
    "tri_how": (
        "Press a peg, then the empty hole to jump it to, over a neighbour.",
        "Pulsa una clavija y luego el hoyo vacío adonde saltará, por encima de una vecina.",
    ),
    "tri_put_away_early": ("Put away before the first jump.", "Recogido antes del primer salto."),
    "tri_with_hints": (" (with {hints})", " (con {hints})"),
    "tri_final_caption": ("{pegs} left: {remark}", "{pegs}: {remark}"),
    "tri_final": (
        "Game over: **{pegs} left{hints}. {remark}!**",
        "Fin del juego: **{pegs} en el tablero{hints}. ¡{remark}!**",
    ),
    "tri_ended_caption": ("{pegs} left: {reason}.", "{pegs}: {reason}."),
    "tri_ended": ("{reason} with {pegs} left.", "{reason} con {pegs} en el tablero."),
    "tri_given_up": ("given up", "abandonado"),
    "tri_left_idle": ("left idle", "abandonado por inactividad"),
    # The traditional remarks (Cracker Barrel's), by pegs left; 4 or more get the last.
    "tri_remark_1": ("You're genius", "Eres un genio"),
    "tri_remark_2": ("You're purty smart", "Eres bastante listo"),
    "tri_remark_3": ("You're just plain dumb", "Eres medio burro"),
    "tri_remark_more": ("You're just plain eg-no-ra-moose", "Eres un ig-no-ran-tón"),
    "tri_no_game": (
        "You have no Tricky Triangle game on.",
        "No tienes ninguna partida del triángulo en curso.",
    ),
    "tri_gave_up": ("You gave up {title} #{game}.", "Abandonaste {titulo} #{game}."),
    "tri_not_yours": (
        "This is <@{host}>'s triangle. Start your own with `/triangle play`.",
        "Este triángulo es de <@{host}>. Empieza el tuyo con `/triangle play`.",
    ),
    "tri_hole_empty": (
        "Hole {hole} is empty: press a peg first, then where it lands.",
        "El hoyo {hole} está vacío: pulsa primero una clavija y luego dónde cae.",
    ),
    # Same English as engine.triangle's rule errors, which players already see.
    "tri_not_straight": (
        "{origin} -> {target} is not a straight jump over one neighbouring hole",
        "{origin} -> {target} no es un salto en línea recta sobre un hoyo vecino",
    ),
    "tri_nothing_over": (
        "nothing to jump over: hole {over} between {origin} and {target} is empty",
        "no hay nada que saltar: el hoyo {over}, entre {origin} y {target}, está vacío",
    ),
    "tri_any_start": (
        "Any hole will do: every start can be solved down to one peg.",
        "Cualquier hoyo sirve: todos los comienzos se pueden resolver hasta una clavija.",
    ),
    "tri_some_starts": (
        "These starts can be solved to one peg: {starts}.",
        "Estos comienzos se pueden resolver hasta una clavija: {starts}.",
    ),
    "tri_no_jump_left": ("No jump is left.", "No queda ningún salto."),
    "tri_hint_text": (
        "💡 Jump **{origin} → {target}** (over {over}). From there the best you can reach is "
        "{pegs}.",
        "💡 Salta **{origin} → {target}** (sobre {over}). Desde ahí, lo mejor que puedes lograr "
        "es {pegs}.",
    ),
    # Its pages of /help (``TriangleCog.help_keys``).
    "help_triangle_summary": (
        "The Tricky Triangle peg solitaire: 15 holes, 14 pegs. Jump pegs over each other until "
        "as few as possible are left; one peg left is genius.",
        "El triángulo de clavijas, un solitario: 15 hoyos y 14 clavijas. Salta clavijas unas "
        "sobre otras hasta dejar las menos posibles; dejar una es de genio.",
    ),
    "help_triangle_rules": (
        "**How to play**\n"
        "- `/triangle play` sets out the board as 15 buttons, holes 0 to 14 (0 at the top). "
        "Press the hole to leave empty, or name it with `start`.\n"
        "- Press a peg, then the empty hole two steps away in a straight line: the peg jumps "
        "over its neighbour, which comes off the board.\n"
        "- Play until no jump is left. One peg left: *you're genius*; two: *purty smart*; three: "
        "*just plain dumb*; more: *eg-no-ra-moose*.\n"
        "- **Hint** tells the best next jump; `/triangle solve` shows a whole solution as an "
        "animation; **Give up** (or `/triangle quit`) ends the game. A game left untouched for "
        "30 minutes is put away.",
        "**Cómo se juega**\n"
        "- `/triangulo jugar` pone el tablero en 15 botones, los hoyos del 0 al 14 (el 0 "
        "arriba). Pulsa el hoyo que quieres dejar vacío, o nómbralo con `hoyo_inicial`.\n"
        "- Pulsa una clavija y luego el hoyo vacío a dos pasos en línea recta: la clavija salta "
        "sobre su vecina, que sale del tablero.\n"
        "- Juega hasta que no quede ningún salto. Una clavija: *eres un genio*; dos: *bastante "
        "listo*; tres: *medio burro*; más: *ig-no-ran-tón*.\n"
        "- **Pista** te dice el mejor salto; `/triangulo resolver` muestra una solución entera "
        "animada; **Abandonar** (o `/triangulo abandonar`) termina la partida. Una partida sin "
        "tocar durante 30 minutos se recoge.",
    ),
    # The engine's reasons: each key a code of engine.triangle.TriangleReason,
    # its placeholders the code's values (bot/reasons.py fills them in).
    "tri_no_such_hole": (
        "hole {hole} is not on the board (holes are 0..{last})",
        "el hoyo {hole} no está en el tablero (los hoyos van de 0 a {last})",
    ),
    "tri_game_over": (
        "the game is over: no jump is left (pegs left: {pegs})",
        "la partida terminó: no queda ningún salto (clavijas: {pegs})",
    ),
    "tri_no_peg": (
        "there is no peg in hole {origin} to jump with",
        "no hay ninguna clavija en el hoyo {origin} para saltar",
    ),
    "tri_landing_taken": (
        "hole {target} is not empty, so no peg can land there",
        "el hoyo {target} no está vacío: ninguna clavija puede caer ahí",
    ),
}

register_messages(MESSAGES, COMMAND_TRANSLATIONS, options=OPTION_TRANSLATIONS, owner=__name__)
