"""Housie's picture for ``/help``: its prizes on a ticket, labelled in English or Spanish (the
cog's ``help_pictures``).

The highlighted numbers come from the engine's own definitions (``engine.housie.prize_numbers``),
so the picture cannot drift from the rules claims are judged by. It depends only on its language
and the prizes' names, so it is drawn once for each and kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import LocaleLike, is_spanish, message
from bot.render.common import (
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
from bot.render.housie import BLANK
from engine.housie import COLUMNS, ROWS, Prize, Ticket, prize_numbers

SUPERSAMPLE = 2  # shapes are drawn at twice the size and shrunk, for smooth edges


def _language(locale: LocaleLike) -> str:
    return "es" if is_spanish(locale) else "en"


# -- Housie: one ticket per prize, two to a row -------------------------------------------------

HELP_TICKET = Ticket(
    (
        (3, 0, 24, 0, 47, 0, 62, 0, 85),
        (0, 15, 0, 36, 0, 58, 0, 71, 88),
        (8, 0, 27, 0, 49, 0, 66, 79, 0),
    )
)
EARLY_FIVE_EXAMPLE = frozenset({24, 36, 49, 62, 88})  # any five: these came up first
# Every prize with a shape of its own: the later houses only repeat Full House.
HOUSIE_PRIZES = tuple(prize for prize in Prize if prize.needs is None)
CELL = 42
TICKET_GRID_WIDTH = COLUMNS * CELL
TICKET_GRID_HEIGHT = ROWS * CELL
TICKET_LABEL = 56  # the prize's name and what it takes, above each ticket
TICKETS_PER_ROW = 2
HOUSIE_GAP = 30
HOUSIE_OUTER = 26
BAND = 60
FOOTNOTE = 50
HOUSIE_WIDTH = 2 * HOUSIE_OUTER + TICKETS_PER_ROW * TICKET_GRID_WIDTH + HOUSIE_GAP
HOUSIE_PANEL_HEIGHT = TICKET_LABEL + TICKET_GRID_HEIGHT
HOUSIE_TOP = BAND + 18
HOUSIE_ROW_GAP = 22


def prize_example(prize: Prize) -> frozenset[int]:
    """The numbers of ``HELP_TICKET`` highlighted for ``prize``."""
    if prize is Prize.EARLY_FIVE:
        return EARLY_FIVE_EXAMPLE
    return prize_numbers(HELP_TICKET, prize)


def ticket_panel_origin(index: int) -> tuple[int, int]:
    """Where panel ``index`` (of ``HOUSIE_PRIZES``) starts: its label, then its grid
    ``TICKET_LABEL`` pixels lower."""
    row, column = divmod(index, TICKETS_PER_ROW)
    return (
        HOUSIE_OUTER + column * (TICKET_GRID_WIDTH + HOUSIE_GAP),
        HOUSIE_TOP + row * (HOUSIE_PANEL_HEIGHT + HOUSIE_ROW_GAP),
    )


@lru_cache(maxsize=1)
def _blank_cell() -> Image.Image:
    """A blank of the ticket, hatched as on printed tickets (RGB, supersampled)."""
    size = CELL * SUPERSAMPLE
    cell = Image.new("RGB", (size, size), BLANK)
    draw = ImageDraw.Draw(cell)
    for offset in range(-size, size, 6 * SUPERSAMPLE):
        draw.line(
            (offset, size, offset + size, 0), fill=tint(Palette.TEAL, 0.68), width=SUPERSAMPLE
        )
    return cell


@lru_cache(maxsize=8)
def _ticket_grid(highlighted: frozenset[int]) -> Image.Image:
    """``HELP_TICKET``'s grid (RGB): ``highlighted`` numbers dabbed on gold, blanks hatched."""
    s = SUPERSAMPLE
    size = CELL * s
    width, height = TICKET_GRID_WIDTH * s, TICKET_GRID_HEIGHT * s
    image = Image.new("RGB", (width, height), Palette.PAPER)
    draw = ImageDraw.Draw(image)
    for row_index, row in enumerate(HELP_TICKET.rows):
        for column, number in enumerate(row):
            left, top = column * size, row_index * size
            if number == 0:
                image.paste(_blank_cell(), (left, top))
            elif number in highlighted:
                draw.rectangle((left, top, left + size, top + size), fill=Palette.GOLD_LIGHT)
                radius = size * 0.38
                middle_x, middle_y = left + size / 2, top + size / 2
                draw.ellipse(
                    (middle_x - radius, middle_y - radius, middle_x + radius, middle_y + radius),
                    fill=Palette.DAB,
                    outline=tint(Palette.DAB, 0.3, Palette.INK),
                    width=s,
                )
    for column in range(1, COLUMNS):
        draw.line((column * size, 0, column * size, height), fill=Palette.INK, width=2 * s)
    for row_index in range(1, ROWS):
        draw.line((0, row_index * size, width, row_index * size), fill=Palette.INK, width=2 * s)
    draw.rectangle((0, 0, width - 1, height - 1), outline=Palette.INK, width=3 * s)
    grid = downsample(image, (TICKET_GRID_WIDTH, TICKET_GRID_HEIGHT))
    numbers = ImageDraw.Draw(grid)
    face = font(FontFace.SANS_BOLD, 19)
    for row_index, row in enumerate(HELP_TICKET.rows):
        for column, number in enumerate(row):
            if number:
                colour = (255, 255, 255) if number in highlighted else Palette.INK
                centre = (column * CELL + CELL / 2, row_index * CELL + CELL / 2 + 1)
                draw_text(numbers, centre, str(number), face, colour, "mm")
    return grid


