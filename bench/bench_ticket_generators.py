"""How often three common ways of making Housie tickets deal full columns, against uniform.

Run: python bench/bench_ticket_generators.py [--tickets N] [--seed S]

A ticket's type is how many of its columns hold 3 numbers (0..3). The exact odds for a uniformly
random lone ticket and for a ticket of a uniformly random strip come from ``engine.housie``; each
generator below deals N tickets (strip generators: N / 6 strips) and its type frequencies are
compared with the odds that fit it (lone generators with lone-ticket odds, strip generators with
strip odds). The generators, as they are commonly written:

* rows first: each row picks 5 of the 9 columns at random; the ticket is redrawn until every
  column has a number; each column's numbers are drawn at random from its range and sorted;
* column counts first: every column gets one number, then six more go one at a time to random
  columns holding fewer than 3; each column's numbers go to random rows (redrawn until every row
  has 5);
* strip, column by column: each of the six tickets gets one number from every column, then the
  other 36 numbers, in random order, each go to a random ticket with fewer than 15 numbers and
  fewer than 3 from that column (starting over at a dead end); rows are filled as above.

Randomness here is ``random.Random`` (a benchmark, not a game).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable

from engine.housie import (
    COLUMN_FIRST,
    COLUMN_LAST,
    Ticket,
    generate_strip,
    strip_ticket_type_odds,
    ticket_type_odds,
)

Columns = list[list[int]]  # per column, the numbers it holds (sorted)


def place_in_rows(columns: Columns, rng: random.Random) -> Ticket:
    """Each column's numbers into random rows, redrawn until every row holds 5."""
    while True:
        rows = [[0] * 9 for _ in range(3)]
        for c, numbers in enumerate(columns):
            chosen = sorted(rng.sample(range(3), len(numbers)))
            for r, number in zip(chosen, numbers, strict=True):
                rows[r][c] = number
        if all(9 - row.count(0) == 5 for row in rows):
            return Ticket(tuple(tuple(row) for row in rows))


def column_numbers(c: int, count: int, rng: random.Random) -> list[int]:
    return sorted(rng.sample(range(COLUMN_FIRST[c], COLUMN_LAST[c] + 1), count))


def rows_first(rng: random.Random) -> list[Ticket]:
    while True:
        chosen = [rng.sample(range(9), 5) for _ in range(3)]
        counts = [sum(c in row for row in chosen) for c in range(9)]
        if all(counts):
            break
    rows = [[0] * 9 for _ in range(3)]
    for c in range(9):
        numbers = iter(column_numbers(c, counts[c], rng))
        for r in range(3):
            if c in chosen[r]:
                rows[r][c] = next(numbers)
    return [Ticket(tuple(tuple(row) for row in rows))]


def column_counts_first(rng: random.Random) -> list[Ticket]:
    counts = [1] * 9
    for _ in range(6):
        counts[rng.choice([c for c in range(9) if counts[c] < 3])] += 1
    return [place_in_rows([column_numbers(c, counts[c], rng) for c in range(9)], rng)]


def strip_column_by_column(rng: random.Random) -> list[Ticket]:
    while True:
        pools = [
            rng.sample(
                range(COLUMN_FIRST[c], COLUMN_LAST[c] + 1), COLUMN_LAST[c] - COLUMN_FIRST[c] + 1
            )
            for c in range(9)
        ]
        tickets: list[Columns] = [[[pools[c].pop()] for c in range(9)] for _ in range(6)]
        rest = [(c, n) for c in range(9) for n in pools[c]]
        rng.shuffle(rest)
        for c, number in rest:
            room = [
                t for t in range(6) if sum(map(len, tickets[t])) < 15 and len(tickets[t][c]) < 3
            ]
            if not room:
                break
            tickets[rng.choice(room)][c].append(number)
        else:
            return [place_in_rows([sorted(col) for col in ticket], rng) for ticket in tickets]


def uniform_strip(rng: random.Random) -> list[Ticket]:
    return list(generate_strip(rng))


GENERATORS: list[tuple[str, Callable[[random.Random], list[Ticket]], bool]] = [
    ("rows first (lone tickets)", rows_first, False),
    ("column counts first (lone tickets)", column_counts_first, False),
    ("strip, column by column", strip_column_by_column, True),
    ("this bot's uniform strips", uniform_strip, True),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tickets", type=int, default=60_000, help="tickets per generator")
    parser.add_argument("--seed", type=int, default=1, help="random.Random seed")
    options = parser.parse_args()
    lone = {a: float(p) for a, p in ticket_type_odds().items()}
    strip = {a: float(p) for a, p in strip_ticket_type_odds().items()}
    print(f"uniform lone ticket, 0..3 full columns: {[round(lone[a], 4) for a in range(4)]}")
    print(f"uniform strip ticket, 0..3 full columns: {[round(strip[a], 4) for a in range(4)]}")
    for name, generate, is_strip in GENERATORS:
        rng = random.Random(options.seed)
        types: Counter[int] = Counter()
        start = time.perf_counter()
        while sum(types.values()) < options.tickets:
            for ticket in generate(rng):
                types[ticket.full_columns] += 1
        seconds = time.perf_counter() - start
        total = sum(types.values())
        odds = strip if is_strip else lone
        shares = [types[a] / total for a in range(4)]
        ratios = " ".join(f"{a}:{shares[a] / odds[a]:.2f}x" for a in range(4))
        print(
            f"{name:38} {total} tickets in {seconds:.1f} s; shares "
            f"{[round(s, 4) for s in shares]}; against uniform {ratios}"
        )


if __name__ == "__main__":
    main()
