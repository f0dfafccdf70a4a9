"""Housie / Tambola (90-ball bingo): tickets, uniform strips, prize checks, signed codes, the game.

Tickets
    A ticket is 3 rows x 9 columns, 0 for a blank cell. Rules: every row holds exactly 5 numbers
    (so 15 in all), every column 1 to 3; column 0 takes 1-9, column ``c`` (1..7) takes
    ``10c..10c+9``, column 8 takes 80-90; numbers go strictly up down each column. ``Ticket(rows)``
    and ``Ticket.from_state(text)`` raise ``TicketError`` (a ``GameError``) naming the broken rule
    (``TicketError.rule``) and where. ``to_state()`` lists each row's 5 numbers as 2-digit
    decimals, rows joined by ``/`` (32 characters): a row's numbers fix their columns.

Counting (every figure below is computed by this module and cross-checked in the tests)
    A ticket is (a) how many numbers each column takes, a vector ``k`` in {1,2,3}^9 summing to 15,
    (b) a row layout (which cells are filled) with those column counts and 5 per row, (c) which
    ``k[c]`` numbers column ``c`` takes, C(size_c, k[c]) ways. The number of layouts depends only
    on ``a``, the number of full (3-number) columns: such a ticket has ``6 - 2a`` two-number
    and ``3 + a`` one-number columns, and ``layout_count(a)`` is 1710, 639, 240, 90 for a = 0..3.
    ``ticket_count()`` = 3_669_688_706_217_187_500 (about 2^61.7) valid tickets.

    A strip is 6 tickets using 1..90 once each. Write ``K[t][c]`` for how many numbers ticket
    ``t`` takes from column ``c``; K has entries 1..3, row sums 15 and column sums 9, 10 x 7, 11.
    The strips with count matrix K number

        prod_c size_c! / prod_{t,c} K[t][c]!  x  prod_t layout_count(a_t)

    (which numbers go to which ticket, then each ticket's layout). As a row with ``a`` threes has
    ``6 - 2a`` twos, ``prod_c K[t][c]! = 6^a * 2^(6-2a)``: the weight of K is a constant times
    ``prod_t g(a_t)`` with ``g(a) = layout_count(a) / (6^a * 2^(6 - 2a))``, a factor per ticket
    that depends only on its type ``a`` (scaled by 96 to integers ``G(a)`` = 2565, 639, 160, 40).
    So a K with full columns stands for far fewer strips (g(3) is 1/64 of g(0)) and generators
    that pick K "evenly" deal full columns far too often. ``strip_count()`` is about 2^258.0:
    467_711_541_132_248_468_278_363_019_351_514_108_076_722_415_153_589_853_880_320 x 10^18
    (ordered strips: ticket 0 to 5). In a uniform strip a ticket has 0..3 full columns with
    probability 0.388, 0.504, 0.105, 0.002 (``strip_ticket_type_odds()``); a lone uniform
    ticket with 0.320, 0.533, 0.143, 0.0035 (``ticket_type_odds()``).

Uniform sampling, exactly (no retry loop besides the unbiased ``randbelow``)
    ``generate_strip(rng)`` draws two integers. The first, below ``W`` (the weighted number of
    count matrices, sum over K of prod_t G(a_t), about 2^101.3), picks K with probability
    proportional to its weight, one ticket row at a time: a dynamic program over the column sums
    still to fill, keyed by their sorted values (columns with equal sums left are
    interchangeable), counts the weighted completions of every state; the integer is read as
    mixed-radix digits (which row decision, bisected on cumulative weights; which columns within
    each group of equal sums; the rest is the index into the next state). The program has 177
    states and 7047 decisions, built on first use in about 0.1 s. The second integer, below the
    number of completions of K, is read as digits for each ticket's layout (uniform among the
    canonical layouts of its type, mapped onto its columns) and, ticket by ticket, which of each
    column's remaining numbers it takes. Every strip is reached by exactly ``prod_t G(a_t)``
    first integers and one second integer, so every valid strip is equally likely. ``generate_ticket(rng)`` is
    ``ticket_from_rank(randbelow(ticket_count()))``: ranks number the tickets one to one.

Prizes
    Early Five (any 5 numbers), Top/Middle/Bottom Line, Four Corners (the first and last NUMBER of
    the top and bottom rows, not the corner cells), Full House, and optional second and third
    full houses (``SECOND_HOUSE``, ``THIRD_HOUSE``: they check exactly like ``FULL_HOUSE`` and can
    only be won in that order; a ticket that won a house should not win another, which the cog
    that knows the players enforces). ``check_prize`` works on bit masks: bit ``n`` stands for
    number ``n``; pass a ``Calls`` (the game's ``called``) to skip rebuilding the called mask.

Ticket codes
    ``encode_ticket_code`` packs ``game_id * ticket_count() + ticket_rank(ticket)`` and a 64-bit
    HMAC-SHA256 tag under the server's signing key into Crockford base32 (digits and capitals
    without I, L, O, U; read case-insensitively): 26 characters for games 0..7, 30 up to game
    ~10^6, at most 38 for a 64-bit id. Any edited, swapped or forged code raises
    ``TicketCodeError``.

Games and dealing
    ``HousieGame`` holds the seed (secret until the game ends; post ``commitment``), the prizes,
    how many numbers were drawn (the order is ``draw_order(seed, 90)``), the prizes awarded and
    how many tickets were dealt. Tickets come from ``SeededRandom(seed, DEAL_LABEL)``: strip 0,
    then strip 1, ... from one stream; deal position ``k`` (0-based, handed out in joining order)
    is ticket ``k % 6`` of strip ``k // 6``, so the first six players hold every number once
    between them. ``tickets_at(seed, k, n) == flattened deal_strips(seed, ...)[k:k + n]``,
    whether dealt all at once or one player at a time.
"""

