"""What dealing seat k costs: the game's dealer against replaying the stream, and resuming.

Run: python bench/bench_deal.py [--repeat N] [--quick]

For each seat k (the k-th board handed out, deal position k - 1), on N seeds:

* dealer: ``deal(1)`` on a dealer that has handed out k - 1 boards (what a join costs now);
* replay: ``tablas_at(seed, k - 1, 1)`` / ``tickets_at(...)`` (what a join cost before: every
  earlier board dealt again);
* resume: ``TablaDealer.resume(seed, k - 1)`` / ``TicketDealer.resume(...)`` (the one replay left,
  after a restart, off the event loop).

A Housie dealer draws a whole strip when the first of its six tickets is dealt, so a seat that
starts a strip costs more than the five after it; both are shown. Then a whole lobby: every join
of a 1,000-player Lotería lobby (one tabla) and a 1,000-player, 6-ticket Housie lobby, dealt by
one dealer and by replay (``--quick`` skips the replays, about 20 s). Engine only: the Housie cog
also signs each ticket's code (about 18 us a ticket, ``bench_housie.py``).
"""

import argparse
import gc
import statistics
import time
from collections.abc import Callable, Sequence

from engine.housie import TICKETS_PER_STRIP, TicketDealer, tickets_at
from engine.loteria import TablaDealer, tablas_at

LOTERIA_SEATS = (1, 1_000, 6_000, 10_000)
HOUSIE_SEATS = (1, 1_000, 6_000)
LOBBY_PLAYERS = 1_000
HOUSIE_LOBBY_TICKETS = 6

Dealer = TablaDealer | TicketDealer


def seeds(count: int) -> list[bytes]:
    return [bytes([index]) * 32 for index in range(count)]


def show(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:7.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:7.2f} ms"
    return f"{seconds:7.2f} s "


def seat_costs(
    resume: Callable[[bytes, int], Dealer],
    replay: Callable[[bytes, int, int], Sequence[object]],
    seat: int,
    repeat: int,
) -> tuple[float, float, float]:
    """Median seconds of (dealer deal, replay, resume) for seat ``seat`` over ``repeat`` seeds."""
    dealt: list[float] = []
    replayed: list[float] = []
    resumed: list[float] = []
    # The cyclic collector stays off while timing: a collection set off by the garbage of an
    # earlier resume (10,000 tablas) would land in whichever microsecond deal came next.
    gc.collect()
    gc.disable()
    try:
        # Each kind of work in a loop of its own, so each runs warm alike.
        dealers = []
        for seed in seeds(repeat):
            start = time.perf_counter()
            dealers.append(resume(seed, seat - 1))
            resumed.append(time.perf_counter() - start)
        boards = []
        for dealer in dealers:
            start = time.perf_counter()
            boards.append(dealer.deal(1))
            dealt.append(time.perf_counter() - start)
        references = []
        for seed in seeds(repeat):
            start = time.perf_counter()
            references.append(replay(seed, seat - 1, 1))
            replayed.append(time.perf_counter() - start)
        assert boards == references
    finally:
        gc.enable()
    return statistics.median(dealt), statistics.median(replayed), statistics.median(resumed)


def bench_seats(repeat: int) -> None:
    print(f"cost of dealing seat k (median of {repeat} seeds)")
    print(f"{'game':8} {'seat k':>7} {'dealer':>11} {'replay':>11} {'resume':>11}")
    for seat in LOTERIA_SEATS:
        deal, replay, resume = seat_costs(TablaDealer.resume, tablas_at, seat, repeat)
        print(f"{'Lotería':8} {seat:7,} {show(deal)} {show(replay)} {show(resume)}")
    for seat in HOUSIE_SEATS:
        deal, replay, resume = seat_costs(TicketDealer.resume, tickets_at, seat, repeat)
        # The seat that starts the strip holding seat k: the dealer draws the strip there.
        first = seat - (seat - 1) % TICKETS_PER_STRIP
        line = f"{'Housie':8} {seat:7,} {show(deal)} {show(replay)} {show(resume)}"
        if first == seat:
            line += "   (the seat starts a strip)"
        else:
            starts, _, _ = seat_costs(TicketDealer.resume, tickets_at, first, repeat)
            line += f"   (seat {first:,}, which starts the strip: dealer {show(starts).strip()})"
        print(line)


def lobby_seconds(join: Callable[[int], object]) -> float:
    """The time ``join(player)`` takes summed over every player of the lobby, in joining order."""
    total = 0.0
    for player in range(LOBBY_PLAYERS):
        start = time.perf_counter()
        join(player)
        total += time.perf_counter() - start
    return total


def report_lobby(name: str, by_dealer: float, by_replay: float | None) -> None:
    replay = "" if by_replay is None else f", replay {show(by_replay).strip()}"
    print(f"{name:38} dealer {show(by_dealer).strip()}{replay}")


def bench_lobbies(quick: bool) -> None:
    seed = seeds(1)[0]
    count = HOUSIE_LOBBY_TICKETS
    tablas, tickets = TablaDealer(seed), TicketDealer(seed)
    print("a whole lobby: every join dealt")
    report_lobby(
        f"Lotería, {LOBBY_PLAYERS:,} players",
        lobby_seconds(lambda _player: tablas.deal(1)),
        None if quick else lobby_seconds(lambda player: tablas_at(seed, player, 1)),
    )
    report_lobby(
        f"Housie, {LOBBY_PLAYERS:,} players x {count} tickets",
        lobby_seconds(lambda _player: tickets.deal(count)),
        None if quick else lobby_seconds(lambda player: tickets_at(seed, player * count, count)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="seeds per seat (default 15)")
    parser.add_argument("--quick", action="store_true", help="skip replaying whole lobbies")
    options = parser.parse_args()
    # Warm up: the strip sampler's tables (about 0.1 s, once) and the interpreter's caches.
    for seat in (1, 10, 13):
        seat_costs(TablaDealer.resume, tablas_at, seat, options.repeat)
        seat_costs(TicketDealer.resume, tickets_at, seat, options.repeat)
    bench_seats(options.repeat)
    bench_lobbies(options.quick)


if __name__ == "__main__":
    main()
