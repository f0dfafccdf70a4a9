"""Tic-tac-toe AI: time per PERFECT move on each board, and results between levels.

Run: python bench/bench_tictactoe.py

Games alternate sides. 4x4 with three in a row is a first-player win, so there PERFECT
loses the games it plays as O against any opponent that finds the win.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

from engine.tictactoe import Level, Player, Rules, TicTacToe, choose_move

GAMES_PER_MATCH = 20


def match(
    rules: Rules, strong: Level, weak: Level, rng: random.Random
) -> tuple[Counter[str], list[float]]:
    results: Counter[str] = Counter()
    timings: list[float] = []
    for number in range(GAMES_PER_MATCH):
        game = TicTacToe(rules)
        strong_side = Player.X if number % 2 == 0 else Player.O
        while not game.is_over:
            level = strong if game.turn is strong_side else weak
            started = time.perf_counter()
            cell = choose_move(game, level, rng)
            if level is strong:
                timings.append(time.perf_counter() - started)
            game.play(cell)
        winner = game.outcome.winner
        results["win" if winner is strong_side else "draw" if winner is None else "loss"] += 1
    return results, timings


def main() -> None:
    rng = random.Random(2024)
    for rules in (Rules(3, 3), Rules(4, 4), Rules(4, 3), Rules(5, 4), Rules(5, 5)):
        for weak in (Level.EASY, Level.NORMAL, Level.PERFECT):
            results, timings = match(rules, Level.PERFECT, weak, rng)
            print(
                f"{rules.size}x{rules.size} k={rules.k} perfect vs {weak.value:7}: "
                f"{results['win']:2} won, {results['draw']:2} drawn, {results['loss']:2} lost | "
                f"perfect move: median {statistics.median(timings) * 1000:6.1f} ms, "
                f"max {max(timings) * 1000:6.1f} ms"
            )


if __name__ == "__main__":
    main()
