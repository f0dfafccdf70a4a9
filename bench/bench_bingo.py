"""75-ball Bingo: dealing unique cards, checking a claim against a pattern, and its pictures.

Run: python bench/bench_bingo.py [--busy]

- **deal**: 10,000 unique cards from one seed (``deal_cards`` over the game's seeded stream; and
  ``random.Random``, ``SystemRandom`` for comparison), and what seat k costs a live game's
  ``CardDealer`` against replaying the stream (``cards_at``, what the verify command does);
- **claim check**: ``check_claim`` per card for patterns with one placement (blackout), a few
  (any line: 12), and many (the T any way round and anywhere), mid-game and late, with and
  without the slept rule;
- **pictures**: a card with its dabs, a call, the caller's board, a pattern; CPU of the thread
  (median over many renders, each a new card or call) and PNG size, warm (palettes built).

Targets: 10,000 unique cards in < 1 s (the verify command replays a whole deal; a live game
deals one seat at a time), a claim check in < 20 us (a claim is one check; automatic claims check
each card holding the number called), a picture in < 15 ms CPU and < 200 KB. ``--busy`` runs a
CPU-bound process beside it (a shared host).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
import timeit
from collections.abc import Callable

from bot.render.bingo import (
    render_call,
    render_caller_board,
    render_card,
    render_pattern,
    warm_up,
)
from engine.bingo import (
    MAX_CARDS,
    PATTERN_BOOK,
    Card,
    CardDealer,
    Pattern,
    cards_at,
    check_claim,
    deal_cards,
)
from engine.fairness import SeededRandom, draw_order

DEAL_TARGET_S = 1.0
CHECK_TARGET_US = 20.0
RENDER_TARGET_MS = 15.0
SEED = bytes(range(32))


def best_and_median(runs: list[float]) -> str:
    return f"best {min(runs) * 1000:6.1f} ms, median {statistics.median(runs) * 1000:6.1f} ms"


def bench_deal() -> None:
    sources: dict[str, Callable[[], random.Random]] = {
        "random.Random": lambda: random.Random(1),
        "SystemRandom": random.SystemRandom,
        "SeededRandom": lambda: SeededRandom(SEED, b"bench"),
    }
    for name, make in sources.items():
        runs = []
        for _ in range(5):
            rng = make()
            start = time.perf_counter()
            cards = deal_cards(MAX_CARDS, rng)
            runs.append(time.perf_counter() - start)
        assert len({frozenset(card.numbers) for card in cards}) == MAX_CARDS
        verdict = "ok" if min(runs) < DEAL_TARGET_S else "SLOW"
        print(
            f"deal {MAX_CARDS:,} unique cards ({name:13}): {best_and_median(runs)}"
            f"  [{verdict}, target {DEAL_TARGET_S * 1000:.0f} ms]"
        )
    # A live game deals seat k with its dealer, where it stopped; the verify command replays.
    for seat in (1, 1_000, 6_000):
        dealer = CardDealer.resume(SEED, seat - 1)
        per_seat = min(timeit.repeat(lambda d=dealer: d.deal(1), number=1, repeat=1)) * 1e6
        replay = min(timeit.repeat(lambda s=seat: cards_at(SEED, s - 1), number=1, repeat=3))
        print(
            f"seat {seat:>5,}: the game's dealer {per_seat:6.1f} us;"
            f" replaying the stream {replay * 1000:7.2f} ms"
        )


def bench_check() -> None:
    rng = random.Random(2)
    cards = deal_cards(1_000, rng)
    patterns = [PATTERN_BOOK[code] for code in ("blackout", "line", "any_t")]
    for called_count in (30, 60):
        calls = [rng.sample(range(1, 76), called_count) for _ in cards]
        for pattern in patterns:
            for require_last in (False, True):
                cases = list(zip(cards, calls, strict=True))

                def run(
                    cases: list[tuple[Card, list[int]]] = cases,
                    pattern: Pattern = pattern,
                    require_last: bool = require_last,
                ) -> None:
                    for card, called in cases:
                        check_claim(card, called, pattern, require_last=require_last)

                best = min(timeit.repeat(run, number=10, repeat=5)) / (10 * len(cases))
                verdict = "ok" if best * 1e6 < CHECK_TARGET_US else "SLOW"
                print(
                    f"check {pattern.code:8} ({len(pattern.masks):3} placements)"
                    f" called={called_count} slept rule={require_last!s:5}:"
                    f" {best * 1e6:5.2f} us  [{verdict}, target {CHECK_TARGET_US:g} us]"
                )


def thread_cpu(work: Callable[[], bytes]) -> tuple[float, int]:
    start = time.thread_time()
    png = work()
    return time.thread_time() - start, len(png)


def bench_render(count: int) -> None:
    started = time.thread_time()
    warm_up()
    print(f"warm-up (every Bingo palette): {(time.thread_time() - started) * 1000:.0f} ms CPU")
    cards = cards_at(SEED, 0, count)
    orders = [draw_order(bytes([game + 1]) * 32, 75) for game in range(count)]
    kinds: dict[str, Callable[[int], bytes]] = {
        "card, 30 calls dabbed": lambda i: (
            render_card(cards[i], game_id="BENCH", card_number=i + 1, called=orders[i][:30]).png
        ),
        "call": lambda i: (
            render_call(
                orders[i][i % 75], recent=orders[i][: i % 75][-5:], call_number=i % 75 + 1
            ).png
        ),
        "caller's board": lambda i: render_caller_board(orders[i][: i % 75 + 1]).png,
        "pattern": lambda i: render_pattern(list(PATTERN_BOOK.values())[i % len(PATTERN_BOOK)]).png,
    }
    for name, draw in kinds.items():
        results = [thread_cpu(lambda i=i, draw=draw: draw(i)) for i in range(count)]
        cpu = statistics.median(r[0] for r in results) * 1000
        size = statistics.median(r[1] for r in results) / 1000
        verdict = "ok" if cpu < RENDER_TARGET_MS else "SLOW"
        print(
            f"render {name:22}: {cpu:5.2f} ms CPU, {size:5.1f} KB"
            f"  [{verdict}, target {RENDER_TARGET_MS:g} ms]"
        )


def spin(stop: multiprocessing.synchronize.Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--busy", action="store_true", help="a CPU-bound process runs beside it")
    parser.add_argument("--renders", type=int, default=150, help="pictures of each kind")
    options = parser.parse_args()
    stop = multiprocessing.Event()
    busy = multiprocessing.Process(target=spin, args=(stop,)) if options.busy else None
    if busy is not None:
        busy.start()
    try:
        bench_deal()
        bench_check()
        bench_render(options.renders)
    finally:
        stop.set()
        if busy is not None:
            busy.join()


if __name__ == "__main__":
    main()
