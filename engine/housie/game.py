"""A called game of Housie, and how its tickets are dealt from the seed.

``HousieGame`` holds the seed (secret until the game ends; post ``commitment``), the prizes, how
many numbers were drawn (the order is ``draw_order(seed, 90)``), the prizes awarded and how many
tickets were dealt. Tickets come from ``SeededRandom(seed, DEAL_LABEL)``: strip 0, then strip 1,
... from one stream; deal position ``k`` (0-based, handed out in joining order) is ticket
``k % 6`` of strip ``k // 6``, so the first six players hold every number once between them.
``tickets_at(seed, k, n) == flattened deal_strips(seed, ...)[k:k + n]``, whether dealt all at
once or one player at a time. Both replay the stream from the start; a live game deals with a
``TicketDealer``, which goes on from where it stopped.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from engine.errors import GameError
from engine.fairness import (
    DEAL_LABEL,
    SEED_BYTES,
    DealStream,
    SeededRandom,
    StreamDealer,
    commitment,
    draw_order,
    new_seed,
    parse_seed,
)
from engine.housie.prizes import (
    DEFAULT_PRIZES,
    Calls,
    Prize,
    PrizeCheck,
    check_prize,
    prize_numbers,
)
from engine.housie.sampling import TICKETS_PER_STRIP, generate_strip
from engine.housie.tickets import HIGHEST_NUMBER, Ticket

MAX_TICKETS = 6_000  # deal positions per game: 1000 strips, replayed in well under a second


# ------------------------------------------------------------------------------------- dealing


def _check_deal(first_index: int, count: int) -> None:
    if type(first_index) is not int or first_index < 0:
        raise GameError(f"deal position {first_index!r} is negative or not a number")
    if type(count) is not int or count < 0 or first_index + count > MAX_TICKETS:
        raise GameError(
            f"cannot deal {count!r} tickets from position {first_index}: positions stop at "
            f"{MAX_TICKETS - 1}"
        )


def deal_strips(seed: bytes, count: int) -> list[tuple[Ticket, ...]]:
    """The game's first ``count`` strips, from one ``SeededRandom(seed, DEAL_LABEL)`` stream."""
    most = MAX_TICKETS // TICKETS_PER_STRIP
    if type(count) is not int or not 0 <= count <= most:
        raise GameError(f"cannot deal {count!r} strips: the limit is 0..{most}")
    rng = SeededRandom(seed, DEAL_LABEL)
    return [generate_strip(rng) for _ in range(count)]


