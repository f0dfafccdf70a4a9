"""Lotería, Housie and Bingo meet ``engine.calling.CallingGame`` alike: what the calling base
relies on."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bingo import BingoGame, pattern_named
from engine.calling import CallingGame
from engine.housie import HousieGame
from engine.loteria import LoteriaGame, Pattern

SEED = bytes(range(32))
GAMES: list[CallingGame[Any, Any]] = [
    LoteriaGame.new(SEED, (Pattern.LINE, Pattern.FULL)),
    HousieGame.new(seed=SEED),
    BingoGame.new(SEED, (pattern_named("line"), pattern_named("blackout"))),
]
IDS = ["loteria", "housie", "bingo"]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_calls_follow_the_seed_and_the_state_round_trips(game: CallingGame[Any, Any]):
    values = []
    for _ in range(5):
        game, value = game.next_call()
        values.append(value)
        game = type(game).from_state(game.to_state())
    assert tuple(game.called) == tuple(values)
    assert len(set(values)) == 5


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_prize_awarded_is_no_longer_open(game: CallingGame[Any, Any]):
    first = game.claimable_codes[0]
    assert first in game.open_prize_codes
    assert game.prize_codes[0] == first
    for _ in range(game.total_calls // 2):  # (Housie's prizes need some calls before a win)
        game, _value = game.next_call()
    after = game.award_prize(first)
    assert first not in after.open_prize_codes
    assert len(after.open_prize_codes) == len(game.open_prize_codes) - 1


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_judge_and_missing_agree(game: CallingGame[Any, Any]):
    """A board wins a prize exactly when no call is missing for it; every call made, the last
    prize (a full board) wins."""
    boards = game.dealer(SEED, 3).deal(2)
    assert [b.to_state() for b in boards] == [
        b.to_state() for b in game.boards_at(SEED, 3, 2)
    ]
    board = game.board_from_state(boards[0].to_state())
    prize = game.prize_codes[-1]
    called: list[int] = []
    while len(called) < game.total_calls:
        judged = game.judge(board, prize, called)
        assert judged.valid == (game.missing(board, prize, called) == 0)
        if judged.valid:
            break
        assert judged.reason
        assert judged.code
        game, value = game.next_call()
        called.append(value)
    assert game.judge(board, prize, called).valid
