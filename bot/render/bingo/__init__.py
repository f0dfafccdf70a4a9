"""75-ball Bingo pictures: a card (plain, daubed, winning), a call, the caller's board of 1..75
and the patterns (one, or a book of them for the lobby and /help).

A card is the printed 5x5 grid under its B-I-N-G-O header, each letter on its column's colour,
the free centre daubed and worded FREE (LIBRE). Called numbers get the pink dauber dab, as on
Housie tickets; a winning placement's cells sit on gold inside a gold frame. Every picture is
composed on its kind's fixed palette (``Canvas``) from pieces kept mapped onto it, so a warm card
is 25 pastes, a few lines of text and a small encode. The words and the alt text are in the
``locale`` each picture is asked for (None: English).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache, partial

from PIL import Image, ImageDraw, ImageFont

import bot.render.bingo.words  # noqa: F401  (its words, registered on import)
from bot.i18n import LocaleLike, message
from bot.render.common import (
    RGB,
    BallBoard,
    Canvas,
    FixedPalette,
    FontFace,
    Palette,
    PictureKind,
    Pieces,
    Rendered,
    board_head,
    call_band,
    calls_before,
    daubed_cell,
    downsample,
    draw_text,
    fit_font,
    fit_text,
    fit_wrapped,
    font,
    grid_lines,
    language,
    limit_alt_text,
    ring_slot,
    safe_filename,
    sentence,
    shorten,
    text_width,
    tiled,
    tint,
)
from engine.bingo import (
    ALL_CELLS,
    CELLS,
    COLUMN_SPAN,
    FREE_CELL,
    HIGHEST_NUMBER,
    LETTERS,
    PATTERN_BOOK,
    SIDE,
    Card,
    Pattern,
    call_name,
)

HIGHEST = HIGHEST_NUMBER
SUPERSAMPLE = 3
WHITE: RGB = (255, 255, 255)

# Each column's colour, B I N G O, as the balls of a 75-ball cage are coloured by column.
COLUMN_COLOURS: tuple[RGB, ...] = (
    (31, 78, 156),  # B blue
    (200, 16, 46),  # I red
    Palette.TEAL,  # N
    (0, 122, 84),  # G green
    (230, 120, 20),  # O orange
)


def column_of(number: int) -> int:
    """The column (0 for B .. 4 for O) of a bingo number 1..75."""
    return (number - 1) // COLUMN_SPAN


def pattern_name(pattern: Pattern, locale: LocaleLike = None) -> str:
    """``pattern``'s name in ``locale``'s language: a built-in's from the words, a custom
    pattern's as its server named it."""
    if pattern.is_builtin:
        return message(f"pic_bingo_pattern_{pattern.code}", locale)
    return pattern.name


# ------------------------------------------------------------------------------------- the card

# Card geometry, in pixels.
CELL = 72
MARGIN = 18
BAND = 54  # the title band
HEADER_TOP = BAND + 10
HEADER = 48  # the B-I-N-G-O letters over the columns
GRID_TOP = HEADER_TOP + HEADER
FOOTER = 44  # the marks counted and the game id under the grid
CARD_WIDTH = 2 * MARGIN + SIDE * CELL
CARD_HEIGHT = GRID_TOP + SIDE * CELL + FOOTER + MARGIN // 2
DAB_RADIUS = 0.36 * CELL  # the dauber's dab, about a cell's centre
WIN_INSET = 4  # the gold frame of a winning cell: this far inside the cell
WIN_WIDTH = 4  # and this wide

GRID: RGB = Palette.INK


def cell_origin(cell: int) -> tuple[int, int]:
    """The top-left pixel of card cell ``cell`` (0..24, row-major) on the card picture."""
    row, column = divmod(cell, SIDE)
    return MARGIN + column * CELL, GRID_TOP + row * CELL


def _card_cell(number: int, marked: bool, winning: bool, lang: str) -> Image.Image:
    """One card cell (RGB, ``CELL`` square): a number, dabbed when marked, on gold in a gold frame
    when winning; ``0`` is the free centre, always dabbed, worded in ``lang``."""
    s = SUPERSAMPLE
    size = CELL * s
    cell, draw, colour = daubed_cell(
        size,
        winning=winning,
        marked=marked or number == 0,
        dab_radius=DAB_RADIUS * s,
        scale=s,
        frame=(WIN_INSET, WIN_WIDTH),
    )
    if number == 0:
        word = message("pic_bingo_free", lang)
        face = fit_font(word, FontFace.SANS_BOLD, 17 * s, 10 * s, 1.7 * DAB_RADIUS * s)
        draw_text(draw, (size / 2, size / 2 + s), word, face, colour, "mm")
    else:
        draw_text(
            draw,
            (size / 2, size / 2 + s),
            str(number),
            font(FontFace.SANS_BOLD, 30 * s),
            colour,
            "mm",
        )
    return downsample(cell, (CELL, CELL))


# Every number in every state (300 cells of 5 KB once mapped), the free centre per language.
_CARD_CELLS = Pieces(_card_cell, maxsize=384)


def _cell_piece(canvas: Canvas, number: int, marked: bool, winning: bool, lang: str) -> Image.Image:
    # Only the free centre has words: numbers share one piece across languages.
    return _CARD_CELLS.get(
        canvas, number, number == 0 or marked, winning, lang if not number else ""
    )


WON_LARGEST = 24  # the winning pill's words on one line, from this size
WON_ONE_LINE = 15  # down to this; smaller, on two lines
WON_TWO_LINES = 17
WON_SMALLEST = 11
WON_PADDING = 24  # the pill's width beyond its words


