"""Bingo's pictures: real PNGs decoded with Pillow, checked pixel by pixel at the places the
renderer's own geometry says its cells, balls and patterns are."""

import io

import pytest
from PIL import Image

from bot.call_names import nickname
from bot.i18n import message
from bot.render import bingo
from bot.render.bingo.help import render_bingo_patterns as help_picture
from bot.render.bingo.words import MESSAGES
from bot.render.common import BAND_CACHE, FontFace, Palette, Rendered, font, text_width
from engine.bingo import (
    CELLS,
    FREE_CELL,
    HIGHEST_NUMBER,
    PATTERN_BOOK,
    SIDE,
    Card,
    Pattern,
    call_name,
    cards_at,
)
from engine.errors import GameError
from engine.fairness import draw_order
from tests.bot.render.conftest import open_checked

SEED = bytes(range(32))
CARD = cards_at(SEED, 0, 1)[0]
ORDER = list(draw_order(SEED, 75))
# Numbers of the card and not, in an order a game could call them.
CALLED = [CARD.numbers[0], CARD.numbers[6], 75 if 75 not in CARD else 74, CARD.numbers[24]]
MIDDLE_ROW = sum(1 << cell for cell in range(10, 15))  # a line through the free centre
ROW_CALLS = [n for n in CARD.numbers[10:15] if n]


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 45) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel[:3], colour, strict=True)) <= tolerance


def indices(rendered: Rendered) -> Image.Image:
    image = Image.open(io.BytesIO(rendered.png))
    image.load()
    assert image.mode == "P"
    return image


def card(**options) -> Rendered:
    options.setdefault("game_id", "G7")
    options.setdefault("card_number", 2)
    return bingo.render_card(CARD, **options)


def dab_point(cell: int) -> tuple[int, int]:
    """Inside the dab of ``cell`` but below its number's glyphs."""
    left, top = bingo.cell_origin(cell)
    return left + bingo.CELL // 2, top + bingo.CELL // 2 + round(bingo.DAB_RADIUS * 0.75)


def frame_point(cell: int) -> tuple[int, int]:
    """On the left side of ``cell``'s gold frame, should it have one."""
    left, top = bingo.cell_origin(cell)
    return left + bingo.WIN_INSET + bingo.WIN_WIDTH // 2, top + bingo.CELL // 2


# ----------------------------------------------------------------------------------- the card


def test_a_plain_card_is_a_small_png_with_only_the_free_centre_dabbed():
    image = open_checked(card())
    assert image.size == (bingo.CARD_WIDTH, bingo.CARD_HEIGHT)
    for cell in range(CELLS):
        pixel = image.getpixel(dab_point(cell))
        if cell == FREE_CELL:
            assert near(pixel, Palette.DAB), cell
        else:
            assert near(pixel, Palette.PAPER), (cell, pixel)
        assert near(image.getpixel(frame_point(cell)), Palette.PAPER), cell


def test_called_numbers_are_dabbed_and_the_others_are_not():
    plain = open_checked(card())
    marked = open_checked(card(called=CALLED))
    dabbed = {CARD.cell_of(number) for number in CALLED} - {None} | {FREE_CELL}
    assert len(dabbed) == 4  # three of the calls are on the card
    for cell in range(CELLS):
        pixel = marked.getpixel(dab_point(cell))
        if cell in dabbed:
            assert near(pixel, Palette.DAB), cell
            if cell != FREE_CELL:
                assert plain.getpixel(dab_point(cell)) != pixel
        else:
            assert near(pixel, Palette.PAPER), cell
            assert plain.getpixel(dab_point(cell)) == pixel


def test_a_winning_placement_is_framed_in_gold_and_nothing_else_is():
    called = ROW_CALLS
    won = open_checked(card(called=called, winning=MIDDLE_ROW, pattern=PATTERN_BOOK["line"]))
    unwon = open_checked(card(called=called, pattern=PATTERN_BOOK["line"]))
    for cell in range(CELLS):
        if MIDDLE_ROW >> cell & 1:
            assert near(won.getpixel(frame_point(cell)), Palette.GOLD), cell
            assert near(unwon.getpixel(frame_point(cell)), Palette.PAPER), cell
            assert near(won.getpixel(dab_point(cell)), Palette.DAB), cell
        else:
            assert won.getpixel(frame_point(cell)) == unwon.getpixel(frame_point(cell)), cell
            assert near(won.getpixel(frame_point(cell)), Palette.PAPER), cell


