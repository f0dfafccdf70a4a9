import pytest
from PIL import Image, ImageChops

from bot.render import loteria
from bot.render.common import (
    FixedPalette,
    FontFace,
    Palette,
    missing_glyphs,
    palette_of,
    text_width,
)
from bot.render.loteria import (
    GAP,
    TILE_HEIGHT,
    TILE_WIDTH,
    render_call,
    render_card,
    render_tabla,
    tabla_image,
    tabla_palette,
)
from cogs.loteria.verses import verse
from engine.errors import GameError
from engine.loteria import CLASSIC_DECK, DECK_SIZE, FAMILY_DECK, TABLA_CELLS, Pattern, Tabla
from tests.bot.render.conftest import open_checked

# First and last cards, and the deck's longest name (18, El Violoncello), on one tabla.
EDGE_TABLA = Tabla((1, 18, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 53, 54))
TOP_ROW = 0b1111
EVERY_CELL = (1 << TABLA_CELLS) - 1


def cell_box(cell: int) -> tuple[int, int, int, int]:
    left, top = loteria._cell_origin(cell)
    return (left, top, left + TILE_WIDTH, top + TILE_HEIGHT)


def same_region(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is None


@pytest.mark.parametrize("deck", [CLASSIC_DECK, FAMILY_DECK], ids=lambda deck: deck.name)
@pytest.mark.parametrize("number", [1, 25, DECK_SIZE])
def test_card_renders_with_its_names_in_alt_text(deck, number):
    card = deck.card(number)
    rendered = render_card(card)
    image = open_checked(rendered)
    assert image.height > image.width  # a card stands upright
    assert card.spanish in rendered.alt_text
    assert card.english in rendered.alt_text
    assert rendered.filename == f"card-{number}.png"


def test_plain_tabla_lists_its_sixteen_cards_in_reading_order():
    rendered = render_tabla(EDGE_TABLA, CLASSIC_DECK, game_id="G42", tabla_number=7)
    image = open_checked(rendered)
    assert image.size == (loteria.TABLA_WIDTH, loteria.TABLA_HEIGHT)
    names = [CLASSIC_DECK.card(number).spanish for number in EDGE_TABLA.numbers]
    positions = [rendered.alt_text.index(name) for name in names]
    assert positions == sorted(positions)
    assert "tabla 7" in rendered.alt_text
    assert "G42" in rendered.alt_text
    assert "Marked" not in rendered.alt_text
    assert rendered.filename == "tabla-G42-7.png"


def test_called_cards_are_marked_and_the_rest_untouched():
    plain = tabla_image(EDGE_TABLA, CLASSIC_DECK, game_id="G", tabla_number=1)
    called = [1, 54, 30]  # 30 is not on this tabla
    marked = tabla_image(EDGE_TABLA, CLASSIC_DECK, game_id="G", tabla_number=1, called=called)
    assert not same_region(plain, marked, cell_box(0))
    assert not same_region(plain, marked, cell_box(15))
    for cell in range(1, 15):
        assert same_region(plain, marked, cell_box(cell)), cell
    rendered = render_tabla(EDGE_TABLA, CLASSIC_DECK, game_id="G", tabla_number=1, called=called)
    open_checked(rendered)
    assert "Marked 2 of 16: El Gallo, La Rana." in rendered.alt_text


def test_winning_cells_are_ringed_in_gold():
    called = list(EDGE_TABLA.numbers[:4])
    image = tabla_image(
        EDGE_TABLA,
        CLASSIC_DECK,
        game_id="G",
        tabla_number=1,
        called=called,
        winning_cells=TOP_ROW,
        pattern=Pattern.LINE,
    )

    def gap_below(cell: int) -> tuple[int, int]:
        left, _, right, bottom = cell_box(cell)
        return ((left + right) // 2, bottom + GAP // 2 - 2)

    for cell in range(4):
        assert image.getpixel(gap_below(cell)) == Palette.GOLD
    for cell in range(4, 12):
        assert image.getpixel(gap_below(cell)) == Palette.BOARD
    rendered = render_tabla(
        EDGE_TABLA,
        CLASSIC_DECK,
        game_id="G",
        tabla_number=1,
        called=called,
        winning_cells=TOP_ROW,
        pattern=Pattern.LINE,
    )
    open_checked(rendered)
    assert (
        "Winning Line (Chorro): El Gallo, El Violoncello, La Dama, El Catrín." in rendered.alt_text
    )


def test_full_deck_called_and_every_cell_winning_stays_in_bounds():
    every_card = list(range(1, DECK_SIZE + 1))
    for deck in (CLASSIC_DECK, FAMILY_DECK):
        rendered = render_tabla(
            EDGE_TABLA,
            deck,
            game_id="X" * 40,
            tabla_number=10_000,
            called=every_card,
            winning_cells=EVERY_CELL,
            pattern=Pattern.CORNERS,
        )
        open_checked(rendered)  # alt text with 16 names twice over still fits


def test_tabla_rejects_bad_marks():
    with pytest.raises(ValueError, match="16-bit"):
        render_tabla(EDGE_TABLA, CLASSIC_DECK, game_id="G", tabla_number=1, winning_cells=1 << 16)
    with pytest.raises(GameError):
        render_tabla(EDGE_TABLA, CLASSIC_DECK, game_id="G", tabla_number=1, called=[55])


def test_tabla_output_is_deterministic():
    def render():
        return render_tabla(
            EDGE_TABLA,
            CLASSIC_DECK,
            game_id="G",
            tabla_number=3,
            called=[1, 5, 9],
            winning_cells=0b1000_0100_0010_0001,
        )

    first = render()
    assert render() == first
    # Building the palette again gives the same palette, so another process gives the same bytes.
    rebuilt = FixedPalette(palette_of(loteria._tabla_samples()))
    assert rebuilt.colours == tabla_palette().colours


def test_first_call_has_an_empty_strip():
    rendered = render_call(CLASSIC_DECK.card(1), CLASSIC_DECK, recent=[], call_number=1, total=54)
    open_checked(rendered)
    assert rendered.alt_text == "Call 1 of 54: card 1, El Gallo (The Rooster)."


def test_last_call_shows_the_five_before_it_latest_first():
    order = list(range(2, DECK_SIZE + 1))  # 53 calls before card 1
    rendered = render_call(
        CLASSIC_DECK.card(1), CLASSIC_DECK, recent=order, call_number=54, total=54
    )
    open_checked(rendered)
    assert "Call 54 of 54" in rendered.alt_text
    assert rendered.alt_text.endswith(
        "Before it: La Rana, El Arpa, La Maceta, La Palma, El Pescado."
    )
    assert (
        render_call(CLASSIC_DECK.card(1), CLASSIC_DECK, recent=order, call_number=54, total=54)
        == rendered
    )


def test_call_strip_ignores_the_current_card_if_passed_in_recent():
    with_current = render_call(
        CLASSIC_DECK.card(3), CLASSIC_DECK, recent=[1, 2, 3], call_number=3, total=54
    )
    without = render_call(
        CLASSIC_DECK.card(3), CLASSIC_DECK, recent=[1, 2], call_number=3, total=54
    )
    assert with_current.png == without.png
    assert with_current.alt_text.endswith("Before it: El Diablito, El Gallo.")


# ------------------------------------------------------------------------ the cantor's verse


def near(actual: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
    """Within the few steps that 256-colour quantisation moves a flat colour."""
    return all(abs(a - b) <= 8 for a, b in zip(actual, expected, strict=True))


VERSE = "Cresta roja y espuela afilada:\nsu grito abre la madrugada."


def call_with(verse: str | None, card: int = 1, recent: tuple[int, ...] = (2, 3)) -> Image.Image:
    return loteria.call_image(
        CLASSIC_DECK.card(card), CLASSIC_DECK, recent=recent, call_number=3, total=54, verse=verse
    )


def test_a_verse_is_set_under_the_card_and_the_rest_is_unchanged():
    plain, versed = call_with(None), call_with(VERSE)
    assert versed.width == plain.width
    assert versed.height > plain.height
    card_bottom = 78 + loteria.tile_height(loteria.CALL_CARD_WIDTH)
    # The title and the card are where they were; the strip of earlier calls moved down whole.
    assert same_region(plain, versed, (0, 0, plain.width, card_bottom))
    strip = plain.height - card_bottom - 30
    shifted = versed.height - plain.height
    assert (
        ImageChops.difference(
            plain.crop((0, plain.height - strip, plain.width, plain.height - 12)),
            versed.crop((0, versed.height - strip, versed.width, versed.height - 12)),
        ).getbbox()
        is None
    )
    # Between them, cream lettering on the board.
    band = versed.crop((60, card_bottom, versed.width - 60, card_bottom + shifted))
    colours = {colour for _, colour in band.getcolors(1 << 16) or []}
    assert any(near(colour, Palette.CREAM) for colour in colours)
    assert any(near(colour, Palette.GOLD) for colour in colours)


def test_a_call_with_a_verse_says_it_in_the_alt_text():
    rendered = render_call(
        CLASSIC_DECK.card(1), CLASSIC_DECK, recent=[2], call_number=2, total=54, verse=VERSE
    )
    open_checked(rendered)
    assert rendered.alt_text == (
        "Call 2 of 54: card 1, El Gallo (The Rooster). Verse: “Cresta roja y espuela afilada: / "
        "su grito abre la madrugada.” Before it: El Diablito."
    )
    assert (
        render_call(
            CLASSIC_DECK.card(1), CLASSIC_DECK, recent=[2], call_number=2, total=54, verse=VERSE
        )
        == rendered
    )


@pytest.mark.parametrize("blank", [None, "", "  \n "])
def test_no_verse_or_a_blank_one_gives_the_plain_call(blank):
    plain = render_call(CLASSIC_DECK.card(5), CLASSIC_DECK, recent=[], call_number=1, total=54)
    assert (
        render_call(
            CLASSIC_DECK.card(5), CLASSIC_DECK, recent=[], call_number=1, total=54, verse=blank
        )
        == plain
    )
    assert "Verse" not in plain.alt_text


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
@pytest.mark.parametrize("deck", [CLASSIC_DECK, FAMILY_DECK], ids=lambda deck: deck.name)
def test_every_cards_verse_keeps_its_own_lines_on_the_picture(deck, locale):
    """No verse of ours is wrapped further, cut or shrunk below a readable size."""
    for card in deck:
        text = verse(card.number, deck.name, locale)
        lines, face, _, _ = loteria._verse_layout(text)
        assert lines == text.split("\n"), card.spanish
        assert face.size >= loteria.VERSE_LARGEST - 2, card.spanish
        assert all(text_width(line, face) <= loteria.VERSE_WIDTH for line in lines)
        assert missing_glyphs(FontFace.SANS, text) == [], card.spanish


def test_a_verse_too_long_for_three_lines_is_cut_and_the_picture_keeps_its_shape():
    words = " ".join(["palabra"] * 80)
    image = call_with(words)
    lines, face, _, height = loteria._verse_layout(words)
    assert len(lines) == loteria.VERSE_MAX_LINES
    assert lines[-1].endswith("…")
    assert face.size == loteria.VERSE_SMALLEST
    assert image.height == call_with(None).height + height
    rendered = render_call(
        CLASSIC_DECK.card(1), CLASSIC_DECK, recent=[], call_number=1, total=54, verse=words * 5
    )
    open_checked(rendered)  # the alt text is cut to Discord's limit
    assert rendered.alt_text.endswith("…")
    one_word = loteria._verse_layout("x" * 300)[0]
    assert len(one_word) == 1
    assert one_word[0].endswith("…")
