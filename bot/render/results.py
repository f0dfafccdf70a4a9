"""The picture a calling game ends on: each winner's board with the winning cells, their name,
the prize and the call they won it on, labelled in the server's language.

What is every game's is here: the grid of winners, several to a row, their captions, the title
band and the pages. Each game draws its own boards and words their captions and alt text
(``bot/render/<game>/results.py``, which the game's cog calls): its players' own board pictures
without their title bands, marked as they stood at the winning call, scaled down here. Up to
``PER_PAGE`` winners share a picture and more make more pictures (``MAX_PAGES`` at most:
Discord's limit of attachments on one message). The same board may appear twice: a player can
win two prizes with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import LocaleLike, message
from bot.render.common import (
    ALT_TEXT_LIMIT,
    RGB,
    FontFace,
    Rendered,
    encode_png,
    limit_alt_text,
    safe_filename,
)
from bot.render.text import Label, Span, fit_line

PER_PAGE = 12  # winners on one picture
MAX_PAGES = 10  # pictures on one message (Discord's attachment limit)

OUTER = 28  # around the grid
BAND = 76  # the title band
GAP_X = 26
GAP_Y = 24
CAPTION = 104  # name, prize and call above each board
PANEL_PAD = 12  # inside a panel's backdrop


@dataclass(frozen=True, slots=True)
class Look:
    """How one game's result picture looks: its colours, title and board sizes."""

    title: str
    background: RGB
    band: RGB
    band_text: RGB
    band_detail: RGB
    backdrop: RGB
    backdrop_edge: RGB
    name: RGB
    prize: RGB
    detail: RGB
    shared_fill: RGB
    shared_text: RGB
    # The width of a board with 1, 2, 3... winners to a row (the list's length: most to a row).
    board_widths: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Panel:
    """One winner: their board, name, prize and the call's detail, and whether it is shared."""

    board: Image.Image  # full size; scaled to the grid
    name: str
    prize: str
    shared: bool
    detail: str


