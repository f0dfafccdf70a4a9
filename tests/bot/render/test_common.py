import io
import threading

import pytest
from PIL import Image

from bot import render
from bot.render.common import (
    ALT_TEXT_LIMIT,
    FontFace,
    Palette,
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
