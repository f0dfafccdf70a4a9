"""Race to ten, the picture: the total as a bar of ten squares, with its alt text."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.render import Rendered
from tests.cogs.toy_table.engine import TARGET, Race

SQUARE = 24


def render_race(race: Race, game_id: int) -> Rendered:
    image = Image.new("RGB", (SQUARE * TARGET, SQUARE), "white")
    draw = ImageDraw.Draw(image)
    for index in range(TARGET):
        fill = "seagreen" if index < race.total else "lightgray"
        box = (index * SQUARE + 1, 1, (index + 1) * SQUARE - 2, SQUARE - 2)
        draw.rectangle(box, fill=fill)
    png = io.BytesIO()
    image.save(png, format="PNG")
    alt = f"Race to ten #{game_id}: {race.total} of {TARGET} after {race.moves} moves"
    return Rendered(png.getvalue(), alt, f"race-{game_id}.png")
