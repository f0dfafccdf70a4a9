"""``python -m bot`` with a switch for tracemalloc, for bench_load.py's memory figure.

SIGUSR1 starts tracing Python allocations (or clears the traces if tracing already); SIGUSR2
writes ``current peak`` (bytes traced and still alive, and the peak) to the file named by
``GAMENIGHT_TRACE_FILE``, then the largest allocation sites. Until SIGUSR1 the bot runs
untraced, at full speed.
"""

from __future__ import annotations

import gc
import os
import runpy
import signal
import sys
import tracemalloc
from pathlib import Path
from types import FrameType

FRAMES = 1  # more frames make the bot several times slower (its acknowledgements time out)
TOP_SITES = 12


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


if __name__ == "__main__":
    signal.signal(signal.SIGUSR1, start_tracing)
    signal.signal(signal.SIGUSR2, write_traced)
    sys.argv = ["bot"]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
