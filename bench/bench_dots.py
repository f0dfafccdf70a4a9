"""Dots and Boxes AI: HARD against greedy players, and the time HARD takes per move.

Run: python bench/bench_dots.py [games per match, default 200]

Two greedy opponents: NORMAL (takes every box offered, else a safe line, else the smallest
gift) and a plain greedy player (takes every box offered, else any random line). On 3x3 HARD
plays from the solved table (as the cog does); its first move, which reads the table, is timed
apart, and it also meets the previous HARD level (the search, without the table).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from cogs.dots.solution import solved_board
from engine import dots
from engine.dots import DotsGame, Level, Line, Player, choose_line

Strategy = Callable[[DotsGame, random.Random], Line]


def hard(game: DotsGame, rng: random.Random) -> Line:
    """HARD as the cog plays it: from the solved table where one ships (3x3)."""
    return choose_line(game, Level.HARD, rng, solved_board(game.rows, game.columns))


def search_only(game: DotsGame, rng: random.Random) -> Line:
    """HARD without the table: the level before the table shipped (the search alone)."""
    return choose_line(game, Level.HARD, rng)


def normal(game: DotsGame, rng: random.Random) -> Line:
    return choose_line(game, Level.NORMAL, rng)


def plain_greedy(game: DotsGame, rng: random.Random) -> Line:
    """Takes a box whenever one is offered; otherwise any free line at random."""
    for line in game.free_lines():
        probe = game.copy()
        if probe.play(line).completed:
            return line
    return rng.choice(game.free_lines())


def resident_mib() -> float:
    """This process's resident memory (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 2**20


def match(
    rows: int, columns: int, opponent: Strategy, games: int, rng: random.Random
) -> tuple[Counter[str], list[float], int]:
    results: Counter[str] = Counter()
    timings: list[float] = []
    margin = 0
    for number in range(games):
        game = DotsGame(rows, columns)
        hard_side = Player.FIRST if number % 2 == 0 else Player.SECOND
        while not game.is_over:
            if game.turn is hard_side:
                started = time.perf_counter()
                line = hard(game, rng)
                timings.append(time.perf_counter() - started)
            else:
                line = opponent(game, rng)
            game.play(line)
        winner = game.winner
        outcome = "won" if winner is hard_side else "tied" if winner is None else "lost"
        results[outcome] += 1
        results[f"{outcome} as {hard_side.value}"] += 1
        margin += game.scores[hard_side] - game.scores[hard_side.other]
    return results, timings, margin


def by_side(results: Counter[str]) -> str:
    """Won-tied-lost as first and as second player."""
    return ", ".join(
        f"as {side.value} "
        + "-".join(
            str(results[f"{outcome} as {side.value}"]) for outcome in ("won", "tied", "lost")
        )
        for side in Player
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(1234)
    before = resident_mib()
    started = time.perf_counter()
    hard(DotsGame(3, 3), rng)
    cold = time.perf_counter() - started
    print(
        f"3x3 HARD first move, reading the solved table: {cold * 1000:.0f} ms; "
        f"resident memory +{resident_mib() - before:.1f} MiB"
    )
    print(
        f"other sizes: exact search from {dots.EXACT_LINE_LIMIT} free lines; {games} games a match"
    )
    opponents: tuple[tuple[str, Strategy], ...] = (
        ("NORMAL (greedy)", normal),
        ("plain greedy", plain_greedy),
    )
    for rows, columns, count in (
        (3, 3, games),
        (2, 2, games),
        (4, 4, games // 4),
        (5, 5, games // 10),
    ):
        extra = (("HARD w/o table", search_only),) if (rows, columns) == (3, 3) else ()
        for name, opponent in opponents + extra:
            results, timings, margin = match(rows, columns, opponent, count, rng)
            print(
                f"{rows}x{columns} HARD vs {name:15}: {results['won']:3} won, {results['tied']:3} tied, "
                f"{results['lost']:3} lost of {count} ({by_side(results)}; "
                f"mean margin {margin / count:+.2f} boxes) | "
                f"HARD move: median {statistics.median(timings) * 1000:5.1f} ms, "
                f"max {max(timings) * 1000:6.1f} ms"
            )


if __name__ == "__main__":
    main()
