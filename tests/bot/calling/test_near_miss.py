"""Near misses (bot/calling/recap.py) against brute force on the engines: for every board and
prize, the fewest missing over every call the prize was played on, call by call, and the first
call with that few."""

from __future__ import annotations

import random

from bot.calling.recap import NearMiss, closest_on_board, near_miss, prize_windows
from bot.storage import WinnerRow
from engine.fairness import draw_order
from engine.housie import HousieGame, Prize, tickets_at
from engine.loteria import LoteriaGame, Pattern, TablaDealer


def brute_force(state, board, prize, called, first, last) -> NearMiss:
    found = [(state.missing(board, prize, called[:k]), k) for k in range(first, last + 1)]
    fewest = min(missing for missing, _ in found)
    return NearMiss(prize, fewest, min(k for missing, k in found if missing == fewest))


def test_each_housie_prize_and_window_matches_brute_force():
    rng = random.Random(29)
    for _ in range(30):
        seed = rng.randbytes(32)
        state = HousieGame(seed, tuple(Prize))
        called = draw_order(seed, 90)
        for ticket in tickets_at(seed, 0, 6):
            for prize in Prize:
                first = rng.randint(1, 90)
                last = rng.randint(first, 90)
                assert closest_on_board(
                    state, ticket, prize.value, called, first, last
                ) == brute_force(state, ticket, prize.value, called, first, last)


def test_each_loteria_pattern_and_window_matches_brute_force():
    rng = random.Random(7)
    patterns = [Pattern.LINE, Pattern.CORNERS, Pattern.SQUARE, Pattern.FULL]
    for _ in range(30):
        seed = rng.randbytes(32)
        state = LoteriaGame.new(seed, (Pattern.LINE, Pattern.FULL))
        called = draw_order(seed, 54)
        for tabla in TablaDealer(seed).deal(5):
            for pattern in patterns:
                first = rng.randint(1, 54)
                last = rng.randint(first, 54)
                assert closest_on_board(
                    state, tabla, pattern.value, called, first, last
                ) == brute_force(state, tabla, pattern.value, called, first, last)


def test_a_players_closest_is_the_fewest_then_the_later_prize_then_the_earlier_call():
    seed = bytes(range(32))
    state = HousieGame(seed, (Prize.EARLY_FIVE, Prize.TOP_LINE, Prize.FULL_HOUSE))
    called = draw_order(seed, 90)
    winners = [WinnerRow("E5", 1, None, 12), WinnerRow("TL", 2, None, 30)]
    windows = prize_windows(state, {"E5": 0, "TL": 0, "FH": 0}, winners, 70)
    assert windows == [("E5", 1, 12), ("TL", 1, 30), ("FH", 1, 70)]
    for tickets in (tickets_at(seed, 0, 1), tickets_at(seed, 6, 3)):
        expected = min(
            (
                (found.missing, -rank, found.seq, found)
                for rank, (prize, first, last) in enumerate(windows)
                for ticket in tickets
                for found in [brute_force(state, ticket, prize, called, first, last)]
            ),
            key=lambda item: item[:3],
        )[3]
        assert near_miss(state, tickets, windows, called) == expected
    assert near_miss(state, [], windows, called) is None


def test_a_prize_never_opened_or_not_played_yet_has_no_window():
    state = LoteriaGame.new(bytes(range(32)), (Pattern.LINE, Pattern.CORNERS, Pattern.FULL))
    windows = prize_windows(state, {"line": 0, "corners": 20, "full": None}, [], 10)
    assert windows == [("line", 1, 10)]  # corners opened after the last call; full never did
    assert prize_windows(state, {"line": 0}, [], 0) == []
