"""Time a cold solve of all 15 Tricky Triangle starts, counting every solution.

Run: python bench/bench_triangle.py
"""

from __future__ import annotations

import statistics
import time

from engine import triangle


def solve_everything() -> tuple[int, int]:
    triangle.clear_solver_cache()
    total = 0
    for hole in range(triangle.HOLES):
        board = triangle.start_board(hole)
        triangle.fewest_pegs(board)
        triangle.best_line(board)
        total += triangle.count_solutions(board)
    triangle.solvable_starts()
    triangle.self_finishing_starts()
    return total, triangle._fewest.cache_info().currsize


def main() -> None:
    timings = []
    for _ in range(7):
        started = time.perf_counter()
        total, boards = solve_everything()
        timings.append(time.perf_counter() - started)
    print(f"solutions over all 15 starts: {total:,}; boards memoised: {boards:,}")
    print(
        f"cold solve of all starts: median {statistics.median(timings) * 1000:.0f} ms, "
        f"best {min(timings) * 1000:.0f} ms, worst {max(timings) * 1000:.0f} ms (7 runs)"
    )
    print(f"self-finishing starts: {triangle.self_finishing_starts()}")


if __name__ == "__main__":
    main()