from __future__ import annotations

import bisect
import enum
import functools
import hashlib
import hmac
import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from operator import itemgetter

from engine.errors import GameError, quoted
from engine.fairness import (
    DEAL_LABEL,
    SEED_BYTES,
    SeededRandom,
    commitment,
    draw_order,
    new_seed,
    parse_seed,
)

ROWS = 3
COLUMNS = 9
NUMBERS_PER_ROW = 5
NUMBERS_PER_TICKET = ROWS * NUMBERS_PER_ROW
MAX_PER_COLUMN = 3
HIGHEST_NUMBER = 90
TICKETS_PER_STRIP = 6
MAX_TICKETS = 6_000  # deal positions per game: 1000 strips, replayed in well under a second

COLUMN_FIRST: tuple[int, ...] = (1, 10, 20, 30, 40, 50, 60, 70, 80)
COLUMN_LAST: tuple[int, ...] = (9, 19, 29, 39, 49, 59, 69, 79, 90)
COLUMN_SIZE: tuple[int, ...] = tuple(
    last - first + 1 for first, last in zip(COLUMN_FIRST, COLUMN_LAST, strict=True)
)
# Column c's numbers as bits 0.. of a small mask: bit i is number COLUMN_FIRST[c] + i.
_FULL_COLUMN: tuple[int, ...] = tuple((1 << size) - 1 for size in COLUMN_SIZE)
_NUMBER_BIT: dict[int, int] = {n: 1 << n for n in range(1, HIGHEST_NUMBER + 1)}
_BLANK_COLUMN = (0, 0, 0)


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


class TicketCodeError(GameError):
    """A ticket code that is malformed, edited, forged, or for another game."""


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

    @functools.cached_property
    def _prize_masks(self) -> dict[Prize, int]:
        top, middle, bottom = ([n for n in row if n] for row in self.rows)
        full = self.mask
        return {
            Prize.EARLY_FIVE: full,
            Prize.TOP_LINE: _mask_of(top),
            Prize.MIDDLE_LINE: _mask_of(middle),
            Prize.BOTTOM_LINE: _mask_of(bottom),
            Prize.FOUR_CORNERS: _mask_of((top[0], top[-1], bottom[0], bottom[-1])),
            Prize.FULL_HOUSE: full,
            Prize.SECOND_HOUSE: full,
            Prize.THIRD_HOUSE: full,
        }

    @functools.cached_property
    def _wins(self) -> dict[Prize, PrizeCheck]:
        """The (shared) valid result for each fixed-set prize, without the last-call rule."""
        return {
            prize: PrizeCheck(True, _numbers_in(mask), f"{prize.display_name} complete")
            for prize, mask in self._prize_masks.items()
            if prize is not Prize.EARLY_FIVE
        }

    def prize_numbers(self, prize: Prize) -> frozenset[int]:
        """The numbers that make ``prize`` on this ticket (all 15 for Early Five)."""
        return _numbers_in(self._prize_masks[prize])

    def to_state(self) -> str:
        """Each row's 5 numbers as 2-digit decimals, rows joined by ``/``."""
        return "/".join("".join(f"{n:02d}" for n in row if n) for row in self.rows)

    @classmethod
    def from_state(cls, text: str) -> Ticket:
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


def _mask_of(numbers: Iterable[int]) -> int:
    bits = 0
    for number in numbers:
        bits |= 1 << number
    return bits


def _numbers_in(mask: int) -> frozenset[int]:
    numbers = []
    while mask:
        low = mask & -mask
        numbers.append(low.bit_length() - 1)
        mask ^= low
    return frozenset(numbers)


# ------------------------------------------------------------------------------ ticket counting

# The canonical row layouts of a ticket with ``a`` full columns list, per "slot", the filled rows
# as a 3-bit mask (bit r = row r). Slots are the full columns, then the two-number columns, then
# the one-number columns; any ticket of type ``a`` maps its columns onto the slots in that order
# (each kind left to right), which is one to one because the row-sum rule only sees the kinds.
_ROW_MASKS_BY_COUNT: dict[int, tuple[int, ...]] = {3: (7,), 2: (3, 5, 6), 1: (1, 2, 4)}
_TYPES = range(4)  # a ticket has 0..3 full columns: 2a + (two-number columns) = 6


def _slot_counts(full_columns: int) -> tuple[int, ...]:
    a = full_columns
    return (3,) * a + (2,) * (6 - 2 * a) + (1,) * (3 + a)


