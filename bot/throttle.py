"""Flood guards: one member cannot make the bot draw for them without end, and one server cannot
take the bot's pictures, solver and leaderboards away from every other server.

**Cooldowns** (:class:`MemberCooldowns`): the commands and buttons that cost the bot real work
(a picture drawn on demand, the solver, a leaderboard, a re-deal) each allow a member a few uses
in a window, more than a real player needs in normal play (the rates below). One more is
answered privately with when to try again (``app_commands.CommandOnCooldown``, which
``bot.replies`` words) and does nothing else. The buckets are discord.py's own ``Cooldown``, one
per member (Discord user) and command, kept by each bot (``GameNightBot.cooldowns``).

**Heavy work** (:class:`HeavyWork`): that work waits its turn in a queue of its server. A server
runs at most ``HEAVY_PER_SERVER`` jobs at once, all servers together at most
``HEAVY_IN_ALL``; a freed slot goes to the first waiting job by lane (a game's calls, then
board views, then the rest), then to the server with the fewest jobs running, then in order of
arrival. A game's own pictures (its calls, its end) never wait: they start at once, even beyond
the limits (the game's pace depends on them, and a game draws one at a time). A server's waiting
line holds at most ``VIEWS_WAITING_PER_SERVER`` board views and ``OTHERS_WAITING_PER_SERVER``
other jobs; a request beyond that is refused privately ("server_busy") before anything is done
for it. So a flood in one server keeps at most two of the bot's worker threads and two of its
database turns busy, and another server's board view finds a slot within one job's time
(bench/bench_flood.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import threading
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.ops.metrics import Metrics
from bot.replies import UserError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Rate:
    """A cooldown: ``uses`` per member within ``seconds`` (a window opened by the first use)."""

    uses: int
    seconds: float


# Per member and command. A call comes every 5 s at the fastest, so a player looking at their
# board after every call uses 6 views in 30 s.
BOARD_VIEW_RATE = Rate(8, 30.0)  # /loteria tabla, /housie ticket, /housie board
STATS_RATE = Rate(4, 60.0)  # /stats: each period, and once more
SOLVE_RATE = Rate(5, 60.0)  # /triangle solve: an animation drawn each time
HINT_RATE = Rate(10, 30.0)  # the Tricky Triangle's Hint button: about one per jump
HELP_PICTURES_RATE = Rate(6, 60.0)  # /help game:<game>: every game's rules, and once more
VERIFY_RATE = Rate(3, 60.0)  # /loteria verify, /housie verify: the game re-dealt from its seed
# Buckets idle longer than their window are dropped at most this often.
SWEEP_SECONDS = 60.0

HEAVY_PER_SERVER = 2  # heavy jobs of one server running at once
HEAVY_IN_ALL = 4  # of all servers (asyncio's default pool has 5 threads or more: some stay free)
# What a server's line holds, waiting. Board views: every player of the largest game
# (MAX_PLAYERS_LIMIT in bot.calling) asking at once, each a fair request, about 10 s of work
# (400 board views at once were answered in 4 s on a quiet two-core machine); the line only
# delays its own server, so it bounds memory, not other servers' answers. The rest: a few
# seconds of work (a leaderboard or an animation takes 50-250 ms).
VIEWS_WAITING_PER_SERVER = 1000
OTHERS_WAITING_PER_SERVER = 50


# The worker threads' niceness above the event loop's thread (Linux counts it per thread): on a
# busy core, the loop (every acknowledgement, every call's post) runs before a picture's
# compression, which finishes in the loop's idle moments instead of slicing its time.
WORKER_NICENESS = 5


def heavy_work_executor(niceness: int = WORKER_NICENESS) -> ThreadPoolExecutor:
    """The pool ``asyncio.to_thread`` runs heavy work in (``loop.set_default_executor``): as
    many threads as asyncio's own, each ``niceness`` below the thread that makes it."""
    return worker_threads(min(32, (os.cpu_count() or 1) + 4), "heavy", niceness)


def worker_threads(count: int, name: str, niceness: int = WORKER_NICENESS) -> ThreadPoolExecutor:
    """``count`` threads named ``name``, each ``niceness`` below the thread that makes this."""
    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    return ThreadPoolExecutor(
        max_workers=count, thread_name_prefix=name, initializer=_run_at, initargs=(base + niceness,)
    )


def _run_at(niceness: int) -> None:
    with contextlib.suppress(OSError):  # (a system that refuses: the thread runs as it is)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)


@dataclass(slots=True)
class _Bucket:
    rate: Rate
    cooldown: app_commands.Cooldown
    last_used: float


class MemberCooldowns:
    """One bot's cooldown buckets, by command (or button) name and member."""

    def __init__(self, metrics: Metrics | None = None) -> None:
        self._buckets: dict[tuple[str, int], _Bucket] = {}
        self._swept = 0.0
        self._metrics = metrics

    def __len__(self) -> int:
        return len(self._buckets)

    def hit(self, name: str, rate: Rate, interaction: discord.Interaction[Any]) -> None:
        """Count one use of ``name`` by the interaction's member; raise
        ``app_commands.CommandOnCooldown`` (with the seconds to wait) when it is one too many."""
        now = interaction.created_at.timestamp()
        self._sweep(now)
        key = (name, interaction.user.id)
        bucket = self._buckets.get(key)
        if bucket is None or bucket.rate != rate:
            cooldown = app_commands.Cooldown(rate.uses, rate.seconds)
            bucket = self._buckets[key] = _Bucket(rate, cooldown, now)
        bucket.last_used = now
        retry_after = bucket.cooldown.update_rate_limit(now)
        if retry_after is not None:
            if self._metrics is not None:
                self._metrics.flood_refusals.labels("cooldown").inc()
            raise app_commands.CommandOnCooldown(bucket.cooldown, retry_after)

    def _sweep(self, now: float) -> None:
        """Forget the buckets whose window has passed: memory stays with the members active."""
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        for key, bucket in list(self._buckets.items()):
            if now > bucket.last_used + bucket.rate.seconds:
                del self._buckets[key]


