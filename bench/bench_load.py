"""Game night at scale, measured: many Lotería and Housie games at once against the local Discord
emulator with Discord's rate limits on, then faults. Run by hand; prints a table of figures.

    python bench/bench_load.py            # 50 games, 1,000 members (about 3 minutes)
    python bench/bench_load.py --quick    # 10 games, 100 members (about a minute)

What it does, all on loopback:

1. Starts the emulator (rate limits on: 50 requests/s globally, 5 messages per 5 s per channel)
   with one server per 10 channels, and the real bot as a subprocess (``python -m bot``, through
   ``bench/traced_bot.py`` for the memory figure) on a throw-away SQLite file. A small warm-up
   game of each kind fills the bot's render caches first.
2. Opens a lobby in every channel (Lotería and Housie alternately), then every member clicks
   Join at once. **Deal time**: from the first click to the last board DM answered. **Floor**:
   the requests a deal needs that count against the global limit (open the DM channel, send the
   DM: 2 per member; interaction answers and follow-ups are not globally limited on Discord nor
   in the emulator) divided by 50/s; per-DM-channel limits never bind (one DM each).
3. Starts every game. While everything draws, members look at their boards now and then and
   claim what their boards complete (two bluffers per game claim what they are one short of).
   **Acknowledgement latency**: from the emulator sending INTERACTION_CREATE to the bot's
   callback arriving. **CPU per call**: the bot process's CPU time over this phase / calls made.
4. Faults while drawing goes on: 429s and 5xx answers injected on the bot's message routes
   (some 5xx after the message was created, so only the nonce prevents a double), the gateway
   dropped (the bot resumes), and the bot killed with SIGKILL and restarted three times.
5. Every host stops their game. Checks: each game's announced calls are 1..n with no duplicate
   or gap and equal the seed's order (and the database's draws); every claim the bot accepted
   is in the database (and every refused one recorded as false).
6. **Memory per live game**: on the (restarted, re-warmed) bot, tracemalloc is switched on, new
   games are opened in the first channels, dealt and started; the Python memory they hold
   once live, and the RSS growth, divided by the number of games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import platform
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bot.sandbox import Intent, SimulatedPlayer
from bot.storage import BoardRow, GameStatus, Storage
from emulator import (
    Channel,
    DriverError,
    Emulator,
    Fault,
    Guild,
    InteractionFailedError,
    InteractionResult,
    Member,
    Message,
    RateLimits,
)
from engine.fairness import draw_order
from engine.housie import HousieGame
from engine.loteria import LoteriaGame

ROOT = Path(__file__).resolve().parents[1]
SIGNING_KEY = bytes(range(32)).hex()
INTERVAL = 5  # seconds between calls the hosts choose (the bot's minimum)
CHANNELS_PER_GUILD = 10
MESSAGES = "/channels/{channel_id}/messages"
DM_OPEN = "/users/@me/channels"
PATTERNS = {
    "loteria": re.compile(r"\*\*(.+?)\*\* \(.+?\) · card (\d+) of 54"),
    "housie": re.compile(r"\*\*(\d+)\*\* · number (\d+) of 90"),
}
TOTALS = {"loteria": 54, "housie": 90}
TITLES = {"loteria": "Lotería", "housie": "Housie"}
LOTERIA_PRIZES = "line, corners, full"
DEAL_TIMEOUT = 300.0
MEMORY_GAMES = 10
START_TIMEOUT = 60.0
POLL = 0.1
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# -- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    games: int
    members: int
    call_every: float  # seconds between calls in each game
    draw_seconds: float  # the measured drawing phase, before any fault
    fault_seconds: float
    kills: int
    view_chance: float  # chance a member looks at their boards on a call
    bluffers: int  # per game
    seed: int
    validate: bool
    keep_log: Path | None = None
    busy: bool = False  # a CPU-bound process beside the bot, as on a shared host
    rushes: int = 0  # only Join rushes, each on a new bot, this many times

    @property
    def time_scale(self) -> float:
        return self.call_every / INTERVAL

    @property
    def per_game(self) -> int:
        return self.members // self.games


def parse_plan(argv: Sequence[str]) -> Plan:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 games, 100 members, shorter")
    parser.add_argument("--games", type=int, help="games at once (default 50; quick 10)")
    parser.add_argument("--members", type=int, help="members in all (default 1000; quick 100)")
    parser.add_argument("--call-every", type=float, help="seconds between calls (default 2)")
    parser.add_argument("--draw-seconds", type=float, help="clean drawing phase (default 30)")
    parser.add_argument("--fault-seconds", type=float, help="faults phase (default 60)")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILL restarts (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="members' behaviour and faults")
    parser.add_argument(
        "--no-validate", action="store_true", help="skip OpenAPI validation (less emulator CPU)"
    )
    parser.add_argument("--log", type=Path, help="save the bot's log (all its runs) here")
    parser.add_argument(
        "--busy",
        action="store_true",
        help="run a CPU-bound process beside the bot the whole time, as a shared host would",
    )
    parser.add_argument(
        "--rushes",
        type=int,
        default=0,
        metavar="N",
        help="only the first Join rush, N times, each on a freshly started and warmed bot: the "
        "acknowledgement figures of every rush and the CPU each side spent on it",
    )
    args = parser.parse_args(list(argv))
    quick = args.quick
    plan = Plan(
        games=args.games or (10 if quick else 50),
        members=args.members or (100 if quick else 1000),
        call_every=args.call_every or 2.0,
        draw_seconds=args.draw_seconds or (8.0 if quick else 30.0),
        fault_seconds=args.fault_seconds or (18.0 if quick else 60.0),
        kills=args.kills,
        view_chance=0.02,
        bluffers=2,
        seed=args.seed,
        validate=not args.no_validate,
        keep_log=args.log,
        busy=args.busy,
        rushes=args.rushes,
    )
    if plan.games < 1 or plan.per_game < 2:
        parser.error("need at least one game and two members per game")
    if plan.call_every < 1.5:
        parser.error("--call-every below 1.5 s would break the 5-per-5-s channel limit")
    return plan


# -- the bot process ---------------------------------------------------------------------------


class BotProcess:
    """The real bot, ``python -m bot``, pointed at the emulator; killed and restarted at will."""

    def __init__(self, emu: Emulator, database: Path, time_scale: float, log: Path) -> None:
        self.emu = emu
        self.database = database
        self.time_scale = time_scale
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.trace_file = database.parent / "traced"
        self.trace_sites: list[str] = []

    def start(self) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.emu.token,
            "GAMENIGHT_SIGNING_KEY": SIGNING_KEY,
            "GAMENIGHT_DATABASE": str(self.database),
            "DISCORD_API_BASE_URL": self.emu.api_base_url,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "GAMENIGHT_TIME_SCALE": f"{self.time_scale:g}",
            "GAMENIGHT_LOG_LEVEL": "WARNING",
            "GAMENIGHT_TRACE_FILE": str(self.trace_file),
            "PYTHONPATH": str(ROOT),
        }
        with self.log.open("ab") as log:
            # python -m bot, with a tracemalloc switch for the memory figure (off until used).
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "bench" / "traced_bot.py")],
                cwd=self.database.parent,
                env=env,
                stdout=log,
                stderr=log,
            )
        self.starts += 1

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def wait_exit(self, timeout: float) -> bool:  # noqa: ASYNC109 - a deadline is the point
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.wait_exit(10)

    async def stop(self) -> None:
        """Ctrl-C, as a person would; SIGKILL if it does not exit."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        if not await self.wait_exit(15):
            await self.kill()

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime

    def rss_bytes(self) -> int:
        return int(Path(f"/proc/{self.pid}/statm").read_text().split()[1]) * PAGE_SIZE

    def start_tracing(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGUSR1)

    async def traced_bytes(self) -> int:
        """Python memory allocated since start_tracing and still alive (tracemalloc)."""
        assert self.process is not None
        self.trace_file.unlink(missing_ok=True)
        self.process.send_signal(signal.SIGUSR2)
        deadline = time.monotonic() + 10
        while not self.trace_file.exists() or not self.trace_file.read_text().endswith("\n"):
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not report its traced memory")
            await asyncio.sleep(0.05)
        text = self.trace_file.read_text()
        self.trace_sites = text.splitlines()[1:]
        return int(text.split()[0])

    async def quiet(self, timeout: float = 15.0) -> None:  # noqa: ASYNC109 - a deadline is the point
        """Wait until the process is idle (start-up caches built), so memory is comparable."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = self.cpu_seconds()
            await asyncio.sleep(0.5)
            if self.cpu_seconds() - before < 0.03:
                return


# -- the tables --------------------------------------------------------------------------------


@dataclass
class Claim:
    table: Table
    player: SimulatedPlayer
    intent: Intent
    result: InteractionResult


@dataclass
class Table:
    """One channel with its game and the members playing it."""

    kind: str
    channel: Channel
    players: list[SimulatedPlayer]
    lobby: Message | None = None
    game_id: int = 0
    seen: int = 0  # messages of the channel already looked at
    last_call: Message | None = None
    boards: dict[int, list[BoardRow]] = field(default_factory=dict)
    turn: asyncio.Task[None] | None = None

    @property
    def host(self) -> Member:
        return self.players[0].member

    def forget_game(self) -> None:
        """Before a new lobby in this channel."""
        self.lobby, self.game_id, self.boards = None, 0, {}

    def custom_id(self, action: str) -> str:
        return f"gn:{self.kind}:{action}:{self.game_id}"


@dataclass
class Phase:
    name: str
    started: float
    ended: float = 0.0

    def holds(self, moment: float) -> bool:
        return self.started <= moment < (self.ended or float("inf"))


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class LoadBench:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.rng = random.Random(plan.seed)
        self.tables: list[Table] = []
        self.interactions: list[tuple[str, InteractionResult]] = []
        self.claims: list[Claim] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.phases: dict[str, Phase] = {}
        self.figures: list[tuple[str, str, str]] = []  # section, label, value
        self.notes: list[str] = []
        self.restarts: list[tuple[float, float]] = []  # (killed, back) on the monotonic clock
        self.problems: list[str] = []
        self.storage: Storage | None = None

    # -- helpers ------------------------------------------------------------------------------

    def figure(self, section: str, label: str, value: str) -> None:
        self.figures.append((section, label, value))

    def phase(self, name: str) -> Phase:
        now = time.monotonic()
        for phase in self.phases.values():
            if not phase.ended:
                phase.ended = now
        self.phases[name] = Phase(name, now)
        return self.phases[name]

    def say(self, text: str) -> None:
        print(f"  [{time.strftime('%H:%M:%S')}] {text}", flush=True)

    def spawn(self, coroutine: object) -> None:
        task = asyncio.ensure_future(coroutine)  # type: ignore[arg-type]
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def act(
        self, kind: str, start: Callable[[], Awaitable[InteractionResult]]
    ) -> InteractionResult | None:
        """Start an interaction (a click or a command), remembering it for the latency figures;
        None if Discord would not deliver it (no bot connected)."""
        if not self.emu.bot_connected:
            return None
        try:
            result = await start()
        except (DriverError, InteractionFailedError) as error:
            self.notes.append(f"{kind}: {error}")
            return None
        self.interactions.append((kind, result))
        return result

    async def wait_for(self, what: str, check: Callable[[], bool], timeout: float) -> None:  # noqa: ASYNC109 - a deadline is the point
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
            await asyncio.sleep(POLL)

    # -- the run --------------------------------------------------------------------------------

    async def run(self) -> int:
        plan = self.plan
        limits = RateLimits()
        with tempfile.TemporaryDirectory(prefix="gamenight-load-") as temp:
            folder = Path(temp)
            async with Emulator(
                rate_limits=limits,
                strict=False,
                validate=plan.validate,
                fault_seed=plan.seed,
            ) as emu:
                self.emu = emu
                self.set_up_world()
                self.bot = BotProcess(emu, folder / "bot.sqlite3", plan.time_scale, folder / "log")
                try:
                    if plan.rushes:
                        await self.rushes(folder)
                        return 1 if self.problems else 0
                    await self.start_bot()
                    async with Storage.open(self.bot.database) as storage:
                        self.storage = storage
                        await self.play(limits)
                finally:
                    await self.stop_all(folder / "log", plan.keep_log)
            self.report_failures(emu)
            self.print_report()
        return 1 if self.problems else 0

    def set_up_world(self) -> None:
        plan = self.plan
        member_rng = random.Random(self.rng.getrandbits(64))

        def table(guild: Guild, kind: str, name: str) -> Table:
            channel = guild.add_channel(name)
            players = []
            for seat in range(plan.per_game):
                member = guild.add_member(f"{name}-p{seat + 1}", manage_guild=seat == 0)
                bluffer = seat >= plan.per_game - plan.bluffers
                players.append(
                    SimulatedPlayer(
                        member,
                        random.Random(member_rng.getrandbits(64)),
                        bluffs_left=1 if bluffer else 0,
                    )
                )
            return Table(kind, channel, players)

        warm_up = self.emu.add_guild("Warm-up")
        self.warm_up_tables = [table(warm_up, kind, f"warm-up-{kind}") for kind in TOTALS]
        for index in range(plan.games):
            if index % CHANNELS_PER_GUILD == 0:
                guild = self.emu.add_guild(f"Game Night {index // CHANNELS_PER_GUILD + 1}")
            kind = "loteria" if index % 2 == 0 else "housie"
            self.tables.append(table(guild, kind, f"{kind}-{index + 1}"))

    async def start_bot(self) -> None:
        self.bot.start()
        await self.emu.wait_for_bot(60)

    async def restart_bot(self) -> float:
        """SIGKILL the bot, start it again; returns the seconds until it was back."""
        started = time.monotonic()
        await self.bot.kill()
        await self.wait_for("the killed bot to drop", lambda: not self.emu.bot_connected, 15)
        self.bot.start()
        await self.emu.wait_for_bot(60)
        self.restarts.append((started, time.monotonic()))
        return time.monotonic() - started

    async def play(self, limits: RateLimits) -> None:
        plan = self.plan
        emu = self.emu
        print(
            f"Load and fault benchmark: {plan.games} games, {plan.members} members, a call every "
            f"{plan.call_every:g} s; rate limits {limits.global_requests}/s global, "
            f"{limits.channel_messages} per {limits.channel_messages_window:g} s per channel",
            flush=True,
        )
        await self.wait_for("slash commands", lambda: bool(emu.synced_commands), 60)
        await self.bot.quiet()
        rss_cold = self.bot.rss_bytes()
        self.say(f"bot up (pid {self.bot.pid}), RSS {rss_cold / 2**20:.1f} MiB")
        await self.warm_up()
        await self.bot.quiet()
        rss_idle = self.bot.rss_bytes()
        self.say(f"warm-up games played; RSS {rss_idle / 2**20:.1f} MiB with no live game")
        self.interactions.clear()

        await self.open_lobbies(self.tables)
        await self.bot.quiet(5)
        rss_lobbies = self.bot.rss_bytes()
        await self.deal()
        await self.start_games(self.tables)
        await self.draw(rss_cold, rss_idle, rss_lobbies)
        try:
            await self.faults()
        except TimeoutError as error:  # still stop the games and check what happened
            self.problems.append(f"faults phase: {error}")
            self.emu.faults.clear()
        await self.finish_games()
        await self.check_integrity()
        try:
            await self.deal_again()
        except TimeoutError as error:
            self.problems.append(f"returning players' deal: {error}")
        try:
            await self.measure_memory()
        except TimeoutError as error:
            self.problems.append(f"memory phase: {error}")

    async def rushes(self, folder: Path) -> None:
        """The first Join rush alone, again and again: each on a new bot (its own database),
        started, warmed up and idle, killed once every click is acknowledged."""
        plan = self.plan
        print(
            f"Join rushes: {plan.rushes} x {plan.members} clicks in {plan.games} lobbies, each on a "
            "new, warm bot" + ("; busy: a CPU-bound process beside the bot" if plan.busy else ""),
            flush=True,
        )
        rows = []
        for round_number in range(1, plan.rushes + 1):
            database = folder / f"rush-{round_number}.sqlite3"
            self.bot = BotProcess(self.emu, database, plan.time_scale, folder / "log")
            await self.start_bot()
            await self.wait_for("slash commands", lambda: bool(self.emu.synced_commands), 60)
            async with Storage.open(database) as storage:
                self.storage = storage
                await self.bot.quiet()
                self.say(f"bot up (pid {self.bot.pid})")
                await self.warm_up()
                for table in self.tables:
                    table.forget_game()
                await self.open_lobbies(self.tables)
                await self.bot.quiet(5)
                self.interactions.clear()
                started = time.monotonic()
                bot_cpu, own_cpu = self.bot.cpu_seconds(), time.process_time()
                await self.join_all(self.tables)
                joins = [r for kind, r in self.interactions if kind == "join"]

                def acknowledged(joins: list[InteractionResult] = joins) -> bool:
                    return all(r.acknowledged_at is not None for r in joins)

                with contextlib.suppress(TimeoutError):
                    await self.wait_for("every Join acknowledged", acknowledged, 5)
                elapsed = time.monotonic() - started
                bot_cpu = self.bot.cpu_seconds() - bot_cpu
                own_cpu = time.process_time() - own_cpu
                latencies = self.latencies(lambda kind, _r: kind == "join")
                unanswered = len(joins) - len(latencies)
                rows.append((percentile(latencies, 0.99), unanswered))
                print(
                    f"  rush {round_number}: p50 / p99 / max {_ms(percentile(latencies, 0.5))} / "
                    f"{_ms(percentile(latencies, 0.99))} / {_ms(max(latencies, default=0.0))}; "
                    f"{unanswered} unacknowledged; over {elapsed:.2f} s the bot used "
                    f"{bot_cpu:.2f} s of CPU, the emulator and members {own_cpu:.2f} s; "
                    f"load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
                if unanswered:
                    self.problems.append(f"rush {round_number}: {unanswered} never acknowledged")
            await self.bot.kill()
            await self.wait_for("the bot to drop", lambda: not self.emu.bot_connected, 15)
        worst = sorted(p99 for p99, _ in rows)
        print(
            f"p99 over {len(rows)} rushes: best {_ms(worst[0])}, median "
            f"{_ms(worst[len(worst) // 2])}, worst {_ms(worst[-1])}; "
            f"{sum(u for _, u in rows)} clicks never acknowledged"
        )

    # -- lobbies and dealing --------------------------------------------------------------------

    async def warm_up(self) -> None:
        """One small game of each kind first, so that the render caches and the allocator's
        arenas (filled once per process) are not counted as the memory of the measured games."""
        tables = self.warm_up_tables
        for table in tables:
            table.forget_game()
        calls_before = {t.channel.id: len(_announced(t.kind, t.channel.messages)) for t in tables}
        await self.open_lobbies(tables)
        members = [player.member for table in tables for player in table.players]
        dms_before = {m.id: len(m.dms) for m in members}
        await self.join_all(tables)
        await self.wait_for(
            "the warm-up deal", lambda: all(len(m.dms) > dms_before[m.id] for m in members), 60
        )
        await self.start_games(tables)
        await self.wait_for(
            "two warm-up calls each",
            lambda: all(
                len(_announced(t.kind, t.channel.messages)) >= calls_before[t.channel.id] + 2
                for t in tables
            ),
            60,
        )
        for table in tables:
            stop = partial(table.host.slash, f"{table.kind} stop", in_channel=table.channel)
            await self.act("stop", stop)
        assert self.storage is not None
        storage = self.storage
        for table in tables:
            deadline = time.monotonic() + 30
            while (game := await storage.get_game(table.game_id)) and game.status.is_live:
                if time.monotonic() > deadline:
                    raise TimeoutError("the warm-up games did not stop")
                await asyncio.sleep(POLL)

    async def join_all(self, tables: Sequence[Table]) -> None:
        """Every member of ``tables`` clicks their lobby's Join, as fast as the emulator takes
        the clicks."""
        for table in tables:
            assert table.lobby is not None
            for player in table.players:
                await self.act(
                    "join", partial(player.member.click, table.lobby, table.custom_id("join"))
                )

    async def open_lobbies(self, tables: Sequence[Table]) -> None:
        plan = self.plan
        starts = []
        for table in tables:
            options: dict[str, object] = {"interval": INTERVAL, "max_players": plan.per_game}
            if table.kind == "loteria":
                options["prizes"] = LOTERIA_PRIZES
            started = await self.act(
                "start",
                partial(
                    table.host.slash, f"{table.kind} start", in_channel=table.channel, **options
                ),
            )
            assert started is not None
            starts.append(started)
        await self.wait_for(
            "every lobby", lambda: all(s.message and not s.message.loading for s in starts), 60
        )
        for table, started in zip(tables, starts, strict=True):
            table.lobby = started.message
            assert table.lobby is not None
            join = next(c for c in table.lobby.custom_ids if ":join:" in c)
            table.game_id = int(join.rsplit(":", 1)[1])
        self.say(f"{len(tables)} lobbies open")

    async def deal(self, *, returning: bool = False) -> None:
        """Every member clicks Join at once; the time to deal every board against the floor of
        the globally limited requests it needs: a DM open and a send per new member, the send
        alone for a returning one (the bot keeps each member's DM channel)."""
        emu = self.emu
        members = [player.member for table in self.tables for player in table.players]
        phase = self.phase("deal again" if returning else "deal")
        dms_before = {member.id: len(member.dms) for member in members}
        started_at = asyncio.get_running_loop().time()
        first_request = len(emu.requests)
        bot_cpu, own_cpu = self.bot.cpu_seconds(), time.process_time()
        await self.join_all(self.tables)
        clicked = time.monotonic()
        self.say(f"{len(members)} members clicked Join within {clicked - phase.started:.2f} s")

        def dealt() -> int:
            return sum(1 for m in members if len(m.dms) > dms_before[m.id])

        progress = time.monotonic()
        deadline = time.monotonic() + DEAL_TIMEOUT
        while dealt() < len(members) and time.monotonic() < deadline:
            await asyncio.sleep(POLL)
            if time.monotonic() - progress > 10:
                progress = time.monotonic()
                self.say(f"dealt {dealt()} of {len(members)}")
        phase.ended = time.monotonic()
        bot_cpu = self.bot.cpu_seconds() - bot_cpu
        own_cpu = time.process_time() - own_cpu
        requests = emu.requests[first_request:]
        dm_channels = {m.dm_channel.id for m in members if m.dm_channel is not None}
        dm_sends = [
            r
            for r in requests
            if r.method == "POST"
            and r.route == MESSAGES
            and r.status == 200
            and int(r.path.split("/")[2]) in dm_channels
        ]
        last_dm = max((r.at for r in dm_sends), default=phase.ended)
        seconds = last_dm - phase.started
        per_member = 1 if returning else 2  # open the DM channel (new members only), send
        needed = per_member * len(members)
        floor, binding = deal_floor(RateLimits(), needed, opens=0 if returning else len(members))
        counted = [
            r
            for r in requests
            if r.route is not None and _counts_globally(r.route) and r.status != 429
        ]
        by_kind = Counter(_request_kind(r.method, r.route) for r in counted)
        limited = sum(1 for r in requests if r.status == 429)
        self.say(f"dealt {dealt()} of {len(members)} in {seconds:.1f} s")

        section = (
            "Dealing to the same members again (after the restarts)"
            if returning
            else "Dealing by DM"
        )
        self.figure(section, "boards dealt by DM", f"{dealt()} of {len(members)}")
        self.figure(section, "time to deal every board", f"{seconds:.1f} s")
        self.figure(
            section,
            "floor from the rate limits",
            f"{floor:.1f} s ({needed} globally limited requests at "
            f"{RateLimits().global_requests}/s: "
            + ("a DM send per member" if returning else "a DM open and a DM send per member")
            + f"; the binding limit: {binding})",
        )
        verdict = "ok" if seconds / floor <= 1.2 else "over target"
        self.figure(section, "measured / floor", f"{seconds / floor:.2f}x ({verdict}; target 1.2x)")
        self.figure(
            section,
            "globally limited requests made",
            ", ".join(f"{n} {kind}" for kind, n in by_kind.most_common()) + f"; {limited} got 429",
        )
        joins = self.latencies(lambda kind, r: kind == "join" and r.created_at >= started_at)
        unanswered = sum(
            1
            for kind, r in self.interactions
            if kind == "join" and r.created_at >= started_at and r.acknowledged_at is None
        )
        self.figure(
            section,
            "Join acknowledgement p50 / p99 / max",
            f"{_ms(percentile(joins, 0.5))} / {_ms(percentile(joins, 0.99))} / "
            f"{_ms(max(joins, default=float('nan')))} ({len(joins)} clicks at once; "
            f"{unanswered} never acknowledged)",
        )
        if unanswered:
            self.problems.append(f"{unanswered} Join clicks were never acknowledged")
        self.figure(
            section,
            "CPU while dealing",
            f"bot {bot_cpu:.1f} s, emulator and members {own_cpu:.1f} s "
            f"(over {phase.ended - phase.started:.0f} s on {os.cpu_count()} cores)",
        )
        if dealt() < len(members):
            self.problems.append(f"only {dealt()} of {len(members)} members got their boards")

    async def deal_again(self) -> None:
        """New lobbies in every channel, joined by the same members (their DM channels known from
        the first round, across the SIGKILL restarts); then called off."""
        for table in self.tables:
            table.forget_game()
        await self.open_lobbies(self.tables)
        await self.deal(returning=True)
        for table in self.tables:
            stop = partial(table.host.slash, f"{table.kind} stop", in_channel=table.channel)
            await self.act("stop", stop)
        await self.wait_all_over(60)

    async def start_games(self, tables: Sequence[Table], *, over: float = 0.0) -> None:
        """Each host presses Start, one after the other; ``over`` seconds > 0 spreads the
        presses evenly over that long (as independent servers' games start whenever)."""
        began = time.monotonic()
        for index, table in enumerate(tables):
            assert table.lobby is not None
            wait = began + index * over / len(tables) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.act(
                "start", partial(table.host.click, table.lobby, table.custom_id("start"))
            )
        assert self.storage is not None
        storage = self.storage

        async def running() -> bool:
            games = [await storage.get_game(t.game_id) for t in tables]
            return all(g is not None and g.status is GameStatus.RUNNING for g in games)

        deadline = time.monotonic() + START_TIMEOUT
        while not await running():
            if time.monotonic() > deadline:
                raise TimeoutError("the games did not all start")
            await asyncio.sleep(POLL)
        for table in tables:
            for player in table.players:
                table.boards[player.member.id] = await storage.boards(
                    table.game_id, player.member.id
                )
        self.say(f"{len(tables)} games started")

    # -- drawing --------------------------------------------------------------------------------

    def calls_announced(self) -> int:
        return sum(len(_announced(table.kind, table.channel.all_messages)) for table in self.tables)

    async def draw(self, rss_cold: int, rss_idle: int, rss_lobbies: int) -> None:
        plan = self.plan
        watcher = asyncio.create_task(self.watch_tables())
        self.watcher = watcher
        # Let the first call of every game come, then measure a steady stretch.
        await asyncio.sleep(2.5 * plan.call_every)
        phase = self.phase("drawing")
        calls_before = self.calls_announced()
        cpu_before, own_before = self.bot.cpu_seconds(), time.process_time()
        await asyncio.sleep(plan.draw_seconds)
        cpu = self.bot.cpu_seconds() - cpu_before
        own_cpu = time.process_time() - own_before
        calls = self.calls_announced() - calls_before
        phase.ended = time.monotonic()
        rss_live = self.bot.rss_bytes()
        elapsed = phase.ended - phase.started
        self.say(f"{calls} calls in {elapsed:.0f} s of drawing")

        section = "While every game draws"
        latencies = self.latencies(lambda _k, r: phase.holds(r.created_at))
        kinds = Counter(k for k, r in self.interactions if phase.holds(r.created_at))
        verdict = "ok" if percentile(latencies, 0.99) < 0.5 else "over target"
        self.figure(
            section,
            "acknowledgement p50 / p99 / max",
            f"{_ms(percentile(latencies, 0.5))} / {_ms(percentile(latencies, 0.99))} / "
            f"{_ms(max(latencies, default=float('nan')))} ({verdict}; target p99 < 500 ms)",
        )
        by_kind = {
            kind: self.latencies(lambda k, r, kind=kind: k == kind and phase.holds(r.created_at))
            for kind in sorted(kinds)
        }
        self.figure(
            section,
            "acknowledgement p50 / p99 by kind",
            "; ".join(
                f"{kind} {_ms(percentile(values, 0.5))} / {_ms(percentile(values, 0.99))}"
                for kind, values in by_kind.items()
            ),
        )
        self.figure(
            section,
            "interactions",
            ", ".join(f"{n} {k}" for k, n in kinds.most_common())
            + f" ({sum(kinds.values()) / elapsed:.1f}/s)",
        )
        self.figure(section, "calls announced", f"{calls} ({calls / elapsed:.1f}/s)")
        if calls:
            self.figure(
                section,
                "bot CPU per call",
                f"{cpu / calls * 1000:.1f} ms ({cpu:.1f} s CPU over {elapsed:.0f} s, "
                f"{cpu / elapsed:.0%} of a core; claims and board views included)",
            )
        self.figure(
            section, "emulator and members CPU", f"{own_cpu:.1f} s ({own_cpu / elapsed:.0%})"
        )
        self.figure(
            section,
            "bot RSS: started / warm, no game / lobbies / all live",
            f"{rss_cold / 2**20:.1f} / {rss_idle / 2**20:.1f} / {rss_lobbies / 2**20:.1f} / "
            f"{rss_live / 2**20:.1f} MiB",
        )
        self.figure(
            section,
            "RSS growth per live game",
            f"{(rss_live - rss_idle) / plan.games / 2**10:.0f} KiB (render caches still filling: "
            "see the memory section)",
        )

    def latencies(self, chosen: object) -> list[float]:
        return [
            r.acknowledged_at - r.created_at
            for kind, r in self.interactions
            if chosen(kind, r) and r.acknowledged_at is not None  # type: ignore[operator]
        ]

    async def watch_tables(self) -> None:
        """One poller for every channel (cheaper than a waiter per member): on each new call,
        the table takes a turn."""
        while True:
            for table in self.tables:
                fresh = table.channel.all_messages[table.seen :]
                table.seen += len(fresh)
                claim = table.custom_id("claim")
                calls = [m for m in fresh if claim in m.custom_ids]
                if calls:
                    table.last_call = calls[-1]
                    if table.turn is None or table.turn.done():
                        table.turn = asyncio.create_task(self.take_turn(table))
            await asyncio.sleep(POLL)

    async def take_turn(self, table: Table) -> None:
        """Members look at the new call: some view their boards, some claim."""
        assert self.storage is not None
        if not self.emu.bot_connected:
            return
        game = await self.storage.get_game(table.game_id)
        if game is None or game.status is not GameStatus.RUNNING:
            return
        for player in table.players:
            if player.busy:
                continue
            boards = table.boards.get(player.member.id, [])
            engine = LoteriaGame if table.kind == "loteria" else HousieGame
            intent = player.decide(engine, game, boards)
            if intent is not None:
                player.busy = True
                self.spawn(self.claim(table, player, intent))
            elif player.rng.random() < self.plan.view_chance:
                command = "loteria tabla" if table.kind == "loteria" else "housie ticket"
                view = partial(player.member.slash, command, in_channel=table.channel)
                self.spawn(self.act("view", view))

    async def claim(self, table: Table, player: SimulatedPlayer, intent: Intent) -> None:
        try:
            await asyncio.sleep(player.rng.uniform(0.8, 2.5) * self.plan.time_scale)
            if intent.bluff:
                player.bluffs_left -= 1
                player.bluffed.add(intent.prize)
            else:
                player.claimed.add(intent.prize)
            if table.kind == "loteria":
                options: dict[str, object] = {"pattern": intent.prize}
            else:
                options = {"prize": intent.prize, "ticket": intent.board_number}
            command = partial(
                player.member.slash, f"{table.kind} claim", in_channel=table.channel, **options
            )
            result = await self.act("bluff" if intent.bluff else "claim", command)
            if result is not None:
                self.claims.append(Claim(table, player, intent, result))
                if intent.bluff:
                    # A Housie bogey takes the ticket out: look again after the verdict.
                    with contextlib.suppress(TimeoutError, InteractionFailedError):
                        await result.reply(15)
                    assert self.storage is not None
                    table.boards[player.member.id] = [
                        b
                        for b in await self.storage.boards(table.game_id, player.member.id)
                        if not b.out
                    ]
        finally:
            player.busy = False

    # -- faults ---------------------------------------------------------------------------------

    async def faults(self) -> None:
        plan = self.plan
        emu = self.emu
        phase = self.phase("faults")
        injected = [
            Fault(429, method="POST", route=MESSAGES, fraction=0.03, retry_after=0.3),
            Fault(500, method="POST", route=MESSAGES, fraction=0.02, after_handling=True),
            Fault(502, method="POST", route=MESSAGES, fraction=0.02),
            Fault(503, method="POST", route=MESSAGES, fraction=0.01),
            Fault(500, method="PATCH", route=MESSAGES + "/{message_id}", fraction=0.05),
        ]
        for fault in injected:
            emu.inject_fault(fault)
        self.say("faults injected on message routes")
        step = plan.fault_seconds / (plan.kills + 2)
        resumes_before = emu.gateway.resume_count
        await asyncio.sleep(step / 2)
        await emu.disconnect_bot()
        await emu.wait_for_bot(30)
        await self.wait_for(
            "the bot to resume", lambda: emu.gateway.resume_count > resumes_before, 30
        )
        self.say("gateway dropped; the bot resumed")
        downtimes = []
        for _ in range(plan.kills):
            await asyncio.sleep(step)
            downtimes.append(await self.restart_bot())
            self.say(f"bot killed with SIGKILL and back in {downtimes[-1]:.1f} s")
        await asyncio.sleep(max(0.0, phase.started + plan.fault_seconds - time.monotonic()))
        emu.faults.clear()
        phase.ended = time.monotonic()

        section = "Faults while drawing"
        counts = emu.faults.counts()
        self.figure(
            section,
            "injected answers",
            ", ".join(f"{n} x {kind}" for kind, n in sorted(counts.items())) or "none",
        )
        self.figure(
            section,
            "gateway drops / resumes / identifies",
            f"1 / {emu.gateway.resume_count - resumes_before} / {emu.gateway.identify_count}",
        )
        self.figure(
            section,
            "SIGKILL restarts",
            f"{len(downtimes)} (back in "
            + ", ".join(f"{d:.1f}" for d in downtimes)
            + " s; the bot started "
            + f"{self.bot.starts} times)",
        )
        latencies = self.latencies(lambda _k, r: phase.holds(r.created_at))
        self.figure(
            section,
            "acknowledgement p50 / p99 (answered)",
            f"{_ms(percentile(latencies, 0.5))} / {_ms(percentile(latencies, 0.99))}",
        )

    async def finish_games(self) -> None:
        await asyncio.sleep(2 * self.plan.call_every)  # a couple of calls with no fault
        self.watcher.cancel()
        await asyncio.gather(self.watcher, return_exceptions=True)
        pending = list(self.tasks)
        if pending:
            await asyncio.wait(pending, timeout=20)
        for table in self.tables:
            stop = partial(table.host.slash, f"{table.kind} stop", in_channel=table.channel)
            await self.act("stop", stop)

        await self.wait_all_over(60)
        # Every claim's verdict (or its loss to a crash) is known within a few seconds.
        await asyncio.sleep(2)
        self.say("every game stopped")

    async def wait_all_over(self, seconds: float) -> None:
        """Until no game is live (each summary posted), so nothing is cut short afterwards."""
        assert self.storage is not None
        deadline = time.monotonic() + seconds
        while await self.storage.live_games():
            if time.monotonic() > deadline:
                self.problems.append(f"some games were still live {seconds:g} s after /stop")
                return
            await asyncio.sleep(POLL)

    # -- integrity ------------------------------------------------------------------------------

    async def check_integrity(self) -> None:
        assert self.storage is not None
        storage = self.storage
        section = "Afterwards"
        good_games = calls_total = duplicates = gaps = wrong = unannounced = 0
        for table in self.tables:
            game = await storage.get_game(table.game_id)
            assert game is not None
            assert game.seed is not None
            announced = _announced(table.kind, table.channel.messages)
            seqs = [seq for seq, _ in announced]
            order = draw_order(game.seed, TOTALS[table.kind])
            if table.kind == "loteria":
                deck = LoteriaGame.from_state(game.state).deck
                expected = [deck.card(n).spanish for n in order]
            else:
                expected = [str(n) for n in order]
            draws = await storage.draws(game.id)
            dupes = len(seqs) - len(set(seqs))
            missing = len(set(range(1, max(seqs, default=0) + 1)) - set(seqs))
            mismatched = sum(1 for seq, value in announced if expected[seq - 1] != value)
            db_values = [str(d.value) for d in draws]
            if table.kind == "loteria":
                db_values = [deck.card(d.value).spanish for d in draws]
            db_ok = (
                db_values == expected[: len(draws)]
                and len(draws) == len(set(seqs))
                and all(d.message_id is not None for d in draws)
            )
            unannounced += sum(1 for d in draws if d.message_id is None)
            duplicates += dupes
            gaps += missing
            wrong += mismatched
            calls_total += len(seqs)
            ok = not dupes and not missing and not mismatched and db_ok
            good_games += ok
            if not ok:
                self.problems.append(
                    f"game {game.id} ({table.kind}): {dupes} duplicate, {missing} missing, "
                    f"{mismatched} not the seed's, database {'ok' if db_ok else 'differs'}"
                )
        self.figure(
            section,
            "games whose calls match the seed",
            f"{good_games} of {len(self.tables)} ({calls_total} calls: {duplicates} duplicated, "
            f"{gaps} missing, {wrong} off the seed, {unannounced} stored but unannounced)",
        )

        winners = {}
        invalid: Counter[tuple[int, int]] = Counter()
        for table in self.tables:
            winners[table.game_id] = {
                (w.user_id, w.prize) for w in await storage.winners(table.game_id)
            }
            for claim in await storage.claims(table.game_id):
                if not claim.valid:
                    invalid[(table.game_id, claim.user_id)] += 1
        accepted = stored = refused = refused_stored = unanswered = 0
        for claim in self.claims:
            reply = _answer(claim.result)
            if reply is None:
                unanswered += 1
            elif reply.startswith("🎉"):
                accepted += 1
                key = (claim.player.member.id, claim.intent.prize)
                if key in winners[claim.table.game_id]:
                    stored += 1
                else:
                    self.problems.append(f"accepted claim not in the database: {reply!r}")
            elif reply.startswith("❌"):
                refused += 1
                if invalid[(claim.table.game_id, claim.player.member.id)]:
                    refused_stored += 1
        self.figure(
            section,
            "accepted claims in the database",
            f"{stored} of {accepted} (refused as false: {refused}, {refused_stored} of them "
            f"recorded; other answers: {len(self.claims) - accepted - refused - unanswered}; "
            f"no answer, lost to a crash: {unanswered})",
        )

    async def measure_memory(self) -> None:
        """New games in the first channels, on a bot whose caches are warm from the run: the
        Python memory they hold once live (tracemalloc, started just before) and the RSS growth,
        per game."""
        assert self.storage is not None
        tables = self.tables[: max(1, min(MEMORY_GAMES, len(self.tables) // 2))]
        for table in tables:
            table.forget_game()
            table.seen = len(table.channel.all_messages)
        members = [player.member for table in tables for player in table.players]
        dms_before = {m.id: len(m.dms) for m in members}
        calls_before = {t.channel.id: len(_announced(t.kind, t.channel.messages)) for t in tables}
        # The bot was restarted since it last dealt: warm this process up too.
        await self.warm_up()
        await self.bot.quiet(5)
        rss_before = self.bot.rss_bytes()
        self.bot.start_tracing()
        await asyncio.sleep(0.2)
        await self.open_lobbies(tables)
        for table in tables:
            # One table at a time: tracing slows the bot, and latency is not measured here.
            assert table.lobby is not None
            joins = [
                await self.act(
                    "join", partial(player.member.click, table.lobby, table.custom_id("join"))
                )
                for player in table.players
            ]
            await self.wait_for(
                "the joins to be acknowledged",
                lambda joins=joins: all(j is None or j.acknowledged for j in joins),
                30,
            )
        await self.wait_for(
            "the second deal", lambda: all(len(m.dms) > dms_before[m.id] for m in members), 120
        )
        await self.start_games(tables)
        await self.wait_for(
            "two calls in every new game",
            lambda: all(
                len(_announced(t.kind, t.channel.messages)) >= calls_before[t.channel.id] + 2
                for t in tables
            ),
            60,
        )
        # Paused games are still live; pausing lets uploads in flight finish before the count.
        pauses = []
        for table in tables:
            pause = partial(table.host.slash, f"{table.kind} pause", in_channel=table.channel)
            pauses.append(await self.act("pause", pause))
        await self.wait_for(
            "the new games to pause", lambda: all(p is None or p.acknowledged for p in pauses), 30
        )
        await self.bot.quiet(5)
        traced = await self.bot.traced_bytes()
        rss_after = self.bot.rss_bytes()
        count = len(tables)
        per_game = traced / count
        verdict = "ok" if per_game < 2**20 else "over target"
        section = "Memory per live game (warm bot)"
        self.figure(
            section,
            "Python heap per game (tracemalloc)",
            f"{per_game / 2**10:.0f} KiB ({verdict}; target < 1 MiB): {count} new games of "
            f"{self.plan.per_game} players, dealt, 2 calls in, paused",
        )
        self.figure(
            section,
            "RSS growth per game",
            f"{(rss_after - rss_before) / count / 2**10:.0f} KiB "
            f"({rss_before / 2**20:.1f} -> {rss_after / 2**20:.1f} MiB)",
        )
        self.notes.append("largest Python allocation sites of the new games (tracemalloc):")
        self.notes.extend(self.bot.trace_sites)
        stops = []
        for table in tables:
            stop = partial(table.host.slash, f"{table.kind} stop", in_channel=table.channel)
            stops.append(await self.act("stop", stop))
        await self.wait_for(
            "the new games to stop",
            lambda: all(s is None or s.acknowledged for s in stops),
            30,
        )
        await self.wait_all_over(30)

    async def stop_all(self, log: Path, keep_log: Path | None, *, append: bool = False) -> None:
        """Cancel the members' tasks, stop the bot and read its log (copied to ``keep_log``,
        after what it holds with ``append``)."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.bot.stop()
        self.read_log(log, keep_log, append=append)

    def read_log(self, log: Path, keep_log: Path | None, *, append: bool) -> None:
        """The stopped bot's log lines, copied to ``keep_log`` if asked."""
        self.log_lines = log.read_text(errors="replace").splitlines()
        if keep_log is not None:
            with keep_log.open("a" if append else "w") as kept:
                kept.write("\n".join(self.log_lines) + "\n")

    def report_failures(self, emu: Emulator) -> None:
        failed = [result for result in emu.interactions if result.failure is not None]
        for result in failed:
            if not self.restarts:  # (a fleet's failover kills without restarting)
                self.notes.append(f"failed: {result.describe()}")
                continue
            # When it was sent, against the nearest SIGKILL restart: sent while the bot was
            # down, it waits for the new session (as the emulator holds it), like a late answer.
            killed, back = min(self.restarts, key=lambda kb: abs(result.created_at - kb[1]))
            self.notes.append(
                f"failed: {result.describe()}, sent {result.created_at - killed:+.2f} s after a "
                f"kill, {result.created_at - back:+.2f} s after the bot was back"
            )
        kinds = Counter(f.kind for f in emu.failures)
        text = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common()) or "none"
        self.figure("Afterwards", "emulator failures (rules broken)", text)
        while_down = sum(
            any(killed <= result.created_at <= back for killed, back in self.restarts)
            for result in failed
        )
        self.figure(
            "Afterwards",
            "failed interactions: sent while the bot was down / otherwise",
            f"{while_down} / {len(failed) - while_down}",
        )
        lost = kinds.get("interaction_failed", 0) + kinds.get("unanswered", 0)
        allowed = lost == sum(kinds.values())
        if not allowed:
            for failure in emu.failures[:5]:
                self.problems.append(str(failure))
        errors = [line for line in self.log_lines if " ERROR " in line]
        # The last line of each traceback names the exception.
        causes = Counter(
            line.split(":", 1)[0]
            for line, following in itertools.pairwise([*self.log_lines, ""])
            if line
            and not line[0].isspace()
            and "Error" in line.split(":", 1)[0]
            and not following.startswith((" ", "\t"))
            and " ERROR " not in line
        )
        self.figure(
            "Afterwards",
            "bot log errors",
            f"{len(errors)} ERROR lines"
            + (
                " (" + ", ".join(f"{n} {c}" for c, n in causes.most_common()) + ")"
                if causes
                else ""
            ),
        )

    # -- output ---------------------------------------------------------------------------------

    def print_report(self) -> None:
        plan = self.plan
        print()
        print(
            f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.1f}; OpenAPI validation "
            f"{'on' if plan.validate else 'off'}"
            + ("; busy: a CPU-bound process ran beside the bot" if plan.busy else "")
        )
        print(
            f"{plan.games} games ({(plan.games + 1) // 2} Lotería, {plan.games // 2} Housie) x "
            f"{plan.per_game} members; a call every {plan.call_every:g} s"
        )
        width = max(len(label) for _, label, _ in self.figures) + 2
        section = None
        for where, label, value in self.figures:
            if where != section:
                section = where
                print(f"\n{where}")
            print(f"  {label:<{width}}{value}")
        if self.notes:
            print("\nNotes:")
            for note in self.notes[:30]:
                print(f"  {note}")
        if self.problems:
            print("\nPROBLEMS:")
            for problem in self.problems[:20]:
                print(f"  {problem}")


def _announced(kind: str, messages: Iterable[Message]) -> list[tuple[int, str]]:
    """(call number, what was called) for each call announcement, in channel order."""
    pattern = PATTERNS[kind]
    found = []
    for message in messages:
        if message.ephemeral_for is not None or message.deleted:
            continue
        match = pattern.search(message.content)
        if match:
            found.append((int(match[2]), match[1]))
    return found


def _answer(result: InteractionResult) -> str | None:
    """What the member saw in answer: the edited "thinking..." message or the first follow-up."""
    if result.message is not None and not result.message.loading:
        return result.message.content
    return result.followups[0].content if result.followups else None


def _counts_globally(route: str) -> bool:
    return not route.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}"))


def _request_kind(method: str, route: str | None) -> str:
    if route == DM_OPEN:
        return "DM opens"
    if method == "POST" and route == MESSAGES:
        return "message sends"
    if method == "PATCH" and route == MESSAGES + "/{message_id}":
        return "lobby edits"
    return f"{method} {route}"


def deal_floor(limits: RateLimits, needed: int, *, opens: int) -> tuple[float, str]:
    """The least time a deal can take under Discord's limits: ``needed`` requests against the
    global limit, ``opens`` of them also in the DM-open bucket (each DM send is the first
    message in its own channel, so the per-channel post bucket never binds). Returns the
    floor and the limit that sets it."""
    floors = {"global": needed / (limits.global_requests / limits.global_window)}
    if limits.dm_opens is not None and opens:
        floors["DM opens"] = opens / (limits.dm_opens.limit / limits.dm_opens.window)
    binding = max(floors, key=lambda name: floors[name])
    return floors[binding], binding


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    plan = parse_plan(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if plan.busy else None
    try:
        status = asyncio.run(LoadBench(plan).run())
    finally:
        if burner is not None:
            burner.kill()
    print(f"\nwhole run: {time.monotonic() - started:.0f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
