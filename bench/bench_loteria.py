"""Lotería engine speed: dealing unique tablas and checking claims. Run: python bench/bench_loteria.py

Targets: 10,000 unique tablas in < 0.2 s; a claim check in < 5 us.
"""

import random
import statistics
import time
import timeit

from engine.fairness import SeededRandom
from engine.loteria import MAX_TABLAS, Pattern, check_claim, deal_tablas

DEAL_TARGET_S = 0.2
CHECK_TARGET_US = 5.0


def bench_deal() -> None:
    sources = {
        "random.Random": lambda: random.Random(1),
        "SystemRandom": random.SystemRandom,
        "SeededRandom": lambda: SeededRandom(bytes(range(32))),
    }
    for name, make in sources.items():
        runs = []
        for _ in range(5):
            rng = make()
            start = time.perf_counter()
            tablas = deal_tablas(MAX_TABLAS, rng)
            runs.append(time.perf_counter() - start)
        assert len({t.card_mask for t in tablas}) == MAX_TABLAS
        best = min(runs)
        verdict = "ok" if best < DEAL_TARGET_S else "SLOW"
        print(
            f"deal {MAX_TABLAS} unique tablas ({name:13}): best {best * 1000:6.1f} ms,"
            f" median {statistics.median(runs) * 1000:6.1f} ms  [{verdict}, target"
            f" {DEAL_TARGET_S * 1000:.0f} ms]"
        )


def bench_check() -> None:
    rng = random.Random(2)
    tablas = deal_tablas(1000, rng)
    # Claims mid-game and late-game: 20 and 54 cards called, with and without the last-card rule.
    for called_count in (20, 54):
        calls = [rng.sample(range(1, 55), called_count) for _ in range(len(tablas))]
        for pattern in Pattern:
            for require_last in (False, True):
                cases = list(zip(tablas, calls, strict=True))

                def run(cases=cases, pattern=pattern, require_last=require_last) -> None:
                    for tabla, called in cases:
                        check_claim(tabla, called, pattern, require_last=require_last)

                run()  # warm the per-tabla pattern caches, as a running game would
                best = min(timeit.repeat(run, number=20, repeat=5)) / (20 * len(cases))
                verdict = "ok" if best * 1e6 < CHECK_TARGET_US else "SLOW"
                print(
                    f"check {pattern.value:7} called={called_count:2}"
                    f" require_last={require_last!s:5}: {best * 1e6:5.2f} us/check,"
                    f" {1 / best:>10,.0f} checks/s  [{verdict}]"
                )
    # First check of a pattern on a fresh tabla pays for building its cached masks.
    fresh = deal_tablas(1000, random.Random(3))
    called = list(range(1, 31))
    start = time.perf_counter()
    for tabla in fresh:
        check_claim(tabla, called, Pattern.LINE)
    cold = (time.perf_counter() - start) / len(fresh)
    print(f"check line, cold cache (first check per tabla): {cold * 1e6:5.2f} us/check")


if __name__ == "__main__":
    bench_deal()
    bench_check()