def test_the_alt_text_names_every_number_by_column_the_free_centre_and_the_marks():
    rendered = card(called=ROW_CALLS, winning=MIDDLE_ROW, pattern=PATTERN_BOOK["line"])
    alt = rendered.alt_text
    for letter, column in zip("BINGO", CARD.columns, strict=True):
        said = ", ".join("free" if number == 0 else str(number) for number in column)
        assert f"{letter}: {said}" in alt
    assert f"Marked {len(ROW_CALLS)} of 24" in alt
    winning = ", ".join("free" if n == 0 else str(n) for n in CARD.numbers[10:15])
    assert f"Winning Any line, outlined: {winning}." in alt
    spanish = card(called=ROW_CALLS, locale="es-ES").alt_text
    assert (
        "N: " + ", ".join("libre" if number == 0 else str(number) for number in CARD.columns[2])
        in spanish
    )
    assert "free" not in spanish
    assert f"Marcados {len(ROW_CALLS)} de 24" in spanish


def test_the_spanish_card_differs_from_the_english_in_its_words_only():
    english = open_checked(card(called=CALLED))
    spanish = open_checked(card(called=CALLED, locale="es-ES"))
    assert english.tobytes() != spanish.tobytes()
    # The numbers' cells are the same pictures; the free centre has its word in each language.
    for cell in range(CELLS):
        left, top = bingo.cell_origin(cell)
        box = (left + 3, top + 3, left + bingo.CELL - 3, top + bingo.CELL - 3)
        same = english.crop(box).tobytes() == spanish.crop(box).tobytes()
        assert same == (cell != FREE_CELL), cell


def test_every_word_drawn_on_the_pictures_is_spanish_in_spanish():
    drawn = [key for key in MESSAGES if key.startswith("pic_bingo_") and key != "pic_bingo_title"]
    assert drawn
    for key in drawn:
        english, spanish = MESSAGES[key]
        assert english != spanish, key
    assert message("pic_bingo_free", "es-ES") == "LIBRE"


def test_a_custom_pattern_keeps_its_name_and_a_built_in_one_is_translated():
    custom = Pattern.custom("arrow", "Arrow", 0b11111)
    assert bingo.pattern_name(custom, "es-ES") == "Arrow"
    assert bingo.pattern_name(PATTERN_BOOK["corners"], "es-ES") == "Cuatro esquinas"
    assert bingo.pattern_name(PATTERN_BOOK["corners"]) == "Four corners"
    assert set(bingo.words.PATTERN_NAMES) == set(PATTERN_BOOK)


def test_bad_marks_are_refused():
    with pytest.raises(ValueError, match="25-bit"):
        card(winning=1 << 25)
    with pytest.raises(GameError):
        card(called=[3, 3])
    with pytest.raises(GameError):
        card(called=[76])


# ------------------------------------------------------------------------- the caller's board


def ball_fill_point(number: int) -> tuple[int, int]:
    left, top = bingo.ball_origin(number)
    return left + bingo.BOARD_BALL // 2, top + bingo.BOARD_BALL // 2 + round(bingo.BOARD_BALL * 0.3)


def ball_ring_point(number: int) -> tuple[int, int]:
    left, top = bingo.ball_origin(number)
    return left + bingo.BOARD_BALL // 2, top + 1


@pytest.mark.parametrize("called", [[], ORDER[:1], ORDER[:30], ORDER], ids=["0", "1", "30", "75"])
def test_the_board_lights_exactly_the_called_numbers_and_rings_the_last(called):
    rendered = bingo.render_caller_board(called)
    image = open_checked(rendered)
    assert image.size == (bingo.BOARD_WIDTH, bingo.BOARD_HEIGHT)
    for number in range(1, 76):
        colour = bingo.COLUMN_COLOURS[bingo.column_of(number)]
        fill = image.getpixel(ball_fill_point(number))
        ring = image.getpixel(ball_ring_point(number))
        if number in called:
            assert near(fill, colour), number
        else:
            assert near(fill, Palette.PAPER), number
        if called and number == called[-1]:
            assert near(ring, Palette.GOLD), number
        else:
            assert near(ring, Palette.PAPER), number


