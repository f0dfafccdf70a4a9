"""Tricky Triangle pictures: the board of 15 holes, and an animated GIF of a whole solution.

Holes carry the engine's numbers (0 at the top, 10..14 along the bottom), so the picture, the
buttons and the move lists all agree. Pegs are red with their number in white; empty holes
show their number faintly. The latest jump is a gold arrow, a chosen peg has a gold ring.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

import bot.render.triangle.words  # noqa: F401  (its words, registered on import)
from bot.i18n import LocaleLike, message
from bot.render.common import (
    RGB,
    FontFace,
    Palette,
    Rendered,
    downsample,
    draw_text,
    encode_png,
    fit_text,
    font,
    language,
    limit_alt_text,
    palette_of,
    safe_filename,
    shorten,
    tint,
)
from engine.triangle import COORDINATES, HOLES, ROWS, Jump, start_board

SUPERSAMPLE = 3
SPACING = 84  # between neighbouring holes
ROW_HEIGHT = SPACING * 0.866  # equilateral: sqrt(3) / 2 of the spacing
MARGIN = 24
BAND = 52
FOOTER = 60
PEG_RADIUS = 24
HOLE_RADIUS = 15
WIDTH = 480
BOARD_TOP = BAND + MARGIN + 30
HEIGHT = round(BOARD_TOP + (ROWS - 1) * ROW_HEIGHT + 52 + FOOTER)

PEG: RGB = Palette.FRAMES[0]
WOOD: RGB = tint(Palette.BEAN_LIGHT, 0.45)
WOOD_EDGE: RGB = Palette.BEAN

# Solution GIF timing, in milliseconds.
FIRST_FRAME_MS = 1400
JUMP_FRAME_MS = 1000
LAST_FRAME_MS = 3500


def hole_centre(hole: int) -> tuple[float, float]:
    """Where hole ``hole`` is drawn, in final (not supersampled) pixels."""
    row, column = COORDINATES[hole]
    x = WIDTH / 2 + (column - row / 2) * SPACING
    y = BOARD_TOP + row * ROW_HEIGHT
    return x, y


def _has_peg(board: int, hole: int) -> bool:
    return (board >> hole) & 1 == 1


@lru_cache(maxsize=2)  # one per language: the title band holds the game's name
def _board_background(spoken: str) -> Image.Image:
    """The wooden triangle with its title band in language ``spoken``, supersampled (RGB);
    copied for every picture."""
    s = SUPERSAMPLE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), Palette.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH * s, BAND * s - 1), fill=Palette.BEAN)
    draw_text(
        draw,
        (MARGIN * s, BAND * s / 2 + s),
        message("pic_triangle_title", spoken),
        font(FontFace.SLAB, 24 * s),
        Palette.PAPER,
        "lm",
    )
    top_x, top_y = hole_centre(0)
    left_x, bottom_y = hole_centre(10)
    right_x, _ = hole_centre(14)
    reach = SPACING * 0.78  # how far the wood extends past the outer holes
    corners = [
        (top_x, top_y - reach),
        (left_x - reach * 0.866, bottom_y + reach * 0.5),
        (right_x + reach * 0.866, bottom_y + reach * 0.5),
    ]
    scaled = [(x * s, y * s) for x, y in corners]
    draw.polygon(scaled, fill=WOOD, outline=WOOD_EDGE, width=5 * s)
    return image


def triangle_image(
    board: int,
    *,
    subtitle: str,
    caption: str,
    selected: int | None = None,
    last_jump: Jump | None = None,
    locale: LocaleLike = None,
) -> Image.Image:
    """The board as an RGB image: ``board`` has bit ``h`` set for a peg in hole ``h``; the
    title in ``locale``'s language (``subtitle`` and ``caption`` come worded)."""
    s = SUPERSAMPLE
    image = _board_background(language(locale)).copy()
    draw = ImageDraw.Draw(image)
    shown, face = fit_text(subtitle, FontFace.SANS, 17 * s, 12 * s, 180 * s)
    draw_text(draw, ((WIDTH - MARGIN) * s, BAND * s / 2 + s), shown, face, Palette.GOLD_LIGHT, "rm")
    # The arrow goes under the holes and pegs, so no number is hidden by it.
    if last_jump is not None:
        _arrow(draw, hole_centre(last_jump.origin), hole_centre(last_jump.target))
    number_font = font(FontFace.SANS_BOLD, 19 * s)
    hole_font = font(FontFace.SANS_BOLD, 15 * s)
    for hole in range(HOLES):
        x, y = (value * s for value in hole_centre(hole))
        if _has_peg(board, hole):
            radius = PEG_RADIUS * s
            if hole == selected:
                ring = radius + 7 * s
                draw.ellipse((x - ring, y - ring, x + ring, y + ring), fill=Palette.GOLD)
            # A darker rim below and a lighter cap: a peg standing in its hole.
            draw.ellipse(
                (x - radius, y - radius + 2 * s, x + radius, y + radius + 2 * s),
                fill=tint(PEG, 0.35, Palette.INK),
            )
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=PEG)
            draw_text(draw, (x, y + s), str(hole), number_font, (255, 255, 255), "mm")
        else:
            radius = HOLE_RADIUS * s
            draw.ellipse(
                (x - radius, y - radius, x + radius, y + radius),
                fill=tint(Palette.BEAN, 0.35, Palette.INK),
            )
            draw_text(draw, (x, y + s), str(hole), hole_font, Palette.CREAM, "mm")
    shown, face = fit_text(caption, FontFace.SANS_BOLD, 22 * s, 13 * s, (WIDTH - 2 * MARGIN) * s)
    draw_text(draw, (WIDTH * s / 2, (HEIGHT - FOOTER / 2 - 4) * s), shown, face, Palette.INK, "mm")
    return downsample(image, (WIDTH, HEIGHT))


