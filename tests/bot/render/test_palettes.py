"""The calling games' pictures are composed straight onto fixed palettes: the same pixels as the
reference picture (drawn in exact colours) mapped onto the palette, whatever was cached."""

import io

import pytest
from PIL import Image

from bot.call_names import nickname
from bot.render import housie, loteria
from bot.render.common import (
    BAND_CACHE,
    Canvas,
    FixedPalette,
    FontFace,
    Palette,
    Pieces,
    Rendered,
    font,
    palette_of,
)
from engine.housie import Prize, check_prize, ticket_for_seat
from engine.loteria import CLASSIC_DECK, FAMILY_DECK, Pattern, Tabla
from tests.bot.render.conftest import open_checked

TABLA = Tabla((1, 18, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 53, 54))
TICKET = ticket_for_seat(bytes(32), 3)
ORDER = [17, 12, 21, 52, 86, 28, 39, 7, 18, 45, 1, 90, 60]
VERSE = "Cresta roja y espuela afilada:\nsu grito abre la madrugada."
WON = check_prize(TICKET, list(range(1, 91)), Prize.FULL_HOUSE)


def tabla(**options):
    return (
        lambda: loteria.render_tabla(TABLA, **options),
        lambda: loteria.tabla_image(TABLA, **options),
        loteria.tabla_palette,
    )


def ticket(**options):
    return (
        lambda: housie.render_ticket(TICKET, game_id="G7", code="ABCD-1234", **options),
        lambda: housie.ticket_image(TICKET, game_id="G7", code="ABCD-1234", **options),
        housie.ticket_palette,
    )


def board(called):
    return (
        lambda: housie.render_caller_board(called),
        lambda: housie.caller_board_image(called),
        housie.board_palette,
    )


def call(card, deck, **options):
    return (
        lambda: loteria.render_call(deck.card(card), deck, total=54, **options),
        lambda: loteria.call_image(deck.card(card), deck, total=54, **options),
        loteria.call_palette,
    )


def housie_call(number, recent, **options):
    return (
        lambda: housie.render_housie_call(
            number, recent=recent, call_number=len(recent) + 1, **options
        ),
        lambda: housie.housie_call_image(
            number, recent=recent, call_number=len(recent) + 1, **options
        ),
        housie.housie_call_palette,
    )


PICTURES = {
    "tabla plain": tabla(deck=CLASSIC_DECK, game_id="G1", tabla_number=1),
    "tabla marked, family": tabla(
        deck=FAMILY_DECK, game_id="G1", tabla_number=22, called=[25, 26, 38, 1, 54]
    ),
    "tabla winning": tabla(
        deck=CLASSIC_DECK,
        game_id="X" * 40,
        tabla_number=9999,
        called=[1, 18, 3, 4, 30],
        winning_cells=0b1111,
        pattern=Pattern.LINE,
    ),
    "ticket plain": ticket(),
    "ticket marked": ticket(called=ORDER, ticket_number=3),
    "ticket won": ticket(called=list(range(1, 91)), winning=WON.numbers, prize=Prize.FULL_HOUSE),
    "ticket out": ticket(called=ORDER[:3], ticket_number=6, out=True),
    "board empty": board([]),
    "board first": board(ORDER[:1]),
    "board later": board(ORDER),
    "board full": board(list(range(90, 0, -1))),
    "call first": call(1, CLASSIC_DECK, recent=[], call_number=1),
    "call with verse": call(
        18, CLASSIC_DECK, recent=[2, 3, 4, 5, 6, 7], call_number=7, verse=VERSE
    ),
    "call family card": call(25, FAMILY_DECK, recent=[26, 38], call_number=3),
    "housie call first": housie_call(90, [], nickname=nickname(90)),
    "housie call later": housie_call(8, ORDER[:7], nickname="Garden gate, one fat lady, two"),
    "housie call unnamed": housie_call(33, ORDER[:2]),
    # The Spanish pictures: other words, the same palettes.
    "tabla winning, Spanish": tabla(
        deck=CLASSIC_DECK,
        game_id="G1",
        tabla_number=9,
        called=[1, 18, 3, 4, 30],
        winning_cells=0b1111,
        pattern=Pattern.CORNERS,
        locale="es-ES",
    ),
    "ticket won, Spanish": ticket(
        called=list(range(1, 91)),
        winning=WON.numbers,
        prize=Prize.THIRD_HOUSE,
        ticket_number=6,
        locale="es-419",
    ),
    "board later, Spanish": (
        lambda: housie.render_caller_board(ORDER, locale="es-ES"),
        lambda: housie.caller_board_image(ORDER, locale="es-ES"),
        housie.board_palette,
    ),
    "call with verse, Spanish": call(
        18, CLASSIC_DECK, recent=[2, 3, 4], call_number=4, verse=VERSE, locale="es-ES"
    ),
    "housie call, Spanish": housie_call(
        8, ORDER[:7], nickname=nickname(8, "es-ES"), locale="es-ES"
    ),
}


def indices(rendered: Rendered) -> Image.Image:
    image = Image.open(io.BytesIO(rendered.png))
    image.load()
    assert image.mode == "P"
    return image


@pytest.mark.parametrize("name", list(PICTURES))
def test_a_picture_composed_on_its_palette_is_the_reference_mapped_onto_it(name):
    render, reference, palette = PICTURES[name]
    first = render()
    open_checked(first)
    expected = palette().map(reference())
    assert indices(first).tobytes() == expected.tobytes()
    assert bytes(indices(first).getpalette() or ()) == palette().colours
    # Again, from the cached pieces, text and bands: the same bytes.
    assert render() == first
    BAND_CACHE.clear()
    assert render() == first