def _layouts(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """Every tuple of per-column row masks with those column counts and 5 numbers per row."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], room: tuple[int, int, int]) -> None:
        i = len(prefix)
        if i == len(counts):
            if room == (0, 0, 0):
                found.append(prefix)
            return
        for rows_mask in _ROW_MASKS_BY_COUNT[counts[i]]:
            left = (
                room[0] - (rows_mask & 1),
                room[1] - (rows_mask >> 1 & 1),
                room[2] - (rows_mask >> 2),
            )
            if min(left) >= 0:
                extend((*prefix, rows_mask), left)

    extend((), (NUMBERS_PER_ROW, NUMBERS_PER_ROW, NUMBERS_PER_ROW))
    return found


def _subsets(mask: int, size: int) -> tuple[int, ...]:
    """The ``size``-element submasks of ``mask``, in ``itertools.combinations`` order of its bits."""
    bits = [1 << i for i in range(mask.bit_length()) if mask >> i & 1]
    return tuple(sum(combo) for combo in itertools.combinations(bits, size))


@dataclass(frozen=True)
class _TicketTables:
    layouts: tuple[tuple[tuple[int, ...], ...], ...]  # [a][layout number] -> slot row masks
    layout_index: tuple[dict[tuple[int, ...], int], ...]
    slot_counts: tuple[tuple[int, ...], ...]  # [a] -> numbers per slot
    # [k][mask] -> the k-subsets of a column mask (any mask below 2^11, k = 1..3)
    subsets: tuple[tuple[tuple[int, ...], ...], ...]
    # [column][subset << 3 | row mask] -> the column's 3 cells
    cells: tuple[dict[int, tuple[int, int, int]], ...]
    vectors: tuple[tuple[int, ...], ...]  # column-count vectors, lexicographic
    vector_index: dict[tuple[int, ...], int]
    vector_type: tuple[int, ...]
    vector_slots: tuple[tuple[int, ...], ...]  # the vector's columns in slot order
    ends: tuple[int, ...]  # cumulative ticket counts over ``vectors``
    total: int


@functools.cache
def _ticket_tables() -> _TicketTables:
    layouts = tuple(tuple(_layouts(_slot_counts(a))) for a in _TYPES)
    widest = max(COLUMN_SIZE)
    subsets = (
        (),
        *(
            tuple(_subsets(mask, k) for mask in range(1 << widest))
            for k in range(1, MAX_PER_COLUMN + 1)
        ),
    )
    cells: list[dict[int, tuple[int, int, int]]] = []
    for c in range(COLUMNS):
        table: dict[int, tuple[int, int, int]] = {}
        for k in range(1, MAX_PER_COLUMN + 1):
            for chosen in subsets[k][_FULL_COLUMN[c]]:
                numbers = [COLUMN_FIRST[c] + i for i in range(COLUMN_SIZE[c]) if chosen >> i & 1]
                for rows_mask in _ROW_MASKS_BY_COUNT[k]:
                    column = [0, 0, 0]
                    rows = [r for r in range(ROWS) if rows_mask >> r & 1]
                    for r, number in zip(rows, numbers, strict=True):
                        column[r] = number
                    table[chosen << 3 | rows_mask] = (column[0], column[1], column[2])
        cells.append(table)
    vectors = tuple(
        v for v in itertools.product((1, 2, 3), repeat=COLUMNS) if sum(v) == NUMBERS_PER_TICKET
    )
    vector_type = tuple(v.count(3) for v in vectors)
    vector_slots = tuple(
        tuple(c for k in (3, 2, 1) for c in range(COLUMNS) if v[c] == k) for v in vectors
    )
    counts = (
        len(layouts[a]) * math.prod(math.comb(COLUMN_SIZE[c], v[c]) for c in range(COLUMNS))
        for v, a in zip(vectors, vector_type, strict=True)
    )
    ends = tuple(itertools.accumulate(counts))
    return _TicketTables(
        layouts=layouts,
        layout_index=tuple({layout: i for i, layout in enumerate(group)} for group in layouts),
        slot_counts=tuple(_slot_counts(a) for a in _TYPES),
        subsets=subsets,
        cells=tuple(cells),
        vectors=vectors,
        vector_index={v: i for i, v in enumerate(vectors)},
        vector_type=vector_type,
        vector_slots=vector_slots,
        ends=ends,
        total=ends[-1],
    )


def layout_count(full_columns: int) -> int:
    """How many row layouts a ticket with ``full_columns`` 3-number columns can have (its
    column counts fixed): 1665, 639, 240, 90 for 0..3."""
    if full_columns not in _TYPES:
        raise GameError(f"a ticket has 0 to 3 full columns, not {full_columns!r}")
    return len(_ticket_tables().layouts[full_columns])


def ticket_count() -> int:
    """The number of valid tickets."""
    return _ticket_tables().total


def ticket_type_odds() -> dict[int, Fraction]:
    """For a uniformly random ticket: the probability that it has ``a`` full columns."""
    tables = _ticket_tables()
    weights = dict.fromkeys(_TYPES, 0)
    start = 0
    for end, a in zip(tables.ends, tables.vector_type, strict=True):
        weights[a] += end - start
        start = end
    return {a: Fraction(w, tables.total) for a, w in weights.items()}


def ticket_rank(ticket: Ticket) -> int:
    """The ticket's number in ``0 .. ticket_count() - 1``; ``ticket_from_rank`` inverts it."""
    tables = _ticket_tables()
    rows = ticket.rows
    counts = tuple(sum(1 for row in rows if row[c]) for c in range(COLUMNS))
    v = tables.vector_index[counts]
    a = tables.vector_type[v]
    slots = tables.vector_slots[v]
    pattern = tuple(sum(1 << r for r in range(ROWS) if rows[r][c]) for c in slots)
    digits = [(tables.layout_index[a][pattern], len(tables.layouts[a]))]
    for c, k in zip(slots, tables.slot_counts[a], strict=True):
        chosen = sum(1 << (row[c] - COLUMN_FIRST[c]) for row in rows if row[c])
        choices = tables.subsets[k][_FULL_COLUMN[c]]
        digits.append((choices.index(chosen), len(choices)))
    offset = 0
    for digit, radix in reversed(digits):
        offset = offset * radix + digit
    return (tables.ends[v - 1] if v else 0) + offset


def ticket_from_rank(rank: int) -> Ticket:
    """The ticket numbered ``rank`` (see ``ticket_rank``)."""
    tables = _ticket_tables()
    if type(rank) is not int or not 0 <= rank < tables.total:
        raise GameError(f"ticket rank {rank!r} is outside 0..{tables.total - 1}")
    v = bisect.bisect_right(tables.ends, rank)
    offset = rank - (tables.ends[v - 1] if v else 0)
    a = tables.vector_type[v]
    offset, layout_number = divmod(offset, len(tables.layouts[a]))
    pattern = tables.layouts[a][layout_number]
    columns = [_BLANK_COLUMN] * COLUMNS
    for c, k, rows_mask in zip(tables.vector_slots[v], tables.slot_counts[a], pattern, strict=True):
        choices = tables.subsets[k][_FULL_COLUMN[c]]
        offset, choice = divmod(offset, len(choices))
        columns[c] = tables.cells[c][choices[choice] << 3 | rows_mask]
    return Ticket._trusted(tuple(zip(*columns, strict=True)))


def _uniform_below(rng: random.Random, bound: int) -> int:
    # SeededRandom's own randbelow is the documented algorithm; other sources use randrange.
    if isinstance(rng, SeededRandom):
        return rng.randbelow(bound)
    return rng.randrange(bound)


def generate_ticket(rng: random.Random) -> Ticket:
    """A uniformly random valid ticket (every one of ``ticket_count()`` equally likely)."""
    return ticket_from_rank(_uniform_below(rng, _ticket_tables().total))


# -------------------------------------------------------------------------- count-matrix sampler


class _Decision:
    """One way to fill the next row from a sampler state, up to order within equal-sum groups."""

    __slots__ = (
        "fixed",
        "next",
        "reorder",
        "slot_order",
        "start",
        "type",
        "type_weight",
        "varying",
        "weight",
        "within",
    )

    def __init__(
        self,
        start: int,
        weight: int,
        row_type: int,
        type_weight: int,
        within: int,
        fixed: tuple[int, ...],
        varying: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...],
        slot_order: Callable[[Sequence[int]], tuple[int, ...]],
        reorder: Callable[[Sequence[int]], tuple[int, ...]],
        next_state: _SamplerState | None,
    ) -> None:
        self.start = start
        self.weight = weight
        self.type = row_type
        self.type_weight = type_weight
        self.within = within
        # Positions (sorted-state order) listed group by group, each group's 2-takers first, then
        # 1-takers, then the rest; ``fixed`` groups have one way, ``varying`` ones pick a way.
        self.fixed = fixed
        self.varying = varying
        self.slot_order = slot_order
        self.reorder = reorder
        self.next = next_state


