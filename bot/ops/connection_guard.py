"""Limits on the connections an aiohttp server keeps open: the bot's HTTP endpoint
(``bot.ops.http_server``) and the REST proxy (``bot.fleet.rest_proxy``).

Without them, idle connections are never dropped: a thousand of them use up a process's file
descriptors (systemd's default soft limit is 1,024), and then the bot can open no connection of
its own to Discord. :class:`ConnectionGuard` serves an aiohttp application with

- a **cap** on open connections, a share of the process's descriptor limit (``RLIMIT_NOFILE``,
  read at start) so that the bot's own connections always find descriptors. At the cap, a new
  connection makes room: the oldest connection that has not sent a request yet is closed, or
  else the one idle longest after its answers (a client's pooled connection survives a flood
  of connections that never send anything). When every connection has a request under way,
  the new one is answered 503 and closed;
- a **header timeout**: a request's line and headers must all arrive within ``header_timeout``
  seconds of its first byte;
- an **idle timeout**: a connection with no request under way (just opened, or kept alive after
  an answer) is closed after ``idle_timeout`` seconds without the first byte of a request.

Nothing is logged per connection: one line at most every ``report_interval`` seconds sums up
the connections refused, closed to make room or closed for slow headers (idle ones closing is
normal and not logged). :meth:`ConnectionGuard.collector` serves the same counts to Prometheus.
Imports nothing of the bot: the REST proxy runs on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

# Without a descriptor limit to read (Windows, or RLIMIT_NOFILE unlimited): as under systemd.
ASSUMED_DESCRIPTOR_LIMIT = 1024
FEWEST_CONNECTIONS = 16  # a cap below this would turn away a scraper and a health check
REFUSAL_BODY = b"503: too many connections; try again\n"
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: " + str(len(REFUSAL_BODY)).encode() + b"\r\n"
    b"Retry-After: 1\r\n"
    b"Connection: close\r\n"
    b"\r\n" + REFUSAL_BODY
)
CLOSE_REASONS = ("refused", "evicted", "header_timeout", "idle_timeout")


def descriptor_limit() -> int:
    """The process's soft limit on open file descriptors (``RLIMIT_NOFILE``), or
    :data:`ASSUMED_DESCRIPTOR_LIMIT` where there is none to read."""
    try:
        import resource  # not on Windows
    except ImportError:
        return ASSUMED_DESCRIPTOR_LIMIT
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return ASSUMED_DESCRIPTOR_LIMIT
    return int(soft)


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections a server keeps open and for how long without a request."""

    max_connections: int
    header_timeout: float = 10.0  # seconds from a request's first byte to its last header
    idle_timeout: float = 30.0  # seconds a connection waits for a request's first byte
    report_interval: float = 60.0  # seconds between two summary lines, at most

    def __post_init__(self) -> None:
        if self.max_connections < 1:
            raise ValueError(f"max_connections must be at least 1, not {self.max_connections}")
        if not (self.header_timeout > 0 and self.idle_timeout > 0 and self.report_interval > 0):
            raise ValueError("the timeouts and the report interval must be above 0")

    @classmethod
    def within_descriptors(cls, share: float, ceiling: int, **timeouts: float) -> ConnectionLimits:
        """Limits whose cap is ``share`` of the descriptor limit read now (at most ``ceiling``,
        at least :data:`FEWEST_CONNECTIONS`); ``timeouts`` as the fields."""
        cap = max(FEWEST_CONNECTIONS, min(ceiling, math.floor(descriptor_limit() * share)))
        return cls(max_connections=cap, **timeouts)


@dataclass
class ConnectionStats:
    """What a guard did since it started."""

    admitted: int = 0
    peak: int = 0  # the most connections open at once
    closed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLOSE_REASONS, 0))