def _balanced_break(text: str) -> str:
    """``text`` with its middle-most space made a line break."""
    spaces = [index for index, char in enumerate(text) if char == " "]
    if not spaces:
        return text
    split = min(spaces, key=lambda index: abs(len(text) - 2 * index))
    return text[:split] + "\n" + text[split + 1 :]


@lru_cache(maxsize=128)  # each pattern's cry in each language comes round again
def won_lines(text: str, width: float) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """A winning card's cry ("¡CUALQUIER LÍNEA!") in ``width``: one line as large as fits down
    to ``WON_ONE_LINE``, else two balanced lines (cut only past ``WON_SMALLEST``)."""
    face = fit_font(text, FontFace.SLAB, WON_LARGEST, WON_ONE_LINE, width)
    if text_width(text, face) <= width or " " not in text:
        shown, face = fit_text(text, FontFace.SLAB, WON_LARGEST, WON_ONE_LINE, width)
        return (shown,), face
    lines, face = fit_wrapped(
        _balanced_break(text), FontFace.SLAB, WON_TWO_LINES, WON_SMALLEST, width, 2
    )
    return tuple(lines), face


def won_room(card_number: int, locale: LocaleLike) -> float:
    """The width a winning card's cry has in its band, beside the card's number."""
    label = message("pic_bingo_card_number", locale, number=card_number)
    used = MARGIN + text_width(label, font(FontFace.SANS_BOLD, 22))
    return CARD_WIDTH - MARGIN - used - 16 - WON_PADDING


def _card_band(
    canvas: Canvas,
    card_number: int,
    pattern: Pattern | None,
    won: bool,
    locale: LocaleLike,
) -> None:
    """The title band: BINGO and the card's number, and on the right the pattern played for; on
    a card that won it, the card's number and a gold pill crying the pattern (the letters
    B-I-N-G-O under the band say the game), on two lines when one is too narrow."""
    band = Palette.BOARD
    canvas.draw.rectangle((0, 0, CARD_WIDTH - 1, BAND - 1), fill=canvas.ink(band))
    title_font = font(FontFace.SLAB, 30)
    title = message("pic_bingo_title", locale)
    used = MARGIN - 14.0
    if not won:
        canvas.text((MARGIN, BAND / 2 + 2), title, title_font, Palette.PAPER, "lm", over=band)
        used = MARGIN + text_width(title, title_font)
    number_font = font(FontFace.SANS_BOLD, 22)
    label = message("pic_bingo_card_number", locale, number=card_number)
    canvas.text((used + 14, BAND / 2 + 1), label, number_font, Palette.GOLD_LIGHT, "lm", over=band)
    used += 14 + text_width(label, number_font)
    right = CARD_WIDTH - MARGIN
    room = right - used - 16
    if won:
        named = pattern_name(pattern, locale) if pattern is not None else ""
        text = message("pic_bingo_won", locale, pattern=named) if named else title + "!"
        lines, face = won_lines(text.upper(), won_room(card_number, locale))
        width = max(text_width(line, face) for line in lines) + WON_PADDING
        inset = 11 if len(lines) == 1 else 5
        canvas.draw.rounded_rectangle(
            (right - width, inset, right, BAND - inset), radius=10, fill=canvas.ink(Palette.GOLD)
        )
        pitch = face.size * 1.1
        first = BAND / 2 + 1 - pitch * (len(lines) - 1) / 2
        for index, line in enumerate(lines):
            canvas.text(
                (right - width / 2, first + pitch * index),
                line,
                face,
                Palette.INK,
                "mm",
                over=Palette.GOLD,
            )
    elif pattern is not None:
        shown, face = fit_text(pattern_name(pattern, locale), FontFace.SANS_BOLD, 20, 12, room)
        canvas.text((right, BAND / 2 + 1), shown, face, Palette.PAPER, "rm", over=band)


def _card_header(canvas: Canvas) -> None:
    """B-I-N-G-O over the columns, each letter on its column's colour."""
    face = font(FontFace.SLAB, 34)
    for column, letter in enumerate(LETTERS):
        left = MARGIN + column * CELL
        colour = COLUMN_COLOURS[column]
        canvas.draw.rectangle(
            (left, HEADER_TOP, left + CELL - 1, GRID_TOP - 1), fill=canvas.ink(colour)
        )
        canvas.text(
            (left + CELL / 2, HEADER_TOP + HEADER / 2 + 1), letter, face, WHITE, "mm", over=colour
        )


def _card_grid_lines(canvas: Canvas) -> None:
    left, top = MARGIN, GRID_TOP
    right, bottom = MARGIN + SIDE * CELL, GRID_TOP + SIDE * CELL
    grid_lines(canvas, (left, top), (SIDE, SIDE), CELL, GRID)
    grid = canvas.ink(GRID)
    canvas.draw.rectangle((left - 2, HEADER_TOP - 1, right + 1, bottom + 1), outline=grid, width=3)
    canvas.draw.line((left, top, right, top), fill=grid, width=2)


def _card_footer(canvas: Canvas, game_id: str, marked: int, locale: LocaleLike) -> None:
    middle = GRID_TOP + SIDE * CELL + FOOTER / 2 + 2
    right = CARD_WIDTH - MARGIN
    paper = Palette.PAPER
    count = message("pic_bingo_marked", locale, count=marked, total=CELLS - 1)
    count_font = font(FontFace.SANS_BOLD, 19)
    canvas.text((MARGIN, middle), count, count_font, Palette.INK, "lm", over=paper)
    room = right - MARGIN - text_width(count, count_font) - 16
    game = message("pic_game", locale, game=shorten(game_id, 16))
    shown, game_font = fit_text(game, FontFace.SANS, 19, 12, room)
    canvas.text((right, middle), shown, game_font, Palette.MUTED, "rm", over=paper, again=False)


