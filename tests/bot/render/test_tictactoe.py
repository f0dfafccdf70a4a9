import pytest
from PIL import ImageChops

from bot.render.common import Palette
from bot.render.text import Span
from bot.render.tictactoe import (
    BAND,
    BOARD_SIDE,
    CROSS,
    FOOTER,
    HEIGHT,
    MARGIN,
    NOUGHT,
    SUPERSAMPLE,
    WIDTH,
    footer_labels,
    render_tictactoe,
    tictactoe_image,
)
from engine.tictactoe import Rules, TicTacToe
from tests.bot.render.conftest import open_checked
from tests.bot.render.test_text import SAMPLE_NAMES


def near(actual, expected, tolerance=10) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(actual, expected, strict=True))


def cell_point(index: int, size: int, dx: float, dy: float) -> tuple[int, int]:
    """A point in cell ``index``, at fractions ``dx``, ``dy`` of its width and height."""
    cell = BOARD_SIDE / size
    row, column = divmod(index, size)
    return (round(MARGIN + (column + dx) * cell), round(BAND + MARGIN + (row + dy) * cell))


def played(size: int, cells: list[int]) -> TicTacToe:
    game = TicTacToe(Rules.standard(size))
    for cell in cells:
        game.play(cell)
    return game


def test_a_won_board_puts_the_winning_line_on_gold_and_names_it():
    game = TicTacToe.from_state("3/3/XOXOX.O.X")
    rendered = render_tictactoe(game, game_id="12", x_name="Alice", o_name="Bob")
    image = open_checked(rendered)
    assert image.size == (WIDTH, HEIGHT)
    for index in range(9):
        corner = image.getpixel(cell_point(index, 3, 0.12, 0.12))
        expected = Palette.GOLD_LIGHT if index in {0, 4, 8} else Palette.PAPER
        assert near(corner, expected), index
    # Crosses cross in the middle of their cell; noughts leave it empty.
    assert near(image.getpixel(cell_point(2, 3, 0.5, 0.5)), CROSS, 40)
    assert near(image.getpixel(cell_point(1, 3, 0.5, 0.5)), Palette.PAPER)
    assert near(image.getpixel(cell_point(1, 3, 0.5, 0.25)), NOUGHT, 40)
    assert rendered.filename == "tictactoe-12.png"
    assert rendered.alt_text == (
        "Tic-tac-toe game 12, 3x3 board (3 in a row wins), Alice as X against Bob as O. "
        "Row 1: X, O, X; row 2: O, X, empty; row 3: O, empty, X. Alice wins. "
        "Winning cells: row 1 column 1, row 2 column 2, row 3 column 3."
    )


@pytest.mark.parametrize(
    ("size", "cells", "verdict"),
    [
        (3, [0, 4, 8, 1, 7, 6, 2, 5, 3], "A draw"),
        (4, [0, 4, 1, 5, 2, 6, 3], "Ann wins"),
        (5, [0, 1, 6, 2, 12, 3, 18], "Ann wins"),
        (5, [12], "Bo to move"),
    ],
)
def test_every_size_and_result(size, cells, verdict):
    game = played(size, cells)
    rendered = render_tictactoe(game, game_id="7", x_name="Ann", o_name="Bo")
    open_checked(rendered)
    assert f"{verdict}." in rendered.alt_text
    assert f"{size}x{size} board" in rendered.alt_text


def test_a_forfeit_replaces_the_verdict_and_output_is_deterministic():
    game = played(3, [4])
    forfeit = "Bo ran out of time: Ann wins"
    rendered = render_tictactoe(game, game_id="8", x_name="Ann", o_name="Bo", forfeit=forfeit)
    assert forfeit in rendered.alt_text
    assert "to move" not in rendered.alt_text
    plain = tictactoe_image(game, game_id="8", x_name="Ann", o_name="Bo")
    marked = tictactoe_image(game, game_id="8", x_name="Ann", o_name="Bo", forfeit=forfeit)
    assert (
        plain.crop((0, 0, WIDTH, HEIGHT - 40)).tobytes()
        == marked.crop((0, 0, WIDTH, HEIGHT - 40)).tobytes()
    )
    assert plain.tobytes() != marked.tobytes()
    assert (
        render_tictactoe(game, game_id="8", x_name="Ann", o_name="Bo", forfeit=forfeit) == rendered
    )


