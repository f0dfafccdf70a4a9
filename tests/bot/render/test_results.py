"""The picture a calling game ends on: each winner's board as it stood at the winning call, the
winning cells marked, with their name, prize and call, in English and Spanish, in pages that
stay within Discord's limits however many win."""

import dataclasses
import io

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.i18n import message
from bot.render import Rendered, housie, results
from bot.render.common import ALT_TEXT_LIMIT, MAX_SIDE, FontFace, missing_glyphs
from bot.render.housie import ticket_image
from bot.render.housie.results import (
    HousieWin,
    housie_board,
    housie_look,
    render_housie_result,
)
from bot.render.loteria import results as loteria_results
from bot.render.loteria import tabla_image
from bot.render.loteria.results import LoteriaWin, loteria_board, render_loteria_result
from bot.render.results import MAX_PAGES, PER_PAGE, page_layout
from engine.fairness import draw_order
from engine.housie import Prize, check_prize, tickets_at
from engine.loteria import CLASSIC_DECK, DECK_SIZE, Pattern, check_claim, tablas_at
from tests.bot.render.conftest import png_chunks

SEED = bytes(range(32))
LOTERIA_ORDER = draw_order(SEED, DECK_SIZE)
HOUSIE_ORDER = draw_order(SEED, 90)
PICTURE_BUDGET = 1024 * 1024  # per picture; Discord takes 10 MiB a file
MESSAGE_BUDGET = 10 * 1024 * 1024  # every picture of one summary together
NAMES = (
    "Alice",
    "محمد عبد الله",
    "李小龍",
    "Zoë the Extraordinarily Long Display Name",
    "𝓐𝓵𝓲𝓬𝓮 ✨🎉",
    "नमस्ते दोस्त",
    "שלום",
    "Ωmega",
)


def first_completion(tabla, pattern: Pattern) -> tuple[int, int]:
    for seq in range(1, DECK_SIZE + 1):
        claim = check_claim(tabla, LOTERIA_ORDER[:seq], pattern)
        if claim.valid:
            return seq, claim.cells
    raise AssertionError("every pattern completes by the last card")


def loteria_win(position: int, pattern: Pattern = Pattern.LINE, **extra) -> LoteriaWin:
    tabla = tablas_at(SEED, position, 1)[0]
    seq, cells = first_completion(tabla, pattern)
    values = {
        "name": NAMES[position % len(NAMES)],
        "prize": f"{pattern.english} ({pattern.spanish})",
        "pattern": pattern,
        "seq": seq,
        "tabla": tabla,
        "cells": cells,
        **extra,
    }
    return LoteriaWin(**values)


def housie_win(position: int, prize: Prize = Prize.TOP_LINE, **extra) -> HousieWin:
    ticket = tickets_at(SEED, position, 1)[0]
    for seq in range(1, 91):
        check = check_prize(ticket, HOUSIE_ORDER[:seq], prize)
        if check.valid:
            break
    values = {
        "name": NAMES[position % len(NAMES)],
        "prize": prize.display_name,
        "seq": seq,
        "ticket": ticket,
        "numbers": check.numbers,
        "ticket_number": position % 6 + 1,
        **extra,
    }
    return HousieWin(**values)


def checked(rendered: Rendered) -> Image.Image:
    """The picture, after checking Discord shows it inline with its alt text."""
    assert rendered.filename.endswith(".png")
    assert 0 < len(rendered.alt_text) <= ALT_TEXT_LIMIT
    assert len(rendered.png) <= PICTURE_BUDGET
    assert set(png_chunks(rendered.png)) <= {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}
    image = Image.open(io.BytesIO(rendered.png))
    image.load()
    assert image.format == "PNG"
    assert 300 <= image.width <= MAX_SIDE
    assert 200 <= image.height <= MAX_SIDE
    return image.convert("RGB")


