from collections import Counter

import pytest

from engine.errors import GameError
from engine.triangle import (
    ALL_JUMPS,
    FULL_BOARD,
    HOLES,
    Jump,
    TriangleError,
    TriangleGame,
    TriangleReason,
    best_jumps,
    best_line,
    count_solutions,
    fewest_pegs,
    finishing_holes,
    legal_jumps,
    remark,
    self_finishing_starts,
    solvable_starts,
    start_board,
)

CORNERS = (0, 10, 14)
EDGE_MIDDLES = (3, 5, 12)
NEXT_TO_CORNERS = (1, 2, 6, 9, 11, 13)
INTERIOR = (4, 7, 8)


def reachable_by_jumps(empty_hole: int) -> dict[int, int]:
    """Every board reachable from a start, with the number of jumps it took (breadth first)."""
    depth = {start_board(empty_hole): 0}
    frontier = [start_board(empty_hole)]
    while frontier:
        following = []
        for board in frontier:
            for jump in legal_jumps(board):
                child = jump.apply(board)
                if child not in depth:
                    depth[child] = depth[board] + 1
                    following.append(child)
        frontier = following
    return depth


def test_the_board_has_36_jumps_each_a_straight_line_of_neighbours():
    assert len(ALL_JUMPS) == 36
    assert len(set(ALL_JUMPS)) == 36
    for jump in ALL_JUMPS:
        assert Jump(jump.target, jump.over, jump.origin) in ALL_JUMPS
        assert len({jump.origin, jump.over, jump.target}) == 3


def test_a_new_game_has_one_empty_hole():
    game = TriangleGame.new(4)
    assert game.pegs_left == 14
    assert not game.has_peg(4)
    assert game.board == FULL_BOARD & ~(1 << 4)
    assert not game.is_over


# Jaap Scherphuis, "Triangular Peg Solitaire", https://jaapsch.net/puzzles/trisolit.htm:
# the number of distinct positions reachable after each number of jumps, per starting hole
# (a1 = corner 0, a4 = hole 6 next to a corner, c5 = edge middle 12, b3 = interior 4), and
# the holes where a single last peg can end (a1 = 0, a4 = 6, d4 = 9, c5 = 12, b3 = 4).
JAAP_POSITIONS_BY_JUMPS = {
    0: [1, 2, 8, 35, 122, 293, 530, 679, 623, 414, 212, 75, 18, 4],
    6: [1, 2, 6, 24, 79, 193, 375, 525, 519, 366, 196, 70, 17, 4],
    12: [1, 4, 16, 59, 186, 446, 760, 931, 840, 583, 285, 98, 23, 5],
    4: [1, 2, 6, 21, 58, 139, 260, 350, 351, 261, 142, 49, 10, 1],
}
JAAP_FINAL_PEGS = {0: {0, 6, 9, 12}, 6: {0, 6, 9, 12}, 12: {0, 4, 6, 9, 12}, 4: {12}}


@pytest.mark.parametrize("start", sorted(JAAP_POSITIONS_BY_JUMPS))
def test_reachable_positions_match_the_published_table(start):
    depths = reachable_by_jumps(start)
    by_jumps = Counter(depths.values())
    assert [by_jumps[n] for n in range(14)] == JAAP_POSITIONS_BY_JUMPS[start]
    assert len(depths) == sum(JAAP_POSITIONS_BY_JUMPS[start])


@pytest.mark.parametrize("start", sorted(JAAP_FINAL_PEGS))
def test_final_peg_holes_match_the_published_table(start):
    assert finishing_holes(start_board(start)) == JAAP_FINAL_PEGS[start]
    lone_pegs = {
        board.bit_length() - 1 for board in reachable_by_jumps(start) if board.bit_count() == 1
    }
    assert lone_pegs == JAAP_FINAL_PEGS[start]


