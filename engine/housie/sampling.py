"""Counting and uniform sampling: every Housie ticket and strip, counted, ranked and drawn.

Counting (every figure below is computed by this module and cross-checked in the tests)
    A ticket is (a) how many numbers each column takes, a vector ``k`` in {1,2,3}^9 summing to 15,
    (b) a row layout (which cells are filled) with those column counts and 5 per row, (c) which
    ``k[c]`` numbers column ``c`` takes, C(size_c, k[c]) ways. The number of layouts depends only
    on ``a``, the number of full (3-number) columns: such a ticket has ``6 - 2a`` two-number
    and ``3 + a`` one-number columns, and ``layout_count(a)`` is 1710, 639, 240, 90 for a = 0..3.
    ``ticket_count()`` = 3_669_688_706_217_187_500 (about 2^61.7) valid tickets;
    ``ticket_rank`` and ``ticket_from_rank`` number them one to one.

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
    first integers and one second integer, so every valid strip is equally likely.
    ``generate_ticket(rng)`` is ``ticket_from_rank(randbelow(ticket_count()))``.

docs/FAIRNESS.md's "Dealing a strip, exactly" spells the same algorithm out step by step, with a
test vector.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter

from engine.errors import GameError
from engine.fairness import uniform_below
from engine.housie.tickets import (
    COLUMN_FIRST,
    COLUMN_SIZE,
    COLUMNS,
    MAX_PER_COLUMN,
    NUMBERS_PER_ROW,
    NUMBERS_PER_TICKET,
    ROWS,
    Ticket,
)

TICKETS_PER_STRIP = 6

# Column c's numbers as bits 0.. of a small mask: bit i is number COLUMN_FIRST[c] + i.
_FULL_COLUMN: tuple[int, ...] = tuple((1 << size) - 1 for size in COLUMN_SIZE)
_BLANK_COLUMN = (0, 0, 0)


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
    column counts fixed): 1710, 639, 240, 90 for 0..3."""
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


def generate_ticket(rng: random.Random) -> Ticket:
    """A uniformly random valid ticket (every one of ``ticket_count()`` equally likely)."""
    return ticket_from_rank(uniform_below(rng, _ticket_tables().total))


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
    matrix_index = uniform_below(rng, strips.sampler.total)
    plan = strips.sampler.sample(matrix_index)
    fill_index = uniform_below(rng, strips.completions[tuple(a for a, _ in plan)])
    return _fill_strip(plan, fill_index)
