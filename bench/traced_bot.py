"""``python -m bot`` with a switch for tracemalloc, for bench_load.py's memory figure, and an
event-loop probe for bench_capacity.py.

SIGUSR1 starts tracing Python allocations (or clears the traces if tracing already); SIGUSR2
writes ``current peak`` (bytes traced and still alive, and the peak) to the file named by
``GAMENIGHT_TRACE_FILE``, then the largest allocation sites. Until SIGUSR1 the bot runs
untraced, at full speed.

With ``GAMENIGHT_LOOP_PROBE_FILE`` set, the bot's event loop also runs a probe: a callback due
every 10 ms that notes how late it ran (how long the loop ran nothing else: a stall). SIGRTMIN
writes ``longest p99 ticks`` (seconds, seconds, count) since the previous SIGRTMIN to that file,
then for each of the garbage collector's three generations its collections and the longest
(seconds), and the objects it tracks; and starts a new window. SIGRTMIN+1 hands the memory the
allocator keeps free back to the system (``malloc_trim``), then writes ``trimmed``. Without the variable there is no probe (bench_load.py's runs).
"""

from __future__ import annotations

import asyncio
import gc
import os
import runpy
import signal
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from types import FrameType

FRAMES = 1  # more frames make the bot several times slower (its acknowledgements time out)
TOP_SITES = 12
PROBE_TICK = 0.01  # seconds between the loop probe's callbacks


def start_tracing(_signal: int, _frame: FrameType | None) -> None:
    if tracemalloc.is_tracing():
        tracemalloc.clear_traces()
    else:
        tracemalloc.start(FRAMES)


def where(trace: tracemalloc.Traceback) -> str:
    """The allocating line (folder/file:line)."""
    frame = trace[0]
    path = Path(frame.filename)
    return f"{path.parent.name}/{path.name}:{frame.lineno}"


def write_traced(_signal: int, _frame: FrameType | None) -> None:
    # Count what is live, not garbage waiting for the cyclic collector (discord.File leaves
    # each attachment's BytesIO in a reference cycle with its own close method).
    gc.collect()
    current, peak = tracemalloc.get_traced_memory()
    stats = tracemalloc.take_snapshot().statistics("traceback")[:TOP_SITES]
    lines = [f"{current} {peak}"]
    lines += [
        f"{stat.size / 1024:8.0f} KiB {stat.count:7d} x  {where(stat.traceback)}" for stat in stats
    ]
    Path(os.environ["GAMENIGHT_TRACE_FILE"]).write_text("\n".join(lines) + "\n")


class LoopProbe:
    """How late a callback due every ``PROBE_TICK`` runs on ``loop``: the loop's stalls."""

    def __init__(self, loop: asyncio.AbstractEventLoop, report: Path) -> None:
        self.loop = loop
        self.report = report
        self.lags: list[float] = []
        self.due = 0.0
        self.collecting = 0.0
        self.collections: dict[int, int] = {}
        self.longest_collection: dict[int, float] = {}

    def start(self) -> None:
        self.due = self.loop.time() + PROBE_TICK
        self.loop.call_at(self.due, self.tick)
        self.loop.add_signal_handler(signal.SIGRTMIN, self.write)
        self.loop.add_signal_handler(signal.SIGRTMIN + 1, self.trim)
        gc.callbacks.append(self.time_collection)

    def time_collection(self, phase: str, info: dict[str, int]) -> None:
        """The garbage collector's pauses, by generation (the loop stands still in them)."""
        if phase == "start":
            self.collecting = time.perf_counter()
            return
        took = time.perf_counter() - self.collecting
        generation = info["generation"]
        self.collections[generation] = self.collections.get(generation, 0) + 1
        self.longest_collection[generation] = max(self.longest_collection.get(generation, 0.0), took)

    def tick(self) -> None:
        now = self.loop.time()
        self.lags.append(max(0.0, now - self.due))
        self.due = now + PROBE_TICK
        self.loop.call_at(self.due, self.tick)

    def trim(self) -> None:
        """Hand the allocator's free memory back to the system, then write ``trimmed`` to the
        report: how much of the RSS was memory freed but kept (not the bot's own use)."""
        from bot.render.common import return_free_memory

        return_free_memory()
        self.report.write_text("trimmed\n")

    def write(self) -> None:
        lags, self.lags = sorted(self.lags), []
        longest = lags[-1] if lags else 0.0
        p99 = lags[min(len(lags) - 1, round(0.99 * (len(lags) - 1)))] if lags else 0.0
        # Then, per generation: collections, the longest (seconds); and the objects tracked.
        collections = " ".join(
            f"{self.collections.get(g, 0)} {self.longest_collection.get(g, 0.0)}" for g in range(3)
        )
        self.collections, self.longest_collection = {}, {}
        tracked = len(gc.get_objects())
        self.report.write_text(f"{longest} {p99} {len(lags)} {collections} {tracked}\n")


def install_loop_probe(report: Path) -> None:
    """A probe on the first event loop made in the main thread (the bot's, by asyncio.run)."""
    base = type(asyncio.get_event_loop_policy())

    class ProbedPolicy(base):  # type: ignore[valid-type, misc]
        probed = False

        def new_event_loop(self) -> asyncio.AbstractEventLoop:
            loop = super().new_event_loop()
            if not ProbedPolicy.probed and threading.current_thread() is threading.main_thread():
                ProbedPolicy.probed = True
                LoopProbe(loop, report).start()
            return loop

    asyncio.set_event_loop_policy(ProbedPolicy())


if __name__ == "__main__":
    # Taken out of the environment: the bot warns of variables it does not know.
    if probe_file := os.environ.pop("GAMENIGHT_LOOP_PROBE_FILE", None):
        install_loop_probe(Path(probe_file))
    signal.signal(signal.SIGUSR1, start_tracing)
    signal.signal(signal.SIGUSR2, write_traced)
    sys.argv = ["bot"]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
