"""Winners found without a claim (``claims: auto``): after each call, every board that completes
a prize being played wins it, and the boards of one call share it as simultaneous claims do.

The verdicts are the engine's own ``judge``, as a claim naming the prize would get them (the
slept rule does not apply: nobody can sleep on a win the bot finds), so they are stored and
counted the same. This runs at every call of games of up to 1,000 players (6,000 Housie
tickets), so a board is judged again only once enough calls have come for it to be complete:
the engine's ``missing`` says how many calls a board still needs at least, and each call brings
one value. A call judges the few boards that could win on it, not every board
(``bench/bench_auto_claims.py`` measures both). Pure: no Discord, no storage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from bot.calling.live import AutoWatch, CheckT, Verdict
from bot.storage import BoardRow, WinnerRow
from engine.calling import CallingGame

# A game's hook (CallingBase.eligible_boards): the boards of a player that may win a prize.
Eligible = Callable[[list[BoardRow], Sequence[WinnerRow], str], list[BoardRow]]


@dataclass(frozen=True, slots=True)
class AutoWin(Generic[CheckT]):
    """A prize won on a board found by the bot: the ``verdict`` (its board and the engine's
    check), and the game's new ``state`` when this win is the prize's first (None when it shares
    a prize already won on this call)."""

    user_id: int
    verdict: Verdict[CheckT]
    state: str | None


def find_winners(
    state: CallingGame[Any, CheckT],
    boards: Mapping[int, Sequence[BoardRow]],
    winners: Sequence[WinnerRow],
    seq: int,
    eligible: Eligible,
    watch: AutoWatch,
) -> list[AutoWin[CheckT]]:
    """Every win on call ``seq`` not stored yet, in the order to store them: ``state`` is the
    game as stored with that call, ``boards`` each playing member's boards (by member),
    ``winners`` the wins stored so far.

    As with claims on one call: every board completing the prize being played wins it, each
    member once (on their lowest-numbered board), and they share it; the prizes that follow
    (Lotería's next pattern, Housie's second house) are then played on the same call, and a
    board completing one of those wins it too. Run again on the same call, it finds only what
    is still missing (a restart between two of the wins it stored)."""
    called = state.called if len(state.called) == seq else state.called[:seq]
    found: list[AutoWin[CheckT]] = []
    winners = list(winners)
    while True:
        won_now = [w.prize for w in winners if w.step == seq]
        more = False
        for prize in dict.fromkeys([*won_now, *state.claimable_codes]):
            if prize not in won_now and prize not in state.claimable_codes:
                continue  # (awarded since this pass began: its winners are in ``winners``)
            holders = {w.user_id for w in winners if w.prize == prize}
            wins = []
            for user_id, held in boards.items():
                if user_id in holders:
                    continue
                playing = [board for board in held if not board.out]
                for row in eligible(playing, winners, prize) if playing else []:
                    check = _judged(state, row, prize, called, seq, watch)
                    if check is not None:
                        wins.append((user_id, Verdict(prize, row, check)))
                        break
            if not wins:
                continue
            more = True
            new_state = None
            if prize not in won_now:
                state = state.award_prize(prize)
                new_state = state.to_state()
            for number, (user_id, verdict) in enumerate(wins):
                found.append(AutoWin(user_id, verdict, new_state if number == 0 else None))
                winners.append(WinnerRow(prize, user_id, verdict.board.id, seq))
            won_now.append(prize)
        if not more:
            return found


def _judged(
    state: CallingGame[Any, CheckT],
    row: BoardRow,
    prize: str,
    called: Sequence[int],
    seq: int,
    watch: AutoWatch,
) -> CheckT | None:
    """The engine's winning check of ``row`` for ``prize`` on call ``seq``; None when it does
    not win (then, when it can be complete at the earliest, is noted)."""
    key = (row.id, prize)
    if watch.due.get(key, 0) > seq:
        return None
    board = watch.board(state, row)
    watch.looks += 1
    missing = state.missing(board, prize, called)
    if not missing:  # complete: the engine's verdict is the one stored
        check = state.judge(board, prize, called)
        if check.valid:
            return check
    watch.due[key] = seq + max(1, missing)
    return None