class _SamplerState:
    __slots__ = ("decisions", "ends", "total")

    def __init__(self, decisions: list[_Decision]) -> None:
        self.decisions = decisions
        self.ends = [d.start + d.weight for d in decisions]
        self.total = self.ends[-1] if decisions else 0


class _CountMatrixSampler:
    """Matrices with entries 0..2, ``rows`` rows each summing to ``row_total`` and the given
    column sums, drawn with probability proportional to ``prod_rows type_weights[number of 2s]``.

    ``sample(index)`` maps ``index`` in ``0 .. total - 1`` onto matrices, each matrix hit by
    exactly ``prod_rows type_weights[...]`` indexes. It returns, per row, the number of 2s and the
    columns in slot order: those holding 2, then 1, then 0. The states are sorted tuples of the
    column sums still to fill (how many completions a state has does not depend on which column
    holds which sum); ``columns`` tracks which real column sits at each sorted position.
    """

    def __init__(
        self,
        column_sums: Sequence[int],
        rows: int,
        row_total: int,
        type_weights: Sequence[int],
    ) -> None:
        if sum(column_sums) != rows * row_total:
            raise ValueError("column sums and row sums disagree")
        self._row_total = row_total
        self._type_weights = tuple(type_weights)
        self._states: dict[tuple[int, tuple[int, ...]], _SamplerState] = {}
        self._assignments: dict[tuple[int, int, int, int], tuple[tuple[int, ...], ...]] = {}
        order = sorted(range(len(column_sums)), key=column_sums.__getitem__)
        self.initial_columns: tuple[int, ...] = tuple(order)
        self.root = self._state(rows, tuple(column_sums[c] for c in order))
        self.total = self.root.total

    def _assignment(
        self, start: int, size: int, twos: int, ones: int
    ) -> tuple[tuple[int, ...], ...]:
        """Every way to give ``twos`` members of a group a 2 and ``ones`` a 1: positions listed
        2-takers first, then 1-takers, then the rest, each in increasing order."""
        key = (start, size, twos, ones)
        table = self._assignments.get(key)
        if table is None:
            ways = []
            members = range(start, start + size)
            for two_set in itertools.combinations(members, twos):
                rest = [m for m in members if m not in two_set]
                for one_set in itertools.combinations(rest, ones):
                    zero_set = tuple(m for m in rest if m not in one_set)
                    ways.append(two_set + one_set + zero_set)
            table = self._assignments[key] = tuple(ways)
        return table

    def _state(self, rows_left: int, sums: tuple[int, ...]) -> _SamplerState:
        key = (rows_left, sums)
        state = self._states.get(key)
        if state is not None:
            return state
        groups: list[tuple[int, int, int]] = []  # (sum left, first position, size)
        position = 0
        for value, run in itertools.groupby(sums):
            size = len(list(run))
            groups.append((value, position, size))
            position += size
        limit = 2 * (rows_left - 1)  # what the other rows can still take from one column
        options: list[list[tuple[int, int]]] = []
        for value, _, size in groups:
            group_options = []
            for twos in range(size + 1):
                for ones in range(size - twos + 1):
                    zeros = size - twos - ones
                    if (twos and not 2 <= value <= limit + 2) or (
                        ones and not 1 <= value <= limit + 1
                    ):
                        continue
                    if zeros and value > limit:
                        continue
                    group_options.append((twos, ones))
            options.append(group_options)
        decisions: list[_Decision] = []
        start = 0
        for choice in self._choices(options, 0, self._row_total):
            parts = []  # per group: (ways, its table, new sums, entries), in canonical order
            for (value, first, size), (twos, ones) in zip(groups, choice, strict=True):
                zeros = size - twos - ones
                table = self._assignment(first, size, twos, ones)
                new_sums = [value - 2] * twos + [value - 1] * ones + [value] * zeros
                parts.append((len(table), table, new_sums, [2] * twos + [1] * ones + [0] * zeros))
            # Groups with a single way go first, concatenated once here rather than per sample.
            parts.sort(key=lambda part: part[0] > 1)
            canon_values = [v for part in parts for v in part[2]]
            entries = [e for part in parts for e in part[3]]
            fixed = tuple(p for ways, table, _, _ in parts if ways == 1 for p in table[0])
            varying = tuple((ways, table) for ways, table, _, _ in parts if ways > 1)
            within = math.prod(ways for ways, _ in varying)
            row_type = entries.count(2)
            if rows_left > 1:
                next_state: _SamplerState | None = self._state(
                    rows_left - 1, tuple(sorted(canon_values))
                )
                completions = next_state.total if next_state else 0
            else:
                next_state, completions = None, 1
            if not completions:
                continue
            type_weight = self._type_weights[row_type]
            weight = type_weight * within * completions
            slot_order = [p for entry in (2, 1, 0) for p, e in enumerate(entries) if e == entry]
            reorder = sorted(range(len(canon_values)), key=canon_values.__getitem__)
            decisions.append(
                _Decision(
                    start,
                    weight,
                    row_type,
                    type_weight,
                    within,
                    fixed,
                    varying,
                    itemgetter(*slot_order),
                    itemgetter(*reorder),
                    next_state,
                )
            )
            start += weight
        state = self._states[key] = _SamplerState(decisions)
        return state

    def _choices(
        self, options: list[list[tuple[int, int]]], i: int, left: int
    ) -> Iterator[tuple[tuple[int, int], ...]]:
        if i == len(options):
            if left == 0:
                yield ()
            return
        for twos, ones in options[i]:
            spent = 2 * twos + ones
            if spent <= left:
                for rest in self._choices(options, i + 1, left - spent):
                    yield ((twos, ones), *rest)

    def sample(self, index: int) -> list[tuple[int, tuple[int, ...]]]:
        """Per row: (number of 2s, its columns in slot order)."""
        plan = []
        state: _SamplerState | None = self.root
        columns: Sequence[int] = self.initial_columns
        while state is not None:
            decision = state.decisions[bisect.bisect_right(state.ends, index)]
            index, within = divmod(index - decision.start, decision.within)
            index //= decision.type_weight  # the remainder is spare randomness
            positions = decision.fixed
            for radix, table in decision.varying:
                within, way = divmod(within, radix)
                positions += table[way]
            canon = [columns[p] for p in positions]
            plan.append((decision.type, decision.slot_order(canon)))
            columns = decision.reorder(canon)
            state = decision.next
        return plan


