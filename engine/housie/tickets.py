"""Housie tickets: the 3 x 9 grid, its rules, and its text form.

A ticket is 3 rows x 9 columns, 0 for a blank cell. Rules: every row holds exactly 5 numbers (so
15 in all), every column 1 to 3; column 0 takes 1-9, column ``c`` (1..7) takes ``10c..10c+9``,
column 8 takes 80-90; numbers go strictly up down each column. ``Ticket(rows)`` and
``Ticket.from_state(text)`` raise ``TicketError`` (a ``GameError``) naming the broken rule
(``TicketError.rule``, a ``TicketRule``) and where. ``to_state()`` lists each row's 5 numbers as
2-digit decimals, rows joined by ``/`` (32 characters): a row's numbers fix their columns.

Which numbers make each prize on a ticket is a rule of ``engine.housie.prizes``; the ticket only
caches the result for its claim checks.
"""

from __future__ import annotations

import enum
import functools
import itertools
from dataclasses import dataclass

from engine.errors import GameError

ROWS = 3
COLUMNS = 9
NUMBERS_PER_ROW = 5
NUMBERS_PER_TICKET = ROWS * NUMBERS_PER_ROW
MAX_PER_COLUMN = 3
HIGHEST_NUMBER = 90

COLUMN_FIRST: tuple[int, ...] = (1, 10, 20, 30, 40, 50, 60, 70, 80)
COLUMN_LAST: tuple[int, ...] = (9, 19, 29, 39, 49, 59, 69, 79, 90)
COLUMN_SIZE: tuple[int, ...] = tuple(
    last - first + 1 for first, last in zip(COLUMN_FIRST, COLUMN_LAST, strict=True)
)


