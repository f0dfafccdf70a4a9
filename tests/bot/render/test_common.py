import io
import threading

import pytest
from PIL import Image, ImageDraw

from bot import render
from bot.render.common import (
    ALT_TEXT_LIMIT,
    BallBoard,
    Canvas,
    FontFace,
    Palette,
    PictureKind,
    Pieces,
    Rendered,
    emoji_art,
    emoji_drawable,
    encode_png,
    fit_wrapped,
    font,
    limit_alt_text,
    missing_glyphs,
    safe_filename,
    text_width,
    tiled,
    wrap_text,
)
from engine.loteria import DECKS

SPANISH = "¡Lotería! ¿Quién? ÁÉÍÓÚÜÑ áéíóúüñ"


def every_card_name() -> str:
    return "".join(card.spanish for deck in DECKS.values() for card in deck)


@pytest.mark.parametrize("face", list(FontFace), ids=lambda face: face.name)
def test_every_card_name_has_all_its_glyphs(face: FontFace):
    names = every_card_name()
    assert missing_glyphs(face, names + names.upper() + SPANISH) == []


def test_the_glyph_check_catches_a_missing_character():
    # No shipped face covers Han characters or unassigned code points.
    assert missing_glyphs(FontFace.SLAB, "El 漢\u0378") == ["漢", "\u0378"]
    assert missing_glyphs(FontFace.SANS, "a\u0378") == ["\u0378"]


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=lambda deck: deck.name)
def test_every_card_of_every_deck_has_openmoji_art(deck):
    for card in deck:
        assert emoji_drawable(card.emoji), card
        art = emoji_art(card.emoji, 64)
        assert art.size == (64, 64)
        assert art.mode == "RGBA"
        assert art.getchannel("A").getbbox() is not None


def test_an_emoji_openmoji_lacks_is_refused():
    assert not emoji_drawable("\u0378")
    assert not emoji_drawable("🐓🐓")  # two glyphs, not one drawing
    with pytest.raises(ValueError, match="no drawing"):
        emoji_art("\u0378", 64)


def test_alt_text_is_cut_to_discords_limit():
    assert limit_alt_text("short") == "short"
    cut = limit_alt_text("x" * 5000)
    assert len(cut) == ALT_TEXT_LIMIT
    assert cut.endswith("…")
    with pytest.raises(ValueError, match="over 1024"):
        Rendered(b"", "y" * (ALT_TEXT_LIMIT + 1), "a.png")


def test_file_names_keep_only_safe_characters():
    assert safe_filename("tabla", "G/../1 é", 7) == "tabla-G1-7.png"
    assert safe_filename("ticket", "", "A-1") == "ticket-A-1.png"


def test_encoding_is_deterministic_and_quantised():
    image = Image.new("RGB", (40, 30), Palette.BOARD)
    image.paste(Palette.GOLD, (10, 10, 30, 20))
    first = encode_png(image)
    assert first == encode_png(image.copy())
    decoded = Image.open(io.BytesIO(first))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").getpixel((20, 15)) == Palette.GOLD
    assert decoded.convert("RGB").getpixel((0, 0)) == Palette.BOARD


def test_wrap_text_breaks_at_spaces_and_keeps_its_own_line_breaks():
    face = font(FontFace.SANS, 20)
    width = text_width("one two three", face)
    assert wrap_text("one two three four five", face, width) == ["one two three", "four five"]
    assert wrap_text("one\ntwo three", face, width) == ["one", "two three"]
    assert wrap_text("unbreakable" * 5, face, width) == ["unbreakable" * 5]  # left for the caller
    assert wrap_text("", face, width) == [""]


def test_fit_wrapped_prefers_the_texts_own_lines_then_wraps_then_cuts():
    couplet = "Raíces abajo, ramas arriba,\nsu sombra fresca a todos convida."
    width = text_width("su sombra fresca a todos convida.", font(FontFace.SANS, 22))
    lines, face = fit_wrapped(couplet, FontFace.SANS, 30, 16, width, 3)
    assert lines == couplet.split("\n")
    assert face.size == 22  # shrunk to keep the couplet's two lines rather than wrap it
    long_line = "a b c d e f g h i j k l m n o p"
    lines, face = fit_wrapped(long_line, FontFace.SANS, 30, 16, width / 4, 3)
    assert len(lines) in (2, 3)
    assert " ".join(lines) == long_line
    assert all(text_width(line, face) <= width / 4 for line in lines)
    lines, face = fit_wrapped("word " * 100, FontFace.SANS, 30, 16, width, 2)
    assert len(lines) == 2
    assert lines[-1].endswith("…")
    assert face.size == 16
    assert all(text_width(line, face) <= width for line in lines)


def test_the_warm_up_ends_after_the_game_it_is_at_once_stopped():
    """A bot stopping while its pictures warm up waits for one game's warm-up, not all."""
    stop, ran = threading.Event(), []

    def first() -> None:
        ran.append("first")
        stop.set()  # the bot stops meanwhile

    render.warm_up([first, lambda: ran.append("second")], stop)
    assert ran == ["first"]
    render.warm_up([lambda: ran.append("third")])
    assert ran == ["first", "third"]


# A toy calling game's pictures: twelve numbers in rows of four.
def _toy_ball(number: int, state: int) -> Image.Image:
    colour = (Palette.FAINT, Palette.TEAL, Palette.GOLD)[state]
    ball = Image.new("RGB", (10, 10), Palette.PAPER)
    ImageDraw.Draw(ball).ellipse((1, 1, 8, 8), fill=colour)
    ImageDraw.Draw(ball).point((number % 10, 0), fill=Palette.INK)  # each number its own ball
    return ball