def test_the_boards_alt_text_names_the_calls():
    assert "no numbers" in bingo.render_caller_board([]).alt_text
    alt = bingo.render_caller_board([7, 70, 33]).alt_text
    assert "3 of 75 called, latest N-33" in alt
    assert "Called: B-7, N-33, O-70." in alt
    late = bingo.render_caller_board(ORDER[:-2]).alt_text
    waiting = ", ".join(map(call_name, sorted(ORDER[-2:])))
    assert f"Not yet called: {waiting}." in late
    assert "Tablero del bingo" in bingo.render_caller_board([7], locale="es-ES").alt_text
    with pytest.raises(ValueError, match="twice"):
        bingo.render_caller_board([7, 7])
    with pytest.raises(ValueError, match="outside"):
        bingo.render_caller_board([0])


# ------------------------------------------------------------------------------------- the call


def test_a_call_shows_its_ball_in_its_columns_colour_and_the_earlier_calls():
    earlier = [1, 20, 40, 55, 70, 9]  # call order, oldest first
    rendered = bingo.render_call(64, recent=earlier, call_number=7)
    image = open_checked(rendered)
    assert image.size == (bingo.CALL_WIDTH, bingo.CALL_HEIGHT)
    ball_top = bingo.CALL_BAND + 20
    rim = (bingo.CALL_MARGIN + 8, ball_top + bingo.CALL_BALL // 2)
    assert near(image.getpixel(rim), bingo.COLUMN_COLOURS[4])
    row_top = ball_top + bingo.CALL_BALL - bingo.SMALL_BALL
    shown = [9, 70, 55, 40, 20]  # the last five before it, latest first
    for slot, number in enumerate(shown):
        left = bingo.CALL_COLUMN + slot * (bingo.SMALL_BALL + bingo.SMALL_GAP)
        below_name = (left + bingo.SMALL_BALL // 2, row_top + round(bingo.SMALL_BALL * 0.8))
        assert near(image.getpixel(below_name), bingo.COLUMN_COLOURS[bingo.column_of(number)])
    assert rendered.alt_text == (
        "Bingo call 7 of 75: O-64. Before it: B-9, O-70, G-55, N-40, I-20."
    )
    other = open_checked(bingo.render_call(3, recent=[], call_number=1))
    assert near(other.getpixel(rim), bingo.COLUMN_COLOURS[0])
    first_slot = (
        bingo.CALL_COLUMN + bingo.SMALL_BALL // 2,
        row_top + round(bingo.SMALL_BALL * 0.8),
    )
    assert near(other.getpixel(first_slot), Palette.PAPER)
    spanish = bingo.render_call(3, recent=[], call_number=1, locale="es-ES")
    assert spanish.alt_text == "Bingo, cantada 1 de 75: B-3."
    assert open_checked(spanish).tobytes() != other.tobytes()


def test_a_call_shows_its_nickname_under_its_name():
    plain = bingo.call_image(11, recent=[3], call_number=2)
    named = bingo.call_image(11, recent=[3], call_number=2, nickname=nickname(11))
    # The nickname's line (between the name and the earlier calls' label) has ink only with it.
    ball_top = bingo.CALL_BAND + 20
    line = (bingo.CALL_COLUMN, ball_top + 60, bingo.CALL_WIDTH - bingo.CALL_MARGIN, ball_top + 80)
    assert dark_pixels(named.crop(line)) > 100
    assert dark_pixels(plain.crop(line)) == 0
    rendered = bingo.render_call(11, recent=[3], call_number=2, nickname="Legs eleven")
    assert rendered.alt_text == "Bingo call 2 of 75: B-11, “Legs eleven”. Before it: B-3."
    spanish = bingo.render_call(
        11, recent=[], call_number=1, nickname=nickname(11, "es-ES"), locale="es-ES"
    )
    assert spanish.alt_text == "Bingo, cantada 1 de 75: B-11, “Los dos palillos”."


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_every_nickname_of_a_75_ball_game_fits_its_line_whole(locale):
    for number in range(1, HIGHEST_NUMBER + 1):
        name = nickname(number, locale)
        face = font(FontFace.SLAB, bingo.NICKNAME_SMALLEST)
        assert text_width(name, face) <= bingo.CALL_COLUMN_WIDTH, name  # never cut


def dark_pixels(image: Image.Image) -> int:
    """How many pixels are as dark as text's ink (the paper and the muted label are not)."""
    return sum(image.convert("L").histogram()[:90])


def test_a_call_refuses_impossible_values():
    with pytest.raises(ValueError, match="outside"):
        bingo.render_call(76, recent=[], call_number=1)
    with pytest.raises(ValueError, match="call number 2 of 75"):
        bingo.render_call(5, recent=[1, 2], call_number=2)
    with pytest.raises(ValueError, match="of 76"):
        bingo.render_call(5, recent=[], call_number=1, total=76)


# ------------------------------------------------------------------------------------ patterns


def cell_centre(left: int, top: int, size: int, cell: int) -> tuple[int, int]:
    row, column = divmod(cell, SIDE)
    return left + column * size + size // 2, top + row * size + size // 2


def assert_shows(image: Image.Image, mask: int, left: int, top: int, size: int) -> None:
    for cell in range(CELLS):
        pixel = image.getpixel(cell_centre(left, top, size, cell))
        if mask >> cell & 1:
            assert near(pixel, Palette.DAB), cell
        else:
            assert near(pixel, Palette.CREAM), (cell, pixel)


@pytest.mark.parametrize("code", list(PATTERN_BOOK))
def test_a_pattern_picture_shows_exactly_its_first_placement(code):
    pattern = PATTERN_BOOK[code]
    rendered = bingo.render_pattern(pattern)
    image = open_checked(rendered)
    assert image.size == bingo.pattern_size(bingo.PATTERN_CELL)
    assert_shows(
        image, pattern.masks[0], *bingo.pattern_grid_origin(bingo.PATTERN_CELL), bingo.PATTERN_CELL
    )


def test_a_custom_pattern_at_another_size_and_its_alt_text():
    arrow = Pattern.custom("arrow", "Arrow", 0b00100_00100_10101_01110_00100)
    for size in (16, 48):
        image = open_checked(bingo.render_pattern(arrow, size=size))
        assert_shows(image, arrow.masks[0], *bingo.pattern_grid_origin(size), size)
    corners = bingo.render_pattern(PATTERN_BOOK["corners"], locale="es-ES").alt_text
    assert corners == "Patrón de bingo Cuatro esquinas: fila 1: B, O; fila 5: B, O."
    line = bingo.render_pattern(PATTERN_BOOK["line"]).alt_text
    assert line.startswith("Bingo pattern Any line: row 1: B, I, N, G, O.")
    assert f"any of {len(PATTERN_BOOK['line'].masks)} ways" in line
    with pytest.raises(ValueError, match="size"):
        bingo.render_pattern(arrow, size=8)


def test_the_pattern_book_shows_each_pattern_in_its_tile():
    patterns = list(PATTERN_BOOK.values())
    rendered = bingo.render_pattern_book(patterns)
    image = open_checked(rendered)
    assert image.size == bingo.book_size(len(patterns))
    for index, pattern in enumerate(patterns):
        assert_shows(image, pattern.masks[0], *bingo.book_grid_origin(index), bingo.BOOK_CELL)
    for pattern in patterns:
        assert pattern.name in rendered.alt_text
    spanish = bingo.render_pattern_book(patterns, locale="es-ES")
    assert "Cartón lleno" in spanish.alt_text
    assert indices(spanish).tobytes() != indices(rendered).tobytes()
    with pytest.raises(ValueError, match=r"1\.\.96 patterns"):
        bingo.render_pattern_book([])


# ---------------------------------------------------------------------------- palettes, samples

CARD_OPTIONS = {
    "game_id": "G7",
    "card_number": 3,
    "called": ROW_CALLS,
    "winning": MIDDLE_ROW,
    "pattern": PATTERN_BOOK["line"],
}
PICTURES = {
    "card won": (
        lambda: bingo.render_card(CARD, **CARD_OPTIONS),
        lambda: bingo.card_image(CARD, **CARD_OPTIONS),
        bingo.card_palette,
    ),
    "card, Spanish": (
        lambda: bingo.render_card(CARD, game_id="G7", card_number=1, called=CALLED, locale="es"),
        lambda: bingo.card_image(CARD, game_id="G7", card_number=1, called=CALLED, locale="es"),
        bingo.card_palette,
    ),
    "call": (
        lambda: bingo.render_call(64, recent=ORDER[:6], call_number=7),
        lambda: bingo.call_image(64, recent=ORDER[:6], call_number=7),
        bingo.call_palette,
    ),
    "board": (
        lambda: bingo.render_caller_board(ORDER[:30]),
        lambda: bingo.caller_board_image(ORDER[:30]),
        bingo.board_palette,
    ),
    "pattern": (
        lambda: bingo.render_pattern(PATTERN_BOOK["x"]),
        lambda: bingo.pattern_image(PATTERN_BOOK["x"]),
        bingo.pattern_palette,
    ),
    "book": (
        lambda: bingo.render_pattern_book(list(PATTERN_BOOK.values()), locale="es"),
        lambda: bingo.pattern_book_image(list(PATTERN_BOOK.values()), locale="es"),
        bingo.pattern_palette,
    ),
}


@pytest.mark.parametrize("name", list(PICTURES))
def test_a_picture_composed_on_its_palette_is_the_reference_mapped_onto_it(name):
    render, reference, palette = PICTURES[name]
    first = render()
    open_checked(first)
    assert indices(first).tobytes() == palette().map(reference()).tobytes()
    assert render() == first
    BAND_CACHE.clear()
    assert render() == first


def test_a_card_drawn_mapped_is_the_players_picture_in_rgb():
    mapped = bingo.card_image(CARD, mapped=True, **CARD_OPTIONS)
    assert (
        mapped.tobytes()
        == indices(bingo.render_card(CARD, **CARD_OPTIONS)).convert("RGB").tobytes()
    )


def test_the_board_keeps_unchanged_rows_between_calls_and_still_shows_each_call():
    for count in range(1, 12):
        called = ORDER[:count]
        expected = bingo.board_palette().map(bingo.caller_board_image(called))
        assert indices(bingo.render_caller_board(called)).tobytes() == expected.tobytes(), count


def test_a_card_of_any_deal_renders():
    for dealt in cards_at(SEED, 1, 3):
        assert isinstance(dealt, Card)
        open_checked(bingo.render_card(dealt, game_id="X" * 40, card_number=9999, called=ORDER))


def test_the_help_picture_is_the_whole_book_in_each_language_drawn_once():
    english = help_picture(None)
    assert english is help_picture("en-US")
    assert english == bingo.render_pattern_book(list(PATTERN_BOOK.values()))
    spanish = help_picture("es-ES")
    assert spanish == bingo.render_pattern_book(list(PATTERN_BOOK.values()), locale="es-ES")
    assert spanish.alt_text != english.alt_text


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_a_winning_cards_cry_fits_its_band_whole_for_every_pattern(locale):
    room = bingo.won_room(1, locale)
    for pattern in PATTERN_BOOK.values():
        cry = message("pic_bingo_won", locale, pattern=bingo.pattern_name(pattern, locale)).upper()
        lines, face = bingo.won_lines(cry, room)
        assert " ".join(lines) == cry  # nothing cut
        assert all(text_width(line, face) <= room for line in lines), cry
    # "¡CUALQUIER LÍNEA!" on one line, as large as the English.
    line = message("pic_bingo_won", "es-ES", pattern="Cualquier línea").upper()
    assert len(bingo.won_lines(line, bingo.won_room(1, "es-ES"))[0]) == 1
