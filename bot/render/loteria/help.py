"""Lotería's picture for ``/help``: its winning patterns on small tablas, labelled in English or
Spanish (the cog's ``help_pictures``).

The highlighted cells come from the engine's own definitions (``Pattern.masks``), so the picture
cannot drift from the rules claims are judged by. It depends only on its language, so it is
drawn once per language and kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import cos, pi, sin

from PIL import Image, ImageDraw

from bot.i18n import LocaleLike, is_spanish, message
from bot.render.common import (
    RGB,
    FontFace,
    Palette,
    Rendered,
    downsample,
    draw_text,
    encode_png,
    fit_text,
    fit_wrapped,
    font,
    limit_alt_text,
    safe_filename,
    tint,
)
from bot.render.loteria import bean
from engine.loteria import TABLA_CELLS, TABLA_SIDE, Pattern

SUPERSAMPLE = 2  # shapes are drawn at twice the size and shrunk, for smooth edges

# -- Lotería: one small tabla per pattern, three to a row ---------------------------------------

CARD_WIDTH = 46
CARD_HEIGHT = 64  # the 5:7 shape of a printed card
CARD_GAP = 7
TABLA_PAD = 11
MINI_WIDTH = 2 * TABLA_PAD + TABLA_SIDE * CARD_WIDTH + (TABLA_SIDE - 1) * CARD_GAP
MINI_HEIGHT = 2 * TABLA_PAD + TABLA_SIDE * CARD_HEIGHT + (TABLA_SIDE - 1) * CARD_GAP
PANEL_GAP = 26
CAPTION_HEIGHT = 90  # the pattern's name and what it takes, under each tabla
PANELS_PER_ROW = 3
OUTER = 30
TITLE_HEIGHT = 84
LOTERIA_WIDTH = 2 * OUTER + PANELS_PER_ROW * MINI_WIDTH + (PANELS_PER_ROW - 1) * PANEL_GAP
LOTERIA_PANEL_HEIGHT = MINI_HEIGHT + CAPTION_HEIGHT


def _cells(*cells: int) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def _example(pattern: Pattern, cells: Sequence[int]) -> int:
    """The mask of ``cells``, checked to be one of the ways ``pattern`` is won."""
    mask = _cells(*cells)
    if mask not in pattern.masks:
        raise ValueError(f"cells {list(cells)} do not make {pattern.value}")
    return mask


SLEPT_CELLS = (1, 5, 9, 13)  # the second column, completed by its third card
SLEPT_LAST = 9


def loteria_panels() -> list[tuple[str, int, int | None]]:
    """Each panel as ``(key, winning cell mask, the last card's cell or None)``: one example of
    every pattern (the line a row, the square the top-left block), then the slept rule."""
    return [
        (Pattern.LINE.value, _example(Pattern.LINE, range(TABLA_SIDE)), None),
        (Pattern.CORNERS.value, Pattern.CORNERS.masks[0], None),
        (Pattern.CENTRE.value, Pattern.CENTRE.masks[0], None),
        (Pattern.SQUARE.value, _example(Pattern.SQUARE, (0, 1, 4, 5)), None),
        (Pattern.FULL.value, Pattern.FULL.masks[0], None),
        ("slept", _example(Pattern.LINE, SLEPT_CELLS), SLEPT_LAST),
    ]


def _star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float) -> None:
    """A five-pointed gold star outlined in ink: the last card called."""
    points = []
    for index in range(10):
        reach = radius if index % 2 == 0 else radius * 0.45
        angle = -pi / 2 + index * pi / 5
        points.append((centre[0] + reach * cos(angle), centre[1] + reach * sin(angle)))
    draw.polygon(points, fill=Palette.GOLD, outline=Palette.INK, width=max(1, round(radius / 7)))


def card_origin(cell: int) -> tuple[int, int]:
    """Where card ``cell`` of a small tabla starts, inside the tabla."""
    row, column = divmod(cell, TABLA_SIDE)
    return (
        TABLA_PAD + column * (CARD_WIDTH + CARD_GAP),
        TABLA_PAD + row * (CARD_HEIGHT + CARD_GAP),
    )


@lru_cache(maxsize=8)
def _mini_tabla(winning: int, last: int | None) -> Image.Image:
    """A small tabla of blank cards (RGB): ``winning`` cells ringed in gold under beans, the
    others faded, and the last card called starred."""
    s = SUPERSAMPLE
    image = Image.new("RGB", (MINI_WIDTH * s, MINI_HEIGHT * s), Palette.BOARD_DARK)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, MINI_WIDTH * s - 1, MINI_HEIGHT * s - 1),
        radius=10 * s,
        fill=Palette.BOARD,
        outline=Palette.GOLD,
        width=2 * s,
    )
    for cell in range(TABLA_CELLS):
        left, top = (value * s for value in card_origin(cell))
        right, bottom = left + CARD_WIDTH * s - 1, top + CARD_HEIGHT * s - 1
        won = winning >> cell & 1
        if won:
            ring = 4 * s
            draw.rounded_rectangle(
                (left - ring, top - ring, right + ring, bottom + ring),
                radius=7 * s,
                fill=Palette.GOLD,
            )
        frame = Palette.FRAMES[cell % len(Palette.FRAMES)]
        paper = Palette.PAPER if won else tint(Palette.PAPER, 0.35, Palette.BOARD)
        draw.rounded_rectangle(
            (left, top, right, bottom), radius=4 * s, fill=paper, outline=Palette.INK, width=s
        )
        # The card's picture window, coloured as on the printed cards; faded when not winning.
        inset = 5 * s
        window = (left + inset, top + inset, right - inset, bottom - round(CARD_HEIGHT * 0.26) * s)
        wash = tint(frame, 0.78) if won else tint(tint(frame, 0.78), 0.35, Palette.BOARD)
        edge = frame if won else tint(frame, 0.35, Palette.BOARD)
        draw.rectangle(window, fill=wash, outline=edge, width=2 * s)
        # The name band: a short rule standing in for the card's name.
        band_y = bottom - round(CARD_HEIGHT * 0.13) * s
        draw.line(
            (left + 10 * s, band_y, right - 10 * s, band_y),
            fill=Palette.MUTED if won else tint(Palette.MUTED, 0.35, Palette.BOARD),
            width=3 * s,
        )
    tabla = downsample(image, (MINI_WIDTH, MINI_HEIGHT)).convert("RGBA")
    token = bean(round(CARD_WIDTH * 0.78))
    for cell in range(TABLA_CELLS):
        if winning >> cell & 1:
            left, top = card_origin(cell)
            tabla.alpha_composite(
                token,
                (
                    left + (CARD_WIDTH - token.width) // 2,
                    top + round(CARD_HEIGHT * 0.37 - token.height / 2),
                ),
            )
    if last is not None:
        overlay = Image.new("RGBA", (MINI_WIDTH * s, MINI_HEIGHT * s), (0, 0, 0, 0))
        left, top = card_origin(last)
        _star(
            ImageDraw.Draw(overlay),
            ((left + CARD_WIDTH - 3) * s, (top + CARD_HEIGHT - 17) * s),
            17 * s,
        )
        tabla.alpha_composite(downsample(overlay, (MINI_WIDTH, MINI_HEIGHT)))
    return tabla.convert("RGB")


def panel_origin(index: int) -> tuple[int, int]:
    """Where the small tabla of panel ``index`` (of ``loteria_panels``) starts."""
    row, column = divmod(index, PANELS_PER_ROW)
    return (
        OUTER + column * (MINI_WIDTH + PANEL_GAP),
        TITLE_HEIGHT + row * (LOTERIA_PANEL_HEIGHT + PANEL_GAP),
    )


def _pattern_name(key: str, spanish: bool) -> tuple[str, str]:
    """The panel's name, and a second one beside it (the Spanish name in English pictures)."""
    if key == "slept":
        return message("help_pic_slept_name", "es" if spanish else "en"), ""
    pattern = Pattern(key)
    if spanish:
        return pattern.spanish, ""
    return pattern.english, pattern.spanish


def _caption(
    draw: ImageDraw.ImageDraw,
    centre_x: float,
    top: float,
    width: float,
    title: str,
    aside: str,
    text: str,
    colours: tuple[RGB, RGB, RGB],
) -> None:
    """A panel's name (with its aside, e.g. the Spanish name, after it) and a line or two."""
    name_colour, aside_colour, text_colour = colours
    heading = f"{title} · {aside}" if aside else title
    shown, face = fit_text(heading, FontFace.SANS_BOLD, 22, 15, width)
    if aside and shown == heading:
        # The name in its colour, the aside after it in the quieter one.
        name_width = face.getlength(f"{title} · ")
        total = face.getlength(heading)
        left = centre_x - total / 2
        draw_text(draw, (left, top), f"{title} · ", face, name_colour, "la")
        draw_text(draw, (left + name_width, top), aside, face, aside_colour, "la")
    else:
        draw_text(draw, (centre_x, top), shown, face, name_colour, "ma")
    lines, body = fit_wrapped(text, FontFace.SANS, 17, 13, width, 2)
    for index, line in enumerate(lines):
        draw_text(draw, (centre_x, top + 30 + index * 21), line, body, text_colour, "ma")


def _language(locale: LocaleLike) -> str:
    return "es" if is_spanish(locale) else "en"


@lru_cache(maxsize=2)
def _loteria_patterns(language: str) -> Rendered:
    panels = loteria_panels()
    rows = -(-len(panels) // PANELS_PER_ROW)
    height = TITLE_HEIGHT + rows * LOTERIA_PANEL_HEIGHT + (rows - 1) * PANEL_GAP + 8
    image = Image.new("RGB", (LOTERIA_WIDTH, height), Palette.BOARD)
    draw = ImageDraw.Draw(image)
    draw.rectangle((8, 8, LOTERIA_WIDTH - 9, height - 9), outline=Palette.GOLD, width=2)
    draw_text(
        draw,
        (OUTER, TITLE_HEIGHT / 2 + 4),
        "LOTERÍA",
        font(FontFace.SLAB, 44),
        Palette.CREAM,
        "lm",
        (2, Palette.BOARD_DARK),
    )
    draw_text(
        draw,
        (LOTERIA_WIDTH - OUTER, TITLE_HEIGHT / 2 + 4),
        message("help_pic_loteria_title", language),
        font(FontFace.SANS_BOLD, 28),
        Palette.GOLD,
        "rm",
    )
    spanish = language == "es"
    for index, (key, winning, last) in enumerate(panels):
        left, top = panel_origin(index)
        image.paste(_mini_tabla(winning, last), (left, top))
        title, aside = _pattern_name(key, spanish)
        _caption(
            draw,
            left + MINI_WIDTH / 2,
            top + MINI_HEIGHT + 10,
            MINI_WIDTH + 6,
            title,
            aside,
            message(f"help_pic_{key}", language),
            (Palette.GOLD_LIGHT, Palette.CREAM, Palette.CREAM),
        )
    return Rendered(
        encode_png(image),
        loteria_patterns_alt_text(language),
        safe_filename("help", "loteria", language),
    )


def loteria_patterns_alt_text(locale: LocaleLike) -> str:
    """The alt text of the Lotería help picture: each pattern and which cells make it."""
    language = _language(locale)
    parts = [message("help_alt_loteria", language)]
    for key, _, _ in loteria_panels():
        title, aside = _pattern_name(key, language == "es")
        name = f"{title} ({aside})" if aside else title
        parts.append(f"{name}: {message(f'help_alt_{key}', language)}.")
    return limit_alt_text(" ".join(parts))


def render_loteria_patterns(locale: LocaleLike) -> Rendered:
    """Lotería's winning patterns, one small tabla each with its cards under beans, and the
    slept rule (a line whose last card called is starred); labels and alt text in ``locale``."""
    return _loteria_patterns(_language(locale))
