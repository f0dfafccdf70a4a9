"""The solved 3x3 Dots and Boxes table, its builder, and the perfect hard bot they make."""

import lzma
import random

import pytest

from cogs.dots.solution import solved_board, unpack
from cogs.dots.solution_build import XZ_FILTERS, build, solve
from engine.dots import (
    DotsError,
    DotsGame,
    Level,
    Player,
    choose_line,
    exact_line_values,
)
from engine.dots.rules import _board
from engine.dots.solution import SolvedBoard, symmetries, table_size

BOARD = _board(3, 3)
LINES = len(BOARD.lines)


@pytest.fixture(scope="module")
def solved() -> SolvedBoard:
    table = solved_board(3, 3)
    assert table is not None
    return table


def gained(drawn: int, line: int) -> int:
    """Boxes that drawing ``line`` completes, straight from the box masks."""
    after = drawn | (1 << line)
    return sum(1 for mask in BOARD.box_masks if after & mask == mask and drawn & mask != mask)


def outcome(solved: SolvedBoard, drawn: int, line: int) -> int:
    """The mover's value of drawing ``line``, from the table's value of what follows."""
    boxes, after = gained(drawn, line), solved.value(drawn | (1 << line))
    return boxes + after if boxes else -after


def plain_values(rows: int, columns: int, start: int = 0) -> dict[int, int]:
    """Every position reachable from ``start``, valued by plain memoised minimax (no pruning,
    no capture shortcuts)."""
    board = _board(rows, columns)
    memo = {board.full: 0}

    def value(drawn: int) -> int:
        if drawn not in memo:
            best = -100
            for line in range(len(board.lines)):
                if drawn >> line & 1:
                    continue
                after = drawn | (1 << line)
                boxes = sum(
                    1 for mask in board.box_masks if after & mask == mask and drawn & mask != mask
                )
                best = max(best, boxes + value(after) if boxes else -value(after))
            memo[drawn] = best
        return memo[drawn]

    value(start)
    return memo


def random_position(rng: random.Random, free: int) -> int:
    return sum(1 << line for line in rng.sample(range(LINES), LINES - free))


def game_at(drawn: int) -> DotsGame:
    """A 3x3 game with exactly the lines of ``drawn`` (values do not depend on who drew them)."""
    game = DotsGame(3, 3)
    for line in range(LINES):
        if drawn >> line & 1:
            game.play(BOARD.lines[line])
    return game


# --- The builder and the table format, on boards small enough to solve plainly ---


@pytest.mark.parametrize(("rows", "columns"), [(2, 2), (2, 3)])
def test_the_builder_agrees_with_plain_minimax_on_every_position(rows, columns):
    plain = plain_values(rows, columns)
    assert len(plain) == 1 << len(_board(rows, columns).lines)  # every line set is reachable
    values = solve(rows, columns)
    decoded = SolvedBoard(rows, columns, build(rows, columns))
    for drawn, value in plain.items():
        assert values[drawn] == value
        assert decoded.value(drawn) == value


@pytest.mark.parametrize(("rows", "columns", "count"), [(3, 3, 8), (2, 3, 4), (4, 5, 4)])
def test_symmetries_map_boxes_to_boxes(rows, columns, count):
    board = _board(rows, columns)
    found = symmetries(rows, columns)
    assert len(set(found)) == count
    assert found[0] == tuple(range(len(board.lines)))
    boxes = set(board.box_masks)
    for permutation in found:
        assert sorted(permutation) == list(range(len(board.lines)))
        images = {
            sum(1 << permutation[line] for line in range(len(board.lines)) if mask >> line & 1)
            for mask in boxes
        }
        assert images == boxes


def test_a_table_of_the_wrong_size_is_refused():
    assert table_size(3, 3) == 1 << 23
    with pytest.raises(ValueError, match="3x3 table holds 8388608 bytes, not 5"):
        SolvedBoard(3, 3, bytes(5))


