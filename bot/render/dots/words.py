"""Dots and Boxes's picture's words, in English and Spanish: its title, the players' colours
and its alt text.

The renderer imports this module, which registers them with ``bot.i18n`` (``register_messages``):
whatever draws or names them has them once the renderer is imported."""

from __future__ import annotations

from bot.i18n import Text, register_messages

MESSAGES: dict[str, tuple[Text, Text]] = {
    "dots_red": ("red", "rojo"),
    "dots_blue": ("blue", "azul"),
    "pic_dots_title": ("DOTS AND BOXES", "TIMBIRICHE"),
    "alt_dots": (
        "Dots and Boxes game {game}, {rows}x{columns} boxes, dots {first} to {last}.",
        "Timbiriche, partida {game}, {rows}x{columns} cajas, puntos de {first} a {last}.",
    ),
    "alt_dots_last": (" Last line: {line} by {who}.", " Última línea: {line}, de {who}."),
    "alt_dots_boxes": (" {who}'s boxes: {boxes}.", " Cajas de {who}: {boxes}."),
    "alt_dots_box": ("box {dot}", "caja {dot}"),
    "alt_dots_free": (" Free lines ({count}): {lines}.", " Líneas libres ({count}): {lines}."),
}

register_messages(MESSAGES, owner=__name__)