def tickets_at(seed: bytes, first_index: int, count: int = 1) -> list[Ticket]:
    """Tickets at deal positions ``first_index .. first_index + count - 1`` (0-based).

    Position ``k`` is ticket ``k % 6`` of strip ``k // 6``; the stream is replayed from the
    start (about 0.1 ms per earlier strip), so only the seed and positions need storing.
    """
    _check_deal(first_index, count)
    if count == 0:
        return []
    strips = deal_strips(seed, (first_index + count - 1) // TICKETS_PER_STRIP + 1)
    flat = [ticket for strip in strips for ticket in strip]
    return flat[first_index : first_index + count]


def ticket_for_seat(seed: bytes, seat: int) -> Ticket:
    """The ticket at deal position ``seat`` (0-based)."""
    return tickets_at(seed, seat)[0]


def _tickets_by_strip(rng: random.Random) -> Iterator[Ticket]:
    """Tickets strip by strip, forever: a strip is drawn when its first ticket is dealt."""
    while True:
        yield from generate_strip(rng)


TICKET_DEAL = DealStream(_tickets_by_strip, _check_deal, MAX_TICKETS)


class TicketDealer(StreamDealer[Ticket]):
    """Hands out a game's tickets in deal order, strip by strip, each for the same small cost
    however many came before: no replay while the game lives.

    ``TicketDealer(seed)`` starts at position 0. ``deal(count)`` returns the tickets at positions
    ``position .. position + count - 1`` (position ``k`` is ticket ``k % 6`` of strip ``k // 6``;
    a strip is drawn when its first ticket is dealt) and moves on: the same tickets as
    ``tickets_at(seed, position, count)`` (the reference, kept for verification), with the same
    errors. After a restart, ``resume(seed, position)`` rebuilds a dealer by replaying the
    stream: the only replay, for a worker thread, not the event loop. One caller at a time (it
    holds no lock).
    """

    __slots__ = ()
    stream = TICKET_DEAL


# ---------------------------------------------------------------------------------------- game


def _order(seed: bytes) -> tuple[int, ...]:
    return draw_order(seed, HIGHEST_NUMBER)


@dataclass(frozen=True)
class HousieGame:
    """A called game of Housie.

    ``seed`` fixes the call order (``draw_order(seed, 90)``) and the tickets; ``prizes`` are
    played for at the same time (each is won once); ``drawn`` numbers are out; ``awarded`` lists
    the prizes won, in the order they were won; ``dealt`` tickets were handed out. ``to_state()``
    contains the seed, which stays secret until the game ends: store it, never post it (post
    ``commitment`` instead).
    """

    seed: bytes = field(repr=False)
    prizes: tuple[Prize, ...] = DEFAULT_PRIZES
    drawn: int = 0
    awarded: tuple[Prize, ...] = ()
    dealt: int = 0

    def __post_init__(self) -> None:
        if type(self.seed) is not bytes or len(self.seed) != SEED_BYTES:
            raise GameError(f"a game seed is {SEED_BYTES} bytes")
        prizes = self.prizes
        if type(prizes) is not tuple or not prizes:
            raise GameError("a game needs at least one prize, as a tuple of prizes")
        if not all(isinstance(prize, Prize) for prize in prizes):
            raise GameError(f"prizes must be Prize members, got {prizes!r}")
        if len(set(prizes)) != len(prizes):
            raise GameError(f"a prize is listed twice in {[p.display_name for p in prizes]}")
        for prize in prizes:
            if prize.needs is not None and prize.needs not in prizes:
                raise GameError(
                    f"{prize.display_name} needs {prize.needs.display_name} in the same game"
                )
        if type(self.drawn) is not int or not 0 <= self.drawn <= HIGHEST_NUMBER:
            raise GameError(f"{self.drawn!r} numbers drawn is outside 0..{HIGHEST_NUMBER}")
        if type(self.awarded) is not tuple:
            raise GameError("awarded prizes must be a tuple")
        won: set[Prize] = set()
        for prize in self.awarded:
            if prize not in prizes:
                raise GameError(f"{prize!r} is awarded but not played for in this game")
            if prize in won:
                raise GameError(f"{prize.display_name} is awarded twice")
            if prize.needs is not None and prize.needs not in won:
                raise GameError(
                    f"{prize.display_name} is awarded before {prize.needs.display_name}"
                )
            if self.drawn < prize.minimum_calls:
                raise GameError(f"{prize.display_name} cannot be won after only {self.drawn} calls")
            won.add(prize)
        if type(self.dealt) is not int or not 0 <= self.dealt <= MAX_TICKETS:
            raise GameError(f"{self.dealt!r} tickets dealt is outside 0..{MAX_TICKETS}")

    @classmethod
    def new(cls, prizes: Sequence[Prize] = DEFAULT_PRIZES, seed: bytes | None = None) -> HousieGame:
        """A game with a fresh seed (or ``seed``) playing for ``prizes``."""
        return cls(new_seed() if seed is None else seed, tuple(prizes))

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, hex: what is posted before the first call."""
        return commitment(self.seed)

    @functools.cached_property
    def called(self) -> Calls:
        """The numbers called so far, in order."""
        return Calls(_order(self.seed)[: self.drawn])

    @property
    def last_called(self) -> int | None:
        """The number called last, or None before the first call."""
        return _order(self.seed)[self.drawn - 1] if self.drawn else None

    @property
    def open_prizes(self) -> tuple[Prize, ...]:
        """Prizes not won yet, in the order they are listed."""
        return tuple(prize for prize in self.prizes if prize not in self.awarded)

    @property
    def claimable_prizes(self) -> tuple[Prize, ...]:
        """Open prizes that can be won now (a second house only after the first, ...)."""
        return tuple(
            prize
            for prize in self.open_prizes
            if prize.needs is None or prize.needs in self.awarded
        )

    @property
    def is_exhausted(self) -> bool:
        """All 90 numbers are out; claims on the last number may still be made."""
        return self.drawn >= HIGHEST_NUMBER

    @property
    def is_over(self) -> bool:
        """Every prize is won, or all 90 numbers have been called."""
        return self.is_exhausted or len(self.awarded) == len(self.prizes)

    def draw(self) -> tuple[HousieGame, int]:
        """The game after calling the next number, and that number."""
        if len(self.awarded) == len(self.prizes):
            raise GameError("the game is over: every prize has been won")
        if self.is_exhausted:
            raise GameError(f"all {HIGHEST_NUMBER} numbers have been called")
        number = _order(self.seed)[self.drawn]
        return replace(self, drawn=self.drawn + 1), number

    def _check_claimable(self, prize: Prize) -> None:
        if prize not in self.prizes:
            raise GameError(f"{prize.display_name} is not played for in this game")
        if prize in self.awarded:
            raise GameError(f"{prize.display_name} has already been won")
        if prize.needs is not None and prize.needs not in self.awarded:
            raise GameError(
                f"{prize.display_name} can only be won after {prize.needs.display_name}"
            )

    def check(self, ticket: Ticket, prize: Prize, *, require_last: bool = False) -> PrizeCheck:
        """``ticket``'s claim on ``prize`` with the numbers called so far (see ``check_prize``)."""
        self._check_claimable(prize)
        return check_prize(ticket, self.called, prize, require_last=require_last)

    def claim(
        self, ticket: Ticket, prize: Prize, *, require_last: bool = False
    ) -> tuple[HousieGame, PrizeCheck]:
        """Check the claim and, when valid, award the prize: (game after, verdict)."""
        verdict = self.check(ticket, prize, require_last=require_last)
        return (self.award(prize) if verdict.valid else self), verdict

    def award(self, prize: Prize) -> HousieGame:
        """The game with ``prize`` won (the caller checked the claim)."""
        self._check_claimable(prize)
        return replace(self, awarded=(*self.awarded, prize))

    def deal(self) -> tuple[HousieGame, Ticket]:
        """Hand out the next ticket: (game after, the ticket at deal position ``dealt``)."""
        if self.dealt >= MAX_TICKETS:
            raise GameError(f"a game deals at most {MAX_TICKETS} tickets")
        return replace(self, dealt=self.dealt + 1), ticket_for_seat(self.seed, self.dealt)

    def ticket(self, position: int) -> Ticket:
        """The ticket at deal position ``position`` (already dealt)."""
        if type(position) is not int or not 0 <= position < self.dealt:
            raise GameError(f"deal position {position!r} is outside 0..{self.dealt - 1}")
        return ticket_for_seat(self.seed, position)

    # -- the calling game contract (engine.calling.CallingGame) -------------------------------

    total_calls: ClassVar[int] = HIGHEST_NUMBER
    deal_limit: ClassVar[int] = MAX_TICKETS
    every_prize_code: ClassVar[tuple[str, ...]] = tuple(prize.value for prize in Prize)

    @staticmethod
    def dealer(seed: bytes, position: int) -> TicketDealer:
        """A dealer of ``seed``'s tickets whose next ticket is at deal ``position``."""
        return TicketDealer.resume(seed, position)

    @staticmethod
    def boards_at(seed: bytes, first: int, count: int) -> list[Ticket]:
        """The tickets at deal positions ``first ..`` (one pass over the strips)."""
        return tickets_at(seed, first, count)

    @staticmethod
    def board_from_state(text: str) -> Ticket:
        """A ticket read back from its stored text."""
        return Ticket.from_state(text)

    def next_call(self) -> tuple[HousieGame, int]:
        """The game after its next number, and that number."""
        return self.draw()

    @property
    def prize_codes(self) -> tuple[str, ...]:
        """Every prize played, by code, in the order listed."""
        return tuple(prize.value for prize in self.prizes)

    @property
    def open_prize_codes(self) -> tuple[str, ...]:
        """The prizes not won yet, by code."""
        return tuple(prize.value for prize in self.open_prizes)

    @property
    def claimable_codes(self) -> tuple[str, ...]:
        """The prizes that can be won now, by code."""
        return tuple(prize.value for prize in self.claimable_prizes)

    def award_prize(self, prize: str) -> HousieGame:
        """The game with prize ``prize`` (a code) won."""
        return self.award(Prize(prize))

    def judge(
        self, board: Ticket, prize: str, called: Sequence[int], *, require_last: bool = False
    ) -> PrizeCheck:
        """A claim of prize ``prize`` (a code) on ``board`` against ``called``."""
        return check_prize(board, called, Prize(prize), require_last=require_last)

    def missing(self, board: Ticket, prize: str, called: Sequence[int]) -> int:
        """How many more of ``board``'s numbers prize ``prize`` needs called (0: complete, or
        complete but for the slept rule)."""
        wanted = Prize(prize)
        seen = set(called)
        if wanted is Prize.EARLY_FIVE:
            return max(0, 5 - len(board.numbers & seen))
        return len(prize_numbers(board, wanted) - seen)

    def to_state(self) -> str:
        """``seedhex/prize,prize,.../drawn/awarded,.../dealt`` (prizes by code)."""
        prizes = ",".join(prize.value for prize in self.prizes)
        awarded = ",".join(prize.value for prize in self.awarded)
        return f"{self.seed.hex()}/{prizes}/{self.drawn}/{awarded}/{self.dealt}"

    @classmethod
    def from_state(cls, text: str) -> HousieGame:
        """The game written by :meth:`to_state`; only the canonical text is accepted."""
        parts = text.split("/") if isinstance(text, str) else []
        if len(parts) != 5 or not all(p.isascii() and p.isdigit() for p in (parts[2], parts[4])):
            raise GameError(f"game state {text!r} is not 'seedhex/prizes/drawn/awarded/dealt'")
        seed_hex, prizes_text, drawn_text, awarded_text, dealt_text = parts
        game = cls(
            parse_seed(seed_hex),
            _parse_prize_codes(prizes_text),
            int(drawn_text),
            _parse_prize_codes(awarded_text) if awarded_text else (),
            int(dealt_text),
        )
        if game.to_state() != text:  # e.g. upper-case hex or leading zeros
            raise GameError(f"game state {text!r} is not in canonical form")
        return game


def _parse_prize_codes(text: str) -> tuple[Prize, ...]:
    prizes = []
    for code in text.split(","):
        try:
            prizes.append(Prize(code))
        except ValueError:
            raise GameError(f"{code!r} is not a prize code") from None
    return tuple(prizes)