def _toy_disc(number: int) -> Image.Image:
    return Image.new("RGB", (20, 20), Palette.BOARD if number % 2 else Palette.BEAN)


def _compose_toy_board(canvas: Canvas, called, locale) -> None:
    canvas.draw.rectangle((0, 0, 59, 5), fill=canvas.ink(Palette.INK))
    TOY_BOARD.paste(canvas, called)


TOY_BOARD = BallBoard(
    highest=12,
    across=4,
    origin=(5, 8),
    ball=10,
    gap=3,
    row_gap=4,
    balls=Pieces(_toy_ball, maxsize=64),
    discs=Pieces(_toy_disc, maxsize=16),
    size=(60, 50),
    compose=_compose_toy_board,
    sample_calls=([], [3, 7], list(range(12, 0, -1))),
    band_name="toy row",
    compression=6,
    alt_words="alt_housie_board",
    filename="toy-board",
)


def test_a_ball_board_lights_each_ball_where_its_geometry_puts_it():
    called = [5, 2, 11]
    picture = TOY_BOARD.image(called, None)
    for number in range(1, 13):
        left, top = TOY_BOARD.ball_origin(number)
        row, column = divmod(number - 1, 4)
        assert (left, top) == (5 + 13 * column, 8 + 14 * row)
        state = 2 if number == 11 else 1 if number in called else 0
        ball = picture.crop((left, top, left + 10, top + 10))
        assert ball.tobytes() == _toy_ball(number, state).tobytes(), number


def test_a_ball_board_is_banded_by_rows_and_each_band_named_by_its_balls():
    bands = TOY_BOARD.bands([2, 9])
    assert [top for top, _ in bands] == [8, 22, 36]
    assert [key for _, key in bands] == [
        ("toy row", 0, (0, 1, 0, 0)),
        ("toy row", 1, (0, 0, 0, 0)),
        ("toy row", 2, (2, 0, 0, 0)),
    ]
    # A call changes only the rows of the balls it lights.
    later = TOY_BOARD.bands([2, 9, 4])
    assert [a == b for (_, a), (_, b) in zip(bands, later, strict=True)] == [False, True, False]


def test_a_ball_board_renders_its_reference_mapped_and_refuses_bad_calls():
    palette = TOY_BOARD.palette()
    assert palette is TOY_BOARD.palette()  # built once
    for called in ([], [4], [1, 12, 6, 7, 8]):
        rendered = TOY_BOARD.render(called, None)
        decoded = Image.open(io.BytesIO(rendered.png)).convert("RGB")
        expected = palette.map(TOY_BOARD.image(called, None)).convert("RGB")
        assert decoded.tobytes() == expected.tobytes()
        assert rendered.filename == f"toy-board-{len(called)}.png"
    for bad in ([0], [13], [3, 3]):
        with pytest.raises(ValueError, match=r"outside 1\.\.12|twice"):
            TOY_BOARD.render(bad, None)


def test_a_ball_board_lists_the_shorter_of_the_called_and_the_waiting():
    assert "no numbers called" in TOY_BOARD.alt_text([], None)
    few = TOY_BOARD.alt_text([9, 2], None)
    assert "2 of 12 called, latest 2" in few
    assert "Called: 2, 9." in few
    many = TOY_BOARD.alt_text([1, 2, 3, 4, 5, 6, 7, 8, 12], None)
    assert "Not yet called: 9, 10, 11." in many
    assert "Every number" in TOY_BOARD.alt_text(list(range(1, 13)), None)


def _compose_square(canvas: Canvas, colour, *, side: int) -> None:
    canvas.draw.rectangle((2, 2, 2 + side, 2 + side), fill=canvas.ink(colour))
    canvas.text((20, 10), "Aa", font(FontFace.SANS_BOLD, 14), Palette.INK, "lm", over=Palette.CREAM)


SQUARES = PictureKind(
    lambda: [SQUARES.image((80, 60), _compose_square, Palette.DAB, side=9)], Palette.CREAM
)


def test_a_picture_kind_composes_on_its_palette_what_its_reference_maps_to():
    reference = SQUARES.image((40, 20), _compose_square, Palette.DAB, side=12)
    assert reference.mode == "RGB"
    assert reference.getpixel((0, 0)) == Palette.CREAM  # its background
    assert reference.getpixel((5, 5)) == Palette.DAB
    composed = SQUARES.on_palette((40, 20), _compose_square, Palette.DAB, side=12)
    assert composed.image.mode == "P"
    mapped = SQUARES.mapped_image((40, 20), _compose_square, Palette.DAB, side=12)
    assert mapped.mode == "RGB"
    assert mapped.tobytes() == composed.image.convert("RGB").tobytes()
    assert mapped.tobytes() == SQUARES.palette().map(reference).convert("RGB").tobytes()


def test_tiled_lays_pieces_in_rows():
    pieces = [Image.new("RGB", (3, 2), (index, 0, 0)) for index in range(5)]
    row = tiled(pieces)
    assert row.size == (15, 2)
    assert [row.getpixel((3 * index, 1)) for index in range(5)] == [(i, 0, 0) for i in range(5)]
    grid = tiled(pieces, 2)
    assert grid.size == (6, 6)
    assert grid.getpixel((3, 2)) == (3, 0, 0)  # the fourth, second in the second row
    assert grid.getpixel((3, 4)) == (0, 0, 0)  # past the last piece: black filler
