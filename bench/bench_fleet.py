"""The bot as a fleet of processes on PostgreSQL, measured against the local Discord emulator.

Several bot processes and a standby on one PostgreSQL server, 32 shards, hundreds of servers,
their REST requests through ``gamenight rest-proxy``, Discord's rate limits on. Run by hand;
prints a table of figures.

    python bench/bench_fleet.py                      # the fleet: shard leases and a standby
    python bench/bench_fleet.py --static             # fixed shards, a database each
    python bench/bench_fleet.py --static --no-proxy  # the same, each process straight to Discord
    python bench/bench_fleet.py --backends           # one process, SQLite then PostgreSQL

**The fleet** (default): a throw-away PostgreSQL server (as the tests start one), the emulator
with 32 shards (``GET /gateway/bot`` says 32; IDENTIFY at Discord's default max_concurrency of
1), 320 servers of which 100 hold a game (Lotería and Housie alternately, 20 members each:
2,000 members), the REST proxy, and ``--processes`` bot processes each running a range of the
shards (``GAMENIGHT_SHARDS=0-10/32``...) plus one standby (``GAMENIGHT_SHARDS=standby/32``), all
on one database. Measured, with bench_load.py's machinery (the join rush, members viewing their
boards and claiming, the integrity checks):

- **deal time** against the whole fleet's floor: every member clicks Join, at an even pace over
  10 s (``--join-over``; 2,000 clicks in 0.1 s overwhelm a fleet on two cores); the floor is
  the globally limited requests the deal needs (a DM channel opened and a DM sent per member)
  at 50/s, for the whole bot, however many processes;
- **acknowledgement p99** while every game draws (a call every 5 s each, the bot's real pace);
- **failover**: one process is SIGKILLed mid-game; the time until each of its games calls again
  (on another process: the killed one is not restarted); then every host stops their game and
  each game's calls are checked (1..n, none duplicated or missing, the seed's order, the
  database's) and every claim the bot accepted is looked up in the database;
- the CPU of the bot processes per call, and of the proxy.

**Static** (``--static``): a fleet without leases (no ``GAMENIGHT_SHARDS``). ``--processes``
processes, each shard ``i`` of ``n`` through discord.py's own ``shard_id``/``shard_count``
(``bench/fleet_bot.py``), each on its own PostgreSQL database of the same server (a database
per process: one bot per database still holds); no standby and no failover. ``--no-proxy``
points each process straight at the emulator, to see what the proxy changes.

**Backends** (``--backends``): bench_load.py's 50-game load (1,000 members, a call every 2 s)
on one process, first on SQLite, then on PostgreSQL: the bot's CPU per call side by side, and
the PostgreSQL server's own CPU per call.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' PostgreSQL server

from bench_load import (  # noqa: E402 - bench/ is this script's folder
    CLK_TCK,
    POLL,
    SIGNING_KEY,
    TOTALS,
    BotProcess,
    LoadBench,
    Plan,
    Table,
    _announced,
    _ms,
    parse_plan,
    percentile,
)

from bot.sandbox import SimulatedPlayer  # noqa: E402
from bot.storage import BoardRow, ClaimRow, DrawRow, GameRow, Storage, WinnerRow  # noqa: E402
from emulator import Emulator, Guild, RateLimits  # noqa: E402
from emulator.model import shard_of  # noqa: E402
from tests.postgres_server import PostgresServer  # noqa: E402

SHARDS = 32
GAME_ID_SPAN = 1_000_000  # --static: database k numbers its games from k * GAME_ID_SPAN + 1
START_TIMEOUT = 600.0  # 32 shards at one IDENTIFY per 5 s take 160 s
FAILOVER_TIMEOUT = 180.0
FAILOVER_GOAL = 15.0
SETTLE = 3.0  # seconds after the SIGKILL for the killed process's requests in flight to land
ACK_GOAL = 0.2


@dataclass(frozen=True)
class FleetPlan:
    load: Plan
    servers: int
    processes: int
    static: bool
    proxy: bool
    max_concurrency: int
    join_over: float

    @property
    def shard_count(self) -> int:
        return self.processes if self.static else SHARDS

    def shard_ranges(self) -> list[range]:
        """The shards each active process runs, in contiguous ranges as even as can be."""
        count, processes = self.shard_count, self.processes
        edges = [count * k // processes for k in range(processes + 1)]
        return [range(a, b) for a, b in itertools.pairwise(edges)]


def parse_fleet_plan(argv: Sequence[str]) -> tuple[str, FleetPlan | Plan]:
    if "--backends" in argv:
        # bench_load.py's own load and options (50 games, 1,000 members, a call every 2 s).
        return "backends", parse_plan([a for a in argv if a != "--backends"])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--static", action="store_true", help="fixed shards, a database each")
    parser.add_argument(
        "--backends",
        action="store_true",
        help="SQLite vs PostgreSQL, one process (then bench_load.py's options apply)",
    )
    parser.add_argument("--processes", type=int, default=3, help="active bot processes (3)")
    parser.add_argument("--servers", type=int, default=320, help="servers in all (320)")
    parser.add_argument("--games", type=int, default=100, help="games at once (100)")
    parser.add_argument("--members", type=int, default=2000, help="members in all (2000)")
    parser.add_argument("--call-every", type=float, default=5.0, help="seconds between calls (5)")
    parser.add_argument("--draw-seconds", type=float, default=30.0, help="measured drawing (30)")
    parser.add_argument(
        "--join-over",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="the members click Join at an even pace over this long (10; 0: all at once)",
    )
    parser.add_argument("--no-proxy", action="store_true", help="each process straight to Discord")
    parser.add_argument(
        "--max-concurrency", type=int, default=1, help="IDENTIFYs per 5 s (Discord's default: 1)"
    )
    parser.add_argument("--seed", type=int, default=1, help="members' behaviour")
    parser.add_argument("--no-validate", action="store_true", help="skip OpenAPI validation")
    parser.add_argument("--log", type=Path, help="save the bots' logs here")
    args = parser.parse_args(list(argv))
    load = Plan(
        games=args.games,
        members=args.members,
        call_every=args.call_every,
        draw_seconds=args.draw_seconds,
        fault_seconds=0.0,
        kills=0,
        view_chance=0.02,
        bluffers=2,
        seed=args.seed,
        validate=not args.no_validate,
        keep_log=args.log,
    )
    plan = FleetPlan(
        load=load,
        servers=max(args.servers, args.games),
        processes=args.processes,
        static=args.static,
        proxy=not args.no_proxy,
        max_concurrency=args.max_concurrency,
        join_over=args.join_over,
    )
    if args.processes < 1 or (not args.static and args.processes > SHARDS):
        parser.error(f"--processes must be 1 to {SHARDS}")
    if load.per_game < 2:
        parser.error("need at least two members per game")
    return ("static" if args.static else "fleet"), plan


# -- processes ---------------------------------------------------------------------------------


class FleetProcess(BotProcess):
    """One bot process of the fleet: ``python -m bot`` (or ``fleet_bot.py`` for a fixed shard)
    with its database, its shards and its REST base URL."""

    def __init__(
        self,
        name: str,
        emu: Emulator,
        database: Path | str,
        folder: Path,
        time_scale: float,
        *,
        api_base_url: str,
        settings: dict[str, str],
        launcher: Sequence[str],
        shards: range | None = None,
    ) -> None:
        super().__init__(emu, folder / f"{name}.unused", time_scale, folder / f"{name}.log")
        self.name = name
        self.database: Any = database  # a SQLite Path, or a PostgreSQL URL
        self.folder = folder
        self.api_base_url = api_base_url
        self.settings = settings
        self.launcher = list(launcher)
        self.shards = shards

    def start(self) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.emu.token,
            "GAMENIGHT_SIGNING_KEY": SIGNING_KEY,
            "GAMENIGHT_DATABASE": str(self.database),
            "DISCORD_API_BASE_URL": self.api_base_url,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "GAMENIGHT_TIME_SCALE": f"{self.time_scale:g}",
            "GAMENIGHT_LOG_LEVEL": "WARNING",
            "GAMENIGHT_TRACE_FILE": str(self.folder / f"{self.name}.traced"),
            "PYTHONPATH": str(ROOT),
            **self.settings,
        }
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, *self.launcher],
                cwd=self.folder,
                env=env,
                stdout=log,
                stderr=log,
            )
        self.starts += 1

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Fleet:
    """The processes together, in the shape bench_load.py's phases ask of its one bot."""

    def __init__(self, processes: Sequence[FleetProcess]) -> None:
        self.processes = list(processes)
        self.starts = 0

    def live(self) -> list[FleetProcess]:
        return [p for p in self.processes if p.alive]

    @property
    def pid(self) -> int:
        return self.processes[0].pid

    def start(self) -> None:
        for process in self.processes:
            process.start()

    def cpu_seconds(self) -> float:
        return sum(p.cpu_seconds() for p in self.live())

    def rss_bytes(self) -> int:
        return sum(p.rss_bytes() for p in self.live())

    async def quiet(self, timeout: float = 15.0) -> None:  # noqa: ASYNC109 - a deadline
        await asyncio.gather(*(p.quiet(timeout) for p in self.live()))

    async def stop(self) -> None:
        await asyncio.gather(*(p.stop() for p in self.processes))