# Solution counts (jump sequences ending with one peg), from the README of
# https://github.com/Ethan826/golf_tee_game (an independent brute-force enumeration):
# edge middles 85,258; corners 29,760; next to a corner 14,880; interior 1,550.
# Summed over all 15 starting holes that is 438,984 (the figure sometimes quoted for the
# corner alone is this total).
@pytest.mark.parametrize(
    ("holes", "solutions"),
    [(EDGE_MIDDLES, 85_258), (CORNERS, 29_760), (NEXT_TO_CORNERS, 14_880), (INTERIOR, 1_550)],
)
def test_solution_counts_match_published_figures(holes, solutions):
    for hole in holes:
        assert count_solutions(start_board(hole)) == solutions


def test_all_starts_together_have_438984_solutions():
    assert sum(count_solutions(start_board(hole)) for hole in range(HOLES)) == 438_984


def test_every_start_can_be_solved_to_one_peg():
    assert solvable_starts() == tuple(range(HOLES))


def test_only_interior_starts_cannot_finish_in_their_own_hole():
    # George Bell's 15-hole catalogue (gibell.net/pegsolitaire/Catalogs/Triangular15) lists
    # vacate b3 / finish b3 as impossible, and a1, a4, c5 finishing in themselves as solvable.
    assert set(self_finishing_starts()) == set(range(HOLES)) - set(INTERIOR)


def test_fewest_pegs_agrees_with_an_exhaustive_search():
    for start in (0, 3, 4):
        terminal = [board for board in reachable_by_jumps(start) if not legal_jumps(board)]
        assert fewest_pegs(start_board(start)) == min(board.bit_count() for board in terminal)
        worst = max(board.bit_count() for board in terminal)
        assert worst >= 4


def test_every_hint_is_legal_and_keeps_the_best_score():
    for start in (0, 1, 3, 4):
        for board in reachable_by_jumps(start):
            best = fewest_pegs(board)
            hints = best_jumps(board)
            if not legal_jumps(board):
                assert hints == ()
                continue
            assert hints
            for jump in hints:
                assert jump in legal_jumps(board)
                assert fewest_pegs(jump.apply(board)) == best


def test_the_full_solution_reaches_the_best_score():
    for start in range(HOLES):
        game = TriangleGame.new(start)
        line = game.solution()
        assert len(line) == 13
        for jump in line:
            game.play(jump)
        assert game.is_over
        assert game.pegs_left == 1
        assert game.remark == "You're genius"
        assert game.hint() is None


def test_best_line_from_a_dead_end_is_empty():
    board = (1 << 0) | (1 << 14)
    assert best_line(board) == ()
    assert fewest_pegs(board) == 2


def test_hint_in_a_game_matches_the_solver():
    game = TriangleGame.new(12)
    game.jump(3, 12)
    hint = game.hint()
    assert hint is not None
    assert hint in best_jumps(game.board)
    assert game.best_score() == 1
    assert game.solutions_count() == count_solutions(game.board)


@pytest.mark.parametrize(
    ("pegs", "words"),
    [
        (1, "You're genius"),
        (2, "You're purty smart"),
        (3, "You're just plain dumb"),
        (4, "You're just plain eg-no-ra-moose"),
        (10, "You're just plain eg-no-ra-moose"),
    ],
)
def test_remarks(pegs, words):
    assert remark(pegs) == words


def test_remark_needs_a_peg():
    with pytest.raises(TriangleError, match="at least one peg"):
        remark(0)


def test_a_jump_removes_the_peg_jumped_over():
    game = TriangleGame.new(0)
    jump = game.jump(3, 0)
    assert jump == Jump(3, 1, 0)
    assert game.has_peg(0)
    assert not game.has_peg(1)
    assert not game.has_peg(3)
    assert game.pegs_left == 13
    assert game.history == (jump,)


def test_jumps_from_a_peg():
    game = TriangleGame.new(0)
    assert game.jumps_from(3) == (Jump(3, 1, 0),)
    assert game.jumps_from(5) == (Jump(5, 2, 0),)
    assert game.jumps_from(7) == ()
    assert set(game.legal_jumps()) == {Jump(3, 1, 0), Jump(5, 2, 0)}


