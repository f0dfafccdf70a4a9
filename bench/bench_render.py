"""Rendering speed and size: run by hand, prints figures (the README quotes them).

    python bench/bench_render.py [--repeat 200]

Targets from the issue: a warm tabla and a warm ticket under 15 ms each, every PNG under 200 KB.
"Cold" is the first picture of a process (fonts, OpenMoji art, tiles and palette built);
"warm" re-renders with those caches filled, as during a game; "100 players" deals a hundred
different tablas/tickets and renders them one after another, marks included.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import time
from collections.abc import Callable

import PIL

from bot.cantor import verse
from bot.housie_calls import nickname
from bot.render.common import Rendered
from bot.render.housie import render_caller_board, render_housie_call, render_ticket
from bot.render.loteria import render_call, render_card, render_tabla
from engine.fairness import draw_order
from engine.housie import tickets_at
from engine.loteria import CLASSIC_DECK, deal_for_game

SEED = bytes(range(32))


def timed(action: Callable[[], Rendered], repeat: int) -> tuple[list[float], list[float], Rendered]:
    """Wall-clock and CPU milliseconds per call; CPU time is steadier on a shared machine."""
    wall, cpu = [], []
    result = action()
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.thread_time()
        result = action()
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return wall, cpu, result


def report(name: str, wall: list[float], cpu: list[float], rendered: Rendered) -> None:
    ordered = sorted(wall)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{name:<26} wall median {statistics.median(wall):6.2f} ms  p95 {p95:6.2f} ms  "
        f"cpu median {statistics.median(cpu):6.2f} ms  png {len(rendered.png) / 1024:5.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, {platform.machine()}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )

    tablas = deal_for_game(SEED, 100)
    calls = list(draw_order(SEED, 54))
    start = time.perf_counter()
    render_tabla(tablas[0], CLASSIC_DECK, game_id="BENCH", tabla_number=1)
    print(f"cold first tabla (deck tiles + palette): {(time.perf_counter() - start) * 1000:.0f} ms")

    tickets = tickets_at(SEED, 0, 100)
    start = time.perf_counter()
    render_ticket(tickets[0], game_id="BENCH", code="T1")
    print(f"cold first ticket (cells + palette):     {(time.perf_counter() - start) * 1000:.0f} ms")
    numbers = list(draw_order(SEED, 90))
    positions = itertools.cycle(range(90))

    def housie_call(index: int) -> Rendered:
        number = numbers[index]
        recent = numbers[max(0, index - 5) : index]
        return render_housie_call(
            number, recent=recent, call_number=index + 1, nickname=nickname(number)
        )

    cases: list[tuple[str, Callable[[], Rendered]]] = [
        (
            "tabla, plain",
            lambda: render_tabla(tablas[0], CLASSIC_DECK, game_id="BENCH", tabla_number=1),
        ),
        (
            "tabla, 20 called",
            lambda: render_tabla(
                tablas[0], CLASSIC_DECK, game_id="BENCH", tabla_number=1, called=calls[:20]
            ),
        ),
        (
            "tabla, winning",
            lambda: render_tabla(
                tablas[0],
                CLASSIC_DECK,
                game_id="BENCH",
                tabla_number=1,
                called=calls,
                winning_cells=0xF,
            ),
        ),
        ("ticket, plain", lambda: render_ticket(tickets[0], game_id="BENCH", code="T1")),
        (
            "ticket, 45 called",
            lambda: render_ticket(tickets[0], game_id="BENCH", code="T1", called=numbers[:45]),
        ),
        ("caller board, 45 called", lambda: render_caller_board(numbers[:45])),
        (
            "call announcement",
            lambda: render_call(
                CLASSIC_DECK.card(calls[10]),
                CLASSIC_DECK,
                recent=calls[:10],
                call_number=11,
                total=54,
            ),
        ),
        (
            "call with its verse",
            lambda: render_call(
                CLASSIC_DECK.card(calls[10]),
                CLASSIC_DECK,
                recent=calls[:10],
                call_number=11,
                total=54,
                verse=verse(calls[10], "classic", "es-ES"),
            ),
        ),
        (
            # A new number every time, as in a game: the ball is drawn afresh.
            "housie call + nickname",
            lambda: housie_call(next(positions)),
        ),
        ("single card", lambda: render_card(CLASSIC_DECK.card(18))),
    ]
    for name, action in cases:
        wall, cpu, rendered = timed(action, args.repeat)
        report(name, wall, cpu, rendered)

    for what, render_all in (
        (
            "100 tablas, 20 called",
            lambda: [
                render_tabla(t, CLASSIC_DECK, game_id="BENCH", tabla_number=i, called=calls[:20])
                for i, t in enumerate(tablas)
            ],
        ),
        (
            "100 tickets, 45 called",
            lambda: [
                render_ticket(t, game_id="BENCH", code=f"T{i}", called=numbers[:45])
                for i, t in enumerate(tickets)
            ],
        ),
    ):
        start = time.perf_counter()
        pictures = render_all()
        elapsed = time.perf_counter() - start
        largest = max(len(picture.png) for picture in pictures) / 1024
        print(f"{what:<28} total {elapsed * 1000:7.0f} ms   largest png {largest:6.1f} KB")


if __name__ == "__main__":
    main()