class ProxyProcess:
    """``gamenight rest-proxy`` in front of the emulator, as the fleet would run it (with the
    bot's token, the one it forwards)."""

    def __init__(self, upstream: str, token: str, log: Path) -> None:
        self.upstream = upstream
        self.token = token
        self.log = log
        self.process: asyncio.subprocess.Process | None = None
        self.api_base_url = ""

    async def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                *(sys.executable, "-m", "bot", "rest-proxy", "--port", "0"),
                *("--upstream", self.upstream),
                cwd=ROOT,
                env={
                    **os.environ,
                    "PYTHONPATH": str(ROOT),
                    "GAMENIGHT_LOG_LEVEL": "WARNING",
                    "DISCORD_TOKEN": self.token,
                },
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
            )
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), 30)
        self.api_base_url = line.decode().strip().partition("=")[2]
        if not self.api_base_url:
            raise RuntimeError(f"the REST proxy did not start: see {self.log}")

    def health(self) -> dict[str, Any]:
        base = self.api_base_url.removesuffix("/api/v10")
        with urllib.request.urlopen(f"{base}/healthz", timeout=5) as answer:
            health: dict[str, Any] = json.load(answer)
        return health

    def cpu_seconds(self) -> float:
        assert self.process is not None
        return process_cpu(self.process.pid)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 15)