WINNING_TABLA = {
    "deck": CLASSIC_DECK,
    "game_id": "G1",
    "tabla_number": 9,
    "called": [1, 18, 3, 4, 30],
    "winning_cells": 0b1111,
    "pattern": Pattern.LINE,
}
WON_TICKET = {"game_id": "", "code": "", "called": list(range(1, 91)), "winning": WON.numbers}


@pytest.mark.parametrize(
    ("mapped", "players"),
    [
        (
            lambda: loteria.tabla_image(TABLA, mapped=True, **WINNING_TABLA),
            lambda: loteria.render_tabla(TABLA, **WINNING_TABLA),
        ),
        (
            lambda: housie.ticket_image(TICKET, mapped=True, **WON_TICKET),
            lambda: housie.render_ticket(TICKET, **WON_TICKET),
        ),
    ],
    ids=["tabla", "ticket"],
)
def test_a_board_drawn_mapped_is_the_players_picture_in_rgb(mapped, players):
    # The end-of-game picture draws every winner's board this way, from the kept pieces.
    image = mapped()
    assert image.mode == "RGB"
    assert image.tobytes() == indices(players()).convert("RGB").tobytes()


def test_a_board_keeps_its_unchanged_rows_between_calls_and_still_shows_each_call():
    for count in range(1, len(ORDER) + 1):
        called = ORDER[:count]
        rendered = housie.render_caller_board(called)
        expected = housie.board_palette().map(housie.caller_board_image(called))
        assert indices(rendered).tobytes() == expected.tobytes(), count


@pytest.mark.parametrize(
    ("palette", "colours"),
    [
        (loteria.tabla_palette, ["BOARD", "BOARD_DARK", "PAPER", "INK", "GOLD", "BEAN"]),
        (loteria.call_palette, ["BOARD", "BOARD_DARK", "PAPER", "INK", "CREAM"]),
        (housie.ticket_palette, ["PAPER", "TEAL", "INK", "DAB", "GOLD", "GOLD_LIGHT"]),
        (housie.board_palette, ["PAPER", "TEAL", "INK", "GOLD", "BOARD", "MUTED", "FAINT"]),
        (housie.housie_call_palette, ["PAPER", "TEAL", "INK", "GOLD", "GOLD_LIGHT", "BOARD"]),
    ],
)
def test_the_flat_colours_of_a_kind_of_picture_are_kept_exactly(palette, colours):
    fixed = palette()
    assert len(fixed.colours) <= 3 * 256
    for name in colours:
        colour = getattr(Palette, name)
        index = fixed.index(colour)
        assert fixed.colours[3 * index : 3 * index + 3] == bytes(colour), name


def test_palette_of_keeps_the_most_common_colours_even_where_pillow_rounds():
    # (122, 28, 43) is looked up by Pillow as (120, 28, 40): an entry nearer that point than
    # the colour itself would take its pixels, so it must go.
    sample = Image.new("RGB", (64, 64), (122, 28, 43))
    sample.paste((121, 28, 41), (0, 0, 8, 8))
    fixed = FixedPalette(palette_of([sample], colours=8, exact=1))
    index = fixed.index((122, 28, 43))
    assert fixed.colours[3 * index : 3 * index + 3] == bytes((122, 28, 43))


@pytest.mark.parametrize("anchor", ["la", "ls", "lm", "mm", "ms", "rm", "rs", "rt"])
def test_text_on_a_palette_canvas_lands_on_the_pixels_draw_text_gives(anchor):
    palette = housie.ticket_palette()
    face = font(FontFace.SANS_BOLD, 23)
    for xy in ((120, 40), (120.5, 40.25), (121.37, 41.9)):
        indexed = Canvas((260, 90), Palette.TEAL, palette)
        exact = Canvas((260, 90), Palette.TEAL, None)
        for canvas in (indexed, exact):
            canvas.text(xy, "Código ÁÑ 123", face, Palette.GOLD_LIGHT, anchor, over=Palette.TEAL)
        assert indexed.image.tobytes() == palette.map(exact.image).tobytes(), xy


def test_pieces_are_kept_mapped_bounded_and_drawn_afresh_for_an_exact_canvas():
    drawn = []

    def draw(shade: int) -> Image.Image:
        drawn.append(shade)
        return Image.new("RGB", (40, 30), (shade, 0, 0))

    palette = FixedPalette(palette_of([draw(shade) for shade in range(0, 256, 32)]))
    drawn.clear()
    kept, deflated = Pieces(draw, maxsize=3), Pieces(draw, maxsize=3, deflated=True)
    canvas = Canvas((40, 30), Palette.PAPER, palette)
    for shade in (0, 64, 128, 192, 0):
        plain, packed = kept.get(canvas, shade), deflated.get(canvas, shade)
        assert plain.mode == packed.mode == "P"
        assert plain.tobytes() == packed.tobytes() == palette.map(draw(shade)).tobytes()
    assert kept.kept() == deflated.kept() == 3
    drawn.clear()
    exact = Canvas((40, 30), Palette.PAPER, None)
    assert kept.get(exact, 64).mode == "RGB"
    assert drawn == [64]


def test_bands_must_run_down_the_picture():
    canvas = Canvas((20, 20), Palette.PAPER, housie.ticket_palette())
    with pytest.raises(ValueError, match="bands must run down"):
        canvas.png(compress_level=6, bands=[(12, "a"), (5, "b")])
    with pytest.raises(ValueError, match="reference picture"):
        Canvas((20, 20), Palette.PAPER, None).png(compress_level=6)
