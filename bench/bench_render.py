"""Rendering speed and size: run by hand, prints figures (bench/README.md quotes them).

    python bench/bench_render.py [--repeat 200] [--busy]

Targets from the issues: a warm tabla and a warm ticket under 15 ms each, every PNG under 200 KB;
the per-call pictures (the Lotería call with and without its verse, the caller's board, the
Housie call) at most half the CPU of the per-picture palettes they replaced.
"Cold" is the first picture of a process (fonts, OpenMoji art, tiles and palette built);
"warm" re-renders with those caches filled, as during a game. The per-call cases draw what a
game draws: a new card or number every time, in a game's call order, with the calls before it;
each pass over the deck is another game (another seed). "first game" is the median of the first
pass (the tiles and balls each picture pastes are drawn then), "steady" of all passes.
"100 players" deals a hundred different tablas/tickets and renders them one after another.
"end of game" is the picture a calling game ends on with twelve winners (each a full board, the
most drawn), and ``/stats``'s leaderboard picture.
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

from bot.app import game_cogs
from bot.call_names import nickname
from bot.render import leaderboard, warm_up
from bot.render.common import Rendered
from bot.render.housie import caller_board_frame as housie_board_frame
from bot.render.housie import render_caller_board, render_housie_call, render_ticket
from bot.render.housie.results import HousieWin, render_housie_result
from bot.render.loteria import caller_board_frame as loteria_board_frame
from bot.render.loteria import render_call, render_card, render_tabla
from bot.render.loteria.results import LoteriaWin, render_loteria_result
from bot.render.replay import ReplayWin, render_replay
from cogs.loteria.verses import verse
from engine.fairness import draw_order
from engine.housie import tickets_at
from engine.loteria import CLASSIC_DECK, Pattern, deal_for_game

SEED = bytes(range(32))


def timed(
    action: Callable[[int], Rendered], repeat: int, *, skip_first: bool = True
) -> tuple[list[float], list[float], list[int]]:
    """Wall-clock and CPU milliseconds per call, and the PNG sizes; ``action`` gets the index."""
    wall, cpu, sizes = [], [], []
    if skip_first:
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
        f"{name:<43} wall median {statistics.median(wall):6.2f} ms  p95 {p95:6.2f} ms  "
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
    tickets = tickets_at(SEED, 0, 100)
    numbers = list(draw_order(SEED, 90))
    start = time.perf_counter()
    warm_up(cog.warm_up_pictures for cog in game_cogs())
    print(f"warm_up (what the bot does at start-up): {(time.perf_counter() - start) * 1000:.0f} ms")
    firsts: list[tuple[str, Callable[[], Rendered]]] = [
        ("tabla", lambda: render_tabla(tablas[0], CLASSIC_DECK, game_id="B", tabla_number=1)),
        ("ticket", lambda: render_ticket(tickets[0], game_id="B", code="T1")),
        (
            "Lotería call",
            lambda: render_call(
                CLASSIC_DECK.card(calls[0]), CLASSIC_DECK, recent=[], call_number=1, total=54
            ),
        ),
        ("caller board", lambda: render_caller_board(numbers[:1])),
        ("Housie call", lambda: render_housie_call(numbers[0], recent=[], call_number=1)),
    ]
    for what, first in firsts:
        start = time.perf_counter()
        first()
        print(f"first {what} after warm_up: {(time.perf_counter() - start) * 1000:.0f} ms")

    games = range(1 + repeat // 54)
    loteria_orders = [list(draw_order(bytes([game + 1]) * 32, 54)) for game in games]
    housie_orders = [list(draw_order(bytes([game + 1]) * 32, 90)) for game in games]
    verse_orders = [list(draw_order(bytes([game + 101]) * 32, 54)) for game in games]

    def loteria_call(index: int, with_verse: bool) -> Rendered:
        game, at = divmod(index, 54)
        order = (verse_orders if with_verse else loteria_orders)[game]
        number = order[at]
        return render_call(
            CLASSIC_DECK.card(number),
            CLASSIC_DECK,
            recent=order[:at],
            call_number=at + 1,
            total=54,
            verse=verse(number, "classic", "es-ES") if with_verse else None,
        )

    def housie_call(index: int) -> Rendered:
        game, at = divmod(index, 90)
        order = housie_orders[game]
        number = order[at]
        return render_housie_call(
            number, recent=order[:at], call_number=at + 1, nickname=nickname(number)
        )

    def caller_board(index: int) -> Rendered:
        game, at = divmod(index, 90)
        return render_caller_board(housie_orders[game][: at + 1])

    per_call: list[tuple[str, Callable[[int], Rendered], int]] = [
        ("caller board, each call", caller_board, 90),
        ("Lotería call, each card", lambda index: loteria_call(index, with_verse=False), 54),
        ("Lotería call + verse, each", lambda index: loteria_call(index, with_verse=True), 54),
        ("Housie call + nickname, each", housie_call, 90),
    ]
    for name, action, per_game in per_call:
        wall, cpu, sizes = timed(action, repeat, skip_first=False)
        report(f"{name} (first game)", wall[:per_game], cpu[:per_game], sizes[:per_game])
        report(f"{name} (steady)", wall, cpu, sizes)

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
    names = [f"Player {index}" for index in range(12)]
    loteria_wins = [
        LoteriaWin(name, "Full tabla", Pattern.FULL, 54, tabla, 0xFFFF, shared=True)
        for name, tabla in zip(names, tablas, strict=False)
    ]
    housie_wins = [
        HousieWin(name, "Full House", 90, ticket, frozenset(ticket.numbers), 1, shared=True)
        for name, ticket in zip(names, tickets, strict=False)
    ]
    titles = [cog.title for cog in game_cogs()]  # the games found, as /stats lists them
    end_of_game: list[tuple[str, Callable[[int], Rendered]]] = [
        (
            "end of game, Lotería, 12 winners",
            lambda _: render_loteria_result(
                loteria_wins, CLASSIC_DECK, game_id="BENCH", called=calls
            )[0],
        ),
        (
            "end of game, Housie, 12 winners",
            lambda _: render_housie_result(housie_wins, game_id="BENCH", called=numbers)[0],
        ),
        (
            "replay GIF, Housie, 90 calls, 4 wins",
            lambda _: render_replay(
                lambda k: housie_board_frame(numbers[:k]),
                90,
                [ReplayWin(seq, "Full House", ("Player",)) for seq in (10, 30, 31, 90)],
                title="Housie",
                game_id=1,
            ),
        ),
        (
            "replay GIF, Lotería, 54 calls, 2 wins",
            lambda _: render_replay(
                lambda k: loteria_board_frame(calls[:k], CLASSIC_DECK),
                54,
                [ReplayWin(seq, "Line", ("Player",)) for seq in (12, 54)],
                title="Lotería",
                game_id=1,
            ),
        ),
        (
            f"/stats leaderboard, {len(titles)} games",
            lambda _: leaderboard.samples(titles)[0][1],
        ),
    ]
    for name, action in end_of_game:
        report(name, *timed(action, max(3, repeat // 20)))
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
        print(f"{what:<43} total {elapsed * 1000:7.0f} ms   largest png {largest:6.1f} KB")


if __name__ == "__main__":
    main()