def process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def postgres_cpu(server: PostgresServer) -> float:
    """CPU seconds of the PostgreSQL server: the postmaster and its live children."""
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            pid = int(stat.parent.name)
            if pid == postmaster or int(fields[1]) == postmaster:  # fields[1]: the parent
                total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


async def database_with_offset(server: PostgresServer, index: int) -> str:
    """A new database whose games are numbered from ``index * GAME_ID_SPAN + 1``, so that the
    bench reading several databases knows each game's from its id."""
    url = await server.create_database()
    async with Storage.open(url):  # creates the schema, as the bot would
        pass
    if index:
        connection = await asyncpg.connect(url)
        try:
            first = index * GAME_ID_SPAN + 1
            await connection.execute(f"ALTER TABLE games ALTER COLUMN id RESTART WITH {first}")
        finally:
            await connection.close()
    return url


class GameRouter:
    """What the bench reads, across the static fleet's databases, routed by game id."""

    def __init__(self, storages: Sequence[Storage]) -> None:
        self.storages = list(storages)

    def _of(self, game_id: int) -> Storage:
        return self.storages[game_id // GAME_ID_SPAN]

    async def get_game(self, game_id: int) -> GameRow | None:
        return await self._of(game_id).get_game(game_id)

    async def boards(self, game_id: int, user_id: int | None = None) -> list[BoardRow]:
        return await self._of(game_id).boards(game_id, user_id)

    async def draws(self, game_id: int) -> list[DrawRow]:
        return await self._of(game_id).draws(game_id)

    async def winners(self, game_id: int) -> list[WinnerRow]:
        return await self._of(game_id).winners(game_id)

    async def claims(self, game_id: int) -> list[ClaimRow]:
        return await self._of(game_id).claims(game_id)

    async def live_games(self, kind: str | None = None) -> list[GameRow]:
        return [game for s in self.storages for game in await s.live_games(kind)]


# -- the fleet bench ---------------------------------------------------------------------------


class FleetBench(LoadBench):
    """bench_load.py's phases (join rush, drawing, claims, integrity) on a fleet of processes."""

    def __init__(self, fleet_plan: FleetPlan) -> None:
        super().__init__(fleet_plan.load)
        self.fleet_plan = fleet_plan
        self.proxy: ProxyProcess | None = None
        self.processes: list[FleetProcess] = []
        self.bot = Fleet([])  # type: ignore[assignment]
        self.warm_up_tables: list[Table] = []
        self.join_gap = 0.0  # seconds between two members' Join clicks while dealing
        self.next_join = 0.0

    async def run(self) -> int:
        fleet_plan, plan = self.fleet_plan, self.plan
        print("starting a PostgreSQL server...", flush=True)
        server = await asyncio.to_thread(PostgresServer.start)
        try:
            with tempfile.TemporaryDirectory(prefix="gamenight-fleet-") as temp:
                folder = Path(temp)
                async with Emulator(
                    rate_limits=RateLimits(),
                    strict=False,
                    validate=plan.validate,
                    fault_seed=plan.seed,
                    shards=fleet_plan.shard_count,
                    max_concurrency=fleet_plan.max_concurrency,
                ) as emu:
                    self.emu = emu
                    self.set_up_world()
                    try:
                        await self.run_fleet(server, folder)
                    finally:
                        for task in list(self.tasks):
                            task.cancel()
                        await asyncio.gather(*self.tasks, return_exceptions=True)
                        await self.bot.stop()
                        if self.proxy is not None:
                            await self.proxy.stop()
                        self.log_lines = [
                            line
                            for process in self.processes
                            for line in process.log.read_text(errors="replace").splitlines()
                        ]
                        if plan.keep_log is not None:
                            proxy_log = folder / "proxy.log"
                            kept = [*self.log_lines, "-- the REST proxy:"]
                            if proxy_log.exists():
                                kept += proxy_log.read_text(errors="replace").splitlines()
                            plan.keep_log.write_text("\n".join(kept) + "\n")
                self.report_failures(emu)
                # Which interactions went unanswered (and when), for the failover's figures.
                self.notes += [str(f) for f in emu.failures if f.kind == "interaction_failed"]
                self.print_report()
        finally:
            await asyncio.to_thread(server.stop)
        return 1 if self.problems else 0

    def set_up_world(self) -> None:
        """``servers`` servers; the first ``games`` hold a game channel with its members
        (consecutive servers fall on consecutive shards, so the games spread over them)."""
        plan, fleet_plan = self.plan, self.fleet_plan
        member_rng = random.Random(self.rng.getrandbits(64))

        def table(guild: Guild, kind: str, name: str) -> Table:
            channel = guild.add_channel(name)
            players = []
            for seat in range(plan.per_game):
                member = guild.add_member(f"{name}-p{seat + 1}", manage_guild=seat == 0)
                bluffer = seat >= plan.per_game - plan.bluffers
                rng = random.Random(member_rng.getrandbits(64))
                players.append(SimulatedPlayer(member, rng, bluffs_left=1 if bluffer else 0))
            return Table(kind, channel, players)

        # A warm-up server on a shard of each active process (the standby starts cold).
        for number, shards in enumerate(fleet_plan.shard_ranges(), start=1):
            guild = self.emu.add_guild(
                f"Warm-up {number}", shard=(shards.start, fleet_plan.shard_count)
            )
            self.warm_up_tables += [table(guild, kind, f"warm-up-{kind}") for kind in TOTALS]
        for index in range(fleet_plan.servers):
            guild = self.emu.add_guild(f"Server {index + 1}")
            if index < plan.games:
                kind = "loteria" if index % 2 == 0 else "housie"
                self.tables.append(table(guild, kind, f"{kind}-{index + 1}"))
            else:
                guild.add_channel("general")

    async def deal(self, *, returning: bool = False) -> None:
        """bench_load.py's deal, the clicks paced over ``--join-over`` seconds."""
        self.join_gap = self.fleet_plan.join_over / max(1, self.plan.members)
        self.next_join = time.monotonic()
        try:
            await super().deal(returning=returning)
        finally:
            self.join_gap = 0.0

    async def act(self, kind: str, start: Any) -> Any:
        if kind == "join" and self.join_gap:
            self.next_join = max(self.next_join + self.join_gap, time.monotonic())
            await asyncio.sleep(self.next_join - time.monotonic())
        return await super().act(kind, start)

    def shard_of(self, table: Table) -> int:
        return shard_of(table.channel.guild.id, self.fleet_plan.shard_count)

    async def run_fleet(self, server: PostgresServer, folder: Path) -> None:
        fleet_plan, plan, emu = self.fleet_plan, self.plan, self.emu
        api_base_url = emu.api_base_url
        if fleet_plan.proxy:
            self.proxy = ProxyProcess(emu.api_base_url, emu.token, folder / "proxy.log")
            await self.proxy.start()
            api_base_url = self.proxy.api_base_url
        ranges = fleet_plan.shard_ranges()
        count = fleet_plan.shard_count
        storages = AsyncExitStack()
        if fleet_plan.static:
            urls = [await database_with_offset(server, k) for k in range(len(ranges))]
            opened = [await storages.enter_async_context(Storage.open(url)) for url in urls]
            self.storage = GameRouter(opened)  # type: ignore[assignment]
            self.processes = [
                FleetProcess(
                    f"shard{shards.start}",
                    emu,
                    url,
                    folder,
                    plan.time_scale,
                    api_base_url=api_base_url,
                    settings={"BENCH_SHARD": f"{shards.start}/{count}"},
                    launcher=[str(ROOT / "bench" / "fleet_bot.py")],
                    shards=shards,
                )
                for shards, url in zip(ranges, urls, strict=True)
            ]
        else:
            url = await server.create_database()
            self.storage = await storages.enter_async_context(Storage.open(url))
            settings = [f"{r.start}-{r.stop - 1}/{count}" for r in ranges] + [f"standby/{count}"]
            self.processes = [
                FleetProcess(
                    f"process{k + 1}" if k < len(ranges) else "standby",
                    emu,
                    url,
                    folder,
                    plan.time_scale,
                    api_base_url=api_base_url,
                    settings={"GAMENIGHT_SHARDS": setting},
                    launcher=["-m", "bot"],
                    shards=ranges[k] if k < len(ranges) else None,
                )
                for k, setting in enumerate(settings)
            ]
        self.bot = Fleet(self.processes)  # type: ignore[assignment]
        async with storages:
            await self.play_fleet()

    async def play_fleet(self) -> None:
        fleet_plan, plan, emu = self.fleet_plan, self.plan, self.emu
        where = "each on its own database" if fleet_plan.static else "one PostgreSQL database"
        print(
            f"Fleet benchmark: {len(self.processes)} bot processes "
            f"({'fixed shards' if fleet_plan.static else 'shard ranges and a standby'}, "
            f"{where}), {fleet_plan.shard_count} shards, {fleet_plan.servers} servers, "
            f"{plan.games} games, {plan.members} members, a call every {plan.call_every:g} s; "
            f"{'through the REST proxy' if fleet_plan.proxy else 'no proxy'}; rate limits on",
            flush=True,
        )
        started = time.monotonic()
        self.bot.start()
        await self.wait_for(
            f"all {fleet_plan.shard_count} shards connected",
            lambda: self.connected_shards() == set(range(fleet_plan.shard_count)),
            START_TIMEOUT,
        )
        await self.wait_for("slash commands", lambda: bool(emu.synced_commands), 60)
        self.figure(
            "Start",
            "shards connected",
            f"{fleet_plan.shard_count} in {time.monotonic() - started:.0f} s "
            f"(IDENTIFY max_concurrency {fleet_plan.max_concurrency})",
        )
        await self.bot.quiet(60)
        rss_cold = self.bot.rss_bytes()
        self.say(f"{len(self.processes)} processes up, RSS {rss_cold / 2**20:.0f} MiB together")
        await self.warm_up()  # a small game of each kind on each active process
        await self.bot.quiet(60)
        rss_idle = self.bot.rss_bytes()
        self.interactions.clear()
        self.say(f"warm-up games played; RSS {rss_idle / 2**20:.0f} MiB together")
        await self.open_lobbies(self.tables)
        await self.bot.quiet(5)
        rss_lobbies = self.bot.rss_bytes()
        proxy_cpu = self.proxy.cpu_seconds() if self.proxy else 0.0
        await self.deal()
        if self.proxy is not None:
            self.figure(
                "Dealing by DM",
                "REST proxy CPU while dealing",
                f"{self.proxy.cpu_seconds() - proxy_cpu:.1f} s",
            )
        await self.start_games(self.tables)
        proxy_cpu = self.proxy.cpu_seconds() if self.proxy else 0.0
        drawing_started = time.monotonic()
        await self.draw(rss_cold, rss_idle, rss_lobbies)
        phase = self.phases["drawing"]
        latencies = self.latencies(lambda _k, r: phase.holds(r.created_at))
        p99 = percentile(latencies, 0.99)
        self.figure(
            "While every game draws",
            "acknowledgement p99 against the fleet's goal",
            f"{_ms(p99)} ({'ok' if p99 < ACK_GOAL else 'over'}; goal < {_ms(ACK_GOAL)})",
        )
        by_kind = []
        for kind in ("view", "claim", "bluff"):
            of_kind = self.latencies(
                lambda k, r, kind=kind: k == kind and phase.holds(r.created_at)
            )
            if of_kind:
                by_kind.append(f"{kind} {_ms(percentile(of_kind, 0.99))} ({len(of_kind)})")
        self.figure("While every game draws", "acknowledgement p99 by kind", ", ".join(by_kind))
        if self.proxy is not None:
            elapsed = time.monotonic() - drawing_started
            cpu = self.proxy.cpu_seconds() - proxy_cpu
            self.figure(
                "While every game draws",
                "REST proxy CPU",
                f"{cpu:.1f} s over {elapsed:.0f} s ({cpu / elapsed:.0%} of a core)",
            )
        # bench_load.py's per-game growth needs its memory phase, which a fleet does not run.
        self.figures = [f for f in self.figures if f[1] != "RSS growth per live game"]
        if not fleet_plan.static:
            await self.failover()
        self.report_proxy()
        await self.finish_games()
        await self.check_integrity()

    def connected_shards(self) -> set[int]:
        return {s.shard[0] if s.shard is not None else 0 for s in self.emu.gateway.live_sessions()}

    async def failover(self) -> None:
        """SIGKILL the first process mid-game; until each of its games calls again."""
        victim = self.processes[0]
        assert victim.shards is not None
        games = [t for t in self.tables if self.shard_of(t) in victim.shards]
        gateway = self.emu.gateway
        old_connections = {s.connection for s in gateway.live_sessions()}
        identified, resumed = gateway.session_starts.used, gateway.resume_count
        phase = self.phase("failover")
        await victim.kill()
        self.say(f"{victim.name} (shards {_span(victim.shards)}, {len(games)} games) SIGKILLed")
        # A call the killed process had sent may still land (the proxy forwards what it
        # received); the calls counted are those after it, from another process.
        await asyncio.sleep(SETTLE)
        last = {t.channel.id: _last_call(t) for t in games}
        back: dict[int, float] = {}
        connected: dict[int, float] = {}  # the killed shards, connected again (resumed or new)
        deadline = phase.started + FAILOVER_TIMEOUT
        while len(back) < len(games) and time.monotonic() < deadline:
            now = time.monotonic() - phase.started
            for session in self.emu.gateway.live_sessions():
                shard = session.shard[0] if session.shard is not None else 0
                if shard in victim.shards and session.connection not in old_connections:
                    connected.setdefault(shard, now)
            for table in games:
                if table.channel.id not in back and _last_call(table) > last[table.channel.id]:
                    back[table.channel.id] = now
            await asyncio.sleep(POLL)
        phase.ended = time.monotonic()
        section = "Failover (one process SIGKILLed mid-game, not restarted)"
        self.figure(section, "games of the killed process", f"{len(games)}")
        if back:
            times = sorted(back.values())
            worst = times[-1] if len(back) == len(games) else float("inf")
            verdict = "ok" if worst < FAILOVER_GOAL else "over the goal"
            self.figure(
                section,
                "until each calls again: first / median / max",
                f"{times[0]:.1f} s / {statistics.median(times):.1f} s / {worst:.1f} s ({verdict}; "
                f"goal < {FAILOVER_GOAL:g} s)",
            )
        if connected:
            order = sorted(connected.values())
            self.figure(
                section,
                "its shards connected again (another process): first / last",
                f"{order[0]:.1f} s / {order[-1]:.1f} s ({len(order)} of {len(victim.shards)}; "
                f"IDENTIFY max_concurrency {self.fleet_plan.max_concurrency})",
            )
            self.figure(
                section,
                "sessions resumed / IDENTIFYs meanwhile",
                f"{gateway.resume_count - resumed} / {gateway.session_starts.used - identified}",
            )
            after = [
                back[t.channel.id] - connected[self.shard_of(t)]
                for t in games
                if t.channel.id in back and self.shard_of(t) in connected
            ]
            if after:
                self.figure(
                    section,
                    "a game's first call after its shard connected: median / max",
                    f"{statistics.median(after):.1f} s / {max(after):.1f} s",
                )
        if len(back) < len(games):
            self.problems.append(
                f"{len(games) - len(back)} games of the killed process never called again "
                f"within {FAILOVER_TIMEOUT:g} s"
            )
        latencies = self.latencies(lambda _k, r: phase.holds(r.created_at))
        unanswered = sorted(
            r.created_at - phase.started
            for _k, r in self.interactions
            if phase.holds(r.created_at) and not r.acknowledged
        )
        when = ", ".join(f"{t:.2f}" for t in unanswered[:5])
        self.figure(
            section,
            "acknowledgement p50 / p99 meanwhile; unanswered",
            f"{_ms(percentile(latencies, 0.5))} / {_ms(percentile(latencies, 0.99))}; "
            f"{len(unanswered)}" + (f" (sent {when} s after the SIGKILL)" if unanswered else ""),
        )

    def report_proxy(self) -> None:
        section = "REST proxy"
        if self.proxy is None:
            self.figure(section, "proxy", "none: each process straight to Discord")
            return
        health = self.proxy.health()
        self.figure(
            section,
            "requests forwarded / exempt (interactions) / delayed",
            f"{health['forwarded']} / {health['exempt']} / {health['delayed']} (longest wait "
            f"{health['longest_wait']:.2f} s)",
        )
        self.figure(
            section,
            "429s from Discord",
            ", ".join(f"{n} {scope}" for scope, n in health["upstream_429"].items()) or "none",
        )


def _last_call(table: Table) -> int:
    return max((seq for seq, _ in _announced(table.kind, table.channel.all_messages)), default=0)


def _span(shards: range) -> str:
    return f"{shards.start}-{shards.stop - 1}"


# -- SQLite vs PostgreSQL ---------------------------------------------------------------------


class BackendBench(LoadBench):
    """bench_load.py's load on one bot process, on SQLite or on PostgreSQL: up to the measured
    drawing, then every game stopped and checked (no faults, no memory phase)."""

    def __init__(self, plan: Plan, server: PostgresServer | None) -> None:
        super().__init__(plan)
        self.server = server
        self.database_cpu_per_call = float("nan")

    async def start_bot(self) -> None:
        if self.server is not None:
            url = await self.server.create_database()
            sqlite_bot = self.bot
            self.bot = FleetProcess(
                "bot",
                self.emu,
                url,
                sqlite_bot.database.parent,
                self.plan.time_scale,
                api_base_url=self.emu.api_base_url,
                settings={},
                launcher=[str(ROOT / "bench" / "traced_bot.py")],
            )
            self.bot.log = sqlite_bot.log
        await super().start_bot()

    async def play(self, limits: RateLimits) -> None:
        await self.wait_for("slash commands", lambda: bool(self.emu.synced_commands), 60)
        await self.bot.quiet()
        rss_cold = self.bot.rss_bytes()
        await self.warm_up()
        await self.bot.quiet()
        rss_idle = self.bot.rss_bytes()
        self.interactions.clear()
        await self.open_lobbies(self.tables)
        await self.bot.quiet(5)
        rss_lobbies = self.bot.rss_bytes()
        await self.deal()
        await self.start_games(self.tables)
        calls = self.calls_announced()
        database_cpu = postgres_cpu(self.server) if self.server else 0.0
        await self.draw(rss_cold, rss_idle, rss_lobbies)
        if self.server is not None:
            calls = self.calls_announced() - calls
            self.database_cpu_per_call = (postgres_cpu(self.server) - database_cpu) / calls
            self.figure(
                "While every game draws",
                "PostgreSQL server CPU per call",
                f"{self.database_cpu_per_call * 1000:.1f} ms ({calls} calls)",
            )
        await self.finish_games()
        await self.check_integrity()

    def cpu_per_call(self) -> str:
        return next(
            (value for _, label, value in self.figures if label == "bot CPU per call"), "n/a"
        )


async def compare_backends(plan: Plan) -> int:
    results = []
    status = 0
    print("SQLite first, then PostgreSQL (a throw-away server, fsync off)", flush=True)
    sqlite = BackendBench(plan, None)
    status |= await sqlite.run()
    results.append(("SQLite", sqlite.cpu_per_call(), "none"))
    server = await asyncio.to_thread(PostgresServer.start)
    try:
        postgres = BackendBench(plan, server)
        status |= await postgres.run()
        database = f"{postgres.database_cpu_per_call * 1000:.1f} ms"
        results.append(("PostgreSQL", postgres.cpu_per_call(), database))
    finally:
        await asyncio.to_thread(server.stop)
    print("\nCPU per call, side by side (the same load):")
    for backend, bot_cpu, database_cpu in results:
        print(f"  {backend:<11} bot {bot_cpu}; database server {database_cpu}")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    mode, plan = parse_fleet_plan(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()
    if mode == "backends":
        assert isinstance(plan, Plan)
        status = asyncio.run(compare_backends(plan))
    else:
        assert isinstance(plan, FleetPlan)
        status = asyncio.run(FleetBench(plan).run())
    print(
        f"\nwhole run: {time.monotonic() - started:.0f} s (Python {platform.python_version()}, "
        f"{os.cpu_count()} cores)"
    )
    return status


if __name__ == "__main__":
    sys.exit(main())
