"""Dots and Boxes AI: HARD against greedy players, and the time HARD takes per move.

Run: python bench/bench_dots.py [games per match, default 200]

Two greedy opponents: NORMAL (takes every box offered, else a safe line, else the smallest
gift) and a plain greedy player (takes every box offered, else any random line).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

from engine import dots
from engine.dots import DotsGame, Level, Line, Player, choose_line

Strategy = Callable[[DotsGame, random.Random], Line]


def hard(game: DotsGame, rng: random.Random) -> Line:
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
        results["win" if winner is hard_side else "tie" if winner is None else "loss"] += 1
        margin += game.scores[hard_side] - game.scores[hard_side.other]
    return results, timings, margin


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(1234)
    print(f"exact search from {dots.EXACT_LINE_LIMIT} free lines; {games} games per match")
    for rows, columns, count in (
        (3, 3, games),
        (2, 2, games),
        (4, 4, games // 4),
        (5, 5, games // 10),
    ):
        for name, opponent in (("NORMAL (greedy)", normal), ("plain greedy", plain_greedy)):
            results, timings, margin = match(rows, columns, opponent, count, rng)
            print(
                f"{rows}x{columns} HARD vs {name:15}: {results['win']:3} won, {results['tie']:3} tied, "
                f"{results['loss']:3} lost of {count} (mean margin {margin / count:+.2f} boxes) | "
                f"HARD move: median {statistics.median(timings) * 1000:5.1f} ms, "
                f"max {max(timings) * 1000:6.1f} ms"
            )


if __name__ == "__main__":
    main()