@pytest.mark.parametrize(
    ("moves", "origin", "target", "message"),
    [
        ((), 0, 3, "no peg in hole 0"),
        ((), 3, 5, "hole 5 is not empty"),
        ((), 10, 0, "not a straight jump"),
        ((), 3, 15, "hole 15 is not on the board"),
        ((), -1, 0, "hole -1 is not on the board"),
        (((3, 0), (10, 3)), 0, 3, "hole 3 is not empty"),
        (((3, 0), (12, 3)), 1, 10, "no peg in hole 1"),
        (((3, 0),), 10, 1, "not a straight jump"),
        (((3, 0),), 6, 1, "nothing to jump over: hole 3"),
    ],
)
def test_illegal_jumps_say_why(moves, origin, target, message):
    game = TriangleGame.new(0)
    for move in moves:
        game.jump(*move)
    before = game.to_state()
    with pytest.raises(TriangleError, match=message):
        game.jump(origin, target)
    assert game.to_state() == before


@pytest.mark.parametrize(
    ("moves", "origin", "target", "code", "values"),
    [
        ((), 3, 15, TriangleReason.NO_SUCH_HOLE, {"hole": 15, "last": 14}),
        (((3, 0), (10, 3)), 0, 3, TriangleReason.LANDING_TAKEN, {"target": 3}),
        (((3, 0), (12, 3)), 1, 10, TriangleReason.NO_PEG, {"origin": 1}),
        (((3, 0),), 10, 1, TriangleReason.NOT_STRAIGHT, {"origin": 10, "target": 1}),
        (((3, 0),), 6, 1, TriangleReason.NOTHING_OVER, {"origin": 6, "target": 1, "over": 3}),
    ],
)
def test_illegal_jumps_say_why_as_a_code(moves, origin, target, code, values):
    """The same refusal for the bot to word in the player's language: a code and its facts."""
    game = TriangleGame.new(0)
    for move in moves:
        game.jump(*move)
    with pytest.raises(TriangleError) as refused:
        game.jump(origin, target)
    assert (refused.value.code, dict(refused.value.values)) == (code, values)


def test_nothing_to_jump_over():
    game = TriangleGame.new(0)
    game.jump(3, 0)  # empties 1 and 3
    with pytest.raises(TriangleError, match="nothing to jump over: hole 1"):
        game.jump(0, 3)


def test_errors_are_game_errors():
    assert issubclass(TriangleError, GameError)


def test_no_jump_after_the_game_is_over():
    game = TriangleGame.new(0)
    for jump in game.solution():
        game.play(jump)
    with pytest.raises(TriangleError, match="game is over") as refused:
        game.jump(0, 3)
    assert refused.value.code == TriangleReason.GAME_OVER
    assert refused.value.values == {"pegs": 1}


def test_play_rejects_a_jump_with_the_wrong_middle():
    game = TriangleGame.new(0)
    with pytest.raises(TriangleError, match="jumps over 1"):
        game.play(Jump(3, 4, 0))


def test_state_round_trips_through_a_whole_game():
    game = TriangleGame.new(5)
    assert TriangleGame.from_state(game.to_state()) == game
    for jump in game.solution():
        game.play(jump)
        loaded = TriangleGame.from_state(game.to_state())
        assert loaded == game
        assert loaded.board == game.board
        assert loaded.history == game.history
        assert loaded.to_state() == game.to_state()


def test_state_text_is_compact():
    game = TriangleGame.new(0)
    game.jump(3, 0)
    game.jump(5, 3)
    assert game.to_state() == "0:3053"
    game = TriangleGame.new(14)
    assert game.to_state() == "e:"


@pytest.mark.parametrize(
    "text",
    ["", "0", "f:", "00:", "0:3", "0:3g", "0:30 ", "0:03", "0:3030", "x:30", "0;30"],
)
def test_bad_state_text_raises_a_domain_error(text):
    with pytest.raises(TriangleError):
        TriangleGame.from_state(text)


def test_copy_is_independent():
    game = TriangleGame.new(0)
    clone = game.copy()
    clone.jump(3, 0)
    assert game.pegs_left == 14
    assert clone.pegs_left == 13


def test_solver_rejects_boards_that_are_not_15_bits():
    with pytest.raises(TriangleError, match="15-bit"):
        fewest_pegs(1 << 15)
    with pytest.raises(TriangleError, match="15-bit"):
        count_solutions(-1)