def member_cooldown(rate: Rate) -> Callable[[T], T]:
    """An app command check: ``rate`` per member for this command (its qualified name), kept by
    the bot's :class:`MemberCooldowns` (``client.cooldowns``)."""

    async def predicate(interaction: discord.Interaction[Any]) -> bool:
        cooldowns = getattr(interaction.client, "cooldowns", None)
        command = interaction.command
        if isinstance(cooldowns, MemberCooldowns) and command is not None:
            cooldowns.hit(command.qualified_name, rate, interaction)
        return True

    return app_commands.check(predicate)


class Lane(IntEnum):
    """Which heavy work goes first when a slot frees (lower first)."""

    CALL = 0  # a game's call and its end-of-game picture: starts at once, never refused
    VIEW = 1  # a member's board (/loteria tabla, /housie ticket, /housie board)
    OTHER = 2  # the rest on demand: /stats, /triangle solve and hints, /help pictures, verify


@dataclass(eq=False)
class _Ticket:
    server: int
    lane: Lane
    order: int
    admitted: asyncio.Future[None]
    running: bool = False


@dataclass
class HeavyWork:
    """The bot's queues of heavy work, one per server (see the module's docstring)."""

    metrics: Metrics | None = None
    per_server: int = HEAVY_PER_SERVER
    in_all: int = HEAVY_IN_ALL
    waiting_limits: dict[Lane, int] = field(
        default_factory=lambda: {
            Lane.VIEW: VIEWS_WAITING_PER_SERVER,
            Lane.OTHER: OTHERS_WAITING_PER_SERVER,
        }
    )
    # Requests refused because their server's line was full, by lane.
    refused: Counter[Lane] = field(default_factory=Counter)
    _waiting: dict[int, list[_Ticket]] = field(default_factory=dict)
    _running: Counter[int] = field(default_factory=Counter)
    _order: itertools.count[int] = field(default_factory=itertools.count)

    def running(self, server: int | None = None) -> int:
        """Jobs running now: of ``server``, or of all servers."""
        if server is None:
            return sum(self._running.values())
        return self._running[server]

    def waiting(self, server: int, lane: Lane | None = None) -> int:
        """Jobs of ``server`` waiting for a slot (of ``lane`` only, if given)."""
        return sum(lane is None or t.lane == lane for t in self._waiting.get(server, ()))

    @contextlib.asynccontextmanager
    async def turn(
        self,
        server: int | None,
        lane: Lane,
        *,
        acknowledge: Callable[[], Awaitable[object]] | None = None,
    ) -> AsyncIterator[None]:
        """Run the body in a slot of ``server`` (None: outside any server). The request takes its
        place in line first, or is refused with ``UserError("server_busy")`` when the line is
        full; then ``acknowledge`` runs (the interaction's defer: Discord's 3 s do not wait for
        the line); then the body waits for its slot. Keep the answer's sending outside."""
        ticket = self._join(server or 0, lane)
        try:
            if acknowledge is not None:
                await acknowledge()
            if not ticket.running:
                await ticket.admitted
            yield
        finally:
            self._leave(ticket)

    async def run(
        self,
        server: int | None,
        lane: Lane,
        work: Callable[..., T],
        *args: Any,
        executor: Executor | None = None,
    ) -> T:
        """``work(*args)`` in a worker thread (``executor``, else the default pool), in its turn."""
        async with self.turn(server, lane):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(executor, functools.partial(work, *args))

    def _join(self, server: int, lane: Lane) -> _Ticket:
        ticket = _Ticket(
            server, lane, next(self._order), asyncio.get_running_loop().create_future()
        )
        self._waiting.setdefault(server, []).append(ticket)
        self._dispatch()
        limit = self.waiting_limits.get(lane)
        if not ticket.running and limit is not None and self.waiting(server, lane) > limit:
            self._remove_waiting(ticket)
            self.refused[lane] += 1
            if self.metrics is not None:
                self.metrics.flood_refusals.labels("server_busy").inc()
            raise UserError("server_busy")
        return ticket

    def _leave(self, ticket: _Ticket) -> None:
        if ticket.running:
            ticket.running = False
            self._running[ticket.server] -= 1
            if not self._running[ticket.server]:
                del self._running[ticket.server]
        else:
            self._remove_waiting(ticket)
        self._dispatch()

    def _remove_waiting(self, ticket: _Ticket) -> None:
        line = self._waiting.get(ticket.server, [])
        if ticket in line:
            line.remove(ticket)
        if not line:
            self._waiting.pop(ticket.server, None)

    def _dispatch(self) -> None:
        """Start every waiting job that may start, best first."""
        while True:
            best: tuple[tuple[int, int, int], _Ticket] | None = None
            room = self.running() < self.in_all
            for server, line in self._waiting.items():
                head = min(line, key=lambda t: (t.lane, t.order))
                free = room and self._running[server] < self.per_server
                if head.lane is not Lane.CALL and not free:
                    continue
                rank = (head.lane, self._running[server], head.order)
                if best is None or rank < best[0]:
                    best = (rank, head)
            if best is None:
                return
            ticket = best[1]
            self._remove_waiting(ticket)
            ticket.running = True
            self._running[ticket.server] += 1
            if not ticket.admitted.done():
                ticket.admitted.set_result(None)
