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
allocator keeps free back to the system (``malloc_trim``), then writes ``trimmed`` and the seconds it took. Without the variable there is no probe (bench_load.py's runs).

The probe also follows each interaction through the bot: Discord's stamp on it (its snowflake),
when the gateway's message was read, when its turn came (``bot.acks.ServerArrivals``) and
discord.py made the ``Interaction``, and when its acknowledgement (a defer or a first answer)
was sent and answered. SIGRTMIN writes, to the report's file with ``.acks`` added, one line per
kind of interaction and stage: ``kind stage count p50 p99`` (seconds).
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


# The stages of an interaction's acknowledgement the probe times, each from the one before.
ACK_STAGES = ("read", "turn", "acknowledging", "acknowledged")
DISCORD_EPOCH_MS = 1_420_070_400_000


def interaction_kind(data: dict[str, object]) -> str:
    """``/loteria tabla``, or a button's game and action (``gn:loteria:claim``)."""
    inner = data.get("data")
    if not isinstance(inner, dict):
        return "other"
    if "custom_id" in inner:
        return ":".join(str(inner["custom_id"]).split(":")[:3])
    words = [str(inner.get("name", "?"))]
    options = inner.get("options")
    while isinstance(options, list) and options and isinstance(options[0], dict):
        if options[0].get("type") not in (1, 2):  # a subcommand or a group of them
            break
        words.append(str(options[0].get("name")))
        options = options[0].get("options")
    return "/" + " ".join(words)


class AckProbe:
    """Where each interaction's acknowledgement time goes, stage by stage (see the docstring)."""

    def __init__(self) -> None:
        self.kinds: dict[int, str] = {}
        self.times: dict[int, dict[str, float]] = {}
        self.done: list[tuple[str, dict[str, float]]] = []

    def install(self) -> None:
        import discord

        from bot.app import GameNightBot

        probe = self
        drop = GameNightBot._drop_unanswerable_interactions

        def drop_and_note(bot: GameNightBot) -> None:
            drop(bot)
            parsers = bot._connection.parsers
            parse = parsers["INTERACTION_CREATE"]

            def noted(data: dict[str, object]) -> None:
                probe.read(data)
                parse(data)

            parsers["INTERACTION_CREATE"] = noted

        GameNightBot._drop_unanswerable_interactions = drop_and_note  # type: ignore[method-assign]
        made = discord.Interaction.__init__

        def made_and_noted(
            interaction: discord.Interaction, *args: object, **kwargs: object
        ) -> None:
            made(interaction, *args, **kwargs)
            probe.stage(interaction.id, "turn")

        discord.Interaction.__init__ = made_and_noted  # type: ignore[method-assign]
        for name in ("defer", "send_message"):
            original = getattr(discord.InteractionResponse, name)
            setattr(discord.InteractionResponse, name, self.timed(original))

    def timed(self, original):  # type: ignore[no-untyped-def]
        probe = self

        async def acknowledge(response, *args, **kwargs):  # type: ignore[no-untyped-def]
            interaction_id = response._parent.id
            probe.stage(interaction_id, "acknowledging")
            try:
                return await original(response, *args, **kwargs)
            finally:
                probe.stage(interaction_id, "acknowledged")
                probe.finish(interaction_id)

        return acknowledge

    def read(self, data: dict[str, object]) -> None:
        interaction_id = int(str(data["id"]))
        created = ((interaction_id >> 22) + DISCORD_EPOCH_MS) / 1000
        self.kinds[interaction_id] = interaction_kind(data)
        self.times[interaction_id] = {"created": created, "read": time.time()}

    def stage(self, interaction_id: int, stage: str) -> None:
        times = self.times.get(interaction_id)
        if times is not None and stage not in times:
            times[stage] = time.time()

    def finish(self, interaction_id: int) -> None:
        times = self.times.pop(interaction_id, None)
        kind = self.kinds.pop(interaction_id, "other")
        if times is not None and all(stage in times for stage in ACK_STAGES):
            self.done.append((kind, times))

    def lines(self) -> list[str]:
        done, self.done = self.done, []
        spans: dict[tuple[str, str], list[float]] = {}
        for kind, times in done:
            before = times["created"]
            for stage in ACK_STAGES:
                spans.setdefault((kind, stage), []).append(times[stage] - before)
                before = times[stage]
            spans.setdefault((kind, "total"), []).append(times["acknowledged"] - times["created"])
        lines = []
        order = (*ACK_STAGES, "total")
        for (kind, stage), values in sorted(
            spans.items(), key=lambda item: (item[0][0], order.index(item[0][1]))
        ):
            values.sort()
            p50 = values[len(values) // 2]
            p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
            lines.append(f"{kind.replace(' ', '_')} {stage} {len(values)} {p50} {p99}")
        return lines


ACKS = AckProbe()


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
        self.longest_collection[generation] = max(
            self.longest_collection.get(generation, 0.0), took
        )

    def tick(self) -> None:
        now = self.loop.time()
        self.lags.append(max(0.0, now - self.due))
        self.due = now + PROBE_TICK
        self.loop.call_at(self.due, self.tick)

    def trim(self) -> None:
        """Hand the allocator's free memory back to the system, then write ``trimmed`` to the
        report: how much of the RSS was memory freed but kept (not the bot's own use)."""
        from bot.render.common import return_free_memory

        started = time.perf_counter()
        return_free_memory()
        self.report.write_text(f"trimmed {time.perf_counter() - started}\n")

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
        Path(f"{self.report}.acks").write_text("\n".join(ACKS.lines()) + "\n")


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
        ACKS.install()
    signal.signal(signal.SIGUSR1, start_tracing)
    signal.signal(signal.SIGUSR2, write_traced)
    sys.argv = ["bot"]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