def _arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A gold arrow from ``start`` to ``end`` (final pixels), stopping short of both pegs."""
    s = SUPERSAMPLE
    (x0, y0), (x1, y1) = start, end
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    gap_end = PEG_RADIUS + 14
    bx, by = x1 - ux * gap_end, y1 - uy * gap_end
    outline = tint(Palette.GOLD, 0.45, Palette.INK)
    for colour, width in ((outline, 11), (Palette.GOLD, 7)):
        draw.line((x0 * s, y0 * s, bx * s, by * s), fill=colour, width=width * s)
    head, half = 20.0, 13.0
    tip = (x1 - ux * (PEG_RADIUS + 1), y1 - uy * (PEG_RADIUS + 1))
    base = (tip[0] - ux * head, tip[1] - uy * head)
    points = [
        (tip[0] * s, tip[1] * s),
        ((base[0] - uy * half) * s, (base[1] + ux * half) * s),
        ((base[0] + uy * half) * s, (base[1] - ux * half) * s),
    ]
    draw.polygon(points, fill=Palette.GOLD, outline=outline, width=2 * s)


def _holes_text(board: int, locale: LocaleLike) -> str:
    pegs = [hole for hole in range(HOLES) if _has_peg(board, hole)]
    empty = [hole for hole in range(HOLES) if not _has_peg(board, hole)]
    return message(
        "alt_triangle_holes",
        locale,
        count=len(pegs),
        pegs=", ".join(map(str, pegs)),
        empty=", ".join(map(str, empty)),
    )


def _jump_text(jump: Jump, locale: LocaleLike) -> str:
    return message("tri_jump_text", locale, origin=jump.origin, over=jump.over, target=jump.target)


def triangle_alt_text(
    board: int,
    *,
    game_id: str,
    caption: str,
    selected: int | None = None,
    last_jump: Jump | None = None,
    locale: LocaleLike = None,
) -> str:
    """The alt text of the triangle: the caption, the holes with pegs, the last jump and the picked
    peg, in ``locale``'s language (``caption`` comes worded)."""
    text = message("alt_triangle", locale, game=game_id, caption=caption)
    text += _holes_text(board, locale)
    if last_jump is not None:
        text += message("tri_last_jump", locale, jump=_jump_text(last_jump, locale))
    if selected is not None:
        text += message("alt_triangle_picked", locale, peg=selected)
    return limit_alt_text(text)


