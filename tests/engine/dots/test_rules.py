"""Dots and Boxes' rules (engine.dots.rules): lines and their names, playing, the state text."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dots import (
    DotsError,
    DotsGame,
    DotsReason,
    Level,
    Line,
    MoveResult,
    Player,
    choose_line,
    parse_line,
)
from engine.errors import GameError
from tests.engine.dots.helpers import SIZES, across, down

# --- Board, lines and their names ---


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_every_line_has_a_unique_name_that_parses_back(rows, columns):
    game = DotsGame(rows, columns)
    lines = game.free_lines()
    assert len(lines) == rows * (columns + 1) + columns * (rows + 1)
    assert len({line.id for line in lines}) == len(lines)
    for line in lines:
        assert parse_line(line.id, rows, columns) == line
        assert game.parse(line.id.lower()) == line


def test_line_names_follow_the_dots():
    assert across(0, 0).id == "A1-B1"
    assert down(0, 0).id == "A1-A2"
    assert down(2, 3).id == "D3-D4"
    assert str(across(3, 2)) == "C4-D4"


@pytest.mark.parametrize("text", ["A1-B1", "a1-b1", "B1-A1", "b1 a1", "A1B1", " a1 - b1 ", "A1–B1"])
def test_line_names_are_forgiving(text):
    assert parse_line(text) == across(0, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a line"),
        ("hello", "is not a line"),
        ("A1-B", "is not a line"),
        ("A1-C1", "skips dots"),
        ("A1-A3", "skips dots"),
        ("A1-B2", "diagonal"),
        ("B2-A1", "diagonal"),
        ("A1-A1", "joins a dot to itself"),
        ("E1-D1", "dot E1 is not on a 3x3 board \\(columns A-D, rows 1-4\\)"),
        ("A5-A4", "dot A5 is not on a 3x3 board"),
        ("A0-A1", "dot A0 is not on"),
    ],
)
def test_bad_line_names_say_why(text, message):
    with pytest.raises(DotsError, match=message):
        parse_line(text)


@pytest.mark.parametrize(
    ("text", "code", "values"),
    [
        ("hello", DotsReason.NOT_A_LINE, {"typed": "'hello'"}),
        ("x" * 100, DotsReason.NOT_A_LINE, {"typed": repr("x" * 39 + "…")}),
        ("A1-C1", DotsReason.SKIPS_DOTS, {"line": "A1-C1"}),
        ("B2-A1", DotsReason.DIAGONAL, {"line": "A1-B2"}),
        ("a1 a1", DotsReason.SAME_DOT, {"line": "A1-A1"}),
        (
            "e1-d1",
            DotsReason.DOT_OFF_BOARD,
            {"dot": "E1", "rows": 3, "columns": 3, "last_column": "D", "last_row": 4},
        ),
    ],
)
def test_bad_line_names_say_why_as_a_code(text, code, values):
    """The same refusal for the bot to word in the player's language: a code and its facts."""
    with pytest.raises(DotsError) as refused:
        parse_line(text)
    assert (refused.value.code, dict(refused.value.values)) == (code, values)


def test_a_drawn_line_says_who_drew_it_as_a_code():
    game = DotsGame()
    game.play("A1-B1")
    with pytest.raises(DotsError) as refused:
        game.play("b1-a1")
    assert refused.value.code == DotsReason.TAKEN
    assert refused.value.values == {"line": "A1-B1", "player": Player.FIRST}
    # Errors no player causes (a damaged state text) carry no code: the bot shows the text.
    with pytest.raises(DotsError) as damaged:
        DotsGame.from_state("3x3:00")
    assert damaged.value.code == ""
    assert damaged.value.values == {}


@pytest.mark.parametrize(("rows", "columns"), [(1, 3), (3, 6), (0, 0)])
def test_board_sizes_are_limited(rows, columns):
    with pytest.raises(DotsError, match=r"2\.\.5"):
        DotsGame(rows, columns)


def test_errors_are_game_errors():
    assert issubclass(DotsError, GameError)