# ---------------------------------------------------------------------------------------- strips


@dataclass(frozen=True)
class _StripTables:
    sampler: _CountMatrixSampler
    completions: dict[tuple[int, ...], int]  # ticket types -> (layouts x number splits) per K
    total: int


@functools.cache
def _strip_tables() -> _StripTables:
    tickets = _ticket_tables()
    # g(a) = layouts / prod of K! over a ticket row of type a, scaled to integers.
    ratios = [
        Fraction(len(tickets.layouts[a]), math.prod(math.factorial(k) for k in _slot_counts(a)))
        for a in _TYPES
    ]
    scale = math.lcm(*(r.denominator for r in ratios))
    weights = [int(r * scale) for r in ratios]
    # In 0..2 terms (K - 1): rows sum to 15 - 9 = 6, columns to size - 6.
    sampler = _CountMatrixSampler(
        [size - TICKETS_PER_STRIP for size in COLUMN_SIZE],
        TICKETS_PER_STRIP,
        NUMBERS_PER_TICKET - COLUMNS,
        weights,
    )
    numerator = math.prod(math.factorial(size) for size in COLUMN_SIZE)
    denominator = scale**TICKETS_PER_STRIP
    completions = {}
    for types in itertools.product(_TYPES, repeat=TICKETS_PER_STRIP):
        count, remainder = divmod(numerator * math.prod(weights[a] for a in types), denominator)
        assert remainder == 0, "a count matrix must have a whole number of strips"
        completions[types] = count
    total, remainder = divmod(numerator * sampler.total, denominator)
    assert remainder == 0
    return _StripTables(sampler, completions, total)