class _Handler(web.RequestHandler):
    """aiohttp's protocol for one connection, watched by its guard."""

    def __init__(self, guard: ConnectionGuard, manager: web.Server, **options: Any) -> None:
        super().__init__(manager, **options)
        self.guard = guard
        self.admitted = False
        self.busy = False  # a request is under way (its handler runs)
        self.receiving = False  # the first bytes of a request arrived, its headers not all yet
        self.deadline = 0.0  # when it is closed unless a request gets under way first

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self.guard._admit(self):
            assert isinstance(transport, asyncio.Transport)
            transport.write(REFUSAL)
            transport.close()  # the descriptor goes once the few bytes above are sent
            return
        self.admitted = True
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        if not self.busy and not self.receiving:
            self.receiving = True
            self.deadline = self.guard._clock() + self.guard.limits.header_timeout
        super().data_received(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        if not self.admitted:
            return
        self.guard._lost(self)
        super().connection_lost(exc)


@web.middleware
async def track_requests(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """The middleware that tells a connection's guard when a request is under way (from its
    headers having arrived to its answer): such a connection is neither idle nor evicted."""
    connection = request.protocol
    if not isinstance(connection, _Handler) or not connection.admitted:
        return await handler(request)
    connection.guard._started(connection)
    try:
        return await handler(request)
    finally:
        connection.guard._finished(connection)


class ConnectionGuard:
    """Serves an aiohttp application within :class:`ConnectionLimits`.

    The application must have :func:`track_requests` among its middlewares; :meth:`serve`
    listens, :meth:`close` stops listening (the runner's ``cleanup()`` then closes the
    connections still open)."""

    def __init__(self, name: str, limits: ConnectionLimits) -> None:
        self.name = name  # for the log line: "HTTP endpoint", "REST proxy"
        self.limits = limits
        self.stats = ConnectionStats()
        # Connections without a request under way, oldest first (the first closed to make
        # room): those that never sent one, then those idle after their answers; and those
        # with a request under way.
        self._fresh: OrderedDict[_Handler, None] = OrderedDict()
        self._idle: OrderedDict[_Handler, None] = OrderedDict()
        self._busy: set[_Handler] = set()
        self._unreported: dict[str, int] = dict.fromkeys(CLOSE_REASONS, 0)
        self._next_report = 0.0
        self._server: asyncio.Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def open(self) -> int:
        """Connections open now (those being closed excluded)."""
        return len(self._fresh) + len(self._idle) + len(self._busy)

    @property
    def requests_under_way(self) -> int:
        """Connections with a request under way now (never closed to make room)."""
        return len(self._busy)

    @property
    def port(self) -> int:
        """The port listened on (the one chosen when 0 was asked)."""
        assert self._server is not None
        assert self._server.sockets
        return int(self._server.sockets[0].getsockname()[1])

    def _clock(self) -> float:
        assert self._loop is not None
        return self._loop.time()

    async def serve(self, runner: web.AppRunner, host: str, port: int) -> int:
        """Listen on ``host``:``port`` for ``runner``'s application (set up already); returns
        the port."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        manager = runner.server
        assert manager is not None, "runner.setup() first"
        # aiohttp's own keep-alive timer, later than ours, only as a backstop.
        options: dict[str, Any] = {
            "loop": loop,
            "access_log": None,
            "keepalive_timeout": self.limits.idle_timeout + self.limits.header_timeout,
        }
        self._server = await loop.create_server(
            lambda: _Handler(self, manager, **options), host, port, backlog=128
        )
        self._sweeper = asyncio.create_task(self._sweep(), name=f"{self.name} connection guard")
        return self.port

    async def close(self) -> None:
        """Stop listening and timing connections out (the runner closes those still open)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        if self._server is not None:
            self._server.close()
            self._server = None
        self._report(force=True)

    # -- the connections' life -------------------------------------------------------------

    def _started(self, connection: _Handler) -> None:
        connection.busy, connection.receiving = True, False
        for waiting in (self._fresh, self._idle):
            if connection in waiting:  # (not if closed meanwhile)
                del waiting[connection]
                self._busy.add(connection)

    def _finished(self, connection: _Handler) -> None:
        connection.busy = False
        if connection in self._busy:  # not lost or closed meanwhile
            self._busy.discard(connection)
            connection.deadline = self._clock() + self.limits.idle_timeout
            self._idle[connection] = None

    def _admit(self, connection: _Handler) -> bool:
        full = self.open >= self.limits.max_connections
        if full and not (self._fresh or self._idle):
            self._count("refused")
            self._report()
            return False
        if full:
            self._close(next(iter(self._fresh or self._idle)), "evicted")
        self._fresh[connection] = None
        connection.deadline = self._clock() + self.limits.idle_timeout
        self.stats.admitted += 1
        self.stats.peak = max(self.stats.peak, self.open)
        if full:
            self._report()
        return True

    def _lost(self, connection: _Handler) -> None:
        self._fresh.pop(connection, None)
        self._idle.pop(connection, None)
        self._busy.discard(connection)

    def _close(self, connection: _Handler, reason: str) -> None:
        self._lost(connection)
        self._count(reason)
        connection.force_close()

    def _count(self, reason: str) -> None:
        self.stats.closed[reason] += 1
        self._unreported[reason] += 1

    async def _sweep(self) -> None:
        """Close the connections past their deadline; a few times per shortest timeout."""
        tick = min(1.0, max(0.02, min(self.limits.header_timeout, self.limits.idle_timeout) / 5))
        while True:
            await asyncio.sleep(tick)
            now = self._clock()
            late = [c for c in (*self._fresh, *self._idle) if c.deadline <= now]
            for connection in late:
                transport = connection.transport
                if transport is not None and transport.get_write_buffer_size():
                    continue  # still sending its last answer to a slow reader
                self._close(
                    connection, "header_timeout" if connection.receiving else "idle_timeout"
                )
            self._report()

    def _report(self, *, force: bool = False) -> None:
        """The summary line, at most once per report interval, of what deserves one."""
        counts = self._unreported
        if not (counts["refused"] or counts["evicted"] or counts["header_timeout"]):
            return
        now = self._clock() if self._loop is not None else 0.0
        if now < self._next_report and not force:
            return
        log.warning(
            "%s: %d connections open (at most %d); since the start or the last such line, "
            "%d closed to make room (waiting longest without a request), %d refused with 503 "
            "(every connection busy), %d closed for not sending a request's headers within %g s",
            self.name,
            self.open,
            self.limits.max_connections,
            counts["evicted"],
            counts["refused"],
            counts["header_timeout"],
            self.limits.header_timeout,
        )
        self._unreported = dict.fromkeys(CLOSE_REASONS, 0)
        self._next_report = now + self.limits.report_interval

    def collector(self, prefix: str) -> Collector:
        """A Prometheus collector of this guard's figures: ``{prefix}_connections`` (open now)
        and ``{prefix}_connections_closed_total{reason}``."""
        return _GuardCollector(self, prefix)


class _GuardCollector(Collector):
    def __init__(self, guard: ConnectionGuard, prefix: str) -> None:
        self.guard = guard
        self.prefix = prefix

    def collect(self) -> Iterator[Metric]:
        open_now = GaugeMetricFamily(
            f"{self.prefix}_connections",
            f"Connections open now (at most {self.guard.limits.max_connections})",
            value=self.guard.open,
        )
        closed = CounterMetricFamily(
            f"{self.prefix}_connections_closed",
            "Connections closed by the server's limits: refused at the cap (every one busy), "
            "evicted to make room, too slow with a request's headers, idle too long",
            labels=["reason"],
        )
        for reason, count in self.guard.stats.closed.items():
            closed.add_metric([reason], count)
        yield open_now
        yield closed
