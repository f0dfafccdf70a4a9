"""Lotería pictures: a card, a player's tabla (plain, marked, winning), the cantor's call and
the caller's board (every card of the deck, those called shown: a frame of the replay).

Cards are drawn in the manner of the printed decks: a cream card with a coloured frame around
the art, the number in the top-left corner and the name in capitals along the bottom. The art is
the card's OpenMoji emoji. Tablas and calls are composed on fixed palettes (``Canvas``) from
tiles kept mapped onto them, per card and look, drawn the first time they are needed: a warm
tabla is 16 pastes, a title, a line of text and the encoding. The words around the cards and
the alt text are in the ``locale`` each picture is asked for (None: English); the cards keep
their Spanish names in both.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterator, Sequence
from functools import lru_cache
from math import ceil

from PIL import Image, ImageDraw, ImageFilter, ImageFont

import bot.render.loteria.words  # noqa: F401  (its words, registered on import)
from bot.i18n import LocaleLike, message
from bot.render.common import (
    RGB,
    Canvas,
    FixedPalette,
    FontFace,
    Palette,
    PictureKind,
    Pieces,
    Rendered,
    check_called,
    downsample,
    draw_text,
    emoji_art,
    encode_png,
    fit_font,
    fit_text,
    fit_wrapped,
    font,
    language,
    limit_alt_text,
    safe_filename,
    sentence,
    text_width,
    tint,
)
from engine.loteria import DECKS, TABLA_CELLS, TABLA_SIDE, Card, Deck, Pattern, Tabla

SUPERSAMPLE = 2  # tiles are drawn at twice their size and shrunk, for smooth edges

# Tabla geometry, in pixels.
TILE_WIDTH = 180
TILE_HEIGHT = 252  # the 5:7 shape of a printed card
GAP = 16
MARGIN = 22
HEADER = 92
TABLA_WIDTH = 2 * MARGIN + TABLA_SIDE * TILE_WIDTH + (TABLA_SIDE - 1) * GAP
TABLA_HEIGHT = HEADER + TABLA_SIDE * TILE_HEIGHT + (TABLA_SIDE - 1) * GAP + MARGIN

# Call announcement geometry.
CALL_CARD_WIDTH = 380
RECENT_SHOWN = 5
RECENT_WIDTH = 112
RECENT_GAP = 14
CALL_WIDTH = 2 * MARGIN + RECENT_SHOWN * RECENT_WIDTH + (RECENT_SHOWN - 1) * RECENT_GAP
# The cantor's verse under the card: up to three lines, shrunk before it is wrapped or cut.
VERSE_MAX_LINES = 3
VERSE_LARGEST = 26
VERSE_SMALLEST = 19
VERSE_WIDTH = CALL_WIDTH - 2 * MARGIN - 40
CARD_IMAGE_WIDTH = 440
CALL_COMPRESSION = 6  # zlib level for the call picture: once a call, for the whole channel


def frame_colour(number: int) -> RGB:
    """The frame colour of card ``number``: the palette in turn, so neighbours differ."""
    return Palette.FRAMES[(number - 1) % len(Palette.FRAMES)]


def tile_height(width: int) -> int:
    """A card's height when drawn ``width`` pixels wide (the cards are 5:7)."""
    return round(width * 7 / 5)


