"""What every calling game's engine offers the bot (Lotería, Housie): a typed contract, so that
the calling base (``bot.calling``) deals, calls, judges and stores any such game the same way.

A calling game is a game state (a frozen value, stored as text by ``to_state()`` and read back
by ``from_state()``) that fixes the order of its calls from a seed, plays for its prizes one
after another (named by short codes, the stored form), and judges a claim of one prize on one
board against the calls a player had seen. Its boards are dealt from the same seed by a dealer
that resumes at any position. Nothing here draws or words anything: a judgement is the engine's
own result (valid or not, why in English, and the reason's code and values for the bot's words).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Protocol, Self, TypeVar


class Board(Protocol):
    """A board (a tabla, a ticket): stored by its text form."""

    def to_state(self) -> str:
        """The board as stored."""
        ...


BoardT = TypeVar("BoardT", bound=Board)
BoardT_co = TypeVar("BoardT_co", bound=Board, covariant=True)


class Dealer(Protocol[BoardT_co]):
    """Deals a game's boards in seed order, from a deal position on."""

    @property
    def position(self) -> int:
        """The deal position of the next board it deals."""
        ...

    def deal(self, count: int = 1) -> Sequence[BoardT_co]:
        """The next ``count`` boards."""
        ...


class ClaimCheck(Protocol):
    """The engine's judgement of a claim on one board: ``reason`` in English (the stored form),
    and as ``code`` and ``values`` for the players' words."""

    @property
    def valid(self) -> bool:
        """Whether the board wins the prize."""
        ...

    @property
    def reason(self) -> str:
        """Why not (or, for a win, what was won), in English."""
        ...

    @property
    def code(self) -> str:
        """The reason's code (``engine.errors.Reason``), empty for a win."""
        ...

    @property
    def values(self) -> Mapping[str, object]:
        """The values the reason's words name."""
        ...


CheckT_co = TypeVar("CheckT_co", bound=ClaimCheck, covariant=True)


class CallingGame(Protocol[BoardT, CheckT_co]):
    """A calling game's state and rules: deal, next call, prizes, judge, and its text form."""

    total_calls: ClassVar[int]  # calls a game makes at most (the deck, the numbers)
    deal_limit: ClassVar[int]  # deal positions a game can hand out
    every_prize_code: ClassVar[tuple[str, ...]]  # every prize the game knows, by code

    @classmethod
    def from_state(cls, text: str) -> Self:
        """The game read back from :meth:`to_state`'s text."""
        ...

    def to_state(self) -> str:
        """The game as stored (holds the seed: never posted before the end)."""
        ...

    @staticmethod
    def dealer(seed: bytes, position: int) -> Dealer[BoardT]:
        """A dealer of the game of ``seed`` whose next board is at deal ``position``."""
        ...

    @staticmethod
    def boards_at(seed: bytes, first: int, count: int) -> list[BoardT]:
        """The boards at deal positions ``first .. first + count - 1`` (re-dealt to verify)."""
        ...

    @staticmethod
    def board_from_state(text: str) -> BoardT:
        """A board read back from its stored text."""
        ...

    @property
    def called(self) -> Sequence[int]:
        """Every call so far, in order."""
        ...

    def next_call(self) -> tuple[Self, int]:
        """The game after its next call, and the value called."""
        ...

    @property
    def prize_codes(self) -> tuple[str, ...]:
        """Every prize played, in order."""
        ...

    @property
    def open_prize_codes(self) -> tuple[str, ...]:
        """The prizes still to be won, in order."""
        ...

    @property
    def claimable_codes(self) -> tuple[str, ...]:
        """The prizes a claim may win on the current call."""
        ...

    def award_prize(self, prize: str) -> Self:
        """The game once ``prize`` has been won."""
        ...

    def judge(
        self, board: BoardT, prize: str, called: Sequence[int], *, require_last: bool = False
    ) -> CheckT_co:
        """A claim of ``prize`` on ``board`` against ``called`` (the calls the player had seen);
        ``require_last``: the win must use the last call (the slept rule)."""
        ...

    def missing(self, board: BoardT, prize: str, called: Sequence[int]) -> int:
        """How many more calls ``board`` needs for ``prize`` (0: complete)."""
        ...
