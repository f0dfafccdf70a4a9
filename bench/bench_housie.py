"""Housie engine speed: uniform strips and tickets, prize checks, ticket codes.

Run: python bench/bench_housie.py

Targets: 10,000 uniform strips in < 1 s (pure Python); a prize check in < 5 us.
Times are the best of several runs (the machine is shared); the first use of the generator
builds its tables once, timed separately.
"""

import random
import statistics
import time
import timeit

from engine.fairness import SeededRandom
from engine.housie import (
    Calls,
    Prize,
    check_prize,
    decode_ticket_code,
    encode_ticket_code,
    generate_strip,
    generate_ticket,
    sampling,
)

STRIPS = 10_000
STRIP_TARGET_S = 1.0
CHECK_TARGET_US = 5.0


def bench_tables() -> None:
    start = time.perf_counter()
    sampling._ticket_tables()
    tickets = time.perf_counter() - start
    start = time.perf_counter()
    sampling._strip_tables()
    strips = time.perf_counter() - start
    print(f"build tables once: tickets {tickets * 1000:.0f} ms, strips {strips * 1000:.0f} ms")


def bench_strips() -> None:
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
            for _ in range(STRIPS):
                generate_strip(rng)
            runs.append(time.perf_counter() - start)
        best = min(runs)
        verdict = "ok" if best < STRIP_TARGET_S else "SLOW"
        print(
            f"{STRIPS} uniform strips ({name:13}): best {best:5.3f} s, median"
            f" {statistics.median(runs):5.3f} s, {best / STRIPS * 1e6:5.1f} us/strip"
            f"  [{verdict}, target {STRIP_TARGET_S:.0f} s]"
        )
    rng = random.Random(2)
    best = min(
        timeit.repeat(lambda: generate_ticket(rng), number=STRIPS, repeat=5)
    )  # one ticket at a time, uniform over all tickets
    print(f"{STRIPS} uniform tickets (random.Random): best {best:5.3f} s")


def bench_checks() -> None:
    rng = random.Random(3)
    tickets = [ticket for _ in range(200) for ticket in generate_strip(rng)]
    for called_count in (20, 60):
        calls = [Calls(rng.sample(range(1, 91), called_count)) for _ in tickets]
        for prize in (Prize.EARLY_FIVE, Prize.TOP_LINE, Prize.FOUR_CORNERS, Prize.FULL_HOUSE):
            for require_last in (False, True):
                cases = list(zip(tickets, calls, strict=True))

                def run(cases=cases, prize=prize, require_last=require_last) -> None:
                    for ticket, called in cases:
                        check_prize(ticket, called, prize, require_last=require_last)

                run()  # warm the per-ticket prize masks, as a running game would
                best = min(timeit.repeat(run, number=10, repeat=5)) / (10 * len(cases))
                valid = sum(
                    check_prize(t, c, prize, require_last=require_last).valid for t, c in cases
                )
                verdict = "ok" if best * 1e6 < CHECK_TARGET_US else "SLOW"
                print(
                    f"check {prize.display_name:12} called={called_count:2}"
                    f" require_last={require_last!s:5}: {best * 1e6:5.2f} us/check,"
                    f" {1 / best:>10,.0f} checks/s ({valid:4} of {len(cases)} valid)  [{verdict}]"
                )
    # A plain list of calls (not a Calls) pays for building the called mask on every check.
    plain = [list(rng.sample(range(1, 91), 60)) for _ in tickets]
    cases = list(zip(tickets, plain, strict=True))
    best = min(
        timeit.repeat(
            lambda: [check_prize(t, c, Prize.TOP_LINE) for t, c in cases], number=10, repeat=5
        )
    ) / (10 * len(cases))
    print(f"check Top Line, 60 calls as a plain list: {best * 1e6:5.2f} us/check")


def bench_codes() -> None:
    rng = random.Random(4)
    key = bytes(range(32))
    tickets = [generate_ticket(rng) for _ in range(1000)]
    codes = [encode_ticket_code(ticket, 12_345, key) for ticket in tickets]
    encode = min(
        timeit.repeat(lambda: [encode_ticket_code(t, 12_345, key) for t in tickets], number=1)
    ) / len(tickets)
    decode = min(timeit.repeat(lambda: [decode_ticket_code(c, key) for c in codes], number=1)) / (
        len(codes)
    )
    print(
        f"ticket codes ({len(codes[0])} chars for game 12345): encode {encode * 1e6:5.1f} us,"
        f" decode {decode * 1e6:5.1f} us"
    )


if __name__ == "__main__":
    bench_tables()
    bench_strips()
    bench_checks()
    bench_codes()
