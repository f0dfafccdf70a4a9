"""Every game's picture in English and Spanish: the alt text and the words drawn on it follow
the locale, the rest of the picture does not, and the kept pieces never mix the two."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from string import Formatter

import pytest
from PIL import Image, ImageChops

from bot.call_names import nickname
from bot.i18n import MESSAGES, message
from bot.render import dots, housie, loteria, tictactoe, triangle
from bot.render.bingo import words as bingo_words
from bot.render.common import (
    ALT_TEXT_LIMIT,
    BAND_CACHE,
    FontFace,
    Palette,
    Rendered,
    missing_glyphs,
)
from cogs.loteria.verses import verse
from engine.dots import DotsGame
from engine.housie import Prize, check_prize, ticket_for_seat
from engine.loteria import CLASSIC_DECK, Pattern, Tabla, check_claim
from engine.tictactoe import TicTacToe
from engine.triangle import TriangleGame, best_line, start_board

ENGLISH = "en-US"
SPANISH = "es-ES"
TABLA = Tabla((1, 18, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 53, 54))
TICKET = ticket_for_seat(bytes(32), 3)
TICKET_NUMBERS = sorted(number for row in TICKET.rows for number in row if number)
ORDER = [17, 12, 21, 52, 86, 28, 39, 7, 18, 45, 1, 90, 60, 33, 71, 2, 64, 49]
# English words none of the Spanish alt texts may hold (as whole words, in any case).
ENGLISH_WORDS = frozenset(
    {
        "before",
        "board",
        "box",
        "boxes",
        "call",
        "called",
        "calls",
        "card",
        "cells",
        "code",
        "dots",
        "earlier",
        "empty",
        "every",
        "free",
        "game",
        "hole",
        "holes",
        "housie",
        "in",
        "jump",
        "jumps",
        "last",
        "latest",
        "left",
        "line",
        "lines",
        "marked",
        "move",
        "number",
        "of",
        "on",
        "out",
        "peg",
        "pegs",
        "picked",
        "row",
        "the",
        "ticket",
        "to",
        "tricky",
        "verse",
        "winning",
        "wins",
    }
)


def tabla_won() -> tuple[list[int], int]:
    order = list(range(1, 55))
    claim = check_claim(TABLA, order, Pattern.LINE)
    return order, claim.cells


def every_picture(locale: str) -> dict[str, Callable[[], Rendered]]:
    """One of every kind of picture a game shows, in ``locale``."""
    deck = CLASSIC_DECK
    called, cells = tabla_won()
    top_line = check_prize(TICKET, TICKET_NUMBERS, Prize.TOP_LINE)
    dots_game = DotsGame(2, 2)
    for line in ("A1-B1", "C1-C2", "A1-A2", "C2-C3", "B1-B2", "A3-B3", "A2-B2"):
        dots_game.play(line)
    finished_dots = DotsGame.from_state("2x2:0123456789ab")
    puzzle = TriangleGame.new(4)
    for jump in best_line(puzzle.board)[:3]:
        puzzle.play(jump)
    return {
        "card": lambda: loteria.render_card(deck.card(18), locale=locale),
        "tabla": lambda: loteria.render_tabla(
            TABLA, deck, game_id="G1", tabla_number=2, locale=locale
        ),
        "tabla marked": lambda: loteria.render_tabla(
            TABLA,
            deck,
            game_id="G1",
            tabla_number=2,
            called=[n for n in ORDER if n <= 54],
            locale=locale,
        ),
        "tabla won": lambda: loteria.render_tabla(
            TABLA,
            deck,
            game_id="G1",
            tabla_number=2,
            called=called,
            winning_cells=cells,
            pattern=Pattern.LINE,
            locale=locale,
        ),
        "tabla won, no pattern": lambda: loteria.render_tabla(
            TABLA,
            deck,
            game_id="G1",
            tabla_number=2,
            called=called,
            winning_cells=cells,
            locale=locale,
        ),
        "loteria first call": lambda: loteria.render_call(
            deck.card(5), deck, recent=[], call_number=1, total=54, locale=locale
        ),
        "loteria call": lambda: loteria.render_call(
            deck.card(5),
            deck,
            recent=[1, 2, 3, 4, 6, 7],
            call_number=7,
            total=54,
            verse=verse(5, deck.name, locale),
            locale=locale,
        ),
        "ticket": lambda: housie.render_ticket(TICKET, game_id="H1", code="C0DE", locale=locale),
        "ticket marked": lambda: housie.render_ticket(
            TICKET, game_id="H1", code="C0DE", called=ORDER, ticket_number=2, locale=locale
        ),
        "ticket won": lambda: housie.render_ticket(
            TICKET,
            game_id="H1",
            code="C0DE",
            called=TICKET_NUMBERS,
            winning=top_line.numbers,
            prize=Prize.TOP_LINE,
            ticket_number=2,
            locale=locale,
        ),
        "ticket won, no prize": lambda: housie.render_ticket(
            TICKET, game_id="H1", code="C0DE", called=ORDER, winning={39}, locale=locale
        ),
        "ticket out": lambda: housie.render_ticket(
            TICKET,
            game_id="H1",
            code="C0DE",
            called=ORDER,
            ticket_number=3,
            out=True,
            locale=locale,
        ),
        "board empty": lambda: housie.render_caller_board([], locale=locale),
        "board": lambda: housie.render_caller_board(ORDER, locale=locale),
        "board late": lambda: housie.render_caller_board(list(range(1, 80)), locale=locale),
        "board full": lambda: housie.render_caller_board(list(range(90, 0, -1)), locale=locale),
        "housie first call": lambda: housie.render_housie_call(
            90, recent=[], call_number=1, locale=locale
        ),
        "housie call": lambda: housie.render_housie_call(
            8,
            recent=ORDER,
            call_number=len(ORDER) + 1,
            nickname=nickname(8, locale),
            locale=locale,
        ),
        "tictactoe won": lambda: tictactoe.render_tictactoe(
            TicTacToe.from_state("3/3/XOXOX.O.X"),
            game_id="T1",
            x_name="Ana",
            o_name="Beto",
            locale=locale,
        ),
        "tictactoe draw": lambda: tictactoe.render_tictactoe(
            TicTacToe.from_state("3/3/XOXXOOOXX"),
            game_id="T1",
            x_name="Ana",
            o_name="Beto",
            locale=locale,
        ),
        "tictactoe playing": lambda: tictactoe.render_tictactoe(
            TicTacToe.from_state("3/3/XO......."),
            game_id="T1",
            x_name="Ana",
            o_name="Beto",
            locale=locale,
        ),
        "dots": lambda: dots.render_dots(
            dots_game, game_id="D1", names=("Ana", "Beto"), locale=locale
        ),
        "dots over": lambda: dots.render_dots(
            finished_dots, game_id="D1", names=("Ana", "Beto"), locale=locale
        ),
        "triangle": lambda: triangle.render_triangle(
            puzzle.board,
            game_id="R1",
            caption=message("tri_pegs", locale, count=puzzle.pegs_left),
            selected=best_line(puzzle.board)[0].origin,
            last_jump=puzzle.history[-1],
            locale=locale,
        ),
        "solution": lambda: triangle.render_solution(4, best_line(start_board(4)), locale),
    }


KINDS = sorted(every_picture(ENGLISH))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("locale", [ENGLISH, SPANISH, None])
def test_every_picture_has_alt_text_within_discords_limit(kind, locale):
    rendered = every_picture(locale)[kind]()
    assert rendered.alt_text.strip()
    assert len(rendered.alt_text) <= ALT_TEXT_LIMIT
    with Image.open(io.BytesIO(rendered.png)) as image:
        assert image.format in {"PNG", "GIF"}


@pytest.mark.parametrize("kind", KINDS)
def test_spanish_alt_text_has_no_english_words(kind):
    spanish = every_picture(SPANISH)[kind]().alt_text
    english = every_picture(ENGLISH)[kind]().alt_text
    assert spanish != english
    found = [word for word in re.findall(r"\w+", spanish) if word.lower() in ENGLISH_WORDS]
    assert found == [], spanish
    # The check would see English: the English alt text is full of those words.
    assert [word for word in re.findall(r"\w+", english) if word.lower() in ENGLISH_WORDS]


@pytest.mark.parametrize("kind", KINDS)
def test_no_locale_is_english(kind):
    assert every_picture(None)[kind]().alt_text == every_picture(ENGLISH)[kind]().alt_text


def test_the_spanish_alt_texts_read_naturally():
    pictures = {kind: make().alt_text for kind, make in every_picture(SPANISH).items()}
    assert pictures["card"] == "Carta de Lotería 18: El Violoncello."
    assert pictures["tabla won"].startswith(
        "Tabla de Lotería 2, partida G1. Fila 1: El Gallo, El Violoncello, La Dama, El Catrín; "
    )
    assert pictures["tabla won"].endswith(
        "Cartas ganadoras (Chorro): El Gorrito, La Muerte, El Arpa, La Rana."
    )
    assert pictures["loteria first call"] == "Cantada 1 de 54: carta 5, El Paraguas."
    assert (
        " Antes: La Escalera, La Sirena, El Catrín, La Dama, El Diablito."
        in (pictures["loteria call"])
    )
    assert pictures["ticket won"].startswith("Cartón de tómbola 2 (código C0DE), partida H1.")
    assert pictures["ticket won"].endswith(
        "Números premiados (Línea de arriba): 6, 11, 46, 61, 87."
    )
    assert "Fuera de la partida tras un reclamo falso." in pictures["ticket out"]
    assert pictures["board empty"] == "Tablero de la tómbola: aún no se ha cantado ningún número."
    assert pictures["board full"].endswith("Ya se cantaron todos los números.")
    assert "Sin cantar aún: " in pictures["board late"]
    assert pictures["housie first call"] == "Tómbola, cantada 1 de 90: el número 90."
    assert "Casillas ganadoras: fila 1 columna 1" in pictures["tictactoe won"]
    assert pictures["tictactoe playing"].endswith("vacía. Le toca a Ana.")
    assert "Ana (rojo) 1, Beto (azul) 0. Le toca a Ana." in pictures["dots"]
    assert pictures["triangle"].startswith("Triángulo, partida R1: 15 hoyos en filas de 1 a 5")
    assert pictures["solution"].endswith("queda una clavija, en el hoyo 12.")


def test_the_english_prize_names_are_the_engines():
    for prize in Prize:
        assert housie.prize_name(prize) == prize.display_name
        assert housie.prize_name(prize, SPANISH) != prize.display_name


def test_every_word_drawn_has_its_glyphs_in_both_languages():
    values = {
        "game": "ABCDEFGH",
        "seq": 54,
        "total": 90,
        "number": 6,
        "count": 2,
        "numbers": "1  2",
        "who": "Ana",
        "hole": 4,
        "pegs": "2",
        "jump": "1-3",
        "prize": "x",
    }
    assert bingo_words.MESSAGES  # (imported: Bingo's words are among those checked below)
    labels = [
        prize_name.upper()
        for prize in Prize
        for prize_name in (housie.prize_name(prize, ENGLISH), housie.prize_name(prize, SPANISH))
    ]
    for key, texts in MESSAGES.items():
        if key.startswith("pic_"):
            # Every renderer's words (a game's render package registers them when imported),
            # each placeholder filled: one the list above does not name gets a number.
            forms = [f for t in texts for f in ((t,) if isinstance(t, str) else (t.one, t.other))]
            named = {field for form in forms for _, field, _, _ in Formatter().parse(form) if field}
            filled = {field: values.get(field, 2) for field in named}  # (2: a count too)
            for locale in (ENGLISH, SPANISH):
                labels.append(message(key, locale, **filled))
                labels.append(message(key, locale, **filled).upper())
    for label in labels:
        for face in (FontFace.SLAB, FontFace.SANS, FontFace.SANS_BOLD):
            assert missing_glyphs(face, label) == [], (label, face)


def differs_only_in(english: Image.Image, spanish: Image.Image, rows: list[tuple[int, int]]):
    """The two pictures differ in each run of ``rows`` (top, bottom) and nowhere else."""
    assert english.size == spanish.size
    difference = ImageChops.difference(english.convert("RGB"), spanish.convert("RGB"))
    for top, bottom in rows:
        assert difference.crop((0, top, english.width, bottom)).getbbox() is not None, (top, bottom)
        difference.paste((0, 0, 0), (0, top, english.width, bottom))
    assert difference.getbbox() is None


def both(draw: Callable[[str], Image.Image]) -> tuple[Image.Image, Image.Image]:
    return draw(ENGLISH), draw(SPANISH)


def test_the_tabla_changes_only_its_title_and_corner():
    called, cells = tabla_won()
    english, spanish = both(
        lambda locale: loteria.tabla_image(
            TABLA,
            CLASSIC_DECK,
            game_id="G1",
            tabla_number=2,
            called=called,
            winning_cells=cells,
            pattern=Pattern.LINE,
            locale=locale,
        )
    )
    differs_only_in(english, spanish, [(0, loteria.HEADER)])


def test_the_loteria_call_changes_only_its_count_and_the_strips_label():
    def draw(locale: str) -> Image.Image:
        return loteria.call_image(
            CLASSIC_DECK.card(5),
            CLASSIC_DECK,
            recent=[1, 2],
            call_number=3,
            total=54,
            locale=locale,
        )

    strip = loteria._call_strip_top(None)
    differs_only_in(*both(draw), [(0, loteria.CALL_TITLE_HEIGHT), (strip, strip + 40)])


def test_the_ticket_changes_only_its_band_and_footer():
    def draw(locale: str) -> Image.Image:
        return housie.ticket_image(
            TICKET,
            game_id="H1",
            code="C0DE",
            called=TICKET_NUMBERS,
            ticket_number=2,
            winning=frozenset(TICKET_NUMBERS),
            prize=Prize.FULL_HOUSE,
            locale=locale,
        )

    grid_bottom = housie.BAND + housie.ROWS * housie.CELL + 2
    differs_only_in(*both(draw), [(0, housie.BAND - 1), (grid_bottom, housie.TICKET_HEIGHT)])


def test_the_caller_board_changes_only_its_header():
    english, spanish = both(lambda locale: housie.caller_board_image(ORDER, locale=locale))
    differs_only_in(english, spanish, [(0, housie.BOARD_HEADER)])


def test_the_housie_call_changes_only_its_band_and_the_rows_label():
    english, spanish = both(
        lambda locale: housie.housie_call_image(8, recent=ORDER, call_number=19, locale=locale)
    )
    ball_top = housie.CALL_BAND + 20
    label = ball_top + (housie.CALL_BALL - housie.BALL) // 2 + 14 - 16  # the label's baseline
    differs_only_in(english, spanish, [(0, housie.CALL_BAND), (label - 20, label + 6)])


def test_the_table_games_change_only_their_bands_and_footers():
    game = TicTacToe.from_state("3/3/XOXOX.O.X")
    english, spanish = both(
        lambda locale: tictactoe.tictactoe_image(
            game, game_id="T1", x_name="Ana", o_name="Beto", locale=locale
        )
    )
    board_bottom = tictactoe.BAND + tictactoe.MARGIN + tictactoe.BOARD_SIDE
    differs_only_in(english, spanish, [(0, tictactoe.BAND), (board_bottom, tictactoe.HEIGHT)])

    dots_game = DotsGame(2, 3)
    dots_game.play("A1-B1")
    english, spanish = both(
        lambda locale: dots.dots_image(
            dots_game, game_id="D1", names=("Ana", "Beto"), locale=locale
        )
    )
    _, height = dots.image_size(2, 3)
    differs_only_in(english, spanish, [(0, dots.BAND), (height - dots.FOOTER, height)])

    english, spanish = both(
        lambda locale: triangle.triangle_image(
            start_board(4), subtitle="R1", caption="14", locale=locale
        )
    )
    differs_only_in(english, spanish, [(0, triangle.BAND)])


@pytest.mark.parametrize("locale", [ENGLISH, SPANISH])
@pytest.mark.parametrize("ticket_number", [6, 12])
@pytest.mark.parametrize("prize", [*Prize, None, "out"])
def test_the_prize_never_covers_the_tickets_number(locale, ticket_number, prize):
    """The longest prize ("¡SEGUNDO CARTÓN LLENO!") shrinks or is cut before it reaches the
    ticket's number in the band."""
    out = prize == "out"
    image = housie.ticket_image(
        TICKET,
        game_id="H1",
        code="C0DE",
        called=TICKET_NUMBERS,
        winning=frozenset() if out else frozenset(TICKET_NUMBERS),
        prize=None if out else prize,
        ticket_number=ticket_number,
        out=out,
        locale=locale,
    )
    band = image.crop((0, 10, housie.TICKET_WIDTH, housie.BAND - 10))
    pill = Palette.MUTED if out else Palette.GOLD
    pixels = [(x, band.getpixel((x, y))) for x in range(band.width) for y in range(band.height)]
    xs_number = [x for x, colour in pixels if colour == Palette.GOLD_LIGHT]
    xs_pill = [x for x, colour in pixels if colour == pill]
    assert xs_number
    assert xs_pill
    assert max(xs_number) + 8 < min(xs_pill)


def clear_kept_pieces() -> None:
    loteria._TABLA_TITLES.clear()
    loteria._title_end.cache_clear()
    triangle._board_background.cache_clear()
    BAND_CACHE.clear()


@pytest.mark.parametrize("kind", ["tabla won", "ticket won", "board", "loteria call", "triangle"])
def test_kept_pieces_never_give_one_language_the_others_words(kind):
    clear_kept_pieces()
    english_first = every_picture(ENGLISH)[kind]().png
    spanish_after = every_picture(SPANISH)[kind]().png
    english_again = every_picture(ENGLISH)[kind]().png
    clear_kept_pieces()
    spanish_first = every_picture(SPANISH)[kind]().png
    assert english_first == english_again
    assert spanish_first == spanish_after
    assert english_first != spanish_first