def _check_card_marks(card: Card, called: Sequence[int], winning: int) -> int:
    """The card's marked cells (a 25-bit mask) after checking ``called`` and ``winning``."""
    if type(winning) is not int or not 0 <= winning <= ALL_CELLS:
        raise ValueError(f"winning cells {winning!r} are not a 25-bit cell mask")
    return card.marks(list(called))


def _compose_card(
    canvas: Canvas,
    card: Card,
    *,
    game_id: str,
    card_number: int,
    called: Sequence[int],
    winning: int,
    pattern: Pattern | None,
    locale: LocaleLike,
) -> None:
    marks = _check_card_marks(card, called, winning)
    lang = language(locale)
    for cell, number in enumerate(card.numbers):
        piece = _cell_piece(
            canvas, number, bool(marks >> cell & 1), bool(winning >> cell & 1), lang
        )
        canvas.paste(piece, cell_origin(cell))
    _card_grid_lines(canvas)
    _card_header(canvas)
    _card_band(canvas, card_number, pattern, bool(winning), locale)
    _card_footer(canvas, game_id, marks.bit_count() - 1, locale)


def _card_sample(canvas: Canvas, won: bool) -> None:
    _card_band(canvas, 12, PATTERN_BOOK["corners"], won, None)
    _card_header(canvas)
    _card_grid_lines(canvas)
    _card_footer(canvas, "ABCDEFGHJKMN", 12, None)


def _card_samples() -> Iterator[Image.Image]:
    yield tiled(
        [
            _card_cell(number, marked, winning, lang)
            for number in range(HIGHEST + 1)
            for marked in (False, True)
            for winning in (False, True)
            for lang in (("en", "es") if number == 0 else ("",))
        ]
    )
    for won in (False, True):
        yield CARDS.image((CARD_WIDTH, CARD_HEIGHT), _card_sample, won)


CARDS = PictureKind(_card_samples)


def card_palette() -> FixedPalette:
    """One palette for every card: built once from every cell in every state, bands, footers."""
    return CARDS.palette()


def card_image(
    card: Card,
    *,
    game_id: str,
    card_number: int,
    called: Sequence[int] = (),
    winning: int = 0,
    pattern: Pattern | None = None,
    mapped: bool = False,
    locale: LocaleLike = None,
) -> Image.Image:
    """The card in exact colours (RGB): what ``render_card`` maps onto its palette. ``mapped``
    composes it on that palette instead, as the player got it (in RGB)."""
    draw = CARDS.mapped_image if mapped else CARDS.image
    return draw(
        (CARD_WIDTH, CARD_HEIGHT),
        _compose_card,
        card,
        game_id=game_id,
        card_number=card_number,
        called=called,
        winning=winning,
        pattern=pattern,
        locale=locale,
    )


def card_alt_text(
    card: Card,
    *,
    game_id: str,
    card_number: int,
    called: Sequence[int] = (),
    winning: int = 0,
    pattern: Pattern | None = None,
    locale: LocaleLike = None,
) -> str:
    """The alt text of a card: its numbers by column, the pattern played for, the numbers marked
    and the winning cells, in ``locale``'s language."""
    marks = _check_card_marks(card, called, winning)
    free = message("alt_bingo_free", locale)

    def said(number: int) -> str:
        return free if number == 0 else str(number)

    columns = "; ".join(
        f"{letter}: " + ", ".join(map(said, card.numbers[index::SIDE]))
        for index, letter in enumerate(LETTERS)
    )
    text = message("alt_bingo_card_head", locale, number=card_number, game=game_id)
    text += f" {columns}."
    if pattern is not None and not winning:
        text += message("alt_bingo_playing", locale, pattern=pattern_name(pattern, locale))
    by_column = [cell for column in range(SIDE) for cell in range(column, CELLS, SIDE)]
    marked = [card.numbers[cell] for cell in by_column if cell != FREE_CELL and marks >> cell & 1]
    if called:
        text += message("alt_bingo_marked", locale, count=len(marked), total=CELLS - 1)
        text += ": " + ", ".join(map(str, marked)) + "." if marked else "."
    if winning:
        numbers = ", ".join(said(card.numbers[cell]) for cell in by_column if winning >> cell & 1)
        named = pattern_name(pattern, locale) if pattern is not None else "BINGO"
        text += message("alt_bingo_winning", locale, pattern=named, numbers=numbers)
    return limit_alt_text(text)


def render_card(
    card: Card,
    *,
    game_id: str,
    card_number: int,
    called: Sequence[int] = (),
    winning: int = 0,
    pattern: Pattern | None = None,
    locale: LocaleLike = None,
) -> Rendered:
    """A player's card (numbered ``card_number`` among theirs): ``called`` numbers dabbed, the
    cells of ``winning`` (a 25-bit cell mask, e.g. ``ClaimResult.cells``) on gold in gold frames
    with ``pattern`` named in the band (without a win, the band names the pattern played for).
    Its words and alt text are in ``locale``'s language (None: English)."""
    options = {
        "game_id": game_id,
        "card_number": card_number,
        "called": called,
        "winning": winning,
        "pattern": pattern,
        "locale": locale,
    }
    canvas = CARDS.on_palette((CARD_WIDTH, CARD_HEIGHT), _compose_card, card, **options)  # type: ignore[arg-type]
    alt = card_alt_text(card, **options)  # type: ignore[arg-type]
    return Rendered(
        canvas.png(compress_level=1), alt, safe_filename("bingo-card", game_id, card_number)
    )


