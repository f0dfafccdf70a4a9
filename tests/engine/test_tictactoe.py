import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import GameError
from engine.fairness import SeededRandom
from engine.tictactoe import (
    EXACT_EMPTY_LIMIT,
    Level,
    Outcome,
    Player,
    Rules,
    Status,
    TicTacToe,
    TicTacToeError,
    TicTacToeReason,
    choose_move,
    perfect_moves,
    winning_cells,
)


def enumerate_3x3() -> tuple[dict[tuple[int, int], TicTacToe], int, Counter[Status]]:
    """Every reachable position (by its stones) and the number of games, by playing the engine."""
    positions: dict[tuple[int, int], TicTacToe] = {}
    games_from: dict[tuple[int, int], Counter[Status]] = {}

    def walk(game: TicTacToe) -> Counter[Status]:
        key = game.key
        if key in games_from:
            return games_from[key]
        positions[key] = game
        if game.is_over:
            games = Counter([game.outcome.status])
        else:
            games = Counter()
            for cell in game.legal_moves():
                child = game.copy()
                child.play(cell)
                games += walk(child)
        games_from[key] = games
        return games

    endings = walk(TicTacToe())
    return positions, sum(endings.values()), endings


POSITIONS, GAMES, ENDINGS = enumerate_3x3()


# The figures are the well-known ones for 3x3 tic-tac-toe (e.g. Henry Bottomley's analysis,
# quoted on Wikipedia's "Tic-tac-toe" page; the 958 endings are the UCI "Tic-Tac-Toe Endgame"
# data set): 5,478 distinct legal positions including the empty board, 255,168 possible games
# of which 131,184 are won by X, 77,904 by O and 46,080 drawn, and 958 distinct final boards.
def test_reachable_positions_on_3x3():
    assert len(POSITIONS) == 5_478


def test_possible_games_on_3x3():
    assert GAMES == 255_168
    assert ENDINGS == {Status.X_WINS: 131_184, Status.O_WINS: 77_904, Status.DRAW: 46_080}


def test_final_boards_on_3x3():
    assert sum(1 for game in POSITIONS.values() if game.is_over) == 958


def test_incremental_detection_agrees_with_the_full_scan_everywhere_on_3x3():
    for game in POSITIONS.values():
        assert game.scan_outcome() == game.outcome
        loaded = TicTacToe.from_state(game.to_state())
        assert loaded == game
        assert loaded.outcome == game.outcome
        assert loaded.to_state() == game.to_state()


@settings(max_examples=60, deadline=None)
@given(size=st.integers(3, 5), data=st.data())
def test_incremental_detection_agrees_with_the_full_scan_on_random_games(size, data):
    k = data.draw(st.integers(3, size))
    game = TicTacToe(Rules(size, k))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    while not game.is_over:
        outcome = game.play(rng.choice(game.legal_moves()))
        assert outcome == game.scan_outcome()
        loaded = TicTacToe.from_state(game.to_state())
        assert loaded == game
        assert loaded.outcome == outcome


def test_double_line_outcome_is_the_union_of_both_lines():
    game = TicTacToe.from_state("3/3/.XXXOOXOO")
    outcome = game.play(0)
    assert outcome == Outcome(Status.X_WINS, (0, 1, 2, 3, 6))
    assert game.scan_outcome() == outcome


def test_five_in_a_row_on_5x5_with_k4_marks_all_five():
    game = TicTacToe(Rules.standard(5))
    for cell in (0, 5, 1, 6, 3, 8, 4, 9):
        game.play(cell)
    outcome = game.play(2)
    assert outcome == Outcome(Status.X_WINS, (0, 1, 2, 3, 4))
    assert game.scan_outcome() == outcome


def test_standard_rules():
    assert Rules.standard(3) == Rules(3, 3)
    assert Rules.standard(4) == Rules(4, 4)
    assert Rules.standard(5) == Rules(5, 4)
    assert TicTacToe().rules == Rules(3, 3)


@pytest.mark.parametrize(
    ("size", "k", "message"),
    [(2, 2, "2x2 board is not allowed"), (6, 4, "6x6"), (4, 5, "5 in a row"), (5, 2, "2 in a")],
)
def test_bad_rules(size, k, message):
    with pytest.raises(TicTacToeError, match=message):
        Rules(size, k)


