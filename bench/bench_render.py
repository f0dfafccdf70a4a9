"""Rendering speed and size: run by hand, prints figures (the README quotes them).

    python bench/bench_render.py [--repeat 200] [--busy]

Targets from the issues: a warm tabla and a warm ticket under 15 ms each, every PNG under 200 KB;
the per-call pictures (the Lotería call with and without its verse, the caller's board, the
Housie call) at most half the CPU of the per-picture palettes they replaced.
"Cold" is the first picture of a process (fonts, OpenMoji art, tiles and palette built);
"warm" re-renders with those caches filled, as during a game. The per-call cases draw what a
game draws: a new card or number every time, in the seed's call order, with the calls before it
(the first pass over the deck also draws each card's large tile; the figure is the median).
"100 players" deals a hundred different tablas/tickets and renders them one after another.
CPU time (this thread's) is the steady figure on a shared machine; ``--busy`` runs a CPU-bound
process beside the benchmark, as a shared host would.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
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


def timed(
    action: Callable[[int], Rendered], repeat: int
) -> tuple[list[float], list[float], list[int]]:
    """Wall-clock and CPU milliseconds per call, and the PNG sizes; ``action`` gets the index."""
    wall, cpu, sizes = [], [], []
    action(0)
    for index in range(repeat):
        start, start_cpu = time.perf_counter(), time.thread_time()
        result = action(index)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
        sizes.append(len(result.png))
    return wall, cpu, sizes


def report(name: str, wall: list[float], cpu: list[float], sizes: list[int]) -> None:
    ordered = sorted(wall)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{name:<30} wall median {statistics.median(wall):6.2f} ms  p95 {p95:6.2f} ms  "
        f"cpu median {statistics.median(cpu):6.2f} ms  png median "
        f"{statistics.median(sizes) / 1024:5.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--busy", action="store_true", help="a CPU-bound process beside it")
    args = parser.parse_args()
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        run(args.repeat)
    finally:
        if burner is not None:
            burner.kill()


def run(repeat: int) -> None:
    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, {platform.machine()}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    tablas = deal_for_game(SEED, 100)
    calls = list(draw_order(SEED, 54))
    start = time.perf_counter()
    render_tabla(tablas[0], CLASSIC_DECK, game_id="BENCH", tabla_number=1)
    print(f"cold first tabla: {(time.perf_counter() - start) * 1000:.0f} ms")

    tickets = tickets_at(SEED, 0, 100)
    start = time.perf_counter()
    render_ticket(tickets[0], game_id="BENCH", code="T1")
    print(f"cold first ticket: {(time.perf_counter() - start) * 1000:.0f} ms")
    numbers = list(draw_order(SEED, 90))

    def loteria_call(index: int, with_verse: bool) -> Rendered:
        at = index % len(calls)
        number = calls[at]
        return render_call(
            CLASSIC_DECK.card(number),
            CLASSIC_DECK,
            recent=calls[:at],
            call_number=at + 1,
            total=54,
            verse=verse(number, "classic", "es-ES") if with_verse else None,
        )

    def housie_call(index: int) -> Rendered:
        at = index % len(numbers)
        number = numbers[at]
        return render_housie_call(
            number, recent=numbers[:at], call_number=at + 1, nickname=nickname(number)
        )

    cases: list[tuple[str, Callable[[int], Rendered]]] = [
        (
            "tabla, plain",
            lambda _: render_tabla(tablas[0], CLASSIC_DECK, game_id="BENCH", tabla_number=1),
        ),
        (
            "tabla, 20 called",
            lambda _: render_tabla(
                tablas[0], CLASSIC_DECK, game_id="BENCH", tabla_number=1, called=calls[:20]
            ),
        ),
        (
            "tabla, winning",
            lambda _: render_tabla(
                tablas[0],
                CLASSIC_DECK,
                game_id="BENCH",
                tabla_number=1,
                called=calls,
                winning_cells=0xF,
            ),
        ),
        ("ticket, plain", lambda _: render_ticket(tickets[0], game_id="BENCH", code="T1")),
        (
            "ticket, 45 called",
            lambda _: render_ticket(tickets[0], game_id="BENCH", code="T1", called=numbers[:45]),
        ),
        ("caller board, each call", lambda index: render_caller_board(numbers[: index % 90 + 1])),
        ("Lotería call, each card", lambda index: loteria_call(index, with_verse=False)),
        ("Lotería call + verse, each", lambda index: loteria_call(index, with_verse=True)),
        ("Housie call + nickname, each", housie_call),
        (
            "Lotería call, same card",
            lambda _: render_call(
                CLASSIC_DECK.card(calls[10]),
                CLASSIC_DECK,
                recent=calls[:10],
                call_number=11,
                total=54,
            ),
        ),
        ("single card", lambda _: render_card(CLASSIC_DECK.card(18))),
    ]
    for name, action in cases:
        report(name, *timed(action, repeat))

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
        print(f"{what:<30} total {elapsed * 1000:7.0f} ms   largest png {largest:6.1f} KB")


if __name__ == "__main__":
    main()
