"""The bot's play at Dots and Boxes (engine.dots.search): exact values, the loony endgame and
the levels."""

import random

import pytest

from engine.dots import (
    EXACT_LINE_LIMIT,
    DotsGame,
    Level,
    Line,
    Player,
    choose_line,
    exact_line_values,
    loony_value,
)
from tests.engine.dots.helpers import across, down, is_capture, is_safe, sides

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