def draw_card_tile(number: int, name: str, emoji: str, width: int) -> Image.Image:
    """A card drawn ``width`` pixels wide (RGBA, rounded corners transparent), from plain values.

    Not cached: the pictures keep what they paste, already laid on the board and mapped onto
    their palette (``Pieces``).
    """
    s = SUPERSAMPLE
    w, h = width * s, tile_height(width) * s
    colour = frame_colour(number)
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    border = max(2 * s, round(w * 0.012))
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=round(w * 0.06),
        fill=Palette.PAPER,
        outline=Palette.INK,
        width=border,
    )

    # The picture: a coloured frame around a pale wash of the same colour.
    pad = round(w * 0.06)
    name_band = round(w * 0.25)
    picture = (pad, pad, w - pad, h - name_band)
    frame = max(3 * s, round(w * 0.035))
    draw.rectangle(picture, fill=tint(colour, 0.8), outline=colour, width=frame)
    inner = round(w * 0.012)
    draw.rectangle(
        (
            picture[0] + frame + inner,
            picture[1] + frame + inner,
            picture[2] - frame - inner,
            picture[3] - frame - inner,
        ),
        outline=tint(colour, 0.45),
        width=max(1, round(w * 0.006)),
    )

    picture_width = picture[2] - picture[0]
    picture_height = picture[3] - picture[1]
    box = round(min(picture_width, picture_height) * 0.74)
    art = emoji_art(emoji, box)
    art_left = picture[0] + (picture_width - box) // 2
    art_top = picture[1] + (picture_height - box) // 2 + round(w * 0.035)  # clear of the number
    tile.alpha_composite(art, (art_left, art_top))

    # The number, top left, on a cream tag so it reads over any art.
    number_font = font(FontFace.SLAB, round(w * 0.13))
    tag = (
        picture[0] + frame,
        picture[1] + frame,
        picture[0] + frame + round(w * 0.2),
        picture[1] + frame + round(w * 0.17),
    )
    draw.rounded_rectangle(
        tag,
        radius=round(w * 0.03),
        fill=Palette.PAPER,
        outline=colour,
        width=max(1, round(w * 0.01)),
    )
    draw_text(
        draw,
        ((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2),
        str(number),
        number_font,
        Palette.INK,
        "mm",
    )

    # The name in capitals, as big as fits the card's width; the longest are set condensed
    # rather than small, like the narrow lettering of the printed cards.
    label = name.upper()
    room = w - 2 * pad
    name_font = fit_font(label, FontFace.SLAB, round(w * 0.13), round(w * 0.115), room)
    name_centre = (round(w / 2), round(picture[3] + (h - picture[3]) / 2))
    natural = text_width(label, name_font)
    if natural <= room:
        draw_text(draw, name_centre, label, name_font, Palette.INK, "mm")
    else:
        lettering = Image.new("L", (ceil(natural) + 4, round(w * 0.2)), 0)
        draw_text(
            ImageDraw.Draw(lettering),
            (lettering.width / 2, lettering.height / 2),
            label,
            name_font,
            255,
            "mm",
        )
        lettering = lettering.resize((room, lettering.height), Image.Resampling.LANCZOS)
        ink = Image.new("RGBA", lettering.size, (*Palette.INK, 255))
        tile.paste(
            ink,
            (name_centre[0] - room // 2, name_centre[1] - lettering.height // 2),
            lettering,
        )
    return downsample(tile, (width, tile_height(width)))


def on_board(tile: Image.Image) -> Image.Image:
    """``tile`` (RGBA) laid on the board colour (RGB), as every picture shows it."""
    laid = Image.new("RGB", tile.size, Palette.BOARD)
    laid.paste(tile, (0, 0), tile)
    return laid


@lru_cache(maxsize=16)
def bean(width: int) -> Image.Image:
    """A glossy brown bean with a soft shadow, ``width`` pixels across (RGBA)."""
    s = 4
    w, h = width * s, round(width * 0.75) * s
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    body = (round(w * 0.12), round(h * 0.2), round(w * 0.88), round(h * 0.8))
    shadow = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(shadow).ellipse(
        (body[0] + w * 0.03, body[1] + h * 0.08, body[2] + w * 0.03, body[3] + h * 0.08),
        fill=(0, 0, 0, 110),
    )
    sprite.alpha_composite(shadow.filter(ImageFilter.GaussianBlur(w * 0.03)))
    draw = ImageDraw.Draw(sprite)
    # A cream rim keeps the bean distinct on brown art (the deer, the rooster, the violin).
    rim = 3 * s
    draw.ellipse((body[0] - rim, body[1] - rim, body[2] + rim, body[3] + rim), fill=Palette.PAPER)
    draw.ellipse(body, fill=Palette.BEAN, outline=tint(Palette.BEAN, 0.4, Palette.INK), width=s * 2)
    draw.ellipse(
        (body[0] + w * 0.1, body[1] + h * 0.1, body[2] - w * 0.22, body[1] + h * 0.32),
        fill=Palette.BEAN_LIGHT,
    )
    draw.ellipse(
        (body[0] + w * 0.18, body[1] + h * 0.14, body[0] + w * 0.3, body[1] + h * 0.22),
        fill=(255, 236, 210),
    )
    # The bean's eye (hilum): a pale seam along its inner curve.
    draw.arc(
        (body[0] + w * 0.25, body[1] + h * 0.35, body[2] - w * 0.25, body[3] + h * 0.2),
        215,
        325,
        fill=(236, 214, 180),
        width=s * 3,
    )
    sprite = sprite.rotate(-22, resample=Image.Resampling.BICUBIC, expand=True)
    return downsample(sprite, (sprite.width // s, sprite.height // s))


class CellLook(enum.Enum):
    """How a tabla cell is drawn: as dealt, under a dimmed bean, or bright under a bean (won)."""

    PLAIN = "plain"
    MARKED = "marked"
    WINNING = "winning"


def _look_of(tile: Image.Image, look: CellLook) -> Image.Image:
    """A tabla tile (RGBA) in ``look``, laid on the board: under a bean, dimmed unless it is
    part of a win, so winners stand out."""
    if look is CellLook.PLAIN:
        return on_board(tile)
    if look is CellLook.MARKED:
        wash = Image.new("RGBA", tile.size, (*Palette.INK, 100))
        tile = Image.composite(Image.alpha_composite(tile, wash), tile, tile.getchannel("A"))
    else:
        tile = tile.copy()
    token = bean(round(tile.width * 0.6))
    tile.alpha_composite(
        token, ((tile.width - token.width) // 2, round(tile.height * 0.4 - token.height / 2))
    )
    return on_board(tile)


def _draw_tabla_cell(number: int, name: str, emoji: str, look: CellLook) -> Image.Image:
    return _look_of(draw_card_tile(number, name, emoji, TILE_WIDTH), look)


# Every card of every deck in each look: 171 cells of 45 KB once mapped.
_TABLA_CELLS = Pieces(_draw_tabla_cell, maxsize=256)


def _cell_origin(cell: int) -> tuple[int, int]:
    row, column = divmod(cell, TABLA_SIDE)
    return MARGIN + column * (TILE_WIDTH + GAP), HEADER + row * (TILE_HEIGHT + GAP)


_FRAME_INSET = 8
# The title band inside the frame: drawn once per title, pasted on every tabla.
_TITLE_BOX = (16, 16, TABLA_WIDTH - 16, HEADER)


def _draw_frame(canvas: Canvas, size: tuple[int, int]) -> None:
    """The gold rule and the dark rule inside it, around a tabla."""
    inset = _FRAME_INSET
    width, height = size
    canvas.draw.rectangle(
        (inset, inset, width - 1 - inset, height - 1 - inset),
        outline=canvas.ink(Palette.GOLD),
        width=2,
    )
    canvas.draw.rectangle(
        (inset + 5, inset + 5, width - 6 - inset, height - 6 - inset),
        outline=canvas.ink(Palette.BOARD_DARK),
        width=2,
    )


def _draw_tabla_title(
    draw: ImageDraw.ImageDraw | None,
    won: Pattern | None,
    winning: bool,
    origin: tuple[int, int],
    spoken: str,
) -> int:
    """LOTERÍA (and the prize won: in Spanish, and in English under it unless ``spoken`` is
    "es") with the band's corner at ``origin`` (``draw`` None: only measured); the x where it
    ends."""
    dx, dy = -origin[0], -origin[1]
    title = "¡LOTERÍA!" if winning else "LOTERÍA"
    title_font = font(FontFace.SLAB, 50)
    title_colour = Palette.GOLD if winning else Palette.CREAM
    if draw is not None:
        draw_text(
            draw,
            (MARGIN + 4 + dx, HEADER / 2 + 2 + dy),
            title,
            title_font,
            title_colour,
            "lm",
            (2, Palette.BOARD_DARK),
        )
    used = MARGIN + 4 + text_width(title, title_font)
    if winning and won is not None and spoken == "es":
        left = used + 18
        name_font = font(FontFace.SANS_BOLD, 28)
        if draw is not None:
            at = (left + dx, HEADER / 2 + 3 + dy)
            draw_text(draw, at, won.spanish, name_font, Palette.GOLD_LIGHT, "lm")
        used = left + text_width(won.spanish, name_font)
    elif winning and won is not None:
        left = used + 18
        spanish_font, english_font = font(FontFace.SANS_BOLD, 24), font(FontFace.SANS, 18)
        if draw is not None:
            spanish_at, english_at = (
                (left + dx, HEADER / 2 + 1 + dy),
                (left + dx, HEADER / 2 + 8 + dy),
            )
            draw_text(draw, spanish_at, won.spanish, spanish_font, Palette.GOLD_LIGHT, "ls")
            draw_text(draw, english_at, won.english, english_font, Palette.CREAM, "lt")
        used = left + max(
            text_width(won.spanish, spanish_font), text_width(won.english, english_font)
        )
    return ceil(used)


def _tabla_title(won: Pattern | None, winning: bool, spoken: str) -> Image.Image:
    """The title band (outlined lettering is the slowest thing drawn, so it is kept)."""
    left, top, right, bottom = _TITLE_BOX
    band = Image.new("RGB", (right - left, bottom - top), Palette.BOARD)
    _draw_tabla_title(ImageDraw.Draw(band), won, winning, (left, top), spoken)
    return band


# Each title band in each language: the words differ, so the language is part of the key.
_TABLA_TITLES = Pieces(_tabla_title, maxsize=24)


@lru_cache(maxsize=24)
def _title_end(won: Pattern | None, winning: bool, spoken: str) -> int:
    return _draw_tabla_title(None, won, winning, (0, 0), spoken)


def _draw_tabla_corner(
    canvas: Canvas, game_id: str, tabla_number: int, used: int, locale: LocaleLike
) -> None:
    """Tabla number over game id, top right, each shrunk or cut to the room the title leaves."""
    right = TABLA_WIDTH - MARGIN - 4
    room = right - used - 20
    number, number_font = fit_text(
        message("pic_tabla_number", locale, number=tabla_number), FontFace.SANS_BOLD, 30, 18, room
    )
    canvas.text(
        (right, HEADER / 2 - 2), number, number_font, Palette.GOLD, "rs", over=Palette.BOARD
    )
    game, game_font = fit_text(
        message("pic_game", locale, game=game_id), FontFace.SANS, 23, 15, room
    )
    canvas.text((right, HEADER / 2 + 6), game, game_font, Palette.CREAM, "rt", over=Palette.BOARD)


def _draw_tabla_header(
    canvas: Canvas,
    won: Pattern | None,
    winning: bool,
    game_id: str,
    tabla_number: int,
    locale: LocaleLike,
) -> None:
    _draw_frame(canvas, (TABLA_WIDTH, TABLA_HEIGHT))
    won = won if winning else None  # the prize is named only on a win
    spoken = language(locale)
    canvas.paste(_TABLA_TITLES.get(canvas, won, winning, spoken), _TITLE_BOX[:2])
    _draw_tabla_corner(canvas, game_id, tabla_number, _title_end(won, winning, spoken), locale)


def _every_card() -> Iterator[Card]:
    """Each card of every deck once (the decks share most of their cards)."""
    seen: set[tuple[int, str, str]] = set()
    for deck in DECKS.values():
        for card in deck:
            if (key := (card.number, card.spanish, card.emoji)) not in seen:
                seen.add(key)
                yield card


def _tabla_samples() -> Iterator[Image.Image]:
    for card in _every_card():
        tile = draw_card_tile(card.number, card.spanish, card.emoji, TILE_WIDTH)
        for look in CellLook:
            yield _ringed(_look_of(tile, look))
    for won, winning in ((Pattern.CORNERS, True), (None, False)):
        header = Canvas((TABLA_WIDTH, HEADER), Palette.BOARD, None)
        _draw_tabla_header(header, won, winning, "ABCDEFGH", 9999, None)
        yield header.image


TABLAS = PictureKind(_tabla_samples, Palette.BOARD)


def tabla_palette() -> FixedPalette:
    """One 256-colour palette for every tabla, built once from every card in every look.

    Every tabla is composed of the same tiles, beans and lettering, so one palette fits them
    all, and the tiles are kept mapped onto it.
    """
    return TABLAS.palette()


def _ringed(cell: Image.Image) -> Image.Image:
    """A tabla cell inside its winning ring, as a palette sample."""
    board = Image.new("RGB", (cell.width + 2 * GAP, cell.height + 2 * GAP), Palette.BOARD)
    board.paste(cell, (GAP, GAP))
    ring = GAP // 2 + 3
    ImageDraw.Draw(board).rounded_rectangle(
        (GAP - ring, GAP - ring, GAP + cell.width - 1 + ring, GAP + cell.height - 1 + ring),
        radius=16,
        outline=Palette.GOLD,
        width=8,
    )
    return board


def _compose_tabla(
    canvas: Canvas,
    tabla: Tabla,
    deck: Deck,
    *,
    game_id: str,
    tabla_number: int,
    called: Sequence[int],
    winning_cells: int,
    pattern: Pattern | None,
    locale: LocaleLike,
) -> None:
    if not 0 <= winning_cells < 1 << TABLA_CELLS:
        raise ValueError(f"winning cells {winning_cells:#x} is not a 16-bit cell mask")
    marked = tabla.marks(called)
    _draw_tabla_header(canvas, pattern, winning_cells != 0, game_id, tabla_number, locale)
    gold = canvas.ink(Palette.GOLD)
    for cell, number in enumerate(tabla.numbers):
        card = deck.card(number)
        left, top = _cell_origin(cell)
        if winning_cells >> cell & 1:
            look = CellLook.WINNING
            ring = GAP // 2 + 3
            canvas.draw.rounded_rectangle(
                (
                    left - ring,
                    top - ring,
                    left + TILE_WIDTH - 1 + ring,
                    top + TILE_HEIGHT - 1 + ring,
                ),
                radius=16,
                outline=gold,
                width=8,
            )
        elif marked >> cell & 1:
            look = CellLook.MARKED
        else:
            look = CellLook.PLAIN
        canvas.paste(
            _TABLA_CELLS.get(canvas, card.number, card.spanish, card.emoji, look), (left, top)
        )


def tabla_image(
    tabla: Tabla,
    deck: Deck,
    *,
    game_id: str,
    tabla_number: int,
    called: Sequence[int] = (),
    winning_cells: int = 0,
    pattern: Pattern | None = None,
    mapped: bool = False,
    locale: LocaleLike = None,
) -> Image.Image:
    """The tabla in exact colours (RGB): what ``render_tabla`` maps onto its palette.

    ``mapped`` composes it on that palette instead, from the pieces kept mapped, as the players
    got it (in RGB): several times faster when many tablas are drawn at once. Its words are in
    ``locale``'s language (None: English).
    """
    draw = TABLAS.mapped_image if mapped else TABLAS.image
    return draw(
        (TABLA_WIDTH, TABLA_HEIGHT),
        _compose_tabla,
        tabla,
        deck,
        game_id=game_id,
        tabla_number=tabla_number,
        called=called,
        winning_cells=winning_cells,
        pattern=pattern,
        locale=locale,
    )


def tabla_alt_text(
    tabla: Tabla,
    deck: Deck,
    *,
    game_id: str,
    tabla_number: int,
    called: Sequence[int] = (),
    winning_cells: int = 0,
    pattern: Pattern | None = None,
    locale: LocaleLike = None,
) -> str:
    """The alt text of a tabla: its cards row by row, those marked, and the winning cells, in
    ``locale``'s language (the cards keep their Spanish names)."""
    names = [deck.card(number).spanish for number in tabla.numbers]
    rows = [
        message(
            "alt_row",
            locale,
            row=row + 1,
            items=", ".join(names[row * TABLA_SIDE : (row + 1) * TABLA_SIDE]),
        )
        for row in range(TABLA_SIDE)
    ]
    text = message("alt_loteria_tabla", locale, number=tabla_number, game=game_id)
    text += " " + sentence("; ".join(rows)) + "."
    marked = tabla.marks(called)
    if called:
        marked_names = [name for cell, name in enumerate(names) if marked >> cell & 1]
        text += message("alt_loteria_marked", locale, count=len(marked_names), total=TABLA_CELLS)
        text += ": " + ", ".join(marked_names) + "." if marked_names else "."
    if winning_cells:
        cards = ", ".join(name for cell, name in enumerate(names) if winning_cells >> cell & 1)
        if pattern is None:
            text += message("alt_loteria_winning_cells", locale, cards=cards)
        else:
            english = f"{pattern.english} ({pattern.spanish})"
            shown = pattern.spanish if language(locale) == "es" else english
            text += message("alt_loteria_winning", locale, pattern=shown, cards=cards)
    return limit_alt_text(text)


def _card_name(card: Card, locale: LocaleLike) -> str:
    """A card as ``locale``'s players read it: its Spanish name, in English with the English
    one in brackets."""
    return card.spanish if language(locale) == "es" else f"{card.spanish} ({card.english})"


def render_tabla(
    tabla: Tabla,
    deck: Deck,
    *,
    game_id: str,
    tabla_number: int,
    called: Sequence[int] = (),
    winning_cells: int = 0,
    pattern: Pattern | None = None,
    locale: LocaleLike = None,
) -> Rendered:
    """A player's tabla: plain, with ``called`` cards under beans, and ``winning_cells``
    (a 16-bit cell mask, as in ``ClaimResult.cells``) ringed in gold with ``pattern`` named.
    Its words and alt text are in ``locale``'s language (None: English)."""
    canvas = TABLAS.on_palette(
        (TABLA_WIDTH, TABLA_HEIGHT),
        _compose_tabla,
        tabla,
        deck,
        game_id=game_id,
        tabla_number=tabla_number,
        called=called,
        winning_cells=winning_cells,
        pattern=pattern,
        locale=locale,
    )
    alt = tabla_alt_text(
        tabla,
        deck,
        game_id=game_id,
        tabla_number=tabla_number,
        called=called,
        winning_cells=winning_cells,
        pattern=pattern,
        locale=locale,
    )
    return Rendered(
        canvas.png(compress_level=1), alt, safe_filename("tabla", game_id, tabla_number)
    )


def card_alt_text(card: Card, *, locale: LocaleLike = None) -> str:
    """The alt text of one card: its number and its name, in ``locale``'s language (the
    English one gives the English name too)."""
    return message("alt_loteria_card", locale, number=card.number, name=_card_name(card, locale))


def render_card(
    card: Card, *, width: int = CARD_IMAGE_WIDTH, locale: LocaleLike = None
) -> Rendered:
    """One card, large, on the board's red; the alt text in ``locale``'s language (the card
    shows its Spanish name in both)."""
    tile = draw_card_tile(card.number, card.spanish, card.emoji, width)
    image = Image.new("RGB", (tile.width + 2 * MARGIN, tile.height + 2 * MARGIN), Palette.BOARD)
    image.paste(tile, (MARGIN, MARGIN), tile)
    return Rendered(
        encode_png(image),
        card_alt_text(card, locale=locale),
        safe_filename("card", card.number),
    )


def _placeholder() -> Image.Image:
    """An empty slot in the strip of earlier calls: a dashed outline, on the board."""
    width, height = RECENT_WIDTH, tile_height(RECENT_WIDTH)
    slot = Image.new("RGB", (width, height), Palette.BOARD)
    draw = ImageDraw.Draw(slot)
    dash = 10
    colour = tint(Palette.BOARD, 0.35)
    for x in range(8, width - 8, dash * 2):
        draw.line((x, 2, min(x + dash, width - 8), 2), fill=colour, width=3)
        draw.line((x, height - 3, min(x + dash, width - 8), height - 3), fill=colour, width=3)
    for y in range(8, height - 8, dash * 2):
        draw.line((2, y, 2, min(y + dash, height - 8)), fill=colour, width=3)
        draw.line((width - 3, y, width - 3, min(y + dash, height - 8)), fill=colour, width=3)
    return slot


def _call_tile(number: int, name: str, emoji: str) -> Image.Image:
    return on_board(draw_card_tile(number, name, emoji, CALL_CARD_WIDTH))


def _strip_tile(number: int, name: str, emoji: str) -> Image.Image:
    return on_board(draw_card_tile(number, name, emoji, RECENT_WIDTH))


CALL_TITLE_HEIGHT = 78
_CALL_TITLE_BOX = (16, 16, CALL_WIDTH // 2, CALL_TITLE_HEIGHT)


def _call_title() -> Image.Image:
    left, top, right, bottom = _CALL_TITLE_BOX
    band = Image.new("RGB", (right - left, bottom - top), Palette.BOARD)
    draw_text(
        ImageDraw.Draw(band),
        (MARGIN + 4 - left, CALL_TITLE_HEIGHT / 2 + 6 - top),
        "LOTERÍA",
        font(FontFace.SLAB, 40),
        Palette.CREAM,
        "lm",
        (2, Palette.BOARD_DARK),
    )
    return band


# Each card once per size: the large one is 200 KB mapped, 10 KB deflated.
_CALL_TILES = Pieces(_call_tile, maxsize=64, deflated=True)
_STRIP_TILES = Pieces(_strip_tile, maxsize=64)
_PLACEHOLDER = Pieces(_placeholder, maxsize=1)
_CALL_TITLE = Pieces(_call_title, maxsize=1)


def _verse_layout(verse: str | None) -> tuple[list[str], ImageFont.FreeTypeFont, int, int]:
    """The verse's lines, font, line pitch and the height of its block (0 without a verse)."""
    lines, face, pitch, height = _verse_layout_of(verse.strip() if verse is not None else "")
    return list(lines), face, pitch, height


@lru_cache(maxsize=256)  # each card's verse in each language comes round again
def _verse_layout_of(verse: str) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont, int, int]:
    face = font(FontFace.SANS, VERSE_LARGEST)
    if not verse:
        return (), face, 0, 0
    lines, face = fit_wrapped(
        verse, FontFace.SANS, VERSE_LARGEST, VERSE_SMALLEST, VERSE_WIDTH, VERSE_MAX_LINES
    )
    pitch = round(face.size * 1.36)
    return tuple(lines), face, pitch, 30 + pitch * len(lines)


def _draw_verse(
    canvas: Canvas,
    top: int,
    lines: Sequence[str],
    face: ImageFont.FreeTypeFont,
    pitch: int,
) -> None:
    """The verse, centred under the card: a gold rule with a diamond, then the lines in cream."""
    middle = CALL_WIDTH // 2
    rule_y = top + 12
    half = 70
    gold = canvas.ink(Palette.GOLD)
    canvas.draw.line((middle - half, rule_y, middle - 12, rule_y), fill=gold, width=2)
    canvas.draw.line((middle + 12, rule_y, middle + half, rule_y), fill=gold, width=2)
    canvas.draw.polygon(
        ((middle, rule_y - 6), (middle + 6, rule_y), (middle, rule_y + 6), (middle - 6, rule_y)),
        fill=gold,
    )
    for index, line in enumerate(lines):
        baseline = top + 26 + pitch * index + round(pitch * 0.78)
        canvas.text((middle, baseline), line, face, Palette.CREAM, "ms", over=Palette.BOARD)


def _call_height(verse: str | None) -> int:
    return _call_strip_top(verse) + 40 + tile_height(RECENT_WIDTH) + MARGIN + 6


def _call_strip_top(verse: str | None) -> int:
    return CALL_TITLE_HEIGHT + tile_height(CALL_CARD_WIDTH) + _verse_layout(verse)[3] + 22


def _compose_call(
    canvas: Canvas,
    card: Card,
    deck: Deck,
    *,
    recent: Sequence[int],
    call_number: int,
    total: int,
    verse: str | None,
    locale: LocaleLike,
) -> None:
    width, height = canvas.image.size
    strip_label = 40
    verse_lines, verse_font, verse_pitch, _ = _verse_layout(verse)
    strip_top = _call_strip_top(verse)
    inset = _FRAME_INSET
    canvas.draw.rectangle(
        (inset, inset, width - 1 - inset, height - 1 - inset),
        outline=canvas.ink(Palette.GOLD),
        width=2,
    )
    canvas.paste(_CALL_TITLE.get(canvas), _CALL_TITLE_BOX[:2])
    canvas.text(
        (CALL_WIDTH - MARGIN - 4, CALL_TITLE_HEIGHT / 2 + 6),
        message("pic_call_of", locale, seq=call_number, total=total),
        font(FontFace.SANS_BOLD, 28),
        Palette.GOLD,
        "rm",
        over=Palette.BOARD,
    )
    canvas.paste(
        _CALL_TILES.get(canvas, card.number, card.spanish, card.emoji),
        ((CALL_WIDTH - CALL_CARD_WIDTH) // 2, CALL_TITLE_HEIGHT),
    )
    if verse_lines:
        verse_top = CALL_TITLE_HEIGHT + tile_height(CALL_CARD_WIDTH)
        _draw_verse(canvas, verse_top, verse_lines, verse_font, verse_pitch)

    canvas.draw.line(
        (MARGIN, strip_top, CALL_WIDTH - MARGIN, strip_top),
        fill=canvas.ink(tint(Palette.BOARD, 0.25)),
        width=2,
    )
    label = message("pic_loteria_earlier" if recent else "pic_loteria_first", locale)
    canvas.text(
        (MARGIN + 2, strip_top + strip_label / 2 + 2),
        label,
        font(FontFace.SANS, 20),
        Palette.CREAM,
        "lm",
        over=Palette.BOARD,
    )
    earlier = [number for number in reversed(recent) if number != card.number][:RECENT_SHOWN]
    for slot in range(RECENT_SHOWN):
        left = MARGIN + slot * (RECENT_WIDTH + RECENT_GAP)
        top = strip_top + strip_label
        if slot < len(earlier):
            shown = deck.card(earlier[slot])
            piece = _STRIP_TILES.get(canvas, shown.number, shown.spanish, shown.emoji)
        else:
            piece = _PLACEHOLDER.get(canvas)
        canvas.paste(piece, (left, top))


def _call_samples() -> Iterator[Image.Image]:
    for card in _every_card():
        yield _call_tile(card.number, card.spanish, card.emoji)
        yield _strip_tile(card.number, card.spanish, card.emoji)
    # Two whole calls for the lettering, the frame, the verse and an empty slot.
    deck = DECKS["classic"]
    for card, recent, verse in (
        (deck.card(1), [2, 3, 4], "Cresta roja y espuela afilada:\nsu grito abre la madrugada."),
        (deck.card(54), [], None),
    ):
        yield call_image(card, deck, recent=recent, call_number=54, total=54, verse=verse)


CALLS = PictureKind(_call_samples, Palette.BOARD)


def call_palette() -> FixedPalette:
    """One palette for every call picture, built once from every card's tiles and two calls."""
    return CALLS.palette()


def warm_up() -> None:
    """The tablas' and the calls' palettes, and every card's pieces of a call, built ahead
    (the cog's ``warm_up_pictures``)."""
    tabla_palette()
    warm_up_calls()


def warm_up_calls() -> None:
    """The call palette, and what every card brings to a call kept ahead: its large tile and
    the rows holding it (10 ms to draw and compress, 20 KB kept) and its small tile in the strip
    (6 ms, 18 KB), so that a game's calls, the first game's included, only compose and encode."""
    strip = Canvas((1, 1), Palette.BOARD, call_palette())
    for card in _every_card():
        render_call(card, DECKS["classic"], recent=[], call_number=1, total=54)
        _STRIP_TILES.get(strip, card.number, card.spanish, card.emoji)


def call_image(
    card: Card,
    deck: Deck,
    *,
    recent: Sequence[int],
    call_number: int,
    total: int,
    verse: str | None = None,
    locale: LocaleLike = None,
) -> Image.Image:
    """The call announcement in exact colours (RGB): what ``render_call`` maps onto its palette."""
    return CALLS.image(
        (CALL_WIDTH, _call_height(verse)),
        _compose_call,
        card,
        deck,
        recent=recent,
        call_number=call_number,
        total=total,
        verse=verse,
        locale=locale,
    )


def call_alt_text(
    card: Card,
    deck: Deck,
    *,
    recent: Sequence[int],
    call_number: int,
    total: int,
    verse: str | None = None,
    locale: LocaleLike = None,
) -> str:
    """The alt text of a call: which call of how many, the card, its verse, the cards before it,
    in ``locale``'s language."""
    text = message(
        "alt_loteria_call",
        locale,
        seq=call_number,
        total=total,
        number=card.number,
        name=_card_name(card, locale),
    )
    if verse is not None and verse.strip():
        lines = " / ".join(verse.strip().split("\n"))
        text += message("alt_loteria_verse", locale, verse=lines)
    earlier = [number for number in reversed(recent) if number != card.number][:RECENT_SHOWN]
    if earlier:
        names = ", ".join(deck.card(number).spanish for number in earlier)
        text += message("alt_before", locale, items=names)
    return limit_alt_text(text)


def render_call(
    card: Card,
    deck: Deck,
    *,
    recent: Sequence[int],
    call_number: int,
    total: int,
    verse: str | None = None,
    locale: LocaleLike = None,
) -> Rendered:
    """The card just drawn, large, for the channel, over a strip of the last few calls.

    ``recent`` is the calls before this one in call order (oldest first); the strip shows the
    last five, latest first. ``call_number`` of ``total`` is shown in the corner. ``verse``, the
    cantor's verse (``cogs.loteria.verses.verse``), is set under the card: its own line breaks are kept,
    and a long one is shrunk, then wrapped to three lines at most, then cut. The words and the
    alt text are in ``locale``'s language (None: English).
    """
    canvas = CALLS.on_palette(
        (CALL_WIDTH, _call_height(verse)),
        _compose_call,
        card,
        deck,
        recent=recent,
        call_number=call_number,
        total=total,
        verse=verse,
        locale=locale,
    )
    alt = call_alt_text(
        card, deck, recent=recent, call_number=call_number, total=total, verse=verse, locale=locale
    )
    # The rows of the large card hold only the card and the frame: compressed once per card.
    card_rows = CALL_TITLE_HEIGHT + tile_height(CALL_CARD_WIDTH)
    bands: list[tuple[int, Hashable]] = [
        (CALL_TITLE_HEIGHT, ("call card", card.number, card.spanish, card.emoji)),
        (card_rows, None),
    ]
    return Rendered(
        canvas.png(compress_level=CALL_COMPRESSION, bands=bands),
        alt,
        safe_filename("call", call_number, card.number),
    )


# ------------------------------------------------------------------------------ caller's board

# The whole deck, nine cards to a row, small: the cards called shown, the others as numbered
# slots. It is a frame of the game's replay (``bot.render.replay``), composed on the calls'
# palette, which holds every card's colours on the board's red and is built at start-up.
BOARD_COLUMNS = 9
BOARD_TILE_WIDTH = 64
BOARD_TILE_HEIGHT = tile_height(BOARD_TILE_WIDTH)
BOARD_GAP = 8
BOARD_WIDTH = 2 * MARGIN + BOARD_COLUMNS * BOARD_TILE_WIDTH + (BOARD_COLUMNS - 1) * BOARD_GAP


def _board_rows(total: int) -> int:
    return -(-total // BOARD_COLUMNS)


def _board_height(total: int) -> int:
    rows = _board_rows(total)
    return CALL_TITLE_HEIGHT + rows * BOARD_TILE_HEIGHT + (rows - 1) * BOARD_GAP + MARGIN


def _board_tile(number: int, name: str, emoji: str) -> Image.Image:
    return on_board(draw_card_tile(number, name, emoji, BOARD_TILE_WIDTH))


def _board_slot(number: int) -> Image.Image:
    """A card not called yet: its number in a faint outline, on the board."""
    width, height = BOARD_TILE_WIDTH, BOARD_TILE_HEIGHT
    slot = Image.new("RGB", (width, height), Palette.BOARD)
    draw = ImageDraw.Draw(slot)
    faint = tint(Palette.BOARD, 0.35)
    draw.rounded_rectangle((1, 1, width - 2, height - 2), radius=6, outline=faint, width=2)
    draw_text(draw, (width / 2, height / 2), str(number), font(FontFace.SLAB, 22), faint, "mm")
    return slot


_BOARD_TILES = Pieces(_board_tile, maxsize=128)
_BOARD_SLOTS = Pieces(_board_slot, maxsize=64)


def _board_origin(index: int) -> tuple[int, int]:
    row, column = divmod(index, BOARD_COLUMNS)
    return (
        MARGIN + column * (BOARD_TILE_WIDTH + BOARD_GAP),
        CALL_TITLE_HEIGHT + row * (BOARD_TILE_HEIGHT + BOARD_GAP),
    )


def _compose_caller_board(
    canvas: Canvas, called: Sequence[int], deck: Deck, locale: LocaleLike
) -> None:
    total = len(deck.cards)
    width, height = canvas.image.size
    canvas.draw.rectangle(
        (_FRAME_INSET, _FRAME_INSET, width - 1 - _FRAME_INSET, height - 1 - _FRAME_INSET),
        outline=canvas.ink(Palette.GOLD),
        width=2,
    )
    canvas.paste(_CALL_TITLE.get(canvas), _CALL_TITLE_BOX[:2])
    canvas.text(
        (width - MARGIN - 4, CALL_TITLE_HEIGHT / 2 + 6),
        message("pic_loteria_board_called", locale, count=len(called), total=total),
        font(FontFace.SANS_BOLD, 26),
        Palette.GOLD,
        "rm",
        over=Palette.BOARD,
    )
    shown = set(called)
    for index in range(total):
        number = index + 1
        left, top = _board_origin(index)
        if number in shown:
            card = deck.card(number)
            piece = _BOARD_TILES.get(canvas, card.number, card.spanish, card.emoji)
        else:
            piece = _BOARD_SLOTS.get(canvas, number)
        canvas.paste(piece, (left, top))
    if called:
        left, top = _board_origin(called[-1] - 1)
        ring = BOARD_GAP // 2 + 1
        canvas.draw.rounded_rectangle(
            (
                left - ring,
                top - ring,
                left + BOARD_TILE_WIDTH - 1 + ring,
                top + BOARD_TILE_HEIGHT - 1 + ring,
            ),
            radius=8,
            outline=canvas.ink(Palette.GOLD),
            width=4,
        )


def _check_cards_called(called: Sequence[int], deck: Deck) -> None:
    check_called(called, len(deck.cards), "card")


def caller_board_image(
    called: Sequence[int], deck: Deck, *, locale: LocaleLike = None
) -> Image.Image:
    """The caller's board in exact colours (RGB): what ``caller_board_frame`` maps onto the
    calls' palette."""
    _check_cards_called(called, deck)
    size = (BOARD_WIDTH, _board_height(len(deck.cards)))
    return CALLS.image(size, _compose_caller_board, called, deck, locale)


def caller_board_frame(
    called: Sequence[int], deck: Deck, *, locale: LocaleLike = None
) -> Image.Image:
    """The caller's board after ``called`` (every card of ``deck``, the called ones shown and
    the latest ringed in gold), composed on the calls' palette and not encoded: a frame of the
    game's replay (``bot.render.replay``); its words in ``locale``'s language."""
    _check_cards_called(called, deck)
    size = (BOARD_WIDTH, _board_height(len(deck.cards)))
    return CALLS.on_palette(size, _compose_caller_board, called, deck, locale).image
