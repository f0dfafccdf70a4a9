"""The toy calling game's pictures, with real Pillow: a card's three numbers, the called ones
and the winning ones marked."""

from __future__ import annotations

import io
from collections.abc import Collection

from PIL import Image, ImageDraw

from bot.render import Rendered
from tests.cogs.toy_calling.engine import ToyCard

CELL = 40


def render_card(card: ToyCard, called: Collection[int], won: Collection[int] = ()) -> Rendered:
    image = Image.new("RGB", (CELL * len(card.numbers), CELL), "white")
    draw = ImageDraw.Draw(image)
    for index, number in enumerate(card.numbers):
        box = (index * CELL, 0, (index + 1) * CELL - 1, CELL - 1)
        fill = "gold" if number in won else "lightgreen" if number in called else "white"
        draw.rectangle(box, fill=fill, outline="black")
        draw.text((index * CELL + 14, 12), str(number), fill="black")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    marked = [n for n in card.numbers if n in called]
    alt = f"A toy card: {card.to_state()}; called: {', '.join(map(str, marked)) or 'none'}"
    return Rendered(buffer.getvalue(), alt, "toy-card.png")


def render_call(value: int) -> Rendered:
    image = Image.new("RGB", (CELL, CELL), "white")
    ImageDraw.Draw(image).text((14, 12), str(value), fill="black")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return Rendered(buffer.getvalue(), f"The number {value}", "toy-call.png")
