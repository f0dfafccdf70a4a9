"""Automatic claims (``claims: auto``, ``bot.calling.auto``): the time to find every winner of a
call, at every call of whole games of 1,000 players: Lotería (1,000 tablas, line -> corners ->
full) and Housie (6 tickets each: 6,000 tickets, every prize and the extra houses), against
judging every board for every prize at every call (what the finder avoids).

Run: python bench/bench_auto_claims.py

Targets: the finder's median call < 50 ms, and its first call (which reads every board once and
notes when each could be complete) < 1 s: it runs in a worker thread, under the game's lock,
once a call of at least 5 s.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

from bot.calling.auto import find_winners
from bot.calling.live import AutoWatch
from bot.storage import BoardRow, WinnerRow
from engine.calling import CallingGame
from engine.housie import HousieGame, Prize
from engine.loteria import LoteriaGame, Pattern

PLAYERS = 1000
MEDIAN_CALL_TARGET_MS = 50.0
FIRST_CALL_TARGET_MS = 1000.0
SEED = bytes(range(32))


def boards_of(engine: Any, players: int, each: int) -> dict[int, list[BoardRow]]:
    """``each`` boards per player, dealt in seat order from the seed, as the bot stores them."""
    dealt = engine.boards_at(SEED, 0, players * each)
    return {
        user: [
            BoardRow(
                id=user * each + index + 1,
                game_id=1,
                user_id=user,
                board_index=index,
                deal_index=user * each + index,
                state=dealt[user * each + index].to_state(),
                code="",
                out=False,
            )
            for index in range(each)
        ]
        for user in range(players)
    }


def all_eligible(
    playing: list[BoardRow], winners: Sequence[WinnerRow], prize: str
) -> list[BoardRow]:
    return playing


def houses_once(
    playing: list[BoardRow], winners: Sequence[WinnerRow], prize: str
) -> list[BoardRow]:
    """Housie's rule (cogs/housie): a ticket wins one full house at most."""
    if not Prize(prize).is_house:
        return playing
    houses = {w.board_id for w in winners if Prize(w.prize).is_house}
    return [board for board in playing if board.id not in houses]


def play(
    name: str, state: CallingGame[Any, Any], boards: dict[int, list[BoardRow]], eligible: Any
) -> None:
    """A whole game, calling until every prize is won: the finder's time at each call, and
    judging every board for every prize being played."""
    watch = AutoWatch()
    winners: list[WinnerRow] = []
    finder, naive = [], []
    seq = 0
    while state.open_prize_codes and len(state.called) < state.total_calls:
        state, _value = state.next_call()
        seq += 1
        start = time.perf_counter()
        wins = find_winners(state, boards, winners, seq, eligible, watch)
        finder.append(time.perf_counter() - start)
        start = time.perf_counter()
        parsed = [state.board_from_state(b.state) for held in boards.values() for b in held]
        for prize in state.claimable_codes:
            for board in parsed:
                state.judge(board, prize, state.called)
        naive.append(time.perf_counter() - start)
        for win in wins:
            winners.append(WinnerRow(win.verdict.prize, win.user_id, win.verdict.board.id, seq))
            if win.state is not None:
                state = type(state).from_state(win.state)
    median, first = statistics.median(finder) * 1000, finder[0] * 1000
    verdict = "ok" if median < MEDIAN_CALL_TARGET_MS and first < FIRST_CALL_TARGET_MS else "SLOW"
    count = sum(len(held) for held in boards.values())
    print(
        f"{name}: {seq} calls, {count} boards, {len(winners)} wins; finder: median"
        f" {median:.2f} ms, first {first:.0f} ms, slowest after {max(finder[1:]) * 1000:.1f} ms"
        f" ({verdict}), whole game {sum(finder) * 1000:.0f} ms, {watch.looks} boards looked at;"
        f" every board judged: median {statistics.median(naive) * 1000:.0f} ms,"
        f" slowest {max(naive) * 1000:.0f} ms"
    )


def main() -> None:
    loteria = LoteriaGame.new(SEED, (Pattern.LINE, Pattern.CORNERS, Pattern.FULL))
    play("Lotería", loteria, boards_of(LoteriaGame, PLAYERS, 1), all_eligible)
    housie = HousieGame.new(tuple(Prize), SEED)
    play("Housie", housie, boards_of(HousieGame, PLAYERS, 6), houses_once)


if __name__ == "__main__":
    main()