def test_turns_alternate_and_x_starts():
    game = TicTacToe()
    assert game.turn is Player.X
    game.play(4)
    assert game.turn is Player.O
    assert game.cell(4) is Player.X
    game.play(0, player=Player.O)
    assert game.cells[:5] == (Player.O, None, None, None, Player.X)
    assert game.move_count == 2


@pytest.mark.parametrize(
    ("moves", "cell", "player", "message"),
    [
        ((), 9, None, "cell 9 is off the 3x3 board"),
        ((), -1, None, "cell -1 is off"),
        ((4,), 4, None, "cell 4 is already taken by X"),
        ((4,), 0, Player.X, "it is O's turn, not X's"),
        ((0, 3, 1, 4, 2), 5, None, "the game is over \\(X wins\\)"),
    ],
)
def test_illegal_moves_say_why(moves, cell, player, message):
    game = TicTacToe()
    for move in moves:
        game.play(move)
    before = game.to_state()
    with pytest.raises(TicTacToeError, match=message):
        game.play(cell, player=player)
    assert game.to_state() == before


def test_refusals_a_player_can_cause_carry_a_code():
    game = TicTacToe(Rules(4, 3))
    with pytest.raises(TicTacToeError) as refused:
        game.play(16)
    assert refused.value.code == TicTacToeReason.OFF_BOARD
    assert refused.value.values == {"cell": 16, "size": 4, "last": 15}
    game.play(5)
    with pytest.raises(TicTacToeError) as refused:
        game.play(5)
    assert refused.value.code == TicTacToeReason.CELL_TAKEN
    assert refused.value.values == {"cell": 5, "mark": Player.X}


def test_errors_are_game_errors():
    assert issubclass(TicTacToeError, GameError)


def test_a_full_board_without_a_line_is_a_draw():
    game = TicTacToe()
    for cell in (0, 1, 2, 4, 3, 5, 7, 6, 8):
        outcome = game.play(cell)
    assert outcome == Outcome(Status.DRAW)
    assert outcome.winner is None
    assert game.legal_moves() == ()


def test_state_text():
    game = TicTacToe()
    game.play(0)
    game.play(2)
    game.play(4)
    assert game.to_state() == "3/3/X.O.X...."
    assert str(game) == "X.O\n.X.\n..."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not 'size/k/cells'"),
        ("3/3", "not 'size/k/cells'"),
        ("x/3/.........", "not 'size/k/cells'"),
        ("3/3/........", "needs 9 cells"),
        ("3/3/....Z....", "needs 9 cells"),
        ("7/3/" + "." * 49, "7x7"),
        ("3/4/.........", "4 in a row"),
        ("3/3/O........", "0 X and 1 O"),
        ("3/3/XX.......", "2 X and 0 O"),
        ("3/3/XXXOOO...", "both X and O"),
        ("3/3/XXXOO.O..", "X has won but then O could not have moved"),
        ("4/3/XXX.OO.OXXX.OO..", "no single last move"),
    ],
)
def test_bad_state_text_raises_a_domain_error(text, message):
    with pytest.raises(TicTacToeError, match=message):
        TicTacToe.from_state(text)


def test_copy_is_independent():
    game = TicTacToe()
    clone = game.copy()
    clone.play(4)
    assert game.cell(4) is None
    assert game != clone


# --- AI ---


def test_perfect_never_loses_against_any_opponent_line_on_3x3():
    """Every opponent reply and every move the AI may pick, from both sides: no loss."""
    for ai in (Player.X, Player.O):
        seen: set[tuple[int, int]] = set()
        stack = [TicTacToe()]
        while stack:
            game = stack.pop()
            if game.key in seen:
                continue
            seen.add(game.key)
            if game.is_over:
                assert game.outcome.winner is not ai.other, game
                continue
            moves = perfect_moves(game) if game.turn is ai else game.legal_moves()
            for cell in moves:
                child = game.copy()
                child.play(cell)
                stack.append(child)
        assert len(seen) > 100


def test_perfect_against_itself_draws_on_3x3():
    rng = random.Random(7)
    for _ in range(20):
        game = TicTacToe()
        while not game.is_over:
            game.play(choose_move(game, Level.PERFECT, rng))
        assert game.outcome.status is Status.DRAW