def test_unpacking_checks_the_size_and_the_data():
    data = bytes(range(256)) * 14_000  # 3.6 MB: several 1 MiB slices
    packed = lzma.compress(data, filters=XZ_FILTERS)
    assert unpack(packed, len(data), "t.xz") == data
    for bad, size in ((packed, len(data) - 1), (packed, len(data) + 1), (packed[:-30], len(data))):
        with pytest.raises(ValueError, match=f"t.xz does not unpack to {size:,} bytes"):
            unpack(bad, size, "t.xz")
    corrupt = bytearray(packed)
    corrupt[len(packed) // 2] ^= 0xFF
    with pytest.raises(lzma.LZMAError):
        unpack(bytes(corrupt), len(data), "t.xz")


# --- The shipped 3x3 table ---


def test_only_3x3_ships_and_it_is_read_once(solved):
    assert solved_board(3, 3) is solved
    assert solved_board(4, 4) is None
    assert solved_board(2, 2) is None


def test_the_empty_board_is_a_second_player_win_by_three(solved):
    """The first player loses 3-6 with best play, whatever the first line. Two independent
    solvers say so: the retrograde build over every line set, and the engine's own alpha-beta
    search from the empty board (``exact_line_values(DotsGame())``: every line -3, in 40-70 s,
    so not run here)."""
    assert solved.value(0) == -3
    assert set(solved.line_values(0).values()) == {-3}


def test_values_are_the_same_for_every_symmetric_image(solved):
    rng = random.Random(3)
    for _ in range(300):
        drawn = random_position(rng, rng.randrange(1, LINES + 1))
        value = solved.value(drawn)
        for permutation in symmetries(3, 3):
            image = sum(1 << permutation[line] for line in range(LINES) if drawn >> line & 1)
            assert solved.canonical(image) == solved.canonical(drawn) <= image
            assert solved.value(image) == value


@pytest.mark.parametrize("free", range(1, 17))
def test_the_table_matches_the_exact_search(solved, free):
    """Every line's value, table against the engine's alpha-beta; with few lines left, also
    against plain minimax."""
    rng = random.Random(free)
    for _ in range(6):
        drawn = random_position(rng, free)
        exact = {
            BOARD.index_of[line]: value for line, value in exact_line_values(game_at(drawn)).items()
        }
        assert solved.line_values(drawn) == exact
        if free <= 10:
            assert solved.value(drawn) == plain_values(3, 3, drawn)[drawn]


@pytest.mark.parametrize("free", range(17, LINES + 1))
def test_early_entries_are_the_best_over_their_moves(solved, free):
    """Beyond the exact search's reach: each sampled entry is the best of its moves' outcomes
    (the equation that defines the table, checked position by position)."""
    rng = random.Random(free)
    for _ in range(40):
        drawn = random_position(rng, free)
        free_lines = [line for line in range(LINES) if not drawn >> line & 1]
        assert solved.value(drawn) == max(outcome(solved, drawn, line) for line in free_lines)


# --- The hard bot with the table ---


@pytest.mark.parametrize("free", range(1, LINES + 1))
def test_the_hard_bot_plays_a_best_line_at_every_stage(solved, free):
    rng = random.Random(100 + free)
    for _ in range(5):
        drawn = random_position(rng, free)
        game = game_at(drawn)
        line = BOARD.index_of[choose_line(game, Level.HARD, rng, solved)]
        if free <= 16:
            values = exact_line_values(game)
            best = max(values.values())
            assert values[BOARD.lines[line]] == best
        else:
            best = solved.value(drawn)
        assert outcome(solved, drawn, line) == best


def secured(solved: SolvedBoard, game: DotsGame, player: Player) -> int:
    """The final margin ``player`` is sure of: boxes ahead now plus the position's value."""
    ahead = game.scores[player] - game.scores[player.other]
    value = solved.value(game.drawn_mask)
    return ahead + (value if game.turn is player else -value)


def test_the_hard_bot_never_gives_ground_against_the_greedy_player(solved):
    """In every game the hard side's secured margin (boxes ahead plus the table value of the
    position, for it) never drops: 3 boxes ahead as second player, 3 behind at worst as first."""
    rng = random.Random(7)
    for number in range(8):
        game = DotsGame(3, 3)
        hard = Player.FIRST if number % 2 == 0 else Player.SECOND
        start = secured(solved, game, hard)
        assert start == (-3 if hard is Player.FIRST else 3)
        while not game.is_over:
            before = secured(solved, game, hard)
            mover = game.turn
            level = Level.HARD if mover is hard else Level.NORMAL
            game.play(choose_line(game, level, rng, solved if mover is hard else None))
            after = secured(solved, game, hard)
            assert after == before if mover is hard else after >= before
        assert game.scores[hard] - game.scores[hard.other] >= start
        if hard is Player.SECOND:
            assert game.winner is hard


def test_a_solution_plays_only_its_own_board_size(solved):
    with pytest.raises(DotsError, match="a 3x3 solution cannot play a 4x4 board"):
        choose_line(DotsGame(4, 4), Level.HARD, random.Random(0), solved)
