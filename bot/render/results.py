"""The picture a calling game ends on: each winner's board with the winning cells, their name,
the prize and the call they won it on, labelled in the server's language.

The boards are the players' own pictures (``loteria.tabla_image``, ``housie.ticket_image``)
without their title bands, marked as they stood at the winning call, and scaled down. Winners
are laid out in a grid, several to a row; up to ``PER_PAGE`` share a picture and more make more
pictures (``MAX_PAGES`` at most: Discord's limit of attachments on one message). The same
board may appear twice: a player can win two prizes with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import LocaleLike, message
from bot.render import housie as housie_render
from bot.render import loteria as loteria_render
from bot.render.common import (
    ALT_TEXT_LIMIT,
    RGB,
    FontFace,
    Palette,
    Rendered,
    encode_png,
    limit_alt_text,
    safe_filename,
    tint,
)
from bot.render.text import Label, Span, fit_line
from engine.housie import COLUMNS, ROWS, Ticket
from engine.loteria import TABLA_CELLS, Deck, Pattern, Tabla

PER_PAGE = 12  # winners on one picture
MAX_PAGES = 10  # pictures on one message (Discord's attachment limit)

OUTER = 28  # around the grid
BAND = 76  # the title band
GAP_X = 26
GAP_Y = 24
CAPTION = 104  # name, prize and call above each board
PANEL_PAD = 12  # inside a panel's backdrop


@dataclass(frozen=True, slots=True)
class LoteriaWin:
    """A Lotería prize won: ``cells`` (a winning cell mask, as ``ClaimResult.cells``) of the
    winner's ``tabla`` completed ``pattern`` by call ``seq``. ``prize`` is the prize as the
    players read it (in the server's language); ``shared`` when others won it on the same call."""

    name: str
    prize: str
    pattern: Pattern
    seq: int
    tabla: Tabla
    cells: int
    shared: bool = False


@dataclass(frozen=True, slots=True)
class HousieWin:
    """A Housie prize won: ``numbers`` (``PrizeCheck.numbers``) of the winner's ticket numbered
    ``ticket_number`` among theirs, by call ``seq``. ``prize`` as the players read it."""

    name: str
    prize: str
    seq: int
    ticket: Ticket
    numbers: frozenset[int]
    ticket_number: int
    shared: bool = False


@dataclass(frozen=True, slots=True)
class _Look:
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
class _Panel:
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


def _draw_band(image: Image.Image, look: _Look, heading: str, page: str) -> None:
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
    panel: _Panel,
    look: _Look,
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


def page_layout(count: int, look: _Look, board_size: tuple[int, int]) -> PageLayout:
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
    panels: Sequence[_Panel],
    look: _Look,
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


def _pages(
    panels: Sequence[_Panel],
    alt_entries: Sequence[tuple[str, str]],
    look: _Look,
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


# -- Lotería -------------------------------------------------------------------------------------

# The tabla keeps its frame: the rows above the title band's floor, then the grid.
_TABLA_FRAME = 18  # the tabla's top edge with its two border lines
_TABLA_GRID_TOP = loteria_render.HEADER - 14  # just above the gold rings of the top row

LOTERIA_LOOK = _Look(
    title="¡LOTERÍA!",
    background=Palette.BOARD,
    band=Palette.BOARD_DARK,
    band_text=Palette.GOLD,
    band_detail=Palette.CREAM,
    backdrop=Palette.BOARD_DARK,
    backdrop_edge=tint(Palette.BOARD, 0.25, Palette.GOLD),
    name=Palette.CREAM,
    prize=Palette.GOLD,
    detail=Palette.GOLD_LIGHT,
    shared_fill=Palette.GOLD,
    shared_text=Palette.INK,
    board_widths=(420, 360, 320, 280),
)


def loteria_board(win: LoteriaWin, deck: Deck, called: Sequence[int]) -> Image.Image:
    """The winner's tabla as it stood at the winning call, winning cells ringed, no title."""
    tabla = loteria_render.tabla_image(
        win.tabla,
        deck,
        game_id="",
        tabla_number=0,
        called=called[: win.seq],
        winning_cells=win.cells,
        pattern=win.pattern,
        mapped=True,
    )
    top = tabla.crop((0, 0, tabla.width, _TABLA_FRAME))
    grid = tabla.crop((0, _TABLA_GRID_TOP, tabla.width, tabla.height))
    board = Image.new("RGB", (tabla.width, top.height + grid.height))
    board.paste(top, (0, 0))
    board.paste(grid, (0, top.height))
    return board


def _check_seq(seq: int, called: Sequence[int]) -> None:
    if not 1 <= seq <= len(called):
        raise ValueError(f"a prize won on call {seq}, but {len(called)} calls were made")


def render_loteria_result(
    wins: Sequence[LoteriaWin],
    deck: Deck,
    *,
    game_id: str,
    called: Sequence[int],
    locale: LocaleLike = None,
) -> list[Rendered]:
    """The winners of a Lotería game (``called``: its calls in order), in the order given (the
    order prizes were won), one picture per ``PER_PAGE``; no winners, no picture."""
    panels = []
    alt_entries = []
    for win in wins:
        _check_seq(win.seq, called)
        if not 0 < win.cells < 1 << TABLA_CELLS:
            raise ValueError(f"winning cells {win.cells:#x} is not a nonempty 16-bit cell mask")
        card = deck.card(called[win.seq - 1]).spanish
        detail = message("result_call_card", locale, seq=win.seq, card=card)
        panels.append(
            _Panel(loteria_board(win, deck, called), win.name, win.prize, win.shared, detail)
        )
        cards = ", ".join(
            deck.card(number).spanish
            for cell, number in enumerate(win.tabla.numbers)
            if win.cells >> cell & 1
        )
        values = {
            "prize": win.prize,
            "shared": message("result_alt_shared", locale) if win.shared else "",
            "name": win.name,
            "seq": win.seq,
            "card": card,
        }
        alt_entries.append(
            (
                message("result_alt_loteria", locale, cards=cards, **values),
                message("result_alt_loteria_short", locale, **values),
            )
        )
    return _pages(
        panels,
        alt_entries,
        LOTERIA_LOOK,
        game_id=game_id,
        alt_head=lambda page: message("result_alt_loteria_head", locale, game=game_id, page=page),
        locale=locale,
    )


# -- Housie --------------------------------------------------------------------------------------


def housie_look(locale: LocaleLike) -> _Look:
    return _Look(
        title=message("result_housie_title", locale),
        background=Palette.PAPER,
        band=Palette.TEAL,
        band_text=Palette.PAPER,
        band_detail=Palette.GOLD_LIGHT,
        backdrop=Palette.CREAM,
        backdrop_edge=tint(Palette.TEAL, 0.55),
        name=Palette.INK,
        prize=Palette.BOARD,
        detail=Palette.MUTED,
        shared_fill=Palette.GOLD,
        shared_text=Palette.INK,
        board_widths=(560, 460, 380),
    )


def housie_board(win: HousieWin, called: Sequence[int]) -> Image.Image:
    """The winner's ticket grid as it stood at the winning call, the prize's numbers on gold."""
    ticket = housie_render.ticket_image(
        win.ticket,
        game_id="",
        code="",
        called=called[: win.seq],
        winning=win.numbers,
        mapped=True,
    )
    # The grid and its outline (three pixels wide, one of them outside the cells above).
    left = housie_render.MARGIN - 2
    top = housie_render.BAND - 1
    right = housie_render.MARGIN + COLUMNS * housie_render.CELL + 2
    bottom = housie_render.BAND + ROWS * housie_render.CELL + 2
    return ticket.crop((left, top, right, bottom))


def render_housie_result(
    wins: Sequence[HousieWin],
    *,
    game_id: str,
    called: Sequence[int],
    locale: LocaleLike = None,
) -> list[Rendered]:
    """The winners of a Housie game (``called``: its calls in order), in the order given (the
    order prizes were won), one picture per ``PER_PAGE``; no winners, no picture."""
    panels = []
    alt_entries = []
    for win in wins:
        _check_seq(win.seq, called)
        ticket_numbers = {number for row in win.ticket.rows for number in row if number}
        if not win.numbers or not win.numbers <= ticket_numbers:
            raise ValueError(f"winning numbers {sorted(win.numbers)} are not on the ticket")
        number = called[win.seq - 1]
        detail = message(
            "result_call_number", locale, ticket=win.ticket_number, seq=win.seq, number=number
        )
        panels.append(_Panel(housie_board(win, called), win.name, win.prize, win.shared, detail))
        values = {
            "prize": win.prize,
            "shared": message("result_alt_shared", locale) if win.shared else "",
            "name": win.name,
            "ticket": win.ticket_number,
            "seq": win.seq,
            "number": number,
        }
        alt_entries.append(
            (
                message(
                    "result_alt_housie",
                    locale,
                    numbers=", ".join(map(str, sorted(win.numbers))),
                    **values,
                ),
                message("result_alt_housie_short", locale, **values),
            )
        )
    return _pages(
        panels,
        alt_entries,
        housie_look(locale),
        game_id=game_id,
        alt_head=lambda page: message("result_alt_housie_head", locale, game=game_id, page=page),
        locale=locale,
    )


__all__ = [
    "MAX_PAGES",
    "PER_PAGE",
    "HousieWin",
    "LoteriaWin",
    "render_housie_result",
    "render_loteria_result",
]


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


def samples() -> list[tuple[str, Rendered]]:
    """A Lotería night (line, corners, full) in Spanish and a Housie night of eight prizes in
    English, played from a fixed seed as the bot would judge them."""
    from engine.fairness import draw_order
    from engine.housie import Prize, check_prize, tickets_at
    from engine.loteria import CLASSIC_DECK, DECK_SIZE, check_claim, tablas_at

    seed = bytes(range(32))
    order = draw_order(seed, DECK_SIZE)
    tablas = tablas_at(seed, 0, len(SAMPLE_NAMES))
    loteria_wins = []
    at = 1
    for pattern in (Pattern.LINE, Pattern.CORNERS, Pattern.FULL):
        # The prize goes on the first call from ``at`` on that completes it for someone.
        while not any(check_claim(t, order[:at], pattern).valid for t in tablas):
            at += 1
        won = [(i, check_claim(t, order[:at], pattern)) for i, t in enumerate(tablas)]
        won = [(i, claim) for i, claim in won if claim.valid]
        for i, claim in won:
            loteria_wins.append(
                LoteriaWin(
                    SAMPLE_NAMES[i],
                    pattern.spanish,
                    pattern,
                    at,
                    tablas[i],
                    claim.cells,
                    shared=len(won) > 1,
                )
            )
    calls = draw_order(seed, 90)
    tickets = tickets_at(seed, 0, 2 * len(SAMPLE_NAMES))  # two to a player
    housie_wins = []
    houses: set[int] = set()
    house_at = 1
    for prize in Prize:
        # Each prize on its own first completion; the houses one after another, on new tickets.
        check = Prize.FULL_HOUSE if prize.is_house else prize
        at = house_at if prize.is_house else 1
        eligible = [i for i in range(len(tickets)) if i not in houses or not prize.is_house]
        while not any(check_prize(tickets[i], calls[:at], check).valid for i in eligible):
            at += 1
        found = {}
        for i in eligible:  # a player wins a prize once, with their first ticket that has it
            result = check_prize(tickets[i], calls[:at], check)
            if result.valid and i // 2 not in found:
                found[i // 2] = (i, result.numbers)
        if prize.is_house:
            found = dict(list(found.items())[:1])
            houses.update(i for i, _ in found.values())
            house_at = at
        for player, (i, numbers) in found.items():
            housie_wins.append(
                HousieWin(
                    SAMPLE_NAMES[player],
                    prize.display_name,
                    at,
                    tickets[i],
                    numbers,
                    i % 2 + 1,
                    shared=len(found) > 1,
                )
            )
    return [
        (
            "results-loteria.png",
            render_loteria_result(
                loteria_wins, CLASSIC_DECK, game_id="L7Q2", called=order, locale="es-ES"
            )[0],
        ),
        ("results-housie.png", render_housie_result(housie_wins, game_id="H42", called=calls)[0]),
    ]