# ----------------------------------------------------------------------------- caller's board

BOARD_BALL = 44
BOARD_GAP = 6
ROW_GAP = 8
BOARD_MARGIN = 22
LETTER_GAP = 12
BOARD_HEADER = 112
BOARD_BALLS_LEFT = BOARD_MARGIN + BOARD_BALL + LETTER_GAP
BOARD_WIDTH = BOARD_BALLS_LEFT + COLUMN_SPAN * BOARD_BALL + (COLUMN_SPAN - 1) * BOARD_GAP
BOARD_WIDTH += BOARD_MARGIN
BOARD_HEIGHT = BOARD_HEADER + SIDE * BOARD_BALL + (SIDE - 1) * ROW_GAP + BOARD_MARGIN
LATEST_RING = 5  # the gold ring round the latest call's ball, this wide
LATEST_DISC = 88
BOARD_COMPRESSION = 6


def _board_ball(number: int, state: int) -> Image.Image:
    """One number on the board: 0 not called, 1 called (its column's colour), 2 the latest call
    (ringed in gold). RGB, ``BOARD_BALL`` square."""
    s = SUPERSAMPLE
    size = BOARD_BALL * s
    ball = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(ball)
    colour = COLUMN_COLOURS[column_of(number)]
    edge = 2 * s
    if state == 0:
        draw.ellipse((edge, edge, size - edge, size - edge), outline=Palette.FAINT, width=2 * s)
        ink = Palette.MUTED
    else:
        if state == 2:
            draw.ellipse((0, 0, size - 1, size - 1), fill=Palette.GOLD)
            edge = LATEST_RING * s
        draw.ellipse((edge, edge, size - edge, size - edge), fill=colour)
        ink = WHITE
    draw_text(
        draw, (size / 2, size / 2 + s), str(number), font(FontFace.SANS_BOLD, 19 * s), ink, "mm"
    )
    return downsample(ball, (BOARD_BALL, BOARD_BALL))


def _letter_tile(column: int) -> Image.Image:
    """A row's letter on its column's colour, a rounded square (RGB, ``BOARD_BALL``)."""
    s = SUPERSAMPLE
    size = BOARD_BALL * s
    tile = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=8 * s, fill=COLUMN_COLOURS[column])
    draw_text(
        draw, (size / 2, size / 2 + s), LETTERS[column], font(FontFace.SLAB, 28 * s), WHITE, "mm"
    )
    return downsample(tile, (BOARD_BALL, BOARD_BALL))


def _latest_disc(number: int) -> Image.Image:
    s = SUPERSAMPLE
    size = LATEST_DISC * s
    disc = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(disc)
    draw.ellipse((0, 0, size - 1, size - 1), fill=Palette.GOLD)
    draw.ellipse((6 * s, 6 * s, size - 6 * s, size - 6 * s), fill=COLUMN_COLOURS[column_of(number)])
    face = fit_font(call_name(number), FontFace.SANS_BOLD, 28 * s, 18 * s, size - 18 * s)
    draw_text(draw, (size / 2, size / 2 + 2 * s), call_name(number), face, WHITE, "mm")
    return downsample(disc, (LATEST_DISC, LATEST_DISC))


_BOARD_BALLS = Pieces(_board_ball, maxsize=256)
_LETTER_TILES = Pieces(_letter_tile, maxsize=8)
_LATEST_DISCS = Pieces(_latest_disc, maxsize=80)


def ball_origin(number: int) -> tuple[int, int]:
    """The top-left pixel of ``number``'s ball on the caller's board (row B..O, 15 across)."""
    return BALL_BOARD.ball_origin(number)


def _compose_caller_board(canvas: Canvas, called: Sequence[int], locale: LocaleLike) -> None:
    words = (
        message("pic_bingo_title", locale),
        message("pic_bingo_called", locale, count=len(called), total=HIGHEST),
        message("pic_bingo_latest", locale),
    )
    board_head(
        canvas,
        called,
        colour=Palette.BOARD,
        margin=BOARD_MARGIN,
        words=words,
        latest=_LATEST_DISCS,
        disc=LATEST_DISC,
        label_y=56,
    )
    for column in range(SIDE):
        top = BOARD_HEADER + column * (BOARD_BALL + ROW_GAP)
        canvas.paste(_LETTER_TILES.get(canvas, column), (BOARD_MARGIN, top))
    BALL_BOARD.paste(canvas, called)


BALL_BOARD = BallBoard(
    highest=HIGHEST,
    across=COLUMN_SPAN,
    origin=(BOARD_BALLS_LEFT, BOARD_HEADER),
    ball=BOARD_BALL,
    gap=BOARD_GAP,
    row_gap=ROW_GAP,
    balls=_BOARD_BALLS,
    discs=_LATEST_DISCS,
    size=(BOARD_WIDTH, BOARD_HEIGHT),
    compose=_compose_caller_board,
    sample_calls=([], [7, 40, 58, 2, 61], list(range(75, 0, -1))),
    band_name="bingo row",
    compression=BOARD_COMPRESSION,
    alt_words="alt_bingo_board",
    say=call_name,
    filename="bingo-board",
)


def board_palette() -> FixedPalette:
    """One palette for every caller's board: every ball in every state, every latest disc and
    three boards."""
    return BALL_BOARD.palette()


def caller_board_image(called: Sequence[int], *, locale: LocaleLike = None) -> Image.Image:
    """The caller's board in exact colours (RGB): what ``render_caller_board`` maps onto its
    palette."""
    return BALL_BOARD.image(called, locale)


