"""The Tricky Triangle's pictures' words, in English and Spanish: those drawn on its board and
on a solution's frames (pegs and jumps counted, which its cog says too) and their alt text.

The renderer imports this module, which registers them with ``bot.i18n`` (``register_messages``):
whatever draws or names them has them once the renderer is imported."""

from __future__ import annotations

from bot.i18n import Plural, Text, register_messages

MESSAGES: dict[str, tuple[Text, Text]] = {
    # Counted on the pictures and by the cog.
    "tri_pegs": (
        Plural("{count} peg", "{count} pegs"),
        Plural("{count} clavija", "{count} clavijas"),
    ),
    "tri_jumps": (
        Plural("{count} jump", "{count} jumps"),
        Plural("{count} salto", "{count} saltos"),
    ),
    "tri_jump_text": ("{origin} over {over} to {target}", "{origin} sobre {over} hasta {target}"),
    "tri_one_left_in": ("one peg left, in hole {hole}", "queda una clavija, en el hoyo {hole}"),
    "tri_last_jump": (" Last jump: {jump}.", " Último salto: {jump}."),
    # Drawn on the board and the solution's frames.
    "pic_triangle_title": ("TRICKY TRIANGLE", "TRIÁNGULO"),
    "pic_tri_start": ("Start: hole {hole} empty", "Inicio: hoyo {hole} vacío"),
    "pic_tri_first_caption": ("Hole {hole} empty: {pegs}", "Hoyo {hole} vacío: {pegs}"),
    "pic_tri_jump_caption": (
        "Jump {number}: {jump} · {count} left",
        Plural("Salto {number}: {jump} · queda {count}", "Salto {number}: {jump} · quedan {count}"),
    ),
    # The alt text.
    "alt_triangle": (
        "Tricky Triangle game {game}: 15 holes in rows of 1 to 5, numbered 0 at the top to 14 at "
        "the bottom right. {caption}.",
        "Triángulo, partida {game}: 15 hoyos en filas de 1 a 5, numerados del 0 arriba al 14 "
        "abajo a la derecha. {caption}.",
    ),
    "alt_triangle_holes": (
        Plural(
            " {count} peg in hole {pegs}; empty holes {empty}.",
            " {count} pegs in holes {pegs}; empty holes {empty}.",
        ),
        Plural(
            " {count} clavija, en el hoyo {pegs}; hoyos vacíos: {empty}.",
            " {count} clavijas, en los hoyos {pegs}; hoyos vacíos: {empty}.",
        ),
    ),
    "alt_triangle_picked": (" Peg {peg} is picked.", " La clavija {peg} está elegida."),
    "alt_triangle_solution": (
        "Animation of a Tricky Triangle solution with hole {hole} empty at the start, one jump "
        "per frame ({jumps}): {steps}; {ending}.",
        "Animación de una solución del triángulo con el hoyo {hole} vacío al empezar, un salto "
        "por imagen ({jumps}): {steps}; {ending}.",
    ),
    "alt_triangle_step": ("{number}. {origin} to {target}", "{number}. del {origin} al {target}"),
    "alt_triangle_left_in": (
        "{pegs} left, in holes {holes}",
        "quedan {pegs}, en los hoyos {holes}",
    ),
}

register_messages(MESSAGES, owner=__name__)
