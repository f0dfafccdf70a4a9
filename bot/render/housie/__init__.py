"""Housie (Tambola) pictures: a ticket (plain, marked, winning) and the caller's 1..90 board.

A ticket is the printed 3x9 grid: numbers in their columns on cream, blanks shaded. Called
numbers get a pink dauber dab; a winning prize's numbers sit on gold. Every picture is composed
on its kind's fixed palette (``Canvas``) from cells and balls kept mapped onto it, so a warm
ticket is 27 pastes, a few lines of text and a small encode. The words and the alt text are in
the ``locale`` each picture is asked for (None: English): Housie is Tómbola in Spanish.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache, partial

from PIL import Image, ImageDraw, ImageFont

import bot.render.housie.words  # noqa: F401  (its words, registered on import)
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
    limit_alt_text,
    ring_slot,
    safe_filename,
    sentence,
    shorten,
    text_width,
    tiled,
    tint,
)
from engine.housie import COLUMNS, HIGHEST_NUMBER, ROWS, Prize, Ticket

HIGHEST = HIGHEST_NUMBER

# Ticket geometry, in pixels.
CELL = 68
MARGIN = 18
BAND = 54  # the title band above the grid
FOOTER = 44  # game id and ticket code under the grid
TICKET_WIDTH = 2 * MARGIN + COLUMNS * CELL
TICKET_HEIGHT = BAND + ROWS * CELL + FOOTER + MARGIN // 2

# Caller's board geometry.
BOARD_COLUMNS = 10
BOARD_ROWS = HIGHEST // BOARD_COLUMNS
BALL = 56
BALL_GAP = 8
BOARD_MARGIN = 22
BOARD_HEADER = 112
BOARD_WIDTH = 2 * BOARD_MARGIN + BOARD_COLUMNS * BALL + (BOARD_COLUMNS - 1) * BALL_GAP
BOARD_HEIGHT = BOARD_HEADER + BOARD_ROWS * BALL + (BOARD_ROWS - 1) * BALL_GAP + BOARD_MARGIN
RECENT_SHOWN = 5
BOARD_COMPRESSION = 6  # zlib level: the board goes to the channel and is viewed often

BLANK: RGB = tint(Palette.TEAL, 0.78)
GRID: RGB = Palette.INK
SUPERSAMPLE = 3


def _ticket_cell(number: int, marked: bool, winning: bool) -> Image.Image:
    """One grid cell (RGB, ``CELL`` square): a number, dabbed when marked, gold when winning."""
    s = SUPERSAMPLE
    size = CELL * s
    if number == 0:
        cell = Image.new("RGB", (size, size), BLANK)
        draw = ImageDraw.Draw(cell)
        # Light diagonal hatching, as on printed tickets, so blanks never read as unmarked numbers.
        for offset in range(-size, size, 7 * s):
            draw.line((offset, size, offset + size, 0), fill=tint(Palette.TEAL, 0.68), width=s)
        return downsample(cell, (CELL, CELL))
    cell, draw, colour = daubed_cell(
        size, winning=winning, marked=marked, dab_radius=size * 0.36, scale=s
    )
    draw_text(
        draw, (size / 2, size / 2 + s), str(number), font(FontFace.SANS_BOLD, 30 * s), colour, "mm"
    )
    return downsample(cell, (CELL, CELL))


# Every number (and the blank) in every state: 364 cells of 4.6 KB once mapped.
_TICKET_CELLS = Pieces(_ticket_cell, maxsize=512)


def prize_name(prize: Prize, locale: LocaleLike = None) -> str:
    """``prize`` as ``locale``'s players call it ("Top Line", "Línea de arriba")."""
    return message(f"housie_prize_{prize.name.lower()}", locale)