def _grid(count: int, widest: int) -> tuple[int, int]:
    """Columns and rows for ``count`` winners, at most ``widest`` to a row, rows as even as can
    be (5 winners on a 3-wide grid are 3 and 2, 4 are 2 and 2)."""
    rows = -(-count // widest)
    columns = -(-count // rows)
    return columns, rows


def _draw_band(image: Image.Image, look: Look, heading: str, page: str) -> None:
    """The title band: the game's name on the left, the heading (and page) on the right."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, image.width - 1, BAND - 1), fill=look.band)
    title = fit_line(look.title, FontFace.SLAB, 40, 26, image.width / 2 - OUTER)
    Label(title, (OUTER, BAND / 2 + 2), "lm", look.band_text).draw(draw)
    right = image.width - OUTER
    room = image.width - 2 * OUTER - title.width - 24
    if page:
        page_line = fit_line(page, FontFace.SANS, 20, 14, room / 3)
        Label(page_line, (right, BAND / 2 + 18), "rm", look.band_detail).draw(draw)
        heading_y = BAND / 2 - 10
    else:
        heading_y = BAND / 2 + 2
    heading_line = fit_line(heading, FontFace.SANS_BOLD, 26, 15, room)
    Label(heading_line, (right, heading_y), "rm", look.band_detail).draw(draw)


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    panel: Panel,
    look: Look,
    origin: tuple[int, int],
    board: Image.Image,
    shared_word: str,
) -> None:
    left, top = origin
    width = board.width
    draw.rounded_rectangle(
        (
            left - PANEL_PAD,
            top - PANEL_PAD,
            left + width + PANEL_PAD - 1,
            top + CAPTION + board.height + PANEL_PAD - 1,
        ),
        radius=14,
        fill=look.backdrop,
        outline=look.backdrop_edge,
        width=2,
    )
    name = fit_line((Span(panel.name, name=True),), FontFace.SANS_BOLD, 30, 20, width)
    Label(name, (left, top + 30), "ls", look.name).draw(draw)

    tag_room = 0.0
    if panel.shared:
        tag = fit_line(shared_word.upper(), FontFace.SANS_BOLD, 15, 11, width / 3)
        tag_width = tag.width + 16
        tag_room = tag_width + 10
        tag_box = (left + width - tag_width, top + 43, left + width, top + 67)
        draw.rounded_rectangle(tag_box, radius=11, fill=look.shared_fill)
        Label(
            tag,
            ((tag_box[0] + tag_box[2]) / 2, (tag_box[1] + tag_box[3]) / 2),
            "mm",
            look.shared_text,
        ).draw(draw)
    prize = fit_line(panel.prize, FontFace.SANS_BOLD, 23, 14, width - tag_room)
    Label(prize, (left, top + 63), "ls", look.prize).draw(draw)
    detail = fit_line(panel.detail, FontFace.SANS, 19, 13, width)
    Label(detail, (left, top + 92), "ls", look.detail).draw(draw)
    image.paste(board, (left, top + CAPTION))


@dataclass(frozen=True, slots=True)
class PageLayout:
    """Where a page's winners go: its size and each board's box (left, top, width, height);
    each board's caption sits in the ``CAPTION`` pixels above it."""

    size: tuple[int, int]
    boards: tuple[tuple[int, int, int, int], ...]


def page_layout(count: int, look: Look, board_size: tuple[int, int]) -> PageLayout:
    """The layout of a page of ``count`` winners whose boards are ``board_size`` at full size."""
    columns, rows = _grid(count, len(look.board_widths))
    board_width = look.board_widths[columns - 1]
    board_height = round(board_size[1] * board_width / board_size[0])
    cell_width = board_width + 2 * PANEL_PAD
    cell_height = CAPTION + board_height + 2 * PANEL_PAD
    width = 2 * OUTER + columns * cell_width + (columns - 1) * GAP_X
    height = BAND + OUTER + rows * cell_height + (rows - 1) * GAP_Y + OUTER
    boxes = []
    for index in range(count):
        row, column = divmod(index, columns)
        # A short last row is centred under the others.
        in_row = min(columns, count - row * columns)
        indent = (columns - in_row) * (cell_width + GAP_X) // 2
        left = OUTER + indent + column * (cell_width + GAP_X) + PANEL_PAD
        top = BAND + OUTER + row * (cell_height + GAP_Y) + PANEL_PAD + CAPTION
        boxes.append((left, top, board_width, board_height))
    return PageLayout((width, height), tuple(boxes))


def _page_image(
    panels: Sequence[Panel],
    look: Look,
    heading: str,
    page: str,
    *,
    locale: LocaleLike,
) -> Image.Image:
    layout = page_layout(len(panels), look, panels[0].board.size)
    image = Image.new("RGB", layout.size, look.background)
    draw = ImageDraw.Draw(image)
    _draw_band(image, look, heading, page)
    draw.rectangle((0, 0, image.width - 1, image.height - 1), outline=look.band, width=6)
    shared_word = message("result_shared", locale)
    for panel, (left, top, width, height) in zip(panels, layout.boards, strict=True):
        board = panel.board.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=3.0)
        _draw_panel(image, draw, panel, look, (left, top - CAPTION), board, shared_word)
    return image


def pages(
    panels: Sequence[Panel],
    alt_entries: Sequence[tuple[str, str]],
    look: Look,
    *,
    game_id: str,
    alt_head: Callable[[str], str],
    locale: LocaleLike,
) -> list[Rendered]:
    """The panels cut into pages of ``PER_PAGE``, each with its alt text: the head, then each
    winner's entry in full (``alt_entries``: (full, short)), or short when the full ones would
    pass Discord's limit."""
    shown = panels[: PER_PAGE * MAX_PAGES]
    count = -(-len(shown) // PER_PAGE)
    heading = message("result_heading", locale, game=game_id)
    result = []
    for number in range(count):
        # Pages as even as can be: 13 winners are 7 and 6, not 12 and 1.
        first, end = len(shown) * number // count, len(shown) * (number + 1) // count
        page_panels = shown[first:end]
        entries = alt_entries[first:end]
        page = message("result_page", locale, page=number + 1, pages=count) if count > 1 else ""
        alt_page = (
            message("result_alt_page", locale, page=number + 1, pages=count) if count > 1 else ""
        )
        head = alt_head(alt_page)
        alt = " ".join([head, *(full for full, _ in entries)])
        if len(alt) > ALT_TEXT_LIMIT:
            alt = " ".join([head, *(short for _, short in entries)])
        if number == count - 1 and len(panels) > len(shown):
            alt += " " + message("result_alt_more", locale, count=len(panels) - len(shown))
        image = _page_image(page_panels, look, heading, page, locale=locale)
        result.append(
            Rendered(
                encode_png(image),
                limit_alt_text(alt),
                safe_filename("results", game_id, number + 1 if count > 1 else ""),
            )
        )
    return result


def check_seq(seq: int, called: Sequence[int]) -> None:
    """Refuse a prize said to be won on a call that was not made."""
    if not 1 <= seq <= len(called):
        raise ValueError(f"a prize won on call {seq}, but {len(called)} calls were made")


# -- samples (python -m bot.render --sample) ----------------------------------------------------

SAMPLE_NAMES = (
    "Alice",
    "محمد عبد الله",
    "李小龍",
    "Maximiliano Alessandro Fernández",
    "Zoë ✨",
    "अर्जुन शर्मा",
    "Bob",
    "Ωmega",
    "Carmen",
    "שרה",
    "Kwame",
    "Ana",
)


__all__ = [
    "MAX_PAGES",
    "PER_PAGE",
    "SAMPLE_NAMES",
    "Look",
    "Panel",
    "check_seq",
    "page_layout",
    "pages",
]