def render_triangle(
    board: int,
    *,
    game_id: str,
    caption: str,
    selected: int | None = None,
    last_jump: Jump | None = None,
    locale: LocaleLike = None,
) -> Rendered:
    """The board, ``caption`` under it (pegs left, the remark..., worded by the caller), the
    last jump as an arrow; the other words and the alt text in ``locale``'s language."""
    image = triangle_image(
        board,
        subtitle=message("pic_game", locale, game=shorten(game_id, 10)),
        caption=caption,
        selected=selected,
        last_jump=last_jump,
        locale=locale,
    )
    return Rendered(
        encode_png(image),
        triangle_alt_text(
            board,
            game_id=game_id,
            caption=caption,
            selected=selected,
            last_jump=last_jump,
            locale=locale,
        ),
        safe_filename("triangle", game_id, board.bit_count()),
    )


def solution_frames(
    empty_hole: int, jumps: Sequence[Jump], locale: LocaleLike = None
) -> list[Image.Image]:
    """The start and the board after each jump (RGB), each with its caption."""
    board = start_board(empty_hole)
    subtitle = message("pic_tri_start", locale, hole=empty_hole)
    pegs = message("tri_pegs", locale, count=board.bit_count())
    first = message("pic_tri_first_caption", locale, hole=empty_hole, pegs=pegs)
    frames = [triangle_image(board, subtitle=subtitle, caption=first, locale=locale)]
    for number, jump in enumerate(jumps, start=1):
        board = jump.apply(board)
        caption = message(
            "pic_tri_jump_caption",
            locale,
            number=number,
            jump=_jump_text(jump, locale),
            count=board.bit_count(),
        )
        frames.append(
            triangle_image(board, subtitle=subtitle, caption=caption, last_jump=jump, locale=locale)
        )
    return frames


def solution_alt_text(empty_hole: int, jumps: Sequence[Jump], locale: LocaleLike = None) -> str:
    """The alt text of a solution: its jumps in order and the pegs left at the end, in
    ``locale``'s language."""
    board = start_board(empty_hole)
    for jump in jumps:
        board = jump.apply(board)
    steps = ", ".join(
        message("alt_triangle_step", locale, number=number, origin=jump.origin, target=jump.target)
        for number, jump in enumerate(jumps, start=1)
    )
    pegs = [hole for hole in range(HOLES) if _has_peg(board, hole)]
    ending = (
        message("tri_one_left_in", locale, hole=pegs[0])
        if len(pegs) == 1
        else message(
            "alt_triangle_left_in",
            locale,
            pegs=message("tri_pegs", locale, count=len(pegs)),
            holes=", ".join(map(str, pegs)),
        )
    )
    return limit_alt_text(
        message(
            "alt_triangle_solution",
            locale,
            hole=empty_hole,
            jumps=message("tri_jumps", locale, count=len(jumps)),
            steps=steps,
            ending=ending,
        )
    )


def render_solution(empty_hole: int, jumps: Sequence[Jump], locale: LocaleLike = None) -> Rendered:
    """An animated GIF (looping) of ``jumps`` played from the board with ``empty_hole`` empty;
    its captions and alt text in ``locale``'s language (None: English)."""
    frames = solution_frames(empty_hole, jumps, locale)
    # One palette for every frame, so the colours do not flicker from frame to frame.
    palette = palette_of([frames[0], frames[-1]])
    indexed = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    durations = [FIRST_FRAME_MS] + [JUMP_FRAME_MS] * (len(jumps) - 1) + [LAST_FRAME_MS]
    if not jumps:
        durations = [LAST_FRAME_MS]
    buffer = io.BytesIO()
    indexed[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return Rendered(
        buffer.getvalue(),
        solution_alt_text(empty_hole, jumps, locale),
        safe_filename("triangle-solution", empty_hole, suffix=".gif"),
    )
