"""The simulated members: their names, what a claim they are about to make looks like
(:class:`Intent`), and how each decides, from the game and their boards in the database, whether
to claim: honest players claim the prizes their boards complete, a bluffer now and then claims a
prize they are one short of.

Pure decisions, no I/O: :mod:`bot.sandbox._orchestration` reads the rows, waits the reaction
time and makes the claim in the emulator.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage import BoardRow, GameRow
from emulator import Member
from engine.calling import Board, CallingGame

MAX_PLAYERS = 24  # one name each below
NAMES = (
    "Ana",
    "Bashir",
    "Chen",
    "Dolores",
    "Emeka",
    "Freya",
    "Gopal",
    "Hana",
    "Ignacio",
    "Jun",
    "Kofi",
    "Lucia",
    "Mateo",
    "Nadia",
    "Oskar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sione",
    "Tomas",
    "Uma",
    "Vikram",
    "Wen",
    "Ximena",
)
# A bluffer one card short of the prize being played claims it anyway this often.
BLUFF_CHANCE = 0.35
# Seconds a person takes to notice a win, on the game's clock (scaled like the bot's timers).
REACTION_SECONDS = (0.8, 2.5)


# Every member of a table reads the same game state on each call, and their own boards on every
# call: each text is parsed once (a crowd of simulated members must cost the machine little).
@functools.lru_cache(maxsize=256)
def _state(engine: type[CallingGame[Any, Any]], text: str) -> CallingGame[Any, Any]:
    return engine.from_state(text)


@functools.lru_cache(maxsize=8192)
def _board(engine: type[CallingGame[Any, Any]], text: str) -> Board:
    board: Board = engine.board_from_state(text)
    return board


@dataclass(frozen=True)
class Intent:
    """A claim a member is about to make: ``prize`` code, which board, and whether it's a bluff."""

    prize: str
    board_number: int
    bluff: bool


@dataclass
class SimulatedPlayer:
    """A member at the table. Honest players claim what they completed; a bluffer also claims,
    now and then, a prize they are one short of (up to ``bluffs_left`` times, once per prize)."""

    member: Member
    rng: random.Random
    bluffs_left: int = 0
    claims_by_button: bool = False
    claimed: set[str] = field(default_factory=set)
    bluffed: set[str] = field(default_factory=set)
    busy: bool = False
    may_bluff: bool = False  # whether they bluff in a game that allows it

    def new_game(self, bluffs: int) -> None:
        """Ready for the next game of the night, which allows ``bluffs`` false claims."""
        self.claimed.clear()
        self.bluffed.clear()
        self.busy = False
        self.bluffs_left = bluffs if self.may_bluff else 0

    @property
    def name(self) -> str:
        return self.member.name

    @property
    def bluffer(self) -> bool:
        return self.bluffs_left > 0

    def _maybe_bluff(self, prize: str, board_number: int, missing: int) -> Intent | None:
        if (
            self.bluffs_left > 0
            and prize not in self.bluffed
            and missing == 1
            and self.rng.random() < BLUFF_CHANCE
        ):
            return Intent(prize, board_number, bluff=True)
        return None

    def decide(
        self,
        engine: type[CallingGame[Any, Any]],
        game: GameRow,
        boards: Sequence[BoardRow],
        seen: int | None = None,
    ) -> Intent | None:
        """What to claim now, if anything, in a game of ``engine``: the first prize open to a
        claim that one of the member's live boards completes; else, for a bluffer, now and
        then one a board is a single call short of. On the calls the member has ``seen`` in
        the channel (all stored, when None): the one drawn but not posted yet is not theirs to
        claim on, and the claim would be judged without it."""
        state = _state(engine, game.state)
        called = state.called if seen is None else state.called[:seen]
        open_prizes = [p for p in state.claimable_codes if p not in self.claimed]
        live = [
            (board.board_index + 1, _board(engine, board.state))
            for board in boards
            if not board.out
        ]
        for prize in open_prizes:
            for number, board in live:
                if state.judge(board, prize, called).valid:
                    return Intent(prize, number, bluff=False)
        for prize in open_prizes:
            for number, board in live:
                intent = self._maybe_bluff(prize, number, state.missing(board, prize, called))
                if intent is not None:
                    return intent
        return None
