"""How many games one bot process carries on one core, and what each call costs. Run by hand, on
a quiet machine; prints a table of figures.

    python bench/bench_capacity.py                          # N = 50, 100, 250, 500, 1000 games
    python bench/bench_capacity.py --games 250 --runs 3     # one N, three runs: their spread
    python bench/bench_capacity.py --games 10,20 --runs 1 --seconds 30   # a quick check

What it does, on loopback: the real bot (``python -m bot``, through ``bench/traced_bot.py`` with
its event-loop probe on) pinned to one core, this process (the emulator and the simulated
members) pinned to another, Discord's rate limits off in the emulator so that what limits the
pace is the bot's own cost. For each N, on a new emulator, bot and database: one small warm-up
game of each kind, then N lobbies (Lotería and Housie alternately, 10 members each, the hosts
picking a call every 5 s, the bot's minimum, at time scale 1), the members click Join (100 games'
at once, a wave every 2 s), every game starts, and the members look at their boards and claim as ``bench_load.py``'s do
(its own code, imported). Once every game has called, a steady stretch of ``--seconds`` is
measured:

- **calls/s** announced, against the target of N / 5 s;
- **call interval**: the time between two calls of a game as Discord stamps them (each message's
  snowflake), p50 and p99, against the 5 s pace;
- **acknowledgement p99 by kind**: from the emulator sending INTERACTION_CREATE to the bot's
  callback (board views, claims, bluffs while drawing; the Join rush while dealing);
- **CPU per call**: the bot process's CPU over the stretch / calls announced, board views and
  claims included; the share of its core it used (and, measured for 5 s before the lobbies
  open, with no game: a floor that weighs on CPU per call at small N), and the share of a core
  this process used (if that nears 100%, the emulator is the bottleneck, not the bot);
- **RSS** at the end of the stretch, its peak (VmHWM), and what is left once the allocator has
  handed back the memory it kept free (``malloc_trim``: what the bot holds, not what it freed);
- **longest event-loop stall** inside the bot: the probe's callback, due every 10 ms, ran this
  late at most (and p99);
- afterwards every host stops their game and ``bench_load.py``'s integrity checks run: each
  game's calls are 1..n, none doubled or missing, in the seed's order and in the database; every
  accepted claim is in the database.

**Breaks**: a run breaks when its call interval p99 is over 2x the pace, or the calls announced
fall under 90% of the target (the bot falling behind), or an interaction goes unacknowledged
(Discord's 3 s), or an integrity check fails. The grid stops after the first N with a broken
run (its runs finish, for the spread). ``--runs`` repeats each N with another seed; the table
gives the median and, with several runs, [min-max]. The issue's goal at 250 games (interval p99
within 1.05x, acknowledgement p99 under 100 ms for views and claims while drawing, nothing lost
or doubled) is counted for every N; the Join rush's p99 is shown beside it, not judged.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import os
import platform
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_call_pace import stamp
from bench_flood import kind_of, open_game, record_finished_games
from bench_load import PATTERNS, BotProcess, LoadBench, Plan, Table, percentile

from bot.storage import Storage
from emulator import Channel, Emulator, InteractionResult, Member

PACE = 5.0  # seconds between calls the hosts pick (the bot's minimum), at time scale 1
MEMBERS_PER_GAME = 10
VIEW_CHANCE = 0.02  # bench_load.py's: the chance a member looks at their boards on a call
BLUFFERS = 2  # per game, as bench_load.py
DEFAULT_GAMES = (50, 100, 250, 500, 1000)
BREAK_INTERVAL = 2.0  # call interval p99 over this many paces: broken
BREAK_CALL_RATE = 0.9  # calls announced under this share of the target: broken
GOAL_INTERVAL = 1.05  # the goal at 250 games: call interval p99 within 1.05x the pace
GOAL_ACK = 0.1  # and every kind acknowledged within 100 ms at p99
DEAL_TIMEOUT = 600.0
# --flood: one more server floods as bench_flood.py's does, from the stretch's second pace on:
# each of its members sends each command once (a cooldown stops none), interleaved.
FLOOD = {"stats": 400, "triangle solve": 30, "loteria tabla": 400}
FLOOD_CROWD = max(FLOOD.values())
JOIN_WAVE = 100  # games whose members click Join at once (bench_load.py's rush: 1,000 clicks)
JOIN_WAVE_GAP = 2.0  # seconds between two waves
IDLE_SECONDS = 5.0
PROBE_SIGNAL = signal.SIGRTMIN
DRAWING_KINDS = ("view", "claim")  # acknowledged while drawing (bluffs count as claims)


@dataclass
class RunResult:
    """One run's figures for N games."""

    games: int
    run: int
    seconds: float = 0.0
    calls: int = 0
    intervals: list[float] = field(default_factory=list)
    post_delays: list[float] = field(default_factory=list)  # a draw stored to its post stamped
    acks: dict[str, list[float]] = field(default_factory=dict)  # kind: seconds each
    unacknowledged: int = 0
    bot_cpu: float = 0.0
    idle_cpu: float = 0.0  # share of a core the warm bot used with no game
    own_cpu: float = 0.0
    rss: int = 0
    rss_peak: int = 0
    rss_trimmed: int = 0  # after the allocator handed back the memory it kept free
    trim_seconds: float = 0.0  # what handing it back took (the bot does it every 30 s)
    stall_longest: float = 0.0
    stall_p99: float = 0.0
    full_collections: int = 0  # the garbage collector's of its oldest generation
    full_collection_longest: float = 0.0
    tracked_objects: int = 0  # by the garbage collector, at the stretch's end
    # --flood: the flood's window (seconds), the other servers' board views acknowledged in it,
    # the calls' lateness in it (every game but the flooding server's), and how the flood's
    # commands were answered (picture, refused, unanswered).
    flood_seconds: float = 0.0
    flood_view_acks: list[float] = field(default_factory=list)
    flood_lateness: list[float] = field(default_factory=list)
    flood_answers: dict[str, int] = field(default_factory=dict)
    deal_seconds: float = 0.0
    live_at_end: int = 0
    integrity: list[str] = field(default_factory=list)  # bench_load's "Afterwards" figures
    problems: list[str] = field(default_factory=list)

    @property
    def target(self) -> float:
        return self.games / PACE

    @property
    def calls_per_second(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0

    @property
    def cpu_per_call(self) -> float:
        return self.bot_cpu / self.calls if self.calls else float("nan")

    def ack_p99(self, kind: str) -> float:
        return percentile(self.acks.get(kind, []), 0.99)

    def breaks(self) -> list[str]:
        """Why this run counts as broken (nothing: it held)."""
        reasons = []
        p99 = percentile(self.intervals, 0.99)
        if not self.intervals or p99 > BREAK_INTERVAL * PACE:
            reasons.append(f"call interval p99 {p99:.2f} s > {BREAK_INTERVAL:g}x the pace")
        if self.calls_per_second < BREAK_CALL_RATE * self.target:
            reasons.append(
                f"{self.calls_per_second:.1f} calls/s < {BREAK_CALL_RATE:.0%} of {self.target:g}"
            )
        if self.unacknowledged:
            reasons.append(f"{self.unacknowledged} interactions unacknowledged")
        reasons.extend(self.problems)
        return reasons

    def meets_goal(self) -> bool:
        """The issue's goal at 250 games, applied to this N (a kind with none in the stretch,
        as claims early in short runs, is not judged)."""
        return (
            not self.breaks()
            and percentile(self.intervals, 0.99) <= GOAL_INTERVAL * PACE
            and all(self.ack_p99(kind) < GOAL_ACK for kind in DRAWING_KINDS if self.acks[kind])
        )


def pin(pid: int, core: int) -> None:
    """Every thread of ``pid`` onto ``core`` (threads made later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {core})


def cores_of(pid: int) -> set[int]:
    """The cores any thread of ``pid`` may run on."""
    cores: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        cores |= os.sched_getaffinity(int(task.name))
    return cores


def rss_peak(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def py_spy() -> str:
    """py-spy beside this Python (a virtualenv's, not on PATH), else on PATH."""
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else shutil.which("py-spy") or "py-spy"


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


class CapacityBench(LoadBench):
    """bench_load.py's tables, members and checks; rate limits off, the bot pinned, N games at
    the bot's shortest pace."""

    def __init__(
        self,
        plan: Plan,
        run: int,
        bot_core: int,
        profile: Path | None = None,
        trace: bool = False,
        flood: bool = False,
    ) -> None:
        super().__init__(plan)
        self.bot_core = bot_core
        self.profile = profile
        self.trace = trace
        self.flood = flood
        self.crowd: list[Member] = []
        self.crowd_channel: Channel | None = None
        self.result = RunResult(plan.games, run)

    async def measure(self) -> RunResult:
        plan = self.plan
        with tempfile.TemporaryDirectory(prefix="gamenight-capacity-") as temp:
            folder = Path(temp)
            self.probe_file = folder / "loop"
            async with Emulator(
                rate_limits=False, strict=False, validate=plan.validate, fault_seed=plan.seed
            ) as emu:
                self.emu = emu
                self.set_up_world()
                self.bot = BotProcess(emu, folder / "bot.sqlite3", plan.time_scale, folder / "log")
                if self.flood:
                    flooding = emu.add_guild("Flooding")
                    self.crowd_channel = flooding.add_channel("flood")
                    self.crowd = [flooding.add_member(f"crowd-{i}") for i in range(FLOOD_CROWD)]
                    # Finished games on record: /stats draws a leaderboard.
                    await record_finished_games(self.bot.database, flooding.id, self.crowd)
                try:
                    await self.start_bot()
                    async with Storage.open(self.bot.database) as storage:
                        self.storage = storage
                        await self.play_capacity()
                finally:
                    await self.stop_all(folder / "log", plan.keep_log, append=True)
            self.report_failures(emu)
        failed = sum(1 for _, r in self.interactions if r.failure is not None)
        self.result.unacknowledged = failed
        self.result.integrity = [f"{label}: {value}" for _, label, value in self.figures]
        self.result.problems = list(self.problems)
        return self.result

    async def start_bot(self) -> None:
        """The bot with its loop probe, pinned to its core before it starts any thread."""
        os.environ["GAMENIGHT_LOOP_PROBE_FILE"] = str(self.probe_file)
        self.bot.start()
        pin(self.bot.pid, self.bot_core)
        await self.emu.wait_for_bot(60)

    async def loop_stalls(self) -> tuple[float, float]:
        """The bot's longest event-loop stall and its p99 since the previous call (seconds)."""
        self.probe_file.unlink(missing_ok=True)
        os.kill(self.bot.pid, PROBE_SIGNAL)
        await self.wait_for(
            "the loop probe's report",
            lambda: self.probe_file.exists() and self.probe_file.read_text().endswith("\n"),
            10,
        )
        longest, p99, _ticks, *collections, tracked = self.probe_file.read_text().split()
        # The garbage collector's oldest generation: its collections and the longest pause.
        self.result.full_collections = int(collections[4])
        self.result.full_collection_longest = float(collections[5])
        self.result.tracked_objects = int(tracked)
        return float(longest), float(p99)

    def say_ack_stages(self) -> None:
        """Where the stretch's acknowledgements spent their time inside the bot (the probe's
        stages: Discord's stamp to the gateway's message read, to its turn, to the
        acknowledgement sent, to its answer), p50 / p99 by kind of interaction."""
        stages = Path(f"{self.probe_file}.acks")
        if not stages.exists():
            return
        rows: dict[str, list[str]] = {}
        for line in stages.read_text().split("\n"):
            if not line:
                continue
            kind, stage, count, p50, p99 = line.split()
            rows.setdefault(f"{kind.replace('_', ' ')} ({count})", []).append(
                f"{stage} {float(p50) * 1000:.0f}/{float(p99) * 1000:.0f}"
            )
        self.say("acknowledgements inside the bot, ms p50/p99 by stage:")
        for kind, cells in rows.items():
            self.say(f"  {kind}: " + ", ".join(cells))

    async def play_capacity(self) -> None:
        plan = self.plan
        result = self.result
        await self.wait_for("slash commands", lambda: bool(self.emu.synced_commands), 60)
        await self.bot.quiet()
        await self.warm_up()
        await self.bot.quiet()
        # What the bot costs with no game (heartbeats, the loop probe): a floor under CPU per call.
        idle_before = self.bot.cpu_seconds()
        await asyncio.sleep(IDLE_SECONDS)
        result.idle_cpu = (self.bot.cpu_seconds() - idle_before) / IDLE_SECONDS
        self.interactions.clear()
        if self.trace:
            self.bot.start_tracing()
        await self.open_lobbies(self.tables)

        members = [player.member for table in self.tables for player in table.players]
        dms_before = {member.id: len(member.dms) for member in members}
        dealing = time.monotonic()
        # The Join rush in waves of JOIN_WAVE games: 5,000 clicks in the same 0.2 s (500 games at
        # once) outrun one core's acknowledgements (Discord's 3 s), which no night of real
        # servers asks; bench_load.py measures the single rush.
        for first in range(0, len(self.tables), JOIN_WAVE):
            if first:
                await asyncio.sleep(JOIN_WAVE_GAP)
            await self.join_all(self.tables[first : first + JOIN_WAVE])
        await self.wait_for(
            "every board dealt",
            lambda: all(len(m.dms) > dms_before[m.id] for m in members),
            DEAL_TIMEOUT,
        )
        result.deal_seconds = time.monotonic() - dealing
        result.acks["join"] = self.latencies(lambda kind, _r: kind == "join")
        self.say(f"{len(members)} boards dealt in {result.deal_seconds:.1f} s")

        # Started over one pace, so that the games' calls fall anywhere in it, as independent
        # servers' do (started back to back, within a second or two, they called in bunches).
        await self.start_games(self.tables, over=PACE)
        if self.flood:
            assert self.crowd_channel is not None
            await open_game(self.crowd[0], self.crowd_channel, self.crowd)
            self.say(f"the flooding server's game has {len(self.crowd)} players")
        self.watcher = asyncio.create_task(self.watch_tables())
        await self.wait_for(
            "a first call in every game", lambda: all(self.call_stamps(t) for t in self.tables), 60
        )
        await asyncio.sleep(PACE)  # into the games' rhythm

        # The measured stretch.
        window = self.phase("drawing")
        await self.loop_stalls()  # a new window for the probe
        wall_started = time.time()
        cpu_before, own_before = self.bot.cpu_seconds(), time.process_time()
        spy = await self.start_profile(plan.draw_seconds)
        flooding = asyncio.create_task(self.flood_server(plan.draw_seconds)) if self.flood else None
        await asyncio.sleep(plan.draw_seconds)
        if spy is not None:
            await spy.wait()
        if flooding is not None:
            await flooding
        result.bot_cpu = self.bot.cpu_seconds() - cpu_before
        result.own_cpu = time.process_time() - own_before
        wall_ended = time.time()
        result.stall_longest, result.stall_p99 = await self.loop_stalls()
        self.say_ack_stages()
        window.ended = time.monotonic()
        result.seconds = wall_ended - wall_started
        result.rss, result.rss_peak = self.bot.rss_bytes(), rss_peak(self.bot.pid)
        result.rss_trimmed = await self.trimmed_rss()
        if self.trace:
            traced = await self.bot.traced_bytes()
            self.say(f"Python memory allocated since the lobbies opened, still held: "
                     f"{traced / 2**20:.1f} MiB; the largest sites:")  # fmt: skip
            for site in self.bot.trace_sites:
                print(f"    {site}")
        assert self.storage is not None
        ours = {table.game_id for table in self.tables}
        result.live_at_end = len([g for g in await self.storage.live_games() if g.id in ours])
        if cores_of(self.bot.pid) != {self.bot_core}:
            self.problems.append(f"the bot ran on cores {sorted(cores_of(self.bot.pid))}")

        for table in self.tables:
            stamps = self.call_stamps(table)
            result.calls += sum(1 for s in stamps if wall_started <= s < wall_ended)
            result.intervals += [
                later - earlier
                for earlier, later in itertools.pairwise(stamps)
                if wall_started <= later < wall_ended
            ]
        for kind, chosen in self.drawing_kinds(window.holds).items():
            result.acks[kind] = self.latencies(chosen)
        # Where a late call's time went: from storing the draw to Discord's stamp on its post.
        for table in self.tables:
            posted = {m.id: stamp(m) for m in table.channel.messages}
            for draw in await self.storage.draws(table.game_id):
                if draw.message_id in posted and wall_started <= draw.drawn_at < wall_ended:
                    result.post_delays.append(posted[draw.message_id] - draw.drawn_at)
        self.say(
            f"{result.calls} calls in {result.seconds:.0f} s ({result.calls_per_second:.1f}/s of "
            f"{result.target:g}); bot CPU {result.bot_cpu / result.seconds:.0%} of its core; "
            + ", ".join(f"{len(result.acks[kind])} {kind}s acknowledged" for kind in DRAWING_KINDS)
        )

        if self.flood:  # (its host stops the flooding server's game with the others)
            await (await self.crowd[0].slash("loteria stop", in_channel=self.crowd_channel)).reply()
        await self.finish_games()
        await self.check_integrity()

    async def flood_server(self, stretch: float) -> None:
        """From the stretch's second pace: the flooding server's commands, all at once; then
        wait for their answers (until the stretch ends). What the other servers saw meanwhile."""
        await asyncio.sleep(PACE)
        result = self.result
        started, wall_started = time.monotonic(), time.time()
        sent: list[InteractionResult] = []
        for index, member in enumerate(self.crowd):
            for name, count in FLOOD.items():
                if index < count:
                    values: dict[str, Any] = {"start": index % 15} if "solve" in name else {}
                    sent.append(await member.slash(name, in_channel=self.crowd_channel, **values))
        deadline = started + stretch - 2 * PACE
        while time.monotonic() < deadline and any(kind_of(r) == "unanswered" for r in sent):  # noqa: ASYNC110 - polls what the emulator recorded
            await asyncio.sleep(0.1)
        ended, wall_ended = time.monotonic(), time.time()
        result.flood_seconds = ended - started
        result.flood_answers = dict(Counter(kind_of(r) for r in sent))
        result.flood_view_acks = self.latencies(
            lambda kind, r: kind == "view" and started <= r.created_at < ended
        )
        for table in self.tables:
            stamps = self.call_stamps(table)
            result.flood_lateness += [
                later - earlier - PACE
                for earlier, later in itertools.pairwise(stamps)
                if wall_started <= later < wall_ended
            ]
        self.say(
            f"the flood: {len(sent)} commands answered in {result.flood_seconds:.1f} s "
            f"({result.flood_answers}); other servers' views acknowledged p99 "
            f"{percentile(result.flood_view_acks, 0.99) * 1000:.0f} ms; calls late at most "
            f"{max(result.flood_lateness, default=0.0):.2f} s"
        )

    async def trimmed_rss(self) -> int:
        """The bot's RSS once its allocator has handed back what it keeps free."""
        self.probe_file.unlink(missing_ok=True)
        os.kill(self.bot.pid, PROBE_SIGNAL + 1)
        await self.wait_for(
            "the allocator's trim",
            lambda: self.probe_file.exists() and self.probe_file.read_text().startswith("trimmed "),
            10,
        )
        self.result.trim_seconds = float(self.probe_file.read_text().split()[1])
        return self.bot.rss_bytes()

    async def start_profile(self, seconds: float) -> asyncio.subprocess.Process | None:
        """With ``--profile``: py-spy samples the bot over the stretch (its folded stacks, for
        ``flamegraph.pl`` or speedscope), of the thread holding the GIL. py-spy runs on this process's core: it costs the bot
        only the pauses of its reads, but the figures of a profiled run are not the table's."""
        if self.profile is None:
            return None
        self.profile.mkdir(parents=True, exist_ok=True)
        output = self.profile / f"bot-{self.plan.games}-run{self.result.run}.folded"
        return await asyncio.create_subprocess_exec(
            py_spy(), "record", "--pid", str(self.bot.pid), "--duration", str(int(seconds)),
            "--rate", "200", "--format", "raw", "--threads", "--gil", "--output", str(output),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip

    def drawing_kinds(
        self, during: Callable[[float], bool]
    ) -> dict[str, Callable[[str, InteractionResult], bool]]:
        """Which interactions count as each of ``DRAWING_KINDS`` (bluffs are claims)."""
        return {
            "view": lambda kind, r: kind == "view" and during(r.created_at),
            "claim": lambda kind, r: kind in {"claim", "bluff"} and during(r.created_at),
        }

    @staticmethod
    def call_stamps(table: Table) -> list[float]:
        """When Discord created each call announcement of ``table``'s game, in order."""
        pattern = PATTERNS[table.kind]
        return [
            stamp(message)
            for message in table.channel.messages
            if message.ephemeral_for is None
            and not message.deleted
            and pattern.search(message.content)
        ]


# -- the report ---------------------------------------------------------------------------------


def spread(values: Sequence[float], shown: Callable[[float], str]) -> str:
    """The median, and [min-max] when there are several runs."""
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return "n/a"
    median = shown(statistics.median(values))
    if len(values) == 1:
        return median
    return f"{median} [{shown(min(values))}-{shown(max(values))}]"


def machine(load_start: tuple[float, float, float]) -> str:
    load_end = os.getloadavg()
    return (
        f"{cpu_model()}, {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}; load average at start {load_start[0]:.2f} "
        f"{load_start[1]:.2f} {load_start[2]:.2f}, at end {load_end[0]:.2f} {load_end[1]:.2f} "
        f"{load_end[2]:.2f}"
    )


def print_table(results: dict[int, list[RunResult]]) -> None:
    ns = list(results)

    def row(label: str, value: Callable[[RunResult], float], shown: Callable[[float], str]) -> None:
        cells = [spread([value(r) for r in results[n]], shown) for n in ns]
        print(f"| {label} | " + " | ".join(cells) + " |")

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.0f} ms"

    print("| games | " + " | ".join(f"{n}" for n in ns) + " |")
    print("| --- |" + " --- |" * len(ns))
    print("| runs | " + " | ".join(str(len(results[n])) for n in ns) + " |")
    print("| target calls/s | " + " | ".join(f"{n / PACE:g}" for n in ns) + " |")
    row("calls/s achieved", lambda r: r.calls_per_second, lambda v: f"{v:.1f}")
    row("call interval p50", lambda r: percentile(r.intervals, 0.5), lambda v: f"{v:.2f} s")
    row(
        "call interval p99 / pace",
        lambda r: percentile(r.intervals, 0.99) / PACE,
        lambda v: f"{v:.2f}x",
    )
    row("call stored to posted p50", lambda r: percentile(r.post_delays, 0.5), ms)
    row("call stored to posted p99", lambda r: percentile(r.post_delays, 0.99), ms)
    for kind in DRAWING_KINDS:
        row(f"ack p99 {kind}", partial(RunResult.ack_p99, kind=kind), ms)
    row(
        "ack p99 join (the rush: 10 clicks a game at once)",
        partial(RunResult.ack_p99, kind="join"),
        ms,
    )
    row("bot CPU per call", lambda r: r.cpu_per_call, lambda v: f"{v * 1000:.1f} ms")
    row(
        "bot CPU per call, less the idle bot's",
        lambda r: (r.bot_cpu - r.idle_cpu * r.seconds) / r.calls if r.calls else math.nan,
        lambda v: f"{v * 1000:.1f} ms",
    )
    row(
        "bot's core busy",
        lambda r: r.bot_cpu / r.seconds if r.seconds else math.nan,
        lambda v: f"{v:.0%}",
    )
    row("bot's core busy with no game", lambda r: r.idle_cpu, lambda v: f"{v:.1%}")
    row(
        "emulator's core busy",
        lambda r: r.own_cpu / r.seconds if r.seconds else math.nan,
        lambda v: f"{v:.0%}",
    )
    row("bot RSS at the end (MiB)", lambda r: r.rss / 2**20, lambda v: f"{v:.0f}")
    row("bot RSS peak (MiB)", lambda r: r.rss_peak / 2**20, lambda v: f"{v:.0f}")
    row(
        "bot RSS once the allocator gave back its free memory (MiB)",
        lambda r: r.rss_trimmed / 2**20,
        lambda v: f"{v:.0f}",
    )
    row("handing it back took (the bot does every 30 s)", lambda r: r.trim_seconds, ms)
    row("longest loop stall", lambda r: r.stall_longest, ms)
    row("loop lag p99", lambda r: r.stall_p99, ms)
    row("full garbage collections", lambda r: r.full_collections, lambda v: f"{v:.0f}")
    row("longest full collection", lambda r: r.full_collection_longest, ms)
    row("objects the collector tracks", lambda r: r.tracked_objects, lambda v: f"{v:,.0f}")
    if any(r.flood_answers for runs in results.values() for r in runs):
        row("flood: seconds to answer it", lambda r: r.flood_seconds, lambda v: f"{v:.1f} s")
        row(
            "flood: other servers' views acknowledged p99",
            lambda r: percentile(r.flood_view_acks, 0.99),
            ms,
        )
        row(
            "flood: calls late at most",
            lambda r: max(r.flood_lateness, default=math.nan),
            lambda v: f"{v:.2f} s",
        )
        row(
            "flood: commands unanswered",
            lambda r: r.flood_answers.get("unanswered", 0),
            lambda v: f"{v:.0f}",
        )
    row("deal (Join rush to last board)", lambda r: r.deal_seconds, lambda v: f"{v:.1f} s")
    print(
        "| broken runs | "
        + " | ".join(str(sum(bool(r.breaks()) for r in results[n])) for n in ns)
        + " |"
    )
    print(
        "| runs meeting the 250-game goal | "
        + " | ".join(str(sum(r.meets_goal() for r in results[n])) for n in ns)
        + " |"
    )


def parse_games(text: str) -> list[int]:
    games = [int(part) for part in text.split(",") if part.strip()]
    if not games or min(games) < 1:
        raise argparse.ArgumentTypeError("a comma-separated list of game counts, each >= 1")
    return games


async def run_grid(options: argparse.Namespace) -> dict[int, list[RunResult]]:
    results: dict[int, list[RunResult]] = {}
    for games in options.games:
        results[games] = []
        for run in range(1, options.runs + 1):
            plan = Plan(
                games=games,
                members=games * MEMBERS_PER_GAME,
                call_every=PACE,
                draw_seconds=options.seconds,
                fault_seconds=0.0,
                kills=0,
                view_chance=VIEW_CHANCE,
                bluffers=BLUFFERS,
                seed=options.seed + run - 1,
                validate=options.validate,
                keep_log=options.log,
            )
            print(f"\n{games} games, run {run} of {options.runs}", flush=True)
            bench = CapacityBench(
                plan, run, options.bot_core, options.profile, options.trace, options.flood
            )
            try:
                result = await bench.measure()
            except TimeoutError as error:
                result = bench.result
                result.problems = [*bench.problems, str(error)]
            results[games].append(result)
            for line in result.integrity:
                print(f"  {line}")
            reasons = result.breaks()
            print(
                f"  {'BROKE: ' + '; '.join(reasons) if reasons else 'held'}; games live at the "
                f"stretch's end {result.live_at_end} of {games}; "
                f"load average {os.getloadavg()[0]:.2f}",
                flush=True,
            )
        if any(r.breaks() for r in results[games]):
            print(f"\n{games} games broke: stopping here.")
            break
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=parse_games,
        default=list(DEFAULT_GAMES),
        help="comma-separated N to try, in order (default 50,100,250,500,1000)",
    )
    parser.add_argument("--runs", type=int, default=1, help="runs of each N (default 1)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="the measured stretch of drawing (default 60)"
    )
    parser.add_argument("--seed", type=int, default=1, help="members' behaviour (run k: seed+k-1)")
    parser.add_argument("--bot-core", type=int, default=0, help="the bot's core (default 0)")
    parser.add_argument(
        "--emulator-core", type=int, default=1, help="this process's core (default 1)"
    )
    parser.add_argument(
        "--validate", action="store_true", help="check every request against Discord's spec"
    )
    parser.add_argument("--log", type=Path, help="append the bot's log (every run) here")
    parser.add_argument(
        "--profile",
        type=Path,
        help="record the bot with py-spy over each stretch, into this folder (figures perturbed)",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="tracemalloc from the lobbies' opening: the Python memory held, by site (slower)",
    )
    parser.add_argument(
        "--flood",
        action="store_true",
        help="one more server floods during the stretch (400 /stats, 30 /triangle solve, "
        "400 /loteria tabla): what the other servers' views and calls see",
    )
    options = parser.parse_args(argv)
    available = os.sched_getaffinity(0)
    if {options.bot_core, options.emulator_core} - available or (
        options.bot_core == options.emulator_core
    ):
        parser.error(f"need two different cores among {sorted(available)}")
    if options.runs < 1 or options.seconds < 2 * PACE:
        parser.error("at least one run and a stretch of two paces")

    # This thread first, so that the emulator's threads (made later) inherit the core.
    os.sched_setaffinity(0, {options.emulator_core})
    load_start = os.getloadavg()
    started = time.monotonic()
    print(
        f"Capacity: {', '.join(map(str, options.games))} games x {MEMBERS_PER_GAME} members, a "
        f"call every {PACE:g} s; rate limits off; bot on core {options.bot_core}, emulator on "
        f"core {options.emulator_core}; {options.runs} run(s) of {options.seconds:g} s each",
        flush=True,
    )
    results = asyncio.run(run_grid(options))
    print(f"\n{machine(load_start)}; OpenAPI validation {'on' if options.validate else 'off'}")
    print(
        f"breaks: call interval p99 > {BREAK_INTERVAL:g}x the pace, calls/s < "
        f"{BREAK_CALL_RATE:.0%} of the target, an interaction unacknowledged, or an integrity "
        f"check failing. The 250-game goal: interval p99 <= {GOAL_INTERVAL:g}x, every "
        f"acknowledgement p99 while drawing < {GOAL_ACK * 1000:.0f} ms, nothing lost or "
        "doubled.\n"
    )
    print_table(results)
    print(f"\nwhole run: {time.monotonic() - started:.0f} s")
    # Breaking is what the grid looks for; losing or doubling something is a failure.
    return 1 if any(r.problems for runs in results.values() for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
