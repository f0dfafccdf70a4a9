import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dots import (
    EXACT_LINE_LIMIT,
    DotsError,
    DotsGame,
    DotsReason,
    Level,
    Line,
    MoveResult,
    Orientation,
    Player,
    choose_line,
    exact_line_values,
    loony_value,
    parse_line,
)
from engine.errors import GameError

SIZES = [(rows, columns) for rows in range(2, 6) for columns in range(2, 6)]


def across(row: int, column: int) -> Line:
    return Line(Orientation.ACROSS, row, column)


def down(row: int, column: int) -> Line:
    return Line(Orientation.DOWN, row, column)


def sides(game: DotsGame, line: Line) -> list[int]:
    """Sides already drawn on each box beside ``line``."""
    (row, column), _ = line.dots
    boxes = (
        [(row - 1, column), (row, column)]
        if line.orientation is Orientation.ACROSS
        else [(row, column - 1), (row, column)]
    )
    return [
        game.sides_drawn(r, c) for r, c in boxes if 0 <= r < game.rows and 0 <= c < game.columns
    ]


def is_capture(game: DotsGame, line: Line) -> bool:
    return 3 in sides(game, line)


def is_safe(game: DotsGame, line: Line) -> bool:
    return all(count <= 1 for count in sides(game, line))


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


# --- The exact solver and the loony endgame ---


def brute_force_values(game: DotsGame) -> dict[Line, int]:
    """Each free line's net value for the side to move, by plain minimax over the public API."""
    memo: dict[int, int] = {}

    def value(position: DotsGame) -> int:
        if position.is_over:
            return 0
        if position.drawn_mask not in memo:
            memo[position.drawn_mask] = max(
                line_value(position, line) for line in position.free_lines()
            )
        return memo[position.drawn_mask]

    def line_value(position: DotsGame, line: Line) -> int:
        child = position.copy()
        result = child.play(line)
        if result.completed:
            return len(result.completed) + value(child)
        return -value(child)

    return {line: line_value(game, line) for line in game.free_lines()}


@pytest.mark.parametrize(
    ("rows", "columns", "drawn"), [(2, 2, 0), (2, 2, 3), (2, 3, 7), (3, 3, 12)]
)
def test_exact_values_match_plain_minimax(rows, columns, drawn):
    rng = random.Random(rows * 100 + drawn)
    for _ in range(3):
        game = DotsGame(rows, columns)
        for _ in range(drawn):
            game.play(rng.choice(game.free_lines()))
        assert exact_line_values(game) == brute_force_values(game)


def test_the_first_player_wins_2x2_by_two_boxes():
    values = exact_line_values(DotsGame(2, 2))
    assert max(values.values()) == 2


@pytest.mark.parametrize(
    ("shape", "value"),
    [
        ((), 0),
        (((False, 1),), -1),
        (((False, 3),), -3),
        (((False, 1), (False, 1)), 0),
        # Two chains of three: the taker of the first keeps control by giving two back.
        (((False, 3), (False, 3)), -2),
        (((False, 5), (False, 5)), -6),
        (((False, 2), (False, 5)), 3),  # open the two: the other side takes it, then opens the 5
        (((False, 4), (True, 4)), 0),  # open the cycle: keeping control costs all four
    ],
)
def test_loony_endgame_values(shape, value):
    assert loony_value(shape) == value


# --- The AI ---


def rows_of_chains(rows: int, columns: int) -> DotsGame:
    """Every across line drawn: each row of boxes is a chain, open at both ends."""
    game = DotsGame(rows, columns)
    for row in range(rows + 1):
        for column in range(columns):
            game.play(across(row, column))
    return game


@pytest.mark.parametrize(("rows", "columns"), [(2, 5), (3, 5)])
def test_hard_double_deals_to_keep_control(rows, columns):
    """With another long chain to come, the taker declines the last two boxes of this one."""
    game = rows_of_chains(rows, columns)
    game.play("A1-A2")  # opens the top chain of five
    hard = game.turn
    rng = random.Random(0)
    while game.turn is hard:
        game.play(choose_line(game, Level.HARD, rng))
    assert game.scores[hard] == 3
    assert game.last_line == down(0, columns)  # the far end: both last boxes are left over
    assert game.sides_drawn(0, columns - 2) == 3
    assert game.sides_drawn(0, columns - 1) == 3