def strip_count() -> int:
    """The number of valid strips (6 ordered tickets using 1..90 once each)."""
    return _strip_tables().total


def strip_ticket_type_odds() -> dict[int, Fraction]:
    """For a uniformly random strip: the probability that a given ticket has ``a`` full columns
    (the same for all six positions)."""
    root = _strip_tables().sampler.root
    weights = dict.fromkeys(_TYPES, 0)
    for decision in root.decisions:
        weights[decision.type] += decision.weight
    return {a: Fraction(w, root.total) for a, w in weights.items()}


def _strip_from_indexes(matrix_index: int, fill_index: int) -> tuple[Ticket, ...]:
    """The strip numbered by the two integers ``generate_strip`` draws (see the module doc)."""
    return _fill_strip(_strip_tables().sampler.sample(matrix_index), fill_index)


def _fill_strip(plan: list[tuple[int, tuple[int, ...]]], fill_index: int) -> tuple[Ticket, ...]:
    """Layouts and numbers for the tickets of a count-matrix ``plan``, read from ``fill_index``."""
    tables = _ticket_tables()
    layouts = tables.layouts
    slot_counts = tables.slot_counts
    subsets = tables.subsets
    cells = tables.cells
    remaining = list(_FULL_COLUMN)
    tickets = []
    last = len(plan) - 1
    index = fill_index
    for t, (a, slots) in enumerate(plan):
        index, layout_number = divmod(index, len(layouts[a]))
        pattern = layouts[a][layout_number]
        columns = [_BLANK_COLUMN] * COLUMNS
        if t < last:
            for c, k, rows_mask in zip(slots, slot_counts[a], pattern, strict=True):
                left = remaining[c]
                choices = subsets[k][left]
                index, choice = divmod(index, len(choices))
                chosen = choices[choice]
                remaining[c] = left ^ chosen
                columns[c] = cells[c][chosen << 3 | rows_mask]
        else:  # the last ticket takes what is left
            for c, rows_mask in zip(slots, pattern, strict=True):
                columns[c] = cells[c][remaining[c] << 3 | rows_mask]
        tickets.append(Ticket._trusted(tuple(zip(*columns, strict=True))))
    return tuple(tickets)


def generate_strip(rng: random.Random) -> tuple[Ticket, ...]:
    """Six valid tickets holding 1..90 once each; every valid strip is equally likely."""
    strips = _strip_tables()
    matrix_index = _uniform_below(rng, strips.sampler.total)
    plan = strips.sampler.sample(matrix_index)
    fill_index = _uniform_below(rng, strips.completions[tuple(a for a, _ in plan)])
    return _fill_strip(plan, fill_index)


# ---------------------------------------------------------------------------------------- prizes


class Prize(enum.Enum):
    """A prize; the value is its code in game state text."""

    EARLY_FIVE = "E5"
    TOP_LINE = "TL"
    MIDDLE_LINE = "ML"
    BOTTOM_LINE = "BL"
    FOUR_CORNERS = "FC"
    FULL_HOUSE = "FH"
    SECOND_HOUSE = "H2"  # the second ticket to fill: checks as a full house
    THIRD_HOUSE = "H3"  # the third ticket to fill: checks as a full house

    @property
    def display_name(self) -> str:
        return _PRIZE_NAMES[self]

    @property
    def is_house(self) -> bool:
        """Full House or a later full house."""
        return self in _HOUSES

    @property
    def needs(self) -> Prize | None:
        """The prize that must be won first (only for the second and third full houses)."""
        return _PREREQUISITE.get(self)

    @property
    def minimum_calls(self) -> int:
        """The fewest calls with which a ticket can complete it."""
        return _MINIMUM_CALLS[self]

    @classmethod
    def parse(cls, text: str) -> Prize:
        """The prize named by its code ("TL"), member name ("top_line") or display name."""
        wanted = text.strip().casefold().replace(" ", "_").replace("-", "_")
        for prize in cls:
            if wanted in (prize.value.casefold(), prize.name.casefold(), _key(prize.display_name)):
                return prize
        choices = ", ".join(f"{p.value} ({p.display_name})" for p in cls)
        raise GameError(f"unknown prize {quoted(text)}; choose one of {choices}")


def _key(name: str) -> str:
    return name.casefold().replace(" ", "_")


_PRIZE_NAMES: dict[Prize, str] = {
    Prize.EARLY_FIVE: "Early Five",
    Prize.TOP_LINE: "Top Line",
    Prize.MIDDLE_LINE: "Middle Line",
    Prize.BOTTOM_LINE: "Bottom Line",
    Prize.FOUR_CORNERS: "Four Corners",
    Prize.FULL_HOUSE: "Full House",
    Prize.SECOND_HOUSE: "Second Full House",
    Prize.THIRD_HOUSE: "Third Full House",
}
_HOUSES = frozenset({Prize.FULL_HOUSE, Prize.SECOND_HOUSE, Prize.THIRD_HOUSE})
_PREREQUISITE: dict[Prize, Prize] = {
    Prize.SECOND_HOUSE: Prize.FULL_HOUSE,
    Prize.THIRD_HOUSE: Prize.SECOND_HOUSE,
}
_MINIMUM_CALLS: dict[Prize, int] = {
    Prize.EARLY_FIVE: 5,
    Prize.TOP_LINE: NUMBERS_PER_ROW,
    Prize.MIDDLE_LINE: NUMBERS_PER_ROW,
    Prize.BOTTOM_LINE: NUMBERS_PER_ROW,
    Prize.FOUR_CORNERS: 4,
    Prize.FULL_HOUSE: NUMBERS_PER_TICKET,
    Prize.SECOND_HOUSE: NUMBERS_PER_TICKET,
    Prize.THIRD_HOUSE: NUMBERS_PER_TICKET,
}
DEFAULT_PRIZES: tuple[Prize, ...] = (
    Prize.EARLY_FIVE,
    Prize.TOP_LINE,
    Prize.MIDDLE_LINE,
    Prize.BOTTOM_LINE,
    Prize.FOUR_CORNERS,
    Prize.FULL_HOUSE,
)