@lru_cache(maxsize=4)
def _housie_prizes(language: str, names: tuple[tuple[Prize, str], ...]) -> Rendered:
    named = dict(names)
    rows = -(-len(HOUSIE_PRIZES) // TICKETS_PER_ROW)
    height = HOUSIE_TOP + rows * HOUSIE_PANEL_HEIGHT + (rows - 1) * HOUSIE_ROW_GAP + FOOTNOTE
    image = Image.new("RGB", (HOUSIE_WIDTH, height), Palette.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, HOUSIE_WIDTH, BAND - 1), fill=Palette.TEAL)
    draw.rectangle((0, 0, HOUSIE_WIDTH - 1, height - 1), outline=Palette.TEAL, width=4)
    draw_text(
        draw,
        (HOUSIE_OUTER, BAND / 2 + 2),
        message("help_pic_housie_name", language).upper(),
        font(FontFace.SLAB, 32),
        Palette.PAPER,
        "lm",
    )
    draw_text(
        draw,
        (HOUSIE_WIDTH - HOUSIE_OUTER, BAND / 2 + 2),
        message("help_pic_housie_title", language),
        font(FontFace.SANS_BOLD, 26),
        Palette.GOLD_LIGHT,
        "rm",
    )
    for index, prize in enumerate(HOUSIE_PRIZES):
        left, top = ticket_panel_origin(index)
        name, name_face = fit_text(named[prize], FontFace.SANS_BOLD, 21, 15, TICKET_GRID_WIDTH)
        draw_text(draw, (left, top + 2), name, name_face, Palette.INK, "la")
        what, what_face = fit_text(
            message(f"help_pic_{prize.name.lower()}", language),
            FontFace.SANS,
            16,
            12,
            TICKET_GRID_WIDTH,
        )
        draw_text(draw, (left, top + 29), what, what_face, Palette.MUTED, "la")
        image.paste(_ticket_grid(prize_example(prize)), (left, top + TICKET_LABEL))
    houses = message(
        "help_pic_extra_houses",
        language,
        second=named[Prize.SECOND_HOUSE],
        third=named[Prize.THIRD_HOUSE],
    )
    lines, face = fit_wrapped(houses, FontFace.SANS, 17, 13, HOUSIE_WIDTH - 2 * HOUSIE_OUTER, 2)
    for index, line in enumerate(lines):
        draw_text(
            draw,
            (HOUSIE_OUTER, height - FOOTNOTE + 12 + index * 20),
            line,
            face,
            Palette.INK,
            "la",
        )
    return Rendered(
        encode_png(image),
        housie_prizes_alt_text(language, named),
        safe_filename("help", "housie", language),
    )


def housie_prizes_alt_text(locale: LocaleLike, names: Mapping[Prize, str]) -> str:
    """The alt text of the Housie help picture: the ticket's rows and each prize's numbers."""
    language = _language(locale)
    rows = "; ".join(
        message(
            "help_alt_ticket_row",
            language,
            row=index + 1,
            numbers=", ".join(str(number) for number in row if number),
        )
        for index, row in enumerate(HELP_TICKET.rows)
    )
    parts = [message("help_alt_housie", language, rows=rows)]
    for prize in HOUSIE_PRIZES:
        numbers = ", ".join(str(number) for number in sorted(prize_example(prize)))
        what = message(f"help_pic_{prize.name.lower()}", language)
        parts.append(f"{names[prize]} ({what}): {numbers}.")
    parts.append(
        message(
            "help_pic_extra_houses",
            language,
            second=names[Prize.SECOND_HOUSE],
            third=names[Prize.THIRD_HOUSE],
        )
    )
    return limit_alt_text(" ".join(parts))


def render_housie_prizes(locale: LocaleLike, names: Mapping[Prize, str]) -> Rendered:
    """One ticket per Housie prize with the numbers that make it dabbed on gold (Early Five's
    five are an example: any five count), and a note on the extra houses; ``names`` is what the
    game calls each prize in ``locale``. Labels and alt text in ``locale``."""
    return _housie_prizes(_language(locale), tuple((prize, names[prize]) for prize in Prize))
