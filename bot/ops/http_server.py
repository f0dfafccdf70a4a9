"""The bot's optional HTTP endpoint (``GAMENIGHT_METRICS_PORT``), on aiohttp, which discord.py
already brings:

- ``/healthz``: 200 when the gateway is connected (every shard the process runs) and the
  database answers, else 503, with a JSON body saying which (and, in a fleet, the shards held);
- ``/metrics``: Prometheus' text format (``bot.ops.metrics``);
- ``/verify/``: the verification page (``bot/web/``), a static page that recomputes a finished
  game in the player's browser from its link's fragment, which never reaches this server.

Its connections are limited (``bot.ops.connection_guard``): at most a quarter of the process's
descriptor limit (256 under systemd's default of 1,024; 1,024 at most), so that idle or slow
connections never leave the bot without descriptors for its own connections to Discord.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from bot.games import GameKind
from bot.ops.connection_guard import ConnectionGuard, ConnectionLimits, track_requests
from bot.ops.metrics import Metrics
from bot.storage import Storage
from bot.verify_link import PAGE_NAME, WEB_DIR

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 2.0  # seconds /healthz waits for the database before calling it down
# The endpoint's share of the process's file descriptors (the rest are the bot's own: Discord's
# gateway and REST connections, the database, pictures), and at most this many connections.
DESCRIPTOR_SHARE = 0.25
MOST_CONNECTIONS = 1024
HEADER_TIMEOUT = 10.0  # seconds for a request's line and headers, from its first byte
IDLE_TIMEOUT = 30.0  # seconds a connection is kept without a request


def default_limits() -> ConnectionLimits:
    """The endpoint's limits, its cap read from the descriptor limit now."""
    return ConnectionLimits.within_descriptors(
        DESCRIPTOR_SHARE, MOST_CONNECTIONS, header_timeout=HEADER_TIMEOUT, idle_timeout=IDLE_TIMEOUT
    )


class Observed(Protocol):
    """What the endpoint reports on: a bot (``bot.app.GameNightBot``), or a fleet's process
    and the clients it runs (``bot.fleet.process.FleetProcess``)."""

    storage: Storage
    metrics: Metrics

    def gateway_connected(self) -> bool:
        """Whether the gateway connection of every shard this process runs is open."""
        ...

    def games(self) -> list[GameKind]:
        """The games the bot runs, for the live-games gauge's labels."""
        ...

    async def live_counts(self) -> dict[str, int]:
        """Live games by kind, of the servers this process runs."""
        ...

    def health_details(self) -> dict[str, Any]:
        """More for ``/healthz``'s body (a fleet's process: its shards)."""
        ...


class HttpEndpoint:
    """``/healthz``, ``/metrics`` and ``/verify/`` for one bot; ``start()`` returns the port.

    ``limits`` (default: :func:`default_limits`, read at ``start()``) bound its connections."""

    def __init__(
        self, bot: Observed, host: str, port: int, limits: ConnectionLimits | None = None
    ) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self._limits = limits
        self.guard: ConnectionGuard | None = None
        self._collector: Collector | None = None
        app = web.Application(middlewares=[track_requests])
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/verify", self.to_page)
        app.router.add_get("/verify/", self.to_page)
        app.router.add_static("/verify/", WEB_DIR, show_index=False, follow_symlinks=False)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> int:
        """Start serving; returns the port (the one the system chose when ``port`` was 0)."""
        limits = self._limits or default_limits()
        self.guard = ConnectionGuard("HTTP endpoint", limits)
        await self._runner.setup()
        self.port = await self.guard.serve(self._runner, self.host, self.port)
        self._collector = self.guard.collector("gamenight_http")
        self.bot.metrics.registry.register(self._collector)
        log.info(
            "HTTP endpoint on http://%s:%d (/healthz, /metrics, /verify/); at most %d "
            "connections, closed after %g s idle or %g s for a request's headers",
            self.host,
            self.port,
            limits.max_connections,
            limits.idle_timeout,
            limits.header_timeout,
        )
        return self.port

    async def stop(self) -> None:
        """Stop serving and close the open connections."""
        if self.guard is not None:
            await self.guard.close()
        if self._collector is not None:
            self.bot.metrics.registry.unregister(self._collector)
            self._collector = None
        await self._runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        """``/healthz``: 200 when the gateway is connected and the database answers within
        :data:`DATABASE_TIMEOUT`, else 503; the JSON body says which."""
        gateway = self.bot.gateway_connected()
        try:
            database = await asyncio.wait_for(self.bot.storage.ping(), DATABASE_TIMEOUT)
        except Exception:  # any failure to answer is "down", said in the body
            database = False
        healthy = gateway and database
        return web.json_response(
            {"ok": healthy, "gateway": gateway, "database": database, **self.bot.health_details()},
            status=200 if healthy else 503,
        )

    async def metrics(self, request: web.Request) -> web.Response:
        """``/metrics`` in Prometheus' text format, the live-games gauge read from the database
        (a fleet's process: the games of the shards it runs)."""
        live = await self.bot.live_counts()
        for game in self.bot.games():
            self.bot.metrics.live_games.labels(game.kind).set(live.get(game.kind, 0))
        body = generate_latest(self.bot.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def to_page(self, request: web.Request) -> web.Response:
        """``/verify`` and ``/verify/``: a redirect to the verification page."""
        raise web.HTTPFound(f"/verify/{PAGE_NAME}")