def test_hard_takes_the_last_chain_whole():
    game = rows_of_chains(2, 5)
    for line in ("A1-A2", "B1-B2", "C1-C2", "D1-D2", "F1-F2", "E1-E2"):
        game.play(line)  # the top chain is gone; the bottom one is the last
    game.play("A2-A3")
    hard = game.turn
    rng = random.Random(0)
    while not game.is_over:
        assert game.turn is hard
        game.play(choose_line(game, Level.HARD, rng))
    assert game.scores[hard] >= 5


def test_hard_plays_the_long_chain_rule_by_the_exact_values():
    """Safe lines are left only along the top row; which one to draw decides who must open
    the two long chains below (exactly checked, beyond the exact-search limit)."""
    game = DotsGame(3, 5)
    for row in range(1, 4):
        for column in range(5):
            game.play(across(row, column))
    assert len(game.free_lines()) > EXACT_LINE_LIMIT
    values = exact_line_values(game)
    safe_values = [value for line, value in values.items() if is_safe(game, line)]
    best_safe = max(safe_values)
    assert min(safe_values) < best_safe  # some safe lines lose
    for seed in range(8):
        line = choose_line(game, Level.HARD, random.Random(seed))
        assert is_safe(game, line)
        assert values[line] == best_safe


def positions(rng: random.Random, count: int, free_range: tuple[int, int]):
    while count:
        rows, columns = rng.choice([(3, 3), (3, 4), (4, 4), (2, 5), (5, 5)])
        game = DotsGame(rows, columns)
        total = len(game.free_lines())
        keep = rng.randrange(*free_range)
        while len(game.free_lines()) > keep and not game.is_over:
            level = Level.NORMAL if rng.random() < 0.7 else Level.EASY
            game.play(choose_line(game, level, rng))
        if not game.is_over and total > keep:
            count -= 1
            yield game


def test_hard_never_gives_a_box_away_while_a_safe_line_exists():
    rng = random.Random(42)
    checked = 0
    for game in positions(rng, 60, (8, 40)):
        safe = [
            line for line in game.free_lines() if is_safe(game, line) and not is_capture(game, line)
        ]
        if not safe:
            continue
        line = choose_line(game, Level.HARD, rng)
        checked += 1
        if is_capture(game, line) or is_safe(game, line):
            continue
        # A sacrifice only from the exact search, and only when it is strictly better.
        assert len(game.free_lines()) <= EXACT_LINE_LIMIT
        values = exact_line_values(game)
        assert values[line] > max(values[other] for other in safe)
    assert checked > 20


def test_hard_takes_a_box_that_opens_nothing():
    rng = random.Random(5)
    checked = 0
    for game in positions(rng, 80, (6, 40)):
        clean = []
        for line in game.free_lines():
            if not is_capture(game, line):
                continue
            counts = sides(game, line)
            # Every box beside the line is completed by it, or keeps at most two sides.
            if all(count == 3 or count <= 1 for count in counts):
                clean.append(line)
        if clean:
            assert is_capture(game, choose_line(game, Level.HARD, rng))
            checked += 1
    assert checked > 5


def test_normal_is_greedy_and_careful():
    rng = random.Random(9)
    for game in positions(rng, 40, (4, 40)):
        line = choose_line(game, Level.NORMAL, rng)
        captures = [other for other in game.free_lines() if is_capture(game, other)]
        safe = [
            other for other in game.free_lines() if is_safe(game, other) and other not in captures
        ]
        if captures:
            assert line in captures
        elif safe:
            assert line in safe


def test_every_level_plays_a_free_line():
    rng = random.Random(1)
    for game in positions(rng, 10, (2, 30)):
        for level in Level:
            assert choose_line(game, level, rng) in game.free_lines()


def test_hard_beats_a_greedy_player_on_3x3():
    rng = random.Random(2024)
    results = {"won": 0, "lost": 0}
    for number in range(6):
        game = DotsGame()
        hard = Player.FIRST if number % 2 == 0 else Player.SECOND
        while not game.is_over:
            level = Level.HARD if game.turn is hard else Level.NORMAL
            game.play(choose_line(game, level, rng))
        if game.winner is hard:
            results["won"] += 1
        elif game.winner is hard.other:
            results["lost"] += 1
    assert results["won"] > results["lost"]
