"""The pictures of /help: each Lotería pattern and each Housie prize highlighted exactly where
the engine says it is won, labelled and described in English and Spanish."""

import pytest

from bot.i18n import MESSAGES
from bot.render.common import FontFace, Palette, missing_glyphs
from bot.render.housie import help as render_help
from bot.render.housie.help import (
    CELL,
    HOUSIE_PRIZES,
    TICKET_LABEL,
    prize_example,
    render_housie_prizes,
    ticket_panel_origin,
)
from bot.render.loteria.help import (
    CARD_HEIGHT,
    CARD_WIDTH,
    card_origin,
    loteria_panels,
    panel_origin,
    render_loteria_patterns,
)
from cogs.housie import SPANISH_PRIZE_NAMES as SPANISH_NAMES
from engine.housie import Prize, check_prize, prize_numbers
from engine.loteria import TABLA_CELLS, Pattern
from tests.bot.render.conftest import open_checked

ENGLISH_NAMES = {prize: prize.display_name for prize in Prize}


def near(actual: tuple[int, int, int], expected: tuple[int, int, int], step: int = 10) -> bool:
    """Within the few steps that 256-colour quantisation moves a flat colour."""
    return all(abs(a - b) <= step for a, b in zip(actual, expected, strict=True))


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_each_pattern_rings_exactly_its_cards(locale):
    image = open_checked(render_loteria_patterns(locale))
    panels = loteria_panels()
    assert [key for key, _, _ in panels] == [*(p.value for p in Pattern), "slept"]
    for index, (key, winning, _) in enumerate(panels):
        if key != "slept":
            assert winning in Pattern(key).masks  # a way the engine judges the pattern won
        panel_left, panel_top = panel_origin(index)
        for cell in range(TABLA_CELLS):
            left, top = card_origin(cell)
            # Just left of the card: the gold ring of a winning card, else the board's red.
            ring = image.getpixel((panel_left + left - 2, panel_top + top + CARD_HEIGHT // 2))
            expected = Palette.GOLD if winning >> cell & 1 else Palette.BOARD
            assert near(ring, expected), (locale, key, cell, ring)


def test_the_slept_rule_stars_the_last_card_of_its_line():
    image = open_checked(render_loteria_patterns("en-US"))
    index = [key for key, _, _ in loteria_panels()].index("slept")
    _, winning, last = loteria_panels()[index]
    assert last is not None
    assert winning >> last & 1
    panel_left, panel_top = panel_origin(index)
    left, top = card_origin(last)
    star = (panel_left + left + CARD_WIDTH - 3, panel_top + top + CARD_HEIGHT - 17)
    assert near(image.getpixel(star), Palette.GOLD)
    # No other card of the line has one.
    for cell in range(TABLA_CELLS):
        if winning >> cell & 1 and cell != last:
            left, top = card_origin(cell)
            corner = (panel_left + left + CARD_WIDTH - 3, panel_top + top + CARD_HEIGHT - 17)
            assert not near(image.getpixel(corner), Palette.GOLD)


def test_loteria_labels_and_alt_text_in_each_language():
    english, spanish = render_loteria_patterns("en-US"), render_loteria_patterns("es-419")
    assert english.png != spanish.png  # the labels differ
    assert english.filename == "help-loteria-en.png"
    assert spanish.filename == "help-loteria-es.png"
    assert english.alt_text.startswith("Lotería's winning patterns")
    assert "Line (Chorro): any row, column or diagonal; the picture shows the top row." in (
        english.alt_text
    )
    assert "Slept rule: with it on" in english.alt_text
    assert spanish.alt_text.startswith("Las figuras ganadoras de la Lotería")
    assert "Cuadrito: cualquier bloque de 2x2" in spanish.alt_text
    assert "Regla del dormido: con ella" in spanish.alt_text
    # Drawn once per language.
    assert render_loteria_patterns("en-GB") is english


@pytest.mark.parametrize(("locale", "names"), [("en-US", ENGLISH_NAMES), ("es-ES", SPANISH_NAMES)])
def test_each_prize_highlights_exactly_its_numbers(locale, names):
    image = open_checked(render_housie_prizes(locale, names))
    ticket = render_help.HELP_TICKET
    for index, prize in enumerate(HOUSIE_PRIZES):
        highlighted = prize_example(prize)
        # The engine agrees: with exactly these numbers called, the prize is won.
        assert check_prize(ticket, sorted(highlighted), prize).valid
        if prize is not Prize.EARLY_FIVE:
            assert highlighted == prize_numbers(ticket, prize)
        left, top = ticket_panel_origin(index)
        top += TICKET_LABEL
        for row_index, row in enumerate(ticket.rows):
            for column, number in enumerate(row):
                corner = (left + column * CELL + 5, top + row_index * CELL + 5)
                colour = image.getpixel(corner)
                if number in highlighted:
                    assert near(colour, Palette.GOLD_LIGHT), (prize, number, colour)
                elif number:
                    assert near(colour, Palette.PAPER), (prize, number, colour)
                else:
                    assert not near(colour, Palette.PAPER), (prize, "blank", colour)


def test_four_corners_are_numbers_not_cells():
    # The bottom row's last number sits in the eighth column, not in the corner cell.
    assert prize_example(Prize.FOUR_CORNERS) == {3, 85, 8, 79}
    assert render_help.HELP_TICKET.rows[2][-1] == 0


def test_housie_labels_and_alt_text_in_each_language():
    english = render_housie_prizes("en-US", ENGLISH_NAMES)
    spanish = render_housie_prizes("es-ES", SPANISH_NAMES)
    assert english.png != spanish.png
    assert english.filename == "help-housie-en.png"
    assert "row 1: 3, 24, 47, 62, 85" in english.alt_text
    assert (
        "Four Corners (the first and last numbers of the top and bottom rows): 3, 8, 79, 85."
        in english.alt_text
    )
    assert "Second Full House and Third Full House, when played" in english.alt_text
    assert "fila 3: 8, 27, 49, 66, 79" in spanish.alt_text
    assert "Cartón lleno (los quince números): 3, 8, 15, 24" in spanish.alt_text
    assert "Segundo cartón lleno y Tercer cartón lleno, si se juegan" in spanish.alt_text
    assert render_housie_prizes("es-419", SPANISH_NAMES) is spanish


def test_every_label_has_its_glyphs():
    labels = "".join(
        text
        for key, pair in MESSAGES.items()
        if key.startswith("help_pic_")
        for text in pair
        if isinstance(text, str)
    )
    names = "".join([*SPANISH_NAMES.values(), *ENGLISH_NAMES.values()])
    names += "".join(p.spanish + p.english for p in Pattern)
    for face in (FontFace.SANS, FontFace.SANS_BOLD):
        assert missing_glyphs(face, labels + names + "·") == []
    assert missing_glyphs(FontFace.SLAB, "LOTERÍA TÓMBOLA HOUSIE") == []