def difference(a: Image.Image, b: Image.Image) -> float:
    """The mean difference of two pictures of the same size, 0 to 255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_a_loteria_board_is_the_tabla_at_the_winning_call_without_its_title():
    # As the player got it: on the tabla's palette (``mapped``).
    win = loteria_win(3, Pattern.CORNERS)
    board = loteria_board(win, CLASSIC_DECK, LOTERIA_ORDER)
    tabla = tabla_image(
        win.tabla,
        CLASSIC_DECK,
        game_id="",
        tabla_number=0,
        called=LOTERIA_ORDER[: win.seq],
        winning_cells=win.cells,
        pattern=Pattern.CORNERS,
        mapped=True,
    )
    frame = loteria_results._TABLA_FRAME
    grid_top = loteria_results._TABLA_GRID_TOP
    assert board.width == tabla.width
    assert board.height == tabla.height - (grid_top - frame)
    top = (0, 0, tabla.width, frame)
    assert ImageChops.difference(board.crop(top), tabla.crop(top)).getbbox() is None
    grid = board.crop((0, frame, board.width, board.height))
    below = tabla.crop((0, grid_top, tabla.width, tabla.height))
    assert ImageChops.difference(grid, below).getbbox() is None


def test_a_housie_board_is_the_ticket_grid_at_the_winning_call():
    win = housie_win(5, Prize.FOUR_CORNERS)
    board = housie_board(win, HOUSIE_ORDER)
    ticket = ticket_image(
        win.ticket,
        game_id="",
        code="",
        called=HOUSIE_ORDER[: win.seq],
        winning=win.numbers,
        mapped=True,
    )
    left, top = housie.MARGIN - 2, housie.BAND - 1
    assert board.size == (9 * housie.CELL + 4, 3 * housie.CELL + 3)
    grid = ticket.crop((left, top, left + board.width, top + board.height))
    assert ImageChops.difference(board, grid).getbbox() is None


@pytest.mark.parametrize("count", [1, 2, 3, 5, 12])
def test_each_board_is_drawn_in_its_box(count):
    wins = [housie_win(position) for position in range(count)]
    (rendered,) = render_housie_result(wins, game_id="7", called=HOUSIE_ORDER)
    image = checked(rendered)
    boards = [housie_board(win, HOUSIE_ORDER) for win in wins]
    layout = page_layout(count, housie_look(None), boards[0].size)
    assert image.size == layout.size
    for index, (left, top, width, height) in enumerate(layout.boards):
        drawn = image.crop((left, top, left + width, top + height))
        own = boards[index].resize((width, height), Image.Resampling.LANCZOS)
        other = boards[(index + 1) % count].resize((width, height), Image.Resampling.LANCZOS)
        assert difference(drawn, own) < 3, index
        if count > 1 and wins[index].ticket != wins[(index + 1) % count].ticket:
            assert difference(drawn, other) > 3 * difference(drawn, own), index
    # No two panels (a board and its caption above it) overlap; none reaches the title band.
    panels = [(x, y - results.CAPTION, x + w, y + h) for x, y, w, h in layout.boards]
    for index, a in enumerate(panels):
        assert a[1] >= results.BAND
        assert a[2] <= image.width
        assert a[3] <= image.height
        for b in panels[index + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (None, ("Lotería game 9, the winners.", "on call", ", shared", "with")),
        ("es-ES", ("Lotería, partida 9: los ganadores.", "en la cantada", ", compartido", "con")),
    ],
)
def test_loteria_alt_text_names_each_winner_prize_call_and_cards(locale, words):
    line = loteria_win(0)
    shared = loteria_win(1, shared=True)
    full = loteria_win(2, Pattern.FULL)
    wins = [line, shared, full]
    (rendered,) = render_loteria_result(
        wins, CLASSIC_DECK, game_id="9", called=LOTERIA_ORDER, locale=locale
    )
    checked(rendered)
    alt = rendered.alt_text
    head, on_call, shared_word, with_word = words
    assert alt.startswith(head)
    for win in wins:
        card = CLASSIC_DECK.card(LOTERIA_ORDER[win.seq - 1]).spanish
        assert f"{win.prize}{shared_word if win.shared else ''}: {win.name}, " in alt
        assert f"{on_call} {win.seq} ({card})" in alt
    cards = [
        CLASSIC_DECK.card(n).spanish
        for c, n in enumerate(line.tabla.numbers)
        if line.cells >> c & 1
    ]
    assert f"{with_word} {', '.join(cards)}." in alt
    assert alt.count(shared_word) == 1
    assert rendered.filename == "results-9.png"


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (None, ("Housie game 4, the winners.", "ticket", "on call", "number")),
        ("es-419", ("Tómbola, partida 4: los ganadores.", "cartón", "en la cantada", "el")),
    ],
)
def test_housie_alt_text_names_each_winner_ticket_call_and_numbers(locale, words):
    wins = [housie_win(0, Prize.EARLY_FIVE), housie_win(1, Prize.FULL_HOUSE)]
    (rendered,) = render_housie_result(wins, game_id="4", called=HOUSIE_ORDER, locale=locale)
    checked(rendered)
    head, ticket, on_call, number = words
    assert rendered.alt_text.startswith(head)
    for win in wins:
        called = HOUSIE_ORDER[win.seq - 1]
        expected = (
            f"{win.prize}: {win.name}, {ticket} {win.ticket_number}, {on_call} {win.seq}"
            f" ({number} {called})"
        )
        assert expected in rendered.alt_text
        assert ", ".join(map(str, sorted(win.numbers))) in rendered.alt_text


def test_every_label_has_its_glyphs():
    labels = ["¡LOTERÍA!", "HOUSIE", "TÓMBOLA"]
    for locale in (None, "es-ES"):
        labels += [
            message("result_heading", locale, game="12345"),
            message("result_page", locale, page=2, pages=3),
            message("result_shared", locale).upper(),
            message("result_call_card", locale, seq=54, card="El Violoncello"),
            message("result_call_number", locale, ticket=6, seq=90, number=90),
        ]
    for label in labels:
        for face in (FontFace.SLAB, FontFace.SANS, FontFace.SANS_BOLD):
            assert missing_glyphs(face, label) == [], (label, face)


def test_a_full_housie_night_fits_one_picture_and_many_winners_make_pages():
    # Eight prizes, two of them shared three ways: twelve winners, one picture.
    night = [
        housie_win(position, prize, shared=prize in {Prize.TOP_LINE, Prize.FULL_HOUSE})
        for prize in Prize
        for position in (range(3) if prize in {Prize.TOP_LINE, Prize.FULL_HOUSE} else range(1))
    ]
    assert len(night) == 12
    (picture,) = render_housie_result(night, game_id="8", called=HOUSIE_ORDER)
    image = checked(picture)
    assert image.width <= 1400
    for win in night:
        assert win.name in picture.alt_text

    # More than a page: pages as even as can be, each within the limits, and every winner in
    # some page's alt text.
    crowd = [housie_win(position) for position in range(PER_PAGE + 5)]
    pages = render_housie_result(crowd, game_id="8", called=HOUSIE_ORDER)
    assert len(pages) == 2
    assert [page.filename for page in pages] == ["results-8-1.png", "results-8-2.png"]
    for number, page in enumerate(pages, start=1):
        checked(page)
        assert f"(picture {number} of 2)" in page.alt_text
    assert sum(len(page.png) for page in pages) <= MESSAGE_BUDGET
    first, second = (page.alt_text for page in pages)
    assert first.count("Top Line") == 8
    assert second.count("Top Line") == 9


def test_a_crowd_of_loteria_winners_stays_within_a_message():
    crowd = [loteria_win(position % 40) for position in range(PER_PAGE * MAX_PAGES + 7)]
    pages = render_loteria_result(crowd, CLASSIC_DECK, game_id="5", called=LOTERIA_ORDER)
    assert len(pages) == MAX_PAGES
    assert sum(len(page.png) for page in pages) <= MESSAGE_BUDGET
    for page in pages:
        checked(page)
    assert pages[-1].alt_text.endswith("And 7 more winners, named in the message.")
    assert "more winner" not in pages[0].alt_text


def test_long_alt_text_drops_the_cells_before_the_names():
    # Twelve full tablas: sixteen card names each would pass the limit.
    wins = [loteria_win(position, Pattern.FULL) for position in range(12)]
    (page,) = render_loteria_result(wins, CLASSIC_DECK, game_id="3", called=LOTERIA_ORDER)
    checked(page)
    assert ", with " not in page.alt_text
    for win in wins:
        assert f"{win.name}, on call {win.seq}" in page.alt_text


def test_the_same_winners_give_the_same_bytes():
    wins = [loteria_win(0), loteria_win(4, Pattern.CORNERS, shared=True)]
    first = render_loteria_result(wins, CLASSIC_DECK, game_id="1", called=LOTERIA_ORDER)
    again = render_loteria_result(wins, CLASSIC_DECK, game_id="1", called=LOTERIA_ORDER)
    assert first == again


def test_no_winner_no_picture():
    assert render_loteria_result([], CLASSIC_DECK, game_id="1", called=LOTERIA_ORDER) == []
    assert render_housie_result([], game_id="1", called=HOUSIE_ORDER) == []


def test_a_win_the_calls_cannot_explain_is_refused():
    win = loteria_win(0)
    with pytest.raises(ValueError, match="call"):
        render_loteria_result([win], CLASSIC_DECK, game_id="1", called=LOTERIA_ORDER[: win.seq - 1])
    nothing = dataclasses.replace(win, cells=0)
    with pytest.raises(ValueError, match="cell mask"):
        render_loteria_result([nothing], CLASSIC_DECK, game_id="1", called=LOTERIA_ORDER)
    ticket_win = housie_win(0)
    stranger = dataclasses.replace(ticket_win, numbers=frozenset({91}))
    with pytest.raises(ValueError, match="not on the ticket"):
        render_housie_result([stranger], game_id="1", called=HOUSIE_ORDER)