@dataclass(frozen=True, slots=True)
class PrizeCheck:
    """The verdict on a claim: ``numbers`` make the prize (empty when invalid)."""

    valid: bool
    numbers: frozenset[int]
    reason: str


def _mask_of_calls(called: Sequence[int]) -> int:
    """The 91-bit mask of ``called``; rejects numbers outside 1..90 and repeats."""
    try:
        # Summing distinct powers of two is an OR; a repeat carries and loses a bit (checked).
        mask = sum(map(_NUMBER_BIT.__getitem__, called))
    except (KeyError, TypeError):
        bad = [n for n in called if type(n) is not int or n not in _NUMBER_BIT]
        raise GameError(
            f"called numbers {bad!r} are not Housie numbers 1..{HIGHEST_NUMBER}"
        ) from None
    if not all(type(n) is int for n in called):  # 1.0 and True would pass the lookup
        bad = [n for n in called if type(n) is not int]
        raise GameError(f"called numbers {bad!r} are not Housie numbers 1..{HIGHEST_NUMBER}")
    if mask.bit_count() != len(called):
        seen: set[int] = set()
        for number in called:
            if number in seen:
                raise GameError(f"number {number} is called twice")
            seen.add(number)
    return mask


class Calls(tuple[int, ...]):
    """Numbers called so far, in call order, with ``mask`` (bit ``n`` for number ``n``).

    Validated once (1..90, no repeats), so ``check_prize`` can skip rebuilding the mask.
    """

    mask: int

    def __new__(cls, numbers: Iterable[int] = ()) -> Calls:
        calls = super().__new__(cls, numbers)
        calls.mask = _mask_of_calls(calls)
        return calls

    @property
    def last(self) -> int | None:
        return self[-1] if self else None

    @functools.cached_property
    def prefix_masks(self) -> tuple[int, ...]:
        """``prefix_masks[i]`` is the mask of the first ``i`` calls."""
        return (0, *itertools.accumulate(_NUMBER_BIT[n] for n in self))


_NO_NUMBERS: frozenset[int] = frozenset()
_NOTHING_CALLED = PrizeCheck(False, _NO_NUMBERS, "no numbers have been called yet")
_EARLY_FIVE_SHORT = tuple(
    PrizeCheck(False, _NO_NUMBERS, f"Early Five needs 5 of the ticket's numbers called; {n} are")
    for n in range(5)
)
_LISTED_MISSING = 5  # a bogey reason names at most this many missing numbers


def check_prize(
    ticket: Ticket,
    called: Sequence[int],
    prize: Prize,
    *,
    require_last: bool = False,
) -> PrizeCheck:
    """Whether ``ticket`` wins ``prize`` with the numbers ``called`` so far (in call order).

    ``require_last`` is the "you slept on it" rule: the prize must include the last number
    called, i.e. it was completed by the last call. For Early Five the prize numbers are the
    first five of the ticket's numbers to be called; under the rule the last call must be the
    fifth.
    """
    called_mask = called.mask if type(called) is Calls else _mask_of_calls(called)
    if not called_mask:
        return _NOTHING_CALLED
    needed = ticket._prize_masks[prize]
    last = called[-1]
    if prize is Prize.EARLY_FIVE:
        hits = called_mask & needed
        count = hits.bit_count()
        if count < 5:
            return _EARLY_FIVE_SHORT[count]
        if count > 5:  # keep the first five in call order
            hits = _first_five(called, needed)
        if require_last and not hits >> last & 1:
            return PrizeCheck(False, _NO_NUMBERS, _slept(prize, last, needed))
        return PrizeCheck(True, _numbers_in(hits), _complete(prize, last if require_last else None))
    missing = needed & ~called_mask
    if missing:
        return PrizeCheck(
            False,
            _NO_NUMBERS,
            f"{prize.display_name} is not complete: {_listed(missing)} not called yet",
        )
    if not require_last:
        return ticket._wins[prize]
    if not needed >> last & 1:
        return PrizeCheck(False, _NO_NUMBERS, _slept(prize, last, needed))
    return PrizeCheck(True, ticket._wins[prize].numbers, _complete(prize, last))


def _first_five(called: Sequence[int], needed: int) -> int:
    """The mask of the first five numbers of ``needed`` in call order (at least five called)."""
    if type(called) is Calls:
        # Binary search for the shortest prefix of the calls holding five of them.
        prefixes = called.prefix_masks
        low, high = 5, len(called)
        while low < high:
            middle = (low + high) // 2
            if (prefixes[middle] & needed).bit_count() >= 5:
                high = middle
            else:
                low = middle + 1
        return prefixes[low] & needed
    hits = found = 0
    for number in called:
        if needed >> number & 1:
            hits |= 1 << number
            found += 1
            if found == 5:
                break
    return hits