def test_perfect_prefers_the_quickest_win():
    # X wins now at 2 (5 would also win, later); O wins now at 5 rather than blocking at 2.
    game = TicTacToe.from_state("3/3/XX.OO....")
    assert perfect_moves(game) == (2,)
    game = TicTacToe.from_state("3/3/XX.OO.X..")
    assert perfect_moves(game) == (5,)


def random_position(rules: Rules, stones: int, rng: random.Random) -> TicTacToe | None:
    game = TicTacToe(rules)
    for _ in range(stones):
        if game.is_over:
            return None
        game.play(rng.choice(game.legal_moves()))
    return None if game.is_over else game


@pytest.mark.parametrize("rules", [Rules(4, 4), Rules(5, 4), Rules(5, 5), Rules(4, 3)])
def test_perfect_takes_a_win_and_blocks_a_loss_on_big_boards(rules):
    rng = random.Random(rules.size * 10 + rules.k)
    checked_wins = checked_blocks = 0
    while checked_wins < 6 or checked_blocks < 6:
        stones = rng.randrange(4, rules.cells - EXACT_EMPTY_LIMIT)
        game = random_position(rules, stones, rng)
        if game is None:
            continue
        wins = winning_cells(game, game.turn)
        threats = winning_cells(game, game.turn.other)
        if wins:
            assert choose_move(game, Level.PERFECT, rng) in wins
            checked_wins += 1
        elif len(threats) == 1:
            assert choose_move(game, Level.PERFECT, rng) == threats[0]
            checked_blocks += 1


@pytest.mark.parametrize("level", [Level.NORMAL, Level.PERFECT])
def test_ai_wins_or_blocks_when_it_can(level):
    rng = random.Random(3)
    for text, expected in [
        ("3/3/XX.OO....", {2}),  # X wins
        ("3/3/OO.XX...X", {2}),  # O to move: O wins rather than blocks
        ("3/3/XX..O....", {2}),  # O blocks
        ("4/4/XXX.OOO.X.......", {7}),  # O to move on 4x4: wins at 7 rather than blocking 3
    ]:
        game = TicTacToe.from_state(text)
        assert choose_move(game, level, rng) in expected, text


def test_easy_plays_any_legal_cell_from_the_rng():
    game = TicTacToe(Rules.standard(4))
    game.play(5)
    seen = {choose_move(game, Level.EASY, random.Random(seed)) for seed in range(200)}
    assert seen == set(game.legal_moves())


def test_ai_with_a_seeded_stream_is_reproducible():
    def play(seed: bytes) -> str:
        rng = SeededRandom(seed)
        game = TicTacToe(Rules.standard(4))
        levels = {Player.X: Level.NORMAL, Player.O: Level.EASY}
        while not game.is_over:
            game.play(choose_move(game, levels[game.turn], rng))
        return game.to_state()

    assert play(bytes(32)) == play(bytes(32))


def test_normal_beats_easy_most_of_the_time():
    rng = random.Random(11)
    results = Counter()
    for game_number in range(60):
        game = TicTacToe()
        normal = Player.X if game_number % 2 == 0 else Player.O
        while not game.is_over:
            level = Level.NORMAL if game.turn is normal else Level.EASY
            game.play(choose_move(game, level, rng))
        results["normal" if game.outcome.winner is normal else "other"] += 1
    assert results["normal"] > 40


def test_no_ai_move_once_the_game_is_over():
    game = TicTacToe.from_state("3/3/XXXOO....")
    for level in Level:
        with pytest.raises(TicTacToeError, match="game is over"):
            choose_move(game, level, random.Random(0))
    assert winning_cells(game, Player.O) == ()


@pytest.mark.parametrize(
    ("stones", "safe"),
    [
        # X has two in a row of five; O must stop X making three with both ends open.
        ("......XX................O", {5, 8, 9}),
        ("............XX..........O", {10, 11, 14}),
        ("...........XX...........O", {10, 13, 14}),
    ],
)
def test_perfect_search_sees_an_open_three_coming_on_5x5(stones, safe):
    game = TicTacToe.from_state("5/4/" + stones)
    assert game.turn is Player.O
    assert set(perfect_moves(game)) <= safe