def caller_board_frame(called: Sequence[int], *, locale: LocaleLike = None) -> Image.Image:
    """The caller's board after ``called``, composed on its palette and not encoded: a frame of
    the game's replay (``bot.render.replay``)."""
    return BALL_BOARD.frame(called, locale)


def caller_board_alt_text(called: Sequence[int], *, locale: LocaleLike = None) -> str:
    """The alt text of the caller's board: how many called, the latest, and the shorter list of
    the called or the uncalled, by name ("B-7"), in ``locale``'s language."""
    return BALL_BOARD.alt_text(called, locale)


def render_caller_board(called: Sequence[int], *, locale: LocaleLike = None) -> Rendered:
    """The 75 numbers in five rows B..O, ``called`` ones lit in their column's colour and the last
    one ringed in gold (and named large in the corner); words and alt text in ``locale``'s
    language (None: English)."""
    return BALL_BOARD.render(called, locale)


# ------------------------------------------------------------------------------------- the call

CALL_WIDTH = 640
CALL_BAND = 56
CALL_MARGIN = 24
CALL_BALL = 176
CALL_HEIGHT = CALL_BAND + 20 + CALL_BALL + CALL_MARGIN
CALL_COLUMN = CALL_MARGIN + CALL_BALL + 28  # where the call's name and the earlier calls start
CALL_COLUMN_WIDTH = CALL_WIDTH - CALL_COLUMN - CALL_MARGIN
CALL_NAME_SIZE = 76
CALL_NAME_SIZE_NICKNAMED = 58  # smaller when the nickname goes under it
NICKNAME_LARGEST = 26
NICKNAME_SMALLEST = 18
SMALL_BALL = 60
SMALL_GAP = 6
RECENT_SHOWN = 5
CALL_COMPRESSION = 5


def _call_ball(number: int) -> Image.Image:
    """The number just called as a ball of its column's colour, its letter and number on the
    white face (RGB on paper)."""
    s = SUPERSAMPLE
    size = CALL_BALL * s
    ball = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(ball)
    colour = COLUMN_COLOURS[column_of(number)]
    draw.ellipse((0, 0, size - 1, size - 1), fill=colour)
    shine = 10 * s
    draw.arc(
        (shine, shine, size - shine, size - shine),
        200,
        250,
        fill=tint(colour, 0.35),
        width=6 * s,
    )
    face = size * 0.2
    draw.ellipse((face, face, size - face, size - face), fill=WHITE)
    letter = LETTERS[column_of(number)]
    draw_text(draw, (size / 2, size * 0.37), letter, font(FontFace.SLAB, 34 * s), colour, "mm")
    draw_text(
        draw,
        (size / 2, size * 0.6),
        str(number),
        font(FontFace.SANS_BOLD, 50 * s),
        Palette.INK,
        "mm",
    )
    return downsample(ball, (CALL_BALL, CALL_BALL))


def _small_ball(number: int) -> Image.Image:
    """An earlier call in the strip: its name on its column's colour (RGB, ``SMALL_BALL``)."""
    s = SUPERSAMPLE
    size = SMALL_BALL * s
    ball = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(ball)
    draw.ellipse((2 * s, 2 * s, size - 2 * s, size - 2 * s), fill=COLUMN_COLOURS[column_of(number)])
    draw_text(
        draw,
        (size / 2, size / 2 + s),
        call_name(number),
        font(FontFace.SANS_BOLD, 16 * s),
        WHITE,
        "mm",
    )
    return downsample(ball, (SMALL_BALL, SMALL_BALL))


_CALL_BALLS = Pieces(_call_ball, maxsize=80, deflated=True)
_SMALL_BALLS = Pieces(_small_ball, maxsize=80)
_EMPTY_SLOT = Pieces(partial(ring_slot, SMALL_BALL, SUPERSAMPLE), maxsize=1)


def _earlier_calls(number: int, recent: Sequence[int], call_number: int, total: int) -> list[int]:
    """The last calls before ``number``, latest first, after checking the values (``recent``
    may hold ``number`` itself at the end, as the called list does once it is stored)."""
    before = calls_before(number, recent, HIGHEST)
    if not 0 < total <= HIGHEST or not len(before) < call_number <= total:
        raise ValueError(
            f"call number {call_number} of {total} is outside {len(before) + 1}..{HIGHEST}"
            f" after {len(before)} earlier calls"
        )
    return list(reversed(before))[:RECENT_SHOWN]


def _compose_call(
    canvas: Canvas,
    number: int,
    earlier: Sequence[int],
    call_number: int,
    total: int,
    nickname: str | None,
    locale: LocaleLike,
) -> None:
    call_band(
        canvas,
        CALL_BAND,
        CALL_MARGIN,
        Palette.BOARD,
        message("pic_bingo_title", locale),
        message("pic_call_of", locale, seq=call_number, total=total),
    )
    ball_top = CALL_BAND + 20
    canvas.paste(_CALL_BALLS.get(canvas, number), (CALL_MARGIN, ball_top))
    paper = Palette.PAPER
    shown = nickname.strip() if nickname is not None else ""
    canvas.text(
        (CALL_COLUMN, ball_top + 4),
        call_name(number),
        font(FontFace.SLAB, CALL_NAME_SIZE_NICKNAMED if shown else CALL_NAME_SIZE),
        COLUMN_COLOURS[column_of(number)],
        "lt",
        over=paper,
    )
    if shown:  # one line under the name, shrunk (then cut) to the column's width
        text, face = fit_text(
            shown, FontFace.SLAB, NICKNAME_LARGEST, NICKNAME_SMALLEST, CALL_COLUMN_WIDTH
        )
        canvas.text((CALL_COLUMN, ball_top + 78), text, face, Palette.INK, "ls", over=paper)
    row_top = ball_top + CALL_BALL - SMALL_BALL
    label = message("pic_bingo_earlier" if earlier else "pic_bingo_first", locale)
    canvas.text(
        (CALL_COLUMN, row_top - 12), label, font(FontFace.SANS, 19), Palette.MUTED, "ls", over=paper
    )
    for slot in range(RECENT_SHOWN):
        left = CALL_COLUMN + slot * (SMALL_BALL + SMALL_GAP)
        if slot < len(earlier):
            piece = _SMALL_BALLS.get(canvas, earlier[slot])
        else:
            piece = _EMPTY_SLOT.get(canvas)
        canvas.paste(piece, (left, row_top))