def test_long_names_and_game_ids_still_fit():
    game = played(3, [0, 3, 1, 4, 2])
    name = "A very long display name indeed, far too long for the picture"
    rendered = render_tictactoe(game, game_id="9" * 30, x_name=name, o_name="Bo")
    image = open_checked(rendered)
    assert image.size == (WIDTH, HEIGHT)
    assert f"{name} as X against Bo as O" in rendered.alt_text
    assert f"{name} wins." in rendered.alt_text


LONG_X, LONG_O = "Maximiliano Alessandro Fernández", "Wolfgang Amadeus Mozart-Salzburg"


def footer_of(rendered):
    return open_checked(rendered).crop((0, HEIGHT - FOOTER, WIDTH, HEIGHT))


def changed(before, after) -> bool:
    """Whether two pictures differ by more than their palettes' rounding."""
    difference = ImageChops.difference(before, after).convert("L")
    return difference.point(lambda value: 255 if value > 48 else 0).getbbox() is not None


@pytest.mark.parametrize(
    "name", [LONG_X, "W" * 32, "王小明 たなか ゆうき 김민준 이서연 박지훈 李小龍"]
)
def test_the_verdict_after_a_long_name_is_drawn_whole(name):
    game = played(3, [0, 3, 1, 4, 2])
    with_verdict = render_tictactoe(
        game, game_id="1", x_name=name, o_name=LONG_O, forfeit=f"{name} wins"
    )
    name_only = render_tictactoe(game, game_id="1", x_name=name, o_name=LONG_O, forfeit=name)
    assert changed(footer_of(with_verdict), footer_of(name_only))
    _, verdict = footer_labels(game, x_name=name, o_name=LONG_O)
    assert verdict.line.spans[-1] == Span(" wins")
    box = verdict.box(span=len(verdict.line.spans) - 1)
    assert box is not None
    assert box[0] >= MARGIN * SUPERSAMPLE
    assert box[2] <= (WIDTH - MARGIN) * SUPERSAMPLE


@pytest.mark.parametrize("script", list(SAMPLE_NAMES))
def test_names_in_every_script_are_drawn_not_boxed(script):
    """Missing glyphs all draw as the same box: two different names would look alike."""
    game = played(3, [0, 3, 1, 4, 2])
    first, second = SAMPLE_NAMES[script]
    pictures = [
        footer_of(render_tictactoe(game, game_id="1", x_name=name, o_name="Bo"))
        for name in (first, second)
    ]
    assert changed(*pictures), script


@pytest.mark.parametrize("names", [(LONG_X, LONG_O), *SAMPLE_NAMES.values()])
def test_players_and_verdict_stay_inside_the_picture(names):
    game = played(3, [0, 3, 1, 4, 2])
    x_name, o_name = names
    for forfeit in ("", f"A {o_name} se le acabó el tiempo: gana {x_name}"):
        players, verdict = footer_labels(game, x_name=x_name, o_name=o_name, forfeit=forfeit)
        assert [span.text for span in players.line.spans[1::2]] == [" (X) vs ", " (O)"]
        for label in (players, verdict):
            box = label.box()
            assert box is not None
            assert box[0] >= 0
            assert box[2] <= WIDTH * SUPERSAMPLE
            assert box[3] <= HEIGHT * SUPERSAMPLE
        assert players.box()[3] <= verdict.box()[1] + 4 * SUPERSAMPLE
        if forfeit:
            assert verdict.line.spans[2] == Span(" se le acabó el tiempo: gana ")