def column_of(number: int) -> int:
    """The ticket column (0..8) that holds ``number`` (1..90)."""
    if type(number) is not int or not 1 <= number <= HIGHEST_NUMBER:
        raise GameError(f"{number!r} is not a Housie number 1..{HIGHEST_NUMBER}")
    return min(number // 10, COLUMNS - 1)


# -------------------------------------------------------------------------------------- errors


class TicketRule(enum.Enum):
    """The ticket rule a ``TicketError`` reports."""

    SHAPE = "3 rows of 9 integer cells"
    COLUMN_RANGE = "each column takes its own tens"
    ROW_COUNT = "exactly 5 numbers per row"
    COLUMN_COUNT = "1 to 3 numbers per column"
    COLUMN_ORDER = "numbers go strictly up down each column"
    STATE_TEXT = "ticket state text is 3 rows of 5 two-digit numbers"


class TicketError(GameError):
    """A ticket that breaks a rule; ``rule`` says which, the message says where."""

    def __init__(self, rule: TicketRule, message: str) -> None:
        super().__init__(f"{message} (rule: {rule.value})")
        self.rule = rule


# ------------------------------------------------------------------------------------- tickets


def _check_rows(rows: object) -> None:
    if (
        type(rows) is not tuple
        or len(rows) != ROWS
        or any(type(row) is not tuple or len(row) != COLUMNS for row in rows)
    ):
        raise TicketError(
            TicketRule.SHAPE, f"a ticket is a tuple of 3 tuples of 9 ints, got {rows!r}"
        )
    for r, row in enumerate(rows):
        for c, number in enumerate(row):
            if type(number) is not int:
                raise TicketError(
                    TicketRule.SHAPE, f"row {r + 1} column {c + 1} holds {number!r}, not an int"
                )
            if number and not COLUMN_FIRST[c] <= number <= COLUMN_LAST[c]:
                raise TicketError(
                    TicketRule.COLUMN_RANGE,
                    f"row {r + 1} column {c + 1} holds {number}, but column {c + 1} takes "
                    f"{COLUMN_FIRST[c]}-{COLUMN_LAST[c]}",
                )
    for r, row in enumerate(rows):
        count = COLUMNS - row.count(0)
        if count != NUMBERS_PER_ROW:
            raise TicketError(
                TicketRule.ROW_COUNT,
                f"row {r + 1} has {count} numbers; every row needs exactly {NUMBERS_PER_ROW}",
            )
    for c in range(COLUMNS):
        filled = [(r, rows[r][c]) for r in range(ROWS) if rows[r][c]]
        if not filled:
            raise TicketError(
                TicketRule.COLUMN_COUNT,
                f"column {c + 1} ({COLUMN_FIRST[c]}-{COLUMN_LAST[c]}) is empty; every column "
                f"needs 1 to {MAX_PER_COLUMN} numbers",
            )
        for (upper_row, upper), (lower_row, lower) in itertools.pairwise(filled):
            if upper >= lower:
                raise TicketError(
                    TicketRule.COLUMN_ORDER,
                    f"column {c + 1} must go strictly up downwards, but {upper} (row "
                    f"{upper_row + 1}) sits above {lower} (row {lower_row + 1})",
                )


@dataclass(frozen=True)
class Ticket:
    """A valid Housie ticket: ``rows`` is 3 tuples of 9 ints, 0 for a blank."""

    rows: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        _check_rows(self.rows)

    @classmethod
    def _trusted(cls, rows: tuple[tuple[int, ...], ...]) -> Ticket:
        """A ticket the generator built valid by construction (skips the checks; tests cover it)."""
        ticket = object.__new__(cls)
        object.__setattr__(ticket, "rows", rows)
        return ticket

    @functools.cached_property
    def mask(self) -> int:
        """The ticket's numbers as bits: bit ``n`` is set when number ``n`` is on it."""
        bits = 0
        for row in self.rows:
            for number in row:
                bits |= 1 << number
        return bits & ~1  # blanks set bit 0

    @functools.cached_property
    def numbers(self) -> frozenset[int]:
        """The 15 numbers on the ticket."""
        return frozenset(n for row in self.rows for n in row if n)

    @property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        """Each column's numbers, top to bottom."""
        return tuple(tuple(row[c] for row in self.rows if row[c]) for c in range(COLUMNS))

    @property
    def full_columns(self) -> int:
        """How many columns hold 3 numbers (the ticket's type, 0..3)."""
        return sum(1 for c in range(COLUMNS) if all(row[c] for row in self.rows))

    def __contains__(self, number: object) -> bool:
        return (
            type(number) is int and 1 <= number <= HIGHEST_NUMBER and bool(self.mask >> number & 1)
        )

    def position_of(self, number: int) -> tuple[int, int] | None:
        """``(row, column)`` (0-based) of ``number``, or None when it is not on the ticket."""
        for r, row in enumerate(self.rows):
            if number in row and number:
                return r, row.index(number)
        return None

    def to_state(self) -> str:
        """Each row's 5 numbers as 2-digit decimals, rows joined by ``/``."""
        return "/".join("".join(f"{n:02d}" for n in row if n) for row in self.rows)

    @classmethod
    def from_state(cls, text: str) -> Ticket:
        """The ticket written by :meth:`to_state`; rejects numbers out of range, order or column."""
        parts = text.split("/") if isinstance(text, str) else []
        if len(parts) != ROWS or not all(
            len(part) == 2 * NUMBERS_PER_ROW and part.isascii() and part.isdigit() for part in parts
        ):
            raise TicketError(
                TicketRule.STATE_TEXT,
                f"ticket state {text!r} is not 3 groups of 10 digits joined by '/'",
            )
        rows = []
        for r, part in enumerate(parts):
            numbers = [int(part[i : i + 2]) for i in range(0, len(part), 2)]
            cells = [0] * COLUMNS
            previous = 0
            for number in numbers:
                if not 1 <= number <= HIGHEST_NUMBER:
                    raise TicketError(
                        TicketRule.STATE_TEXT,
                        f"ticket state row {r + 1} lists {number:02d}, not a number 1-90",
                    )
                if number <= previous:
                    raise TicketError(
                        TicketRule.STATE_TEXT,
                        f"ticket state row {r + 1} lists {number} after {previous}; a row's "
                        "numbers are listed left to right, increasing",
                    )
                column = column_of(number)
                if cells[column]:
                    raise TicketError(
                        TicketRule.STATE_TEXT,
                        f"ticket state row {r + 1} puts {cells[column]} and {number} both in "
                        f"column {column + 1}",
                    )
                cells[column] = previous = number
            rows.append(tuple(cells))
        return cls(tuple(rows))


def _numbers_in(mask: int) -> frozenset[int]:
    """The numbers whose bits are set in ``mask``."""
    numbers = []
    while mask:
        low = mask & -mask
        numbers.append(low.bit_length() - 1)
        mask ^= low
    return frozenset(numbers)