# --- Playing ---


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from(SIZES), seed=st.integers(0, 2**32))
def test_random_games_follow_the_rules(size, seed):
    rows, columns = size
    rng = random.Random(seed)
    game = DotsGame(rows, columns)
    played: list[tuple[Line, Player]] = []
    while not game.is_over:
        mover = game.turn
        before = game.scores[mover]
        line = rng.choice(game.free_lines())
        result = game.play(line)
        played.append((line, mover))
        assert result.player is mover
        assert game.scores[mover] == before + len(result.completed)
        # An extra turn exactly when the move completed a box.
        assert (game.turn is mover) == bool(result.completed)
        for row, column in result.completed:
            assert game.box_owner(row, column) is mover
        assert game.line_owner(line) is mover
        assert game.last_line == line
    assert sum(game.scores.values()) == rows * columns
    assert game.drawn_lines() == tuple(played)
    assert game.free_lines() == ()
    owners = [owner for row in game.box_owners() for owner in row]
    assert owners.count(Player.FIRST) == game.scores[Player.FIRST]
    assert owners.count(Player.SECOND) == game.scores[Player.SECOND]
    loaded = DotsGame.from_state(game.to_state())
    assert loaded == game
    assert loaded.scores == game.scores
    assert loaded.box_owners() == game.box_owners()
    assert loaded.drawn_lines() == game.drawn_lines()


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from(SIZES), seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_state_round_trips_mid_game(size, seed, cut):
    rng = random.Random(seed)
    game = DotsGame(*size)
    for _ in range(int(cut * len(game.free_lines()))):
        game.play(rng.choice(game.free_lines()))
    text = game.to_state()
    loaded = DotsGame.from_state(text)
    assert loaded.to_state() == text
    assert loaded.turn is game.turn
    assert loaded.scores == game.scores
    assert loaded.free_lines() == game.free_lines()
    assert [loaded.line_owner(line) for line in loaded.all_lines] == [
        game.line_owner(line) for line in game.all_lines
    ]


def test_a_completed_box_scores_and_keeps_the_turn():
    game = DotsGame(2, 2)
    for text in ("A1-B1", "A1-A2", "B1-B2"):
        assert game.play(text).completed == ()
    assert game.turn is Player.SECOND
    result = game.play("A2-B2")
    assert result == MoveResult(across(1, 0), Player.SECOND, ((0, 0),), game_over=False)
    assert result.extra_turn
    assert game.turn is Player.SECOND
    assert game.scores == {Player.FIRST: 0, Player.SECOND: 1}
    assert game.box_owner(0, 0) is Player.SECOND
    assert game.sides_drawn(0, 1) == 1


def test_one_line_can_complete_two_boxes():
    game = DotsGame(2, 2)
    for text in ("A1-B1", "B1-C1", "A1-A2", "C1-C2", "A2-B2", "B2-C2"):
        game.play(text)
    mover = game.turn
    result = game.play("B1-B2")
    assert result.completed == ((0, 0), (0, 1))
    assert game.scores[mover] == 2


def test_state_text_and_winner():
    game = DotsGame(2, 2)
    assert game.to_state() == "2x2:"
    assert game.winner is None
    for line in game.free_lines():
        game.play(line)
    assert game.is_over
    assert game.to_state() == "2x2:0123456789ab"
    first, second = game.scores[Player.FIRST], game.scores[Player.SECOND]
    assert game.winner is (None if first == second else max(Player, key=game.scores.get))


@pytest.mark.parametrize(
    ("moves", "line", "player", "message"),
    [
        (("A1-B1",), "A1-B1", None, "A1-B1 is already drawn \\(by the first player\\)"),
        (("A1-B1",), "A1-A2", Player.FIRST, "second player's turn, not the first's"),
        ((), "A1-C1", None, "skips dots"),
        ((), across(9, 9), None, "line J10-K10 is not on a 3x3 board"),
        ((), down(0, 4), None, "line E1-E2 is not on a 3x3 board"),
    ],
)
def test_illegal_moves_say_why(moves, line, player, message):
    game = DotsGame()
    for move in moves:
        game.play(move)
    before = game.to_state()
    with pytest.raises(DotsError, match=message):
        game.play(line, player=player)
    assert game.to_state() == before


def test_no_move_after_the_game_is_over():
    game = DotsGame(2, 2)
    for line in game.free_lines():
        game.play(line)
    with pytest.raises(DotsError, match="game is over"):
        game.play("A1-B1")
    for level in Level:
        with pytest.raises(DotsError, match="game is over"):
            choose_line(game, level, random.Random(0))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not 'RxC:<moves>'"),
        ("3x3", "not 'RxC:<moves>'"),
        ("3by3:", "not 'RxC:<moves>'"),
        ("x3:", "not 'RxC:<moves>'"),
        ("6x3:", "2..5 rows"),
        ("3x3:0!", "move 2 \\('!'\\) is not a line"),
        ("3x3:o", "move 1 \\('o'\\) is not a line"),
        ("3x3:00", "move 2: line A1-B1 is already drawn"),
    ],
)
def test_bad_state_text_raises_a_domain_error(text, message):
    with pytest.raises(DotsError, match=message):
        DotsGame.from_state(text)


def test_box_queries_are_checked():
    game = DotsGame()
    with pytest.raises(DotsError, match="box \\(3, 0\\) is not on a 3x3 board"):
        game.box_owner(3, 0)
    with pytest.raises(DotsError, match="not on a 3x3 board"):
        game.line_owner(down(3, 0))


def test_copy_is_independent():
    game = DotsGame()
    clone = game.copy()
    clone.play("A1-B1")
    assert game.line_owner(across(0, 0)) is None
    assert game != clone