def _call_samples() -> Iterator[Image.Image]:
    yield tiled([_call_ball(number) for number in range(1, HIGHEST + 1)], 15)
    yield tiled([_small_ball(number) for number in range(1, HIGHEST + 1)])
    for number, earlier, nickname in (
        (75, [], None),
        (8, [1, 22, 33, 54, 75], None),
        (11, [3], "Legs eleven, ¡qué bizcocho!"),
    ):
        yield CALLS.image(
            (CALL_WIDTH, CALL_HEIGHT),
            _compose_call,
            number,
            earlier,
            len(earlier) + 1,
            HIGHEST,
            nickname,
            None,
        )


CALLS = PictureKind(_call_samples)


def call_palette() -> FixedPalette:
    """One palette for every Bingo call picture: every number's ball and two calls."""
    return CALLS.palette()


def call_image(
    number: int,
    *,
    recent: Sequence[int],
    call_number: int,
    total: int = HIGHEST,
    nickname: str | None = None,
    locale: LocaleLike = None,
) -> Image.Image:
    """The call in exact colours (RGB): what ``render_call`` maps onto its palette."""
    earlier = _earlier_calls(number, recent, call_number, total)
    return CALLS.image(
        (CALL_WIDTH, CALL_HEIGHT),
        _compose_call,
        number,
        earlier,
        call_number,
        total,
        nickname,
        locale,
    )


def call_alt_text(
    number: int,
    *,
    recent: Sequence[int],
    call_number: int,
    total: int = HIGHEST,
    nickname: str | None = None,
    locale: LocaleLike = None,
) -> str:
    """The alt text of a call: its name (and nickname) and the calls before it, in
    ``locale``'s language."""
    earlier = _earlier_calls(number, recent, call_number, total)
    name = call_name(number)
    if nickname is not None and nickname.strip():
        name += f", “{nickname.strip()}”"
    text = message("alt_bingo_call", locale, seq=call_number, total=total, name=name)
    if earlier:
        text += message("alt_before", locale, items=", ".join(map(call_name, earlier)))
    return limit_alt_text(text)


def render_call(
    number: int,
    *,
    recent: Sequence[int],
    call_number: int,
    total: int = HIGHEST,
    nickname: str | None = None,
    locale: LocaleLike = None,
) -> Rendered:
    """The number just called as a large ball of its column's colour, its name ("B-7") large
    beside it with its ``nickname`` under it if given (``bot.call_names.nickname``; a long one
    shrunk), and the last five calls before it, latest first.

    ``recent`` is the calls before this one in call order (oldest first); the band shows
    "Call ``call_number`` of ``total``". Words and alt text in ``locale``'s language."""
    earlier = _earlier_calls(number, recent, call_number, total)
    canvas = CALLS.on_palette(
        (CALL_WIDTH, CALL_HEIGHT),
        _compose_call,
        number,
        earlier,
        call_number,
        total,
        nickname,
        locale,
    )
    alt = call_alt_text(
        number,
        recent=recent,
        call_number=call_number,
        total=total,
        nickname=nickname,
        locale=locale,
    )
    return Rendered(
        canvas.png(compress_level=CALL_COMPRESSION),
        alt,
        safe_filename("bingo-call", call_number, call_name(number)),
    )


def warm_up() -> None:
    """The cards', the board's and the calls' palettes built ahead (for a cog's warm-up)."""
    card_palette()
    board_palette()
    call_palette()
    pattern_palette()


# ------------------------------------------------------------------------------------ patterns

PATTERN_CELL = 32  # the default cell of one pattern's picture
PATTERN_CELL_RANGE = (12, 96)
PATTERN_PAD = 18
PATTERN_TITLE = 40  # the pattern's name above the grid
PATTERN_LETTERS = 24  # B-I-N-G-O over the grid
PATTERN_FOOT = 30  # how many ways it counts, under the grid
PATTERN_MIN_WIDTH = 300
BOOK_CELL = 20
BOOK_COLUMNS = 4
BOOK_TILE_WIDTH = 156
BOOK_GRID_TOP = 8
BOOK_NAME_LINES = 2
BOOK_NAME_PITCH = 19
BOOK_TILE_HEIGHT = BOOK_GRID_TOP + SIDE * BOOK_CELL + 10 + BOOK_NAME_LINES * BOOK_NAME_PITCH + 12
BOOK_MARGIN = 24
BOOK_TITLE = 70
BOOK_WIDTH = 2 * BOOK_MARGIN + BOOK_COLUMNS * BOOK_TILE_WIDTH
BOOK_MOST = 96  # patterns in one book: 24 rows of tiles, well inside Discord's preview

