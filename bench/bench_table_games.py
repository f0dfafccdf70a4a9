"""Table games: picture and bot-move times, run by hand, prints figures.

    python bench/bench_table_games.py [--repeat 30]

What a move costs the bot besides Discord: the picture it renders (Dots and Boxes re-renders
the board after every move; tic-tac-toe draws the final board; the triangle its final board and
the solution GIF) and the bot's reply (tic-tac-toe's perfect level, Dots and Boxes' hard level,
the triangle's hint). A component interaction must be acknowledged within 3 s; the cogs defer
first, but a move should still feel instant.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import PIL

from bot.render.dots import render_dots
from bot.render.tictactoe import render_tictactoe
from bot.render.triangle import render_solution, render_triangle
from cogs.dots.solution import solved_board
from engine.dots import DotsGame, choose_line
from engine.dots import Level as DotsLevel
from engine.tictactoe import Level, Rules, TicTacToe, choose_move
from engine.triangle import TriangleGame, best_line, clear_solver_cache, start_board


def timed(action: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    """Milliseconds per call (wall clock), after one call to warm the caches."""
    result = action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        times.append((time.perf_counter() - start) * 1000)
    return times, result


def report(name: str, times: list[float], extra: str = "") -> None:
    ordered = sorted(times)
    worst = ordered[-1]
    print(f"{name:<40} median {statistics.median(times):7.2f} ms  max {worst:7.2f} ms  {extra}")


def dots_midgame(rows: int, columns: int, lines: int) -> DotsGame:
    game = DotsGame(rows, columns)
    rng = random.Random(7)
    for _ in range(lines):
        game.play(rng.choice(game.free_lines()))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    repeat = parser.parse_args().repeat
    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, {platform.machine()}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )

    print("-- pictures (warm)")
    won = TicTacToe.from_state("3/3/XOXOX.O.X")
    times, rendered = timed(
        lambda: render_tictactoe(won, game_id="12", x_name="Alice", o_name="Bob"), repeat
    )
    report("tic-tac-toe final board", times, f"png {len(rendered.png) / 1024:.1f} KB")
    for rows, columns in ((3, 3), (5, 5)):
        game = dots_midgame(rows, columns, 2 * rows * columns)
        times, rendered = timed(
            lambda game=game: render_dots(game, game_id="12", names=("Alice", "Bob")), repeat
        )
        report(f"dots {rows}x{columns} board", times, f"png {len(rendered.png) / 1024:.1f} KB")
    # Names beyond Latin go through font fallback, bidi and emoji; too long ones are shortened.
    scripts = ("محمد الهاشمي 👍🏽", "王小明 たなか 김민준")
    long_names = ("Maximiliano Alessandro Fernández", "Wolfgang Amadeus Mozart-Salzburg")
    for what, names in (("names in five scripts", scripts), ("32-character names", long_names)):
        times, rendered = timed(
            lambda names=names: render_tictactoe(
                won, game_id="12", x_name=names[0], o_name=names[1]
            ),
            repeat,
        )
        report(f"tic-tac-toe, {what}", times, f"png {len(rendered.png) / 1024:.1f} KB")
        game = dots_midgame(3, 3, 18)
        times, rendered = timed(
            lambda names=names, game=game: render_dots(game, game_id="12", names=names), repeat
        )
        report(f"dots 3x3, {what}", times, f"png {len(rendered.png) / 1024:.1f} KB")
    counter = iter(range(10**9))
    times, rendered = timed(  # nothing cached: as for the first picture of each new player
        lambda: render_dots(
            dots_midgame(3, 3, 18),
            game_id="12",
            names=tuple(f"{name} {next(counter)}" for name in scripts),
        ),
        repeat,
    )
    report("dots 3x3, new script names each time", times, f"png {len(rendered.png) / 1024:.1f} KB")
    puzzle = TriangleGame.new(4)
    for jump in puzzle.solution()[:6]:
        puzzle.play(jump)
    times, rendered = timed(
        lambda: render_triangle(
            puzzle.board, game_id="12", caption="8 pegs left", last_jump=puzzle.history[-1]
        ),
        repeat,
    )
    report("triangle board", times, f"png {len(rendered.png) / 1024:.1f} KB")
    jumps = best_line(start_board(4))
    times, rendered = timed(lambda: render_solution(4, jumps), max(3, repeat // 5))
    report("triangle solution GIF (14 frames)", times, f"gif {len(rendered.png) / 1024:.1f} KB")

    print("-- the bot's move")
    rng = random.Random(1)
    for size in (3, 4, 5):
        empty = TicTacToe(Rules.standard(size))
        times, _ = timed(lambda empty=empty: choose_move(empty, Level.PERFECT, rng), repeat)
        report(f"tic-tac-toe perfect, empty {size}x{size}", times)
    for rows, columns, lines in ((3, 3, 0), (5, 5, 0), (5, 5, 30), (5, 5, 45)):
        game, solved = dots_midgame(rows, columns, lines), solved_board(rows, columns)
        times, _ = timed(
            lambda game=game, solved=solved: choose_line(game, DotsLevel.HARD, rng, solved),
            max(3, repeat // 3),
        )
        report(f"dots hard, {rows}x{columns} after {lines} lines", times)

    for rows, columns in ((3, 3), (5, 5)):
        game, moves = DotsGame(rows, columns), []
        while not game.is_over:
            start = time.perf_counter()
            game.play(choose_line(game, DotsLevel.HARD, rng, solved_board(rows, columns)))
            moves.append((time.perf_counter() - start) * 1000)
        report(f"dots hard vs hard, every move of {rows}x{columns}", moves)

    def cold_hint() -> object:
        clear_solver_cache()
        return TriangleGame.new(4).hint()

    times, _ = timed(cold_hint, max(3, repeat // 5))
    report("triangle hint, cold solver", times)
    times, _ = timed(lambda: TriangleGame.new(4).hint(), repeat)
    report("triangle hint, warm solver", times)


if __name__ == "__main__":
    main()