def _ticket_band(
    canvas: Canvas,
    prize: Prize | None,
    won: bool,
    number: int | None = None,
    out: bool = False,
    locale: LocaleLike = None,
) -> None:
    """The title band: HOUSIE (TÓMBOLA) and the ticket's number (players with several tickets
    name them by it), and on the right the prize won, or OUT for a ticket lost to a bogey."""
    canvas.draw.rectangle((0, 0, TICKET_WIDTH, BAND - 1), fill=canvas.ink(Palette.TEAL))
    title_font = font(FontFace.SLAB, 30)
    title = message("result_housie_title", locale)
    canvas.text((MARGIN, BAND / 2 + 2), title, title_font, Palette.PAPER, "lm", over=Palette.TEAL)
    used = MARGIN + text_width(title, title_font)
    if number is not None:
        left = used + 16
        ticket = message("pic_ticket_number", locale, number=number)
        number_font = font(FontFace.SANS_BOLD, 24)
        canvas.text(
            (left, BAND / 2 + 1), ticket, number_font, Palette.GOLD_LIGHT, "lm", over=Palette.TEAL
        )
        used = left + text_width(ticket, number_font)
    if won or out:
        if not won:
            label = message("pic_ticket_out", locale)
        elif prize is not None:
            label = message("pic_ticket_won", locale, prize=prize_name(prize, locale))
        else:
            label = message("pic_ticket_winner", locale)
        right = TICKET_WIDTH - MARGIN
        # Half the band at most, and never over the title and the ticket's number.
        room = min(TICKET_WIDTH / 2, right - used - 16 - 28)
        shown, face = fit_text(label.upper(), FontFace.SLAB, 28, 16, room)
        with_padding = text_width(shown, face) + 28
        pill = Palette.GOLD if won else Palette.MUTED
        canvas.draw.rounded_rectangle(
            (right - with_padding, 10, right, BAND - 10), radius=10, fill=canvas.ink(pill)
        )
        canvas.text(
            (right - with_padding / 2, BAND / 2 + 1),
            shown,
            face,
            Palette.INK,
            "mm",
            over=pill,
        )


def _ticket_footer(canvas: Canvas, game_id: str, code: str, locale: LocaleLike = None) -> None:
    """The game id on the right and the ticket code on the left, shrunk to fit (codes run long)."""
    middle = BAND + ROWS * CELL + FOOTER / 2 + 2
    right = TICKET_WIDTH - MARGIN
    # The code matters more (players quote it), so the game id gives way first.
    game = message("pic_game", locale, game=shorten(game_id, 12))
    game_font = font(FontFace.SANS, 20)
    canvas.text((right, middle), game, game_font, Palette.MUTED, "rm", over=Palette.PAPER)
    label_font = font(FontFace.SANS_BOLD, 20)
    label = message("pic_ticket_code", locale)
    canvas.text((MARGIN, middle), label, label_font, Palette.INK, "lm", over=Palette.PAPER)
    code_left = MARGIN + text_width(label + " ", label_font)
    room = right - text_width(game, game_font) - 16 - code_left
    shown, code_font = fit_text(code, FontFace.SANS_BOLD, 20, 13, room)
    canvas.text(
        (code_left, middle), shown, code_font, Palette.INK, "lm", over=Palette.PAPER, again=False
    )