# A pattern cell's states: out of the pattern, in it, the free centre out of it (ringed: it is
# marked on every card, but this pattern does not need it), and the free centre in it.
OUT, IN, FREE_OUT, FREE_IN = 0, 1, 2, 3


def _pattern_cell(size: int, state: int) -> Image.Image:
    """One cell of a pattern's grid (RGB, ``size`` square, a one-pixel border on paper)."""
    s = SUPERSAMPLE
    full = size * s
    cell = Image.new("RGB", (full, full), Palette.PAPER)
    draw = ImageDraw.Draw(cell)
    gap = max(1, size // 14) * s
    box = (gap, gap, full - gap, full - gap)
    radius = max(2, size // 8) * s
    if state in (IN, FREE_IN):
        draw.rounded_rectangle(box, radius=radius, fill=Palette.DAB)
    else:
        draw.rounded_rectangle(
            box, radius=radius, fill=Palette.CREAM, outline=Palette.FAINT, width=s
        )
    if state in (FREE_OUT, FREE_IN):
        ring = full * 0.3
        ring_colour = WHITE if state == FREE_IN else Palette.MUTED
        draw.ellipse(
            (full / 2 - ring, full / 2 - ring, full / 2 + ring, full / 2 + ring),
            outline=ring_colour,
            width=max(1, size // 12) * s,
        )
    return downsample(cell, (size, size))


_PATTERN_CELLS = Pieces(_pattern_cell, maxsize=64)


def _cell_state(mask: int, cell: int) -> int:
    inside = bool(mask >> cell & 1)
    if cell == FREE_CELL:
        return FREE_IN if inside else FREE_OUT
    return IN if inside else OUT


def _paste_grid(canvas: Canvas, mask: int, left: int, top: int, size: int) -> None:
    for cell in range(CELLS):
        row, column = divmod(cell, SIDE)
        piece = _PATTERN_CELLS.get(canvas, size, _cell_state(mask, cell))
        canvas.paste(piece, (left + column * size, top + row * size))


def pattern_size(size: int) -> tuple[int, int]:
    """The pixel size of ``render_pattern``'s picture for cells of ``size``."""
    width = max(PATTERN_MIN_WIDTH, 2 * PATTERN_PAD + SIDE * size)
    height = PATTERN_PAD + PATTERN_TITLE + PATTERN_LETTERS + SIDE * size + PATTERN_FOOT
    return width, height + PATTERN_PAD // 2


def pattern_grid_origin(size: int) -> tuple[int, int]:
    """The top-left pixel of the 5x5 grid on ``render_pattern``'s picture for cells of ``size``."""
    width, _ = pattern_size(size)
    return (width - SIDE * size) // 2, PATTERN_PAD + PATTERN_TITLE + PATTERN_LETTERS


def _compose_pattern(canvas: Canvas, pattern: Pattern, size: int, locale: LocaleLike) -> None:
    width, height = pattern_size(size)
    paper = Palette.PAPER
    canvas.draw.rectangle((0, 0, width - 1, height - 1), outline=canvas.ink(Palette.BOARD), width=4)
    shown, face = fit_text(
        pattern_name(pattern, locale), FontFace.SLAB, 26, 14, width - 2 * PATTERN_PAD
    )
    canvas.text(
        (width / 2, PATTERN_PAD + PATTERN_TITLE / 2), shown, face, Palette.BOARD, "mm", over=paper
    )
    left, top = pattern_grid_origin(size)
    letter_font = font(FontFace.SLAB, max(10, round(PATTERN_LETTERS * 0.75)))
    for column, letter in enumerate(LETTERS):
        canvas.text(
            (left + column * size + size / 2, top - PATTERN_LETTERS / 2),
            letter,
            letter_font,
            COLUMN_COLOURS[column],
            "mm",
            over=paper,
        )
    _paste_grid(canvas, pattern.masks[0], left, top, size)
    if len(pattern.masks) > 1:
        ways = message("pic_bingo_ways", locale, count=len(pattern.masks))
        canvas.text(
            (width / 2, top + SIDE * size + PATTERN_FOOT / 2 + 2),
            ways,
            font(FontFace.SANS, 17),
            Palette.MUTED,
            "mm",
            over=paper,
        )


def pattern_alt_text(pattern: Pattern, *, locale: LocaleLike = None) -> str:
    """The alt text of a pattern's picture: each row's marked columns, and how many ways count."""
    mask = pattern.masks[0]
    rows = [
        message(
            "alt_bingo_pattern_row",
            locale,
            row=row + 1,
            columns=", ".join(
                LETTERS[column] for column in range(SIDE) if mask >> (row * SIDE + column) & 1
            ),
        )
        for row in range(SIDE)
        if mask >> (row * SIDE) & 0b11111
    ]
    text = message(
        "alt_bingo_pattern", locale, name=pattern_name(pattern, locale), rows="; ".join(rows)
    )
    if len(pattern.masks) > 1:
        text += message("alt_bingo_pattern_ways", locale, count=len(pattern.masks))
    return limit_alt_text(text)


def _check_size(size: int) -> None:
    low, high = PATTERN_CELL_RANGE
    if type(size) is not int or not low <= size <= high:
        raise ValueError(f"pattern cell size {size!r} is outside {low}..{high}")


def _book_rows(count: int) -> int:
    return -(-count // BOOK_COLUMNS)


def book_size(count: int) -> tuple[int, int]:
    """The pixel size of ``render_pattern_book``'s picture of ``count`` patterns."""
    return BOOK_WIDTH, BOOK_TITLE + _book_rows(count) * BOOK_TILE_HEIGHT + BOOK_MARGIN // 2


def book_grid_origin(index: int) -> tuple[int, int]:
    """The top-left pixel of the ``index``-th pattern's 5x5 grid in the book."""
    row, column = divmod(index, BOOK_COLUMNS)
    tile_left = BOOK_MARGIN + column * BOOK_TILE_WIDTH
    tile_top = BOOK_TITLE + row * BOOK_TILE_HEIGHT
    return tile_left + (BOOK_TILE_WIDTH - SIDE * BOOK_CELL) // 2, tile_top + BOOK_GRID_TOP


def _compose_book(canvas: Canvas, patterns: Sequence[Pattern], locale: LocaleLike) -> None:
    width, height = book_size(len(patterns))
    paper = Palette.PAPER
    band = Palette.BOARD
    canvas.draw.rectangle((0, 0, width - 1, 52), fill=canvas.ink(band))
    canvas.draw.rectangle((0, 0, width - 1, height - 1), outline=canvas.ink(band), width=4)
    title = message("pic_bingo_title", locale)
    title_font = font(FontFace.SLAB, 30)
    canvas.text((BOOK_MARGIN, 28), title, title_font, Palette.PAPER, "lm", over=band)
    canvas.text(
        (BOOK_MARGIN + text_width(title, title_font) + 14, 28),
        message("pic_bingo_patterns", locale),
        font(FontFace.SANS_BOLD, 22),
        Palette.GOLD_LIGHT,
        "lm",
        over=band,
    )
    name_width = BOOK_TILE_WIDTH - 10
    for index, pattern in enumerate(patterns):
        left, top = book_grid_origin(index)
        _paste_grid(canvas, pattern.masks[0], left, top, BOOK_CELL)
        lines, face = fit_wrapped(
            pattern_name(pattern, locale), FontFace.SANS_BOLD, 15, 11, name_width, BOOK_NAME_LINES
        )
        centre = left + SIDE * BOOK_CELL / 2
        first = top + SIDE * BOOK_CELL + 10 + BOOK_NAME_PITCH / 2
        for number, line in enumerate(lines):
            canvas.text(
                (centre, first + number * BOOK_NAME_PITCH),
                line,
                face,
                Palette.INK,
                "mm",
                over=paper,
            )


def _pattern_samples() -> Iterator[Image.Image]:
    for size in (PATTERN_CELL, BOOK_CELL):
        yield tiled([_pattern_cell(size, state) for state in (OUT, IN, FREE_OUT, FREE_IN)])
    book = list(PATTERN_BOOK.values())
    yield PATTERNS.image(book_size(len(book)), _compose_book, book, None)
    for pattern in (PATTERN_BOOK["line"], PATTERN_BOOK["blackout"]):
        yield PATTERNS.image(
            pattern_size(PATTERN_CELL), _compose_pattern, pattern, PATTERN_CELL, None
        )


PATTERNS = PictureKind(_pattern_samples)


def pattern_palette() -> FixedPalette:
    """One palette for the pattern pictures: their cells in every state, the book, two patterns."""
    return PATTERNS.palette()


def pattern_image(
    pattern: Pattern, *, locale: LocaleLike = None, size: int = PATTERN_CELL
) -> Image.Image:
    """One pattern in exact colours (RGB): what ``render_pattern`` maps onto its palette."""
    _check_size(size)
    return PATTERNS.image(pattern_size(size), _compose_pattern, pattern, size, locale)


def render_pattern(
    pattern: Pattern, *, locale: LocaleLike = None, size: int = PATTERN_CELL
) -> Rendered:
    """A small picture of ``pattern``: its name, and its first placement on a 5x5 grid of cells
    ``size`` pixels square (the free centre ringed), with how many ways count when more than one
    does. For the lobby and /help; words and alt text in ``locale``'s language."""
    _check_size(size)
    canvas = PATTERNS.on_palette(pattern_size(size), _compose_pattern, pattern, size, locale)
    return Rendered(
        canvas.png(compress_level=CALL_COMPRESSION),
        pattern_alt_text(pattern, locale=locale),
        safe_filename("bingo-pattern", pattern.code),
    )


def _check_book(patterns: Sequence[Pattern]) -> None:
    if not 0 < len(patterns) <= BOOK_MOST:
        raise ValueError(f"a pattern book holds 1..{BOOK_MOST} patterns, not {len(patterns)}")


def pattern_book_image(patterns: Sequence[Pattern], *, locale: LocaleLike = None) -> Image.Image:
    """The pattern book in exact colours (RGB): what ``render_pattern_book`` maps."""
    _check_book(patterns)
    return PATTERNS.image(book_size(len(patterns)), _compose_book, patterns, locale)


def pattern_book_alt_text(patterns: Sequence[Pattern], *, locale: LocaleLike = None) -> str:
    """The alt text of the pattern book: the patterns' names, in order."""
    names = ", ".join(pattern_name(pattern, locale) for pattern in patterns)
    return limit_alt_text(sentence(message("alt_bingo_pattern_book", locale, items=names)) + ".")


def render_pattern_book(
    patterns: Collection[Pattern] | Sequence[Pattern], *, locale: LocaleLike = None
) -> Rendered:
    """Several patterns in one picture (``BOOK_COLUMNS`` to a row), each its first placement
    and its name, in the order given: the lobby's patterns for the night, or /help's book."""
    listed = list(patterns)
    _check_book(listed)
    canvas = PATTERNS.on_palette(book_size(len(listed)), _compose_book, listed, locale)
    return Rendered(
        canvas.png(compress_level=CALL_COMPRESSION),
        pattern_book_alt_text(listed, locale=locale),
        safe_filename("bingo-patterns", len(listed)),
    )
