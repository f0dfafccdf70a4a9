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

from bot.storage import BoardRow, GameRow
from emulator import Member
from engine.housie import HousieGame, Prize, Ticket, check_prize, prize_numbers
from engine.loteria import LoteriaGame, Pattern, Tabla, check_claim

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
_loteria = functools.lru_cache(maxsize=256)(LoteriaGame.from_state)
_housie = functools.lru_cache(maxsize=256)(HousieGame.from_state)
_tabla = functools.lru_cache(maxsize=8192)(Tabla.from_state)
_ticket = functools.lru_cache(maxsize=8192)(Ticket.from_state)


@dataclass(frozen=True)
class Intent:
    """A claim a member is about to make: ``prize`` code, which board, and whether it's a bluff."""

    prize: str
    board_number: int | None
    bluff: bool


def loteria_cards_missing(tabla: Tabla, called: Sequence[int], pattern: Pattern) -> int:
    """The fewest uncalled cards between ``tabla`` and ``pattern``."""
    seen = set(called)
    return min(
        sum(
            1
            for cell, number in enumerate(tabla.numbers)
            if mask >> cell & 1 and number not in seen
        )
        for mask in pattern.masks
    )


def housie_numbers_missing(ticket: Ticket, called: Sequence[int], prize: Prize) -> int:
    """How many more of the ticket's numbers must be called for ``prize``."""
    needed = prize_numbers(ticket, prize)
    hits = len(needed & set(called))
    if prize is Prize.EARLY_FIVE:
        return max(0, 5 - hits)
    return len(needed) - hits


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

    @property
    def name(self) -> str:
        return self.member.name

    @property
    def bluffer(self) -> bool:
        return self.bluffs_left > 0

    def _maybe_bluff(self, prize: str, board_number: int | None, missing: int) -> Intent | None:
        if (
            self.bluffs_left > 0
            and prize not in self.bluffed
            and missing == 1
            and self.rng.random() < BLUFF_CHANCE
        ):
            return Intent(prize, board_number, bluff=True)
        return None

    def decide_loteria(self, game: GameRow, boards: Sequence[BoardRow]) -> Intent | None:
        state = _loteria(game.state)
        pattern = state.current_prize
        if pattern is None or not boards or pattern.value in self.claimed:
            return None
        tabla = _tabla(boards[0].state)
        if check_claim(tabla, state.called, pattern, deck=state.deck).valid:
            return Intent(pattern.value, None, bluff=False)
        return self._maybe_bluff(
            pattern.value, None, loteria_cards_missing(tabla, state.called, pattern)
        )

    def decide_housie(self, game: GameRow, boards: Sequence[BoardRow]) -> Intent | None:
        state = _housie(game.state)
        live = [board for board in boards if not board.out]
        open_prizes = [p for p in state.claimable_prizes if p.value not in self.claimed]
        tickets = [(board.board_index + 1, _ticket(board.state)) for board in live]
        for prize in open_prizes:
            for number, ticket in tickets:
                if check_prize(ticket, state.called, prize).valid:
                    return Intent(prize.value, number, bluff=False)
        for prize in open_prizes:
            for number, ticket in tickets:
                missing = housie_numbers_missing(ticket, state.called, prize)
                intent = self._maybe_bluff(prize.value, number, missing)
                if intent is not None:
                    return intent
        return None
