"""How simulated members decide to claim: honest players exactly when a board completes the
prize, bluffers only when one short, never on a ticket that is out."""

from __future__ import annotations

import random

from bot.sandbox import Intent, SimulatedPlayer
from bot.storage import BoardRow, GameRow, GameStatus
from engine.housie import HousieGame, Prize, tickets_at
from engine.loteria import LoteriaGame, Pattern, Tabla, check_claim, tabla_for_seat

SEED = bytes(range(32))
LOTERIA = LoteriaGame.new(SEED, (Pattern.LINE,))
HOUSIE = HousieGame.new(seed=SEED)


def game_row(kind: str, state: str) -> GameRow:
    return GameRow(
        id=1,
        kind=kind,
        guild_id=1,
        channel_id=2,
        host_id=3,
        status=GameStatus.RUNNING,
        seed=SEED,
        options={},
        state=state,
        lobby_message_id=None,
        created_at=0.0,
        started_at=0.0,
        finished_at=None,
    )


def board_row(state: str, *, index: int = 0, out: bool = False) -> BoardRow:
    return BoardRow(
        id=index + 1,
        game_id=1,
        user_id=3,
        board_index=index,
        deal_index=index,
        state=state,
        code="",
        out=out,
    )


class AlwaysYes(random.Random):
    def random(self):
        return 0.0


def player(*, bluffs: int = 0) -> SimulatedPlayer:
    return SimulatedPlayer(member=None, rng=AlwaysYes(), bluffs_left=bluffs)  # type: ignore[arg-type]


def test_honest_player_claims_the_line_exactly_when_it_is_complete():
    tabla = tabla_for_seat(SEED, 0)
    honest = player()
    state = LoteriaGame.new(SEED, (Pattern.LINE,))
    claimed_at = None
    while claimed_at is None:
        state, _ = state.draw()
        intent = honest.decide(
            LoteriaGame, game_row("loteria", state.to_state()), [board_row(tabla.to_state())]
        )
        complete = check_claim(tabla, state.called, Pattern.LINE).valid
        assert (intent is not None) == complete
        if intent is not None:
            claimed_at = len(state.called)
            assert intent == Intent("line", 1, bluff=False)
    honest.claimed.add("line")
    assert (
        honest.decide(
            LoteriaGame, game_row("loteria", state.to_state()), [board_row(tabla.to_state())]
        )
        is None
    )


def test_bluffer_claims_falsely_only_when_one_card_short():
    tabla = tabla_for_seat(SEED, 1)
    rows = [board_row(tabla.to_state())]
    state = LoteriaGame.new(SEED, (Pattern.LINE,))
    bluffs = 0
    while True:
        state, _ = state.draw()
        game = game_row("loteria", state.to_state())
        if check_claim(tabla, state.called, Pattern.LINE).valid:
            break
        intent = player(bluffs=1).decide(LoteriaGame, game, rows)
        if LOTERIA.missing(tabla, "line", state.called) == 1:
            assert intent == Intent("line", 1, bluff=True)
            bluffs += 1
        else:
            assert intent is None
        assert player(bluffs=0).decide(LoteriaGame, game, rows) is None
        caught = player(bluffs=1)
        caught.bluffed.add("line")  # one bluff per prize: they were caught on this one already
        assert caught.decide(LoteriaGame, game, rows) is None
    assert bluffs >= 1  # a line is always one card short on the call before it completes


def test_cards_missing_counts_the_closest_shape():
    """``engine.calling.CallingGame.missing``, as a bluffer reads it."""
    tabla = Tabla(tuple(range(1, 17)))  # row 0 holds cards 1-4, the corners 1, 4, 13, 16
    assert LOTERIA.missing(tabla, "line", []) == 4
    assert LOTERIA.missing(tabla, "line", [1, 2, 3]) == 1
    assert LOTERIA.missing(tabla, "corners", [1, 4, 13, 16, 40]) == 0
    assert LOTERIA.missing(tabla, "full", [1, 4, 40]) == 14


def test_housie_numbers_missing_and_choice_of_ticket():
    first, second = tickets_at(SEED, 0, 2)
    top = [n for n in first.rows[0] if n]
    assert HOUSIE.missing(first, Prize.TOP_LINE.value, top[:4]) == 1
    assert HOUSIE.missing(first, Prize.EARLY_FIVE.value, top[:4]) == 1
    assert HOUSIE.missing(first, Prize.EARLY_FIVE.value, top) == 0

    state = HousieGame.new((Prize.TOP_LINE, Prize.FULL_HOUSE), SEED)
    boards = [board_row(first.to_state(), index=0), board_row(second.to_state(), index=1)]
    honest = player()
    while True:
        state, _ = state.draw()
        wins = [
            number
            for number, ticket in ((1, first), (2, second))
            if {n for n in ticket.rows[0] if n} <= set(state.called)
        ]
        intent = honest.decide(HousieGame, game_row("housie", state.to_state()), boards)
        if wins:
            assert intent == Intent("TL", wins[0], bluff=False)
            break
        assert intent is None
    # A ticket that is out (after a bogey) is never claimed on.
    out_boards = [board_row(b.state, index=b.board_index, out=True) for b in boards]
    assert honest.decide(HousieGame, game_row("housie", state.to_state()), out_boards) is None