def _ticket_sample(canvas: Canvas, won: bool) -> None:
    _ticket_band(canvas, None, won, 6, out=not won)
    _ticket_footer(canvas, "ABCDEFGH", "0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    _draw_grid_lines(canvas)


def _ticket_samples() -> Iterator[Image.Image]:
    yield tiled(
        [
            _ticket_cell(number, marked, winning)
            for number in range(HIGHEST + 1)
            for marked in (False, True)
            for winning in (False, True)
        ]
    )
    for won in (False, True):
        yield TICKETS.image((TICKET_WIDTH, TICKET_HEIGHT), _ticket_sample, won)


TICKETS = PictureKind(_ticket_samples)


def ticket_palette() -> FixedPalette:
    """One palette for every ticket: built once from every cell in every state, bands, footers."""
    return TICKETS.palette()


def _draw_grid_lines(canvas: Canvas) -> None:
    grid_lines(canvas, (MARGIN, BAND), (COLUMNS, ROWS), CELL, GRID)
    right, bottom = MARGIN + COLUMNS * CELL, BAND + ROWS * CELL
    canvas.draw.rectangle(
        (MARGIN - 2, BAND - 1, right + 1, bottom + 1), outline=canvas.ink(GRID), width=3
    )


def _compose_ticket(
    canvas: Canvas,
    ticket: Ticket,
    *,
    game_id: str,
    code: str,
    called: Collection[int],
    winning: Collection[int],
    prize: Prize | None,
    ticket_number: int | None,
    out: bool,
    locale: LocaleLike,
) -> None:
    called_set = frozenset(called)
    winning_set = frozenset(winning)
    for row_index, row in enumerate(ticket.rows):
        for column, number in enumerate(row):
            cell = _TICKET_CELLS.get(canvas, number, number in called_set, number in winning_set)
            canvas.paste(cell, (MARGIN + column * CELL, BAND + row_index * CELL))
    _draw_grid_lines(canvas)
    _ticket_band(canvas, prize, bool(winning_set), ticket_number, out, locale)
    _ticket_footer(canvas, game_id, code, locale)


def ticket_image(
    ticket: Ticket,
    *,
    game_id: str,
    code: str,
    called: Collection[int] = (),
    winning: Collection[int] = frozenset(),
    prize: Prize | None = None,
    ticket_number: int | None = None,
    out: bool = False,
    mapped: bool = False,
    locale: LocaleLike = None,
) -> Image.Image:
    """The ticket in exact colours (RGB): what ``render_ticket`` maps onto its palette.

    ``mapped`` composes it on that palette instead, from the pieces kept mapped, as the players
    got it (in RGB): faster when many tickets are drawn at once. Its words are in ``locale``'s
    language (None: English).
    """
    draw = TICKETS.mapped_image if mapped else TICKETS.image
    return draw(
        (TICKET_WIDTH, TICKET_HEIGHT),
        _compose_ticket,
        ticket,
        game_id=game_id,
        code=code,
        called=called,
        winning=winning,
        prize=prize,
        ticket_number=ticket_number,
        out=out,
        locale=locale,
    )


def ticket_alt_text(
    ticket: Ticket,
    *,
    game_id: str,
    code: str,
    called: Collection[int] = (),
    winning: Collection[int] = frozenset(),
    prize: Prize | None = None,
    ticket_number: int | None = None,
    out: bool = False,
    locale: LocaleLike = None,
) -> str:
    """The alt text of a ticket: its rows, whether it is out, the numbers marked, and the prize's
    numbers, in ``locale``'s language."""
    rows = [
        message(
            "alt_row",
            locale,
            row=index + 1,
            items=", ".join(str(number) for number in row if number),
        )
        for index, row in enumerate(ticket.rows)
    ]
    name = (
        message("alt_housie_ticket", locale)
        if ticket_number is None
        else message("alt_housie_ticket_number", locale, number=ticket_number)
    )
    text = message("alt_housie_ticket_head", locale, name=name, code=code, game=game_id)
    text += " " + sentence("; ".join(rows)) + "."
    if out:
        text += message("alt_housie_out", locale)
    numbers = [number for row in ticket.rows for number in row if number]
    called_set = frozenset(called)
    if called_set:
        marked = sorted(number for number in numbers if number in called_set)
        text += message("alt_housie_marked", locale, count=len(marked), total=len(numbers))
        text += ": " + ", ".join(map(str, marked)) + "." if marked else "."
    if winning:
        listed = ", ".join(map(str, sorted(winning)))
        if prize is None:
            text += message("alt_housie_winning_numbers", locale, numbers=listed)
        else:
            named = prize_name(prize, locale)
            text += message("alt_housie_winning", locale, prize=named, numbers=listed)
    return limit_alt_text(text)


def render_ticket(
    ticket: Ticket,
    *,
    game_id: str,
    code: str,
    called: Collection[int] = (),
    winning: Collection[int] = frozenset(),
    prize: Prize | None = None,
    ticket_number: int | None = None,
    out: bool = False,
    locale: LocaleLike = None,
) -> Rendered:
    """A player's ticket (numbered ``ticket_number`` among theirs): ``called`` numbers dabbed,
    ``winning`` numbers (``PrizeCheck.numbers``) on gold with ``prize`` named in the band.
    Its words and alt text are in ``locale``'s language (None: English)."""
    canvas = TICKETS.on_palette(
        (TICKET_WIDTH, TICKET_HEIGHT),
        _compose_ticket,
        ticket,
        game_id=game_id,
        code=code,
        called=called,
        winning=winning,
        prize=prize,
        ticket_number=ticket_number,
        out=out,
        locale=locale,
    )
    alt = ticket_alt_text(
        ticket,
        game_id=game_id,
        code=code,
        called=called,
        winning=winning,
        prize=prize,
        ticket_number=ticket_number,
        out=out,
        locale=locale,
    )
    return Rendered(canvas.png(compress_level=1), alt, safe_filename("ticket", game_id, code))


# ------------------------------------------------------------------------------ caller's board


def _ball(number: int, state: int) -> Image.Image:
    """One number on the board: 0 not called, 1 called, 2 the latest call (RGB, ``BALL`` square)."""
    s = SUPERSAMPLE
    size = BALL * s
    ball = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(ball)
    edge = 2 * s
    if state == 0:
        draw.ellipse((edge, edge, size - edge, size - edge), outline=Palette.FAINT, width=2 * s)
        colour = Palette.MUTED
    elif state == 1:
        draw.ellipse((edge, edge, size - edge, size - edge), fill=Palette.TEAL)
        colour = (255, 255, 255)
    else:
        draw.ellipse((0, 0, size - 1, size - 1), fill=Palette.BOARD)
        draw.ellipse((4 * s, 4 * s, size - 4 * s, size - 4 * s), fill=Palette.GOLD)
        colour = Palette.INK
    draw_text(
        draw, (size / 2, size / 2 + s), str(number), font(FontFace.SANS_BOLD, 23 * s), colour, "mm"
    )
    return downsample(ball, (BALL, BALL))


def _latest_disc(number: int) -> Image.Image:
    """The latest call, large, for the board's header (RGB on paper)."""
    s = SUPERSAMPLE
    size = 88 * s
    disc = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(disc)
    draw.ellipse((0, 0, size - 1, size - 1), fill=Palette.BOARD)
    draw.ellipse((5 * s, 5 * s, size - 5 * s, size - 5 * s), fill=Palette.GOLD)
    draw_text(
        draw,
        (size / 2, size / 2 + 2 * s),
        str(number),
        font(FontFace.SANS_BOLD, 44 * s),
        Palette.INK,
        "mm",
    )
    return downsample(disc, (88, 88))


# Every number in each state on the board's palette (270) and as called on the call picture's.
_BALLS = Pieces(_ball, maxsize=384)
_LATEST_DISCS = Pieces(_latest_disc, maxsize=128)
DISC = 88


def _compose_caller_board(canvas: Canvas, called: Sequence[int], locale: LocaleLike) -> None:
    words = (
        message("result_housie_title", locale),
        message("pic_housie_called", locale, count=len(called), total=HIGHEST),
        message("pic_housie_latest", locale),
    )
    disc_left = board_head(
        canvas,
        called,
        colour=Palette.TEAL,
        margin=BOARD_MARGIN,
        words=words,
        latest=_LATEST_DISCS,
        disc=DISC,
        label_y=40,
    )
    before = list(reversed(called[:-1]))[: RECENT_SHOWN - 1]
    if before:
        canvas.text(
            (disc_left - 14, 74),
            message("pic_housie_before", locale, numbers="  ".join(map(str, before))),
            font(FontFace.SANS, 20),
            Palette.MUTED,
            "rm",
            over=Palette.PAPER,
            again=False,
        )
    BALL_BOARD.paste(canvas, called)


BALL_BOARD = BallBoard(
    highest=HIGHEST,
    across=BOARD_COLUMNS,
    origin=(BOARD_MARGIN, BOARD_HEADER),
    ball=BALL,
    gap=BALL_GAP,
    row_gap=BALL_GAP,
    balls=_BALLS,
    discs=_LATEST_DISCS,
    size=(BOARD_WIDTH, BOARD_HEIGHT),
    compose=_compose_caller_board,
    sample_calls=([], [7, 40, 88, 2, 61], list(range(90, 0, -1))),
    band_name="board row",
    compression=BOARD_COMPRESSION,
    alt_words="alt_housie_board",
    filename="board",
)


def board_palette() -> FixedPalette:
    """One palette for every caller's board: every ball in every state, every latest-call
    disc and three boards."""
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
    """The alt text of the caller's board: how many called, the latest, and the shorter list of the
    called or the uncalled numbers, in ``locale``'s language."""
    return BALL_BOARD.alt_text(called, locale)


def render_caller_board(called: Sequence[int], *, locale: LocaleLike = None) -> Rendered:
    """The board of 1..90 in rows of ten, ``called`` numbers lit and the last one in gold; its
    words and alt text in ``locale``'s language (None: English)."""
    return BALL_BOARD.render(called, locale)


# ------------------------------------------------------------------------------ call picture

CALL_WIDTH = 640
CALL_BAND = 56  # the teal title band, as on tickets
CALL_MARGIN = 24
CALL_BALL = 176  # the number just called, as a large ball
CALL_HEIGHT = CALL_BAND + 20 + CALL_BALL + CALL_MARGIN
CALL_COLUMN = CALL_MARGIN + CALL_BALL + 28  # where the nickname and the earlier calls start
CALL_COLUMN_WIDTH = CALL_WIDTH - CALL_COLUMN - CALL_MARGIN
CALL_SIZE = (CALL_WIDTH, CALL_HEIGHT)
NICKNAME_LARGEST = 40
NICKNAME_ONE_LINE = 31  # a nickname needing a smaller size than this goes on two lines
NICKNAME_TWO_LINES = 30
NICKNAME_SMALLEST = 22
NICKNAME_LINES = 2
HOUSIE_CALL_COMPRESSION = 5  # 0.3 ms less than 6 for 4% more bytes


def _call_ball_body() -> Image.Image:
    """The large ball without its number, supersampled: a gold ball ringed in the board red,
    with a curved highlight so it reads as a ball rather than a disc."""
    size = CALL_BALL * SUPERSAMPLE
    ball = Image.new("RGB", (size, size), Palette.PAPER)
    draw = ImageDraw.Draw(ball)
    draw.ellipse((0, 0, size - 1, size - 1), fill=Palette.BOARD)
    ring = 9 * SUPERSAMPLE
    draw.ellipse((ring, ring, size - ring, size - ring), fill=Palette.GOLD)
    shine = ring + 9 * SUPERSAMPLE
    draw.arc(
        (shine, shine, size - shine, size - shine),
        195,
        250,
        fill=Palette.GOLD_LIGHT,
        width=7 * SUPERSAMPLE,
    )
    return ball


def _call_ball(number: int) -> Image.Image:
    """The number just called, on the large ball (RGB on paper)."""
    s = SUPERSAMPLE
    ball = _call_ball_body()
    size = ball.width
    draw_text(
        ImageDraw.Draw(ball),
        (size / 2, size / 2 + 4 * s),
        str(number),
        font(FontFace.SANS_BOLD, 92 * s),
        Palette.INK,
        "mm",
    )
    return downsample(ball, (CALL_BALL, CALL_BALL))


# Each number once (31 KB mapped, 3 KB deflated), and a slot in the row of earlier calls with
# nothing called yet.
_CALL_BALLS = Pieces(_call_ball, maxsize=128, deflated=True)
_EMPTY_BALL = Pieces(partial(ring_slot, BALL, SUPERSAMPLE), maxsize=1)


def _balanced_break(text: str) -> str:
    """``text`` with its middle-most space (after a comma if it has one) made a line break."""
    spaces = [index for index, char in enumerate(text) if char == " "]
    if not spaces:
        return text
    after_comma = [index for index in spaces if text[index - 1] == ","]
    choices = after_comma or spaces
    split = min(choices, key=lambda index: abs(len(text) - 2 * index))
    return text[:split] + "\n" + text[split + 1 :]


@lru_cache(maxsize=256)  # each number's nickname in each language comes round again
def _nickname_lines(nickname: str) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """One line as large as fits down to ``NICKNAME_ONE_LINE``; else two balanced lines."""
    face = fit_font(nickname, FontFace.SLAB, NICKNAME_LARGEST, NICKNAME_ONE_LINE, CALL_COLUMN_WIDTH)
    if "\n" not in nickname and text_width(nickname, face) <= CALL_COLUMN_WIDTH:
        return (nickname,), face
    lines, face = fit_wrapped(
        _balanced_break(nickname),
        FontFace.SLAB,
        NICKNAME_TWO_LINES,
        NICKNAME_SMALLEST,
        CALL_COLUMN_WIDTH,
        NICKNAME_LINES,
    )
    return tuple(lines), face


def _earlier_calls(number: int, recent: Sequence[int], call_number: int) -> list[int]:
    """The last calls before ``number``, latest first, after checking the values (``recent``
    may hold ``number`` itself at the end, as the called list does once it is stored)."""
    before = calls_before(number, recent, HIGHEST)
    if not len(before) < call_number <= HIGHEST:
        raise ValueError(
            f"call number {call_number} is outside {len(before) + 1}..{HIGHEST}"
            f" after {len(before)} earlier calls"
        )
    return list(reversed(before))[:RECENT_SHOWN]


def _compose_housie_call(
    canvas: Canvas,
    number: int,
    earlier: Sequence[int],
    call_number: int,
    nickname: str | None,
    locale: LocaleLike,
) -> None:
    call_band(
        canvas,
        CALL_BAND,
        CALL_MARGIN,
        Palette.TEAL,
        message("result_housie_title", locale),
        message("pic_call_of", locale, seq=call_number, total=HIGHEST),
    )
    ball_top = CALL_BAND + 20
    canvas.paste(_CALL_BALLS.get(canvas, number), (CALL_MARGIN, ball_top))

    # The row of earlier calls sits level with the foot of the ball and the nickname above it;
    # without a nickname the row is centred beside the ball.
    shown = nickname.strip() if nickname is not None else ""
    row_top = ball_top + CALL_BALL - BALL if shown else ball_top + (CALL_BALL - BALL) // 2 + 14
    label_y = row_top - 16
    paper = Palette.PAPER
    if shown:
        lines, face = _nickname_lines(shown)
        pitch = round(face.size * 1.18)
        room_top, room_bottom = ball_top, label_y - 28
        first = (room_top + room_bottom - pitch * len(lines)) / 2 + pitch * 0.8
        for index, line in enumerate(lines):
            canvas.text(
                (CALL_COLUMN, first + pitch * index), line, face, Palette.BOARD, "ls", over=paper
            )
    label = message("pic_housie_earlier" if earlier else "pic_housie_first", locale)
    canvas.text(
        (CALL_COLUMN, label_y), label, font(FontFace.SANS, 19), Palette.MUTED, "ls", over=paper
    )
    for slot in range(RECENT_SHOWN):
        left = CALL_COLUMN + slot * (BALL + BALL_GAP)
        if slot < len(earlier):
            piece = _BALLS.get(canvas, earlier[slot], 1)
        else:
            piece = _EMPTY_BALL.get(canvas)
        canvas.paste(piece, (left, row_top))


def _housie_call_samples() -> Iterator[Image.Image]:
    yield tiled([_call_ball(number) for number in range(1, HIGHEST + 1)], 10)
    for number, earlier, nickname in (
        (90, [], "Top of the shop"),
        (8, [1, 2, 3, 4, 5], "Garden gate, one fat lady, two little ducks"),
    ):
        yield CALLS.image(
            (CALL_WIDTH, CALL_HEIGHT),
            _compose_housie_call,
            number,
            earlier,
            len(earlier) + 1,
            nickname,
            None,
        )


CALLS = PictureKind(_housie_call_samples)


def housie_call_palette() -> FixedPalette:
    """One palette for every Housie call picture: every number's ball and two calls."""
    return CALLS.palette()


def warm_up() -> None:
    """The tickets', the board's and the calls' palettes, and every number's ball, built ahead
    (the cog's ``warm_up_pictures``)."""
    ticket_palette()
    board_palette()
    warm_up_calls()


def warm_up_calls() -> None:
    """The call palette, and a first call of every number: its large ball is then kept (3 KB)."""
    for number in range(1, HIGHEST + 1):
        render_housie_call(number, recent=[], call_number=1)


def housie_call_image(
    number: int,
    *,
    recent: Sequence[int],
    call_number: int,
    nickname: str | None = None,
    locale: LocaleLike = None,
) -> Image.Image:
    """The call announcement in exact colours (RGB): what ``render_housie_call`` maps onto its
    palette."""
    earlier = _earlier_calls(number, recent, call_number)
    return CALLS.image(
        CALL_SIZE, _compose_housie_call, number, earlier, call_number, nickname, locale
    )


def housie_call_alt_text(
    number: int,
    *,
    recent: Sequence[int],
    call_number: int,
    nickname: str | None = None,
    locale: LocaleLike = None,
) -> str:
    """The alt text of a Housie call: the number, its nickname and the calls before it, in
    ``locale``'s language."""
    text = message("alt_housie_call", locale, seq=call_number, total=HIGHEST, number=number)
    if nickname is not None and nickname.strip():
        text += f", “{nickname.strip()}”"
    text += "."
    earlier = _earlier_calls(number, recent, call_number)
    if earlier:
        text += message("alt_before", locale, items=", ".join(map(str, earlier)))
    return limit_alt_text(text)


def render_housie_call(
    number: int,
    *,
    recent: Sequence[int],
    call_number: int,
    nickname: str | None = None,
    locale: LocaleLike = None,
) -> Rendered:
    """The number just called as a large ball, its call name (``bot.call_names.nickname``)
    beside it, and the last five calls before it, latest first.

    ``recent`` is the calls before this one in call order (oldest first); ``call_number`` of 90
    is shown in the band. A long nickname is shrunk, then wrapped to two lines. The words and
    the alt text are in ``locale``'s language (None: English).
    """
    earlier = _earlier_calls(number, recent, call_number)
    canvas = CALLS.on_palette(
        CALL_SIZE, _compose_housie_call, number, earlier, call_number, nickname, locale
    )
    alt = housie_call_alt_text(
        number, recent=recent, call_number=call_number, nickname=nickname, locale=locale
    )
    return Rendered(
        canvas.png(compress_level=HOUSIE_CALL_COMPRESSION),
        alt,
        safe_filename("housie-call", call_number, number),
    )