def _listed(mask: int) -> str:
    """The numbers in ``mask``, increasing, at most ``_LISTED_MISSING`` of them by name."""
    names: list[str] = []
    while mask and len(names) < _LISTED_MISSING:
        low = mask & -mask
        names.append(str(low.bit_length() - 1))
        mask ^= low
    if mask:
        return f"{', '.join(names)} and {mask.bit_count()} more"
    return ", ".join(names)


def _complete(prize: Prize, last: int | None) -> str:
    if last is None:
        return f"{prize.display_name} complete"
    return f"{prize.display_name} completed by the last number called, {last}"


def _slept(prize: Prize, last: int, needed: int) -> str:
    if prize is Prize.EARLY_FIVE and not needed >> last & 1:
        return f"the last number called ({last}) is not on this ticket"
    return (
        f"{prize.display_name} was complete before the last number called ({last}); "
        "it had to be claimed then"
    )


# ---------------------------------------------------------------------------------- ticket codes

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
TAG_BITS = 64
MIN_KEY_BYTES = 16
MAX_CODE_LENGTH = 64
_CODE_DOMAIN = b"gamenight/housie/ticket-code/v1:"
_CODE_VALUE: dict[str, int] = {ch: i for i, ch in enumerate(CODE_ALPHABET)}
_TAG_MASK = (1 << TAG_BITS) - 1
# Crockford's decoding: letters that look like digits read as those digits; separators dropped.
_CODE_ALIASES = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None, "\t": None})


def _check_key(key: bytes) -> None:
    if type(key) is not bytes or len(key) < MIN_KEY_BYTES:
        raise ValueError(f"the ticket-code key must be at least {MIN_KEY_BYTES} bytes")


def _tag(key: bytes, payload: int) -> int:
    message = _CODE_DOMAIN + payload.to_bytes((payload.bit_length() + 7) // 8, "big")
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return int.from_bytes(digest[: TAG_BITS // 8], "big")


def _min_code_length() -> int:
    return -(-(ticket_count().bit_length() + TAG_BITS) // 5)


def _base32(value: int, width: int) -> str:
    digits = []
    while value:
        value, digit = divmod(value, 32)
        digits.append(CODE_ALPHABET[digit])
    return "".join(reversed(digits)).rjust(width, "0")


def encode_ticket_code(ticket: Ticket, game_id: int, key: bytes) -> str:
    """A short signed code for ``ticket`` in game ``game_id`` (>= 0) under the server's key."""
    _check_key(key)
    if type(game_id) is not int or game_id < 0:
        raise GameError(f"game id {game_id!r} is not a whole number >= 0")
    payload = game_id * ticket_count() + ticket_rank(ticket)
    return _base32(payload << TAG_BITS | _tag(key, payload), _min_code_length())


def decode_ticket_code(code: str, key: bytes, *, game_id: int | None = None) -> tuple[Ticket, int]:
    """The ticket and game id in ``code``; with ``game_id``, a code for another game is rejected.

    Read as Crockford's base32 is: case-insensitively, with O read as 0 and I and L as 1, and
    dashes and spaces ignored. Raises ``TicketCodeError`` for anything that is not a code this
    server issued.
    """
    _check_key(key)
    if not isinstance(code, str):
        raise TicketCodeError(f"a ticket code is text, not {type(code).__name__}")
    text = code.upper().translate(_CODE_ALIASES)
    shortest = _min_code_length()
    if not shortest <= len(text) <= MAX_CODE_LENGTH:
        raise TicketCodeError(
            f"a ticket code has {shortest} to {MAX_CODE_LENGTH} characters; this one has "
            f"{len(text)}"
        )
    value = 0
    for position, ch in enumerate(text, 1):
        digit = _CODE_VALUE.get(ch)
        if digit is None:
            raise TicketCodeError(
                f"ticket codes use only {CODE_ALPHABET}; character {position} is {ch!r}"
            )
        value = value << 5 | digit
    if _base32(value, shortest) != text:
        raise TicketCodeError("this ticket code has extra leading zeros; type it as it was given")
    payload = value >> TAG_BITS
    if not hmac.compare_digest(
        _tag(key, payload).to_bytes(TAG_BITS // 8, "big"),
        (value & _TAG_MASK).to_bytes(TAG_BITS // 8, "big"),
    ):
        raise TicketCodeError(
            "this ticket code does not check out: it was mistyped, edited, or not issued here"
        )
    code_game, rank = divmod(payload, ticket_count())
    if game_id is not None and code_game != game_id:
        raise TicketCodeError(f"this ticket code is for game {code_game}, not game {game_id}")
    return ticket_from_rank(rank), code_game


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


# ---------------------------------------------------------------------------------------- game


@functools.lru_cache(maxsize=64)
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

    def to_state(self) -> str:
        """``seedhex/prize,prize,.../drawn/awarded,.../dealt`` (prizes by code)."""
        prizes = ",".join(prize.value for prize in self.prizes)
        awarded = ",".join(prize.value for prize in self.awarded)
        return f"{self.seed.hex()}/{prizes}/{self.drawn}/{awarded}/{self.dealt}"

    @classmethod
    def from_state(cls, text: str) -> HousieGame:
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
