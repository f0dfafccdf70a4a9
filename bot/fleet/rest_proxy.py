"""``gamenight rest-proxy``: one global rate limit for a fleet of bot processes.

Discord's global limit (50 requests/s) belongs to the bot, whichever process sends: several
processes that each keep to it would together exceed it. Every process points
``DISCORD_API_BASE_URL`` at this proxy (``http://HOST:PORT/api/v10``); it forwards each request
to Discord with its method, path, query, headers and body untouched (multipart uploads are
streamed through as they are) and hands back Discord's answer, headers included, so that
discord.py keeps its per-route buckets from the ``X-RateLimit-*`` headers and retries a 429
(the proxy passes Discord's ``Via`` back, which discord.py looks for) by itself.

What the proxy adds is the global limit: one :class:`GlobalBudget` for the bot, served first
come first served across processes. Interaction endpoints are not bound to the global limit on
Discord, and so not here: interaction callbacks and the interaction webhooks (follow-ups, the
original response), which carry the interaction's token instead of the bot's, pass at once, so
an acknowledgement never queues behind DMs.

It forwards the bot's requests only: those whose ``Authorization`` is the bot's own token (its
``DISCORD_TOKEN``), and the interaction routes, which carry none. Any other ``Authorization``,
or none on another route, is answered 401 by the proxy itself: Discord never sees it, so
strangers' invalid requests cannot get the fleet's address banned (Discord bans an address
after 10,000 invalid requests in 10 minutes), and the proxy remembers nothing per token.
Its own connections are limited as the bot's HTTP endpoint's are (``bot.ops.connection_guard``).

A request takes a token from its bot's budget before it goes; the token comes back one window
(1 s) after Discord's answer arrives. Discord counts a request between its sending and its
answer, so two uses of one token are always counted at least a window apart, and no window
Discord looks at holds more than the limit, whatever the network's delays. If Discord still
answers a global 429 (another client using the token outside the proxy), the budget stops for
its ``retry_after`` and the 429 goes back to the client, which retries.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType

import aiohttp
import yarl
from aiohttp import web
from multidict import CIMultiDict, CIMultiDictProxy
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from bot.ops.connection_guard import ConnectionGuard, ConnectionLimits, track_requests

log = logging.getLogger(__name__)

DEFAULT_UPSTREAM = "https://discord.com/api/v10"
DEFAULT_LIMIT = 50  # Discord's global limit: requests per window, per bot
DEFAULT_WINDOW = 1.0  # seconds
API_PREFIX = "/api/v10"  # what the clients' DISCORD_API_BASE_URL ends with
# The proxy's share of its file descriptors: each connection from a bot process may need
# another to Discord, so a third of them (341 under systemd's default of 1,024).
DESCRIPTOR_SHARE = 1 / 3
MOST_CONNECTIONS = 8192
HEADER_TIMEOUT = 10.0  # seconds for a request's line and headers, from its first byte
# Seconds a connection is kept without a request: longer than the clients' own keep-alive
# (aiohttp's 15 s), so that a client never reuses a connection the proxy is closing.
IDLE_TIMEOUT = 60.0
REFUSED_REPORT_INTERVAL = 60.0  # seconds between two log lines about refused tokens, at most
# What Discord answers a request without a valid token (and what the proxy answers for it).
UNAUTHORIZED = {"message": "401: Unauthorized", "code": 0}
# Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection, never forwarded; Host and the
# body's length are set anew for the next hop.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)
# Interaction endpoints (Discord: "not bound to the bot's Global Rate Limit"): the callback and
# the interaction webhooks, which carry the interaction's token instead of the bot's.
EXEMPT = re.compile(r"/interactions/[^/]+/[^/]+/callback|/webhooks/[^/]+/[^/]+(?:/.*)?")
WAIT_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
UPSTREAM_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=60)


def is_exempt(path: str) -> bool:
    """Whether a request to ``path`` (below the API version) is free of the global limit."""
    return EXEMPT.fullmatch(path) is not None


def redacted(path: str) -> str:
    """``path`` fit for a log line: ids become ``{id}``, interaction tokens ``{token}``."""
    if is_exempt(path):
        parts = path.split("/")  # "", "interactions" or "webhooks", the id, the token, ...
        parts[3] = "{token}"
        path = "/".join(parts)
    return re.sub(r"/\d{15,21}(?=/|$)", "/{id}", path)


class GlobalBudget:
    """At most ``limit`` requests of one bot counted by Discord in any ``window`` seconds.

    ``limit`` tokens; :meth:`take` waits for one (first come, first served), :meth:`give_back`
    returns it ``window`` seconds after the request's answer arrived, and :meth:`stop` holds
    every token for a while (Discord answered a global 429)."""

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError(f"a budget needs a limit >= 1 and a window > 0, not {limit}/{window}")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._free = limit
        self._returning: deque[float] = deque()  # when spent tokens come back, oldest first
        self._turn = asyncio.Lock()  # FIFO: whoever asked first gets the next token
        self._changed = asyncio.Event()
        self.stopped_until = 0.0
        self.waiting = 0  # requests waiting for a token now

    @property
    def free(self) -> int:
        """Tokens free now."""
        self._collect(self._clock())
        return self._free

    def _collect(self, now: float) -> None:
        while self._returning and self._returning[0] <= now:
            self._returning.popleft()
            self._free += 1

    async def take(self) -> float:
        """Wait for a token; returns the seconds waited."""
        asked = self._clock()
        self.waiting += 1
        try:
            async with self._turn:
                while True:
                    now = self._clock()
                    self._collect(now)
                    if now >= self.stopped_until and self._free > 0:
                        self._free -= 1
                        return now - asked
                    if now < self.stopped_until:
                        wake: float | None = self.stopped_until
                    else:  # every token is spent: the next one back, or an answer arriving
                        wake = self._returning[0] if self._returning else None
                    self._changed.clear()
                    timeout = None if wake is None else max(wake - now, 0.0005)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), timeout)
        finally:
            self.waiting -= 1

    def give_back(self) -> None:
        """The request taken for is answered (or failed): its token returns a window later."""
        self._returning.append(self._clock() + self.window)
        self._changed.set()

    def stop(self, seconds: float) -> None:
        """No request leaves for ``seconds`` (Discord answered a global 429)."""
        self.stopped_until = max(self.stopped_until, self._clock() + seconds)
        self._changed.set()


def default_limits() -> ConnectionLimits:
    """The proxy's connection limits, its cap read from the descriptor limit now."""
    return ConnectionLimits.within_descriptors(
        DESCRIPTOR_SHARE, MOST_CONNECTIONS, header_timeout=HEADER_TIMEOUT, idle_timeout=IDLE_TIMEOUT
    )


@dataclass(frozen=True)
class ProxyOptions:
    """The bot's token (the one ``Authorization`` forwarded), where the proxy listens, where
    it forwards to, the bot's budget, and the limits on its connections (default:
    :func:`default_limits`, read at start)."""

    token: str = field(repr=False, kw_only=True)
    upstream: str = DEFAULT_UPSTREAM
    limit: int = DEFAULT_LIMIT
    window: float = DEFAULT_WINDOW
    host: str = "127.0.0.1"
    port: int = 8080
    connections: ConnectionLimits | None = None


@dataclass
class ProxyStats:
    """What the proxy did, for ``/healthz``, ``/metrics`` and the tests."""

    forwarded: int = 0  # requests that counted against a global budget
    exempt: int = 0  # interaction requests, passed at once
    unauthorized: int = 0  # not the bot's token: answered 401 without asking Discord
    delayed: int = 0  # requests that waited for a token
    waited_seconds: float = 0.0
    longest_wait: float = 0.0
    upstream_failures: int = 0  # Discord unreachable: answered 502
    upstream_429: dict[str, int] = field(default_factory=dict)  # by X-RateLimit-Scope


class RestProxy:
    """The proxy as an aiohttp server. ``async with RestProxy(options) as proxy:`` serves on
    ``proxy.api_base_url`` (port 0 picks a free port) until the block ends."""

    def __init__(self, options: ProxyOptions) -> None:
        if not options.token:
            raise ValueError("the REST proxy needs the bot's token")
        self.options = options
        self.upstream = options.upstream.rstrip("/")
        # What discord.py sends as Authorization; compared in constant time.
        self._authorization = f"Bot {options.token}".encode()
        self.budget = GlobalBudget(options.limit, options.window)
        self.stats = ProxyStats()
        self._unauthorized_reported = 0  # stats.unauthorized at the last log line
        self._next_unauthorized_report = 0.0
        self._registry = CollectorRegistry(auto_describe=True)
        self._requests = Counter(
            "gamenight_proxy_requests",
            "Requests forwarded, by whether they counted against the global limit",
            ["limit"],
            registry=self._registry,
        )
        self._waits = Histogram(
            "gamenight_proxy_wait_seconds",
            "How long globally limited requests waited for their bot's budget",
            buckets=WAIT_BUCKETS,
            registry=self._registry,
        )
        self._waiting = Gauge(
            "gamenight_proxy_waiting",
            "Requests waiting for their bot's budget now",
            registry=self._registry,
        )
        self._waiting.set_function(lambda: self.budget.waiting)
        self._unauthorized = Counter(
            "gamenight_proxy_unauthorized",
            "Requests without the bot's token, answered 401 without asking Discord",
            registry=self._registry,
        )
        self._upstream_429 = Counter(
            "gamenight_proxy_upstream_429",
            "429 answers from Discord passed back, by X-RateLimit-Scope",
            ["scope"],
            registry=self._registry,
        )
        self._failures = Counter(
            "gamenight_proxy_upstream_failures",
            "Requests Discord could not be reached for (answered 502)",
            registry=self._registry,
        )
        app = web.Application(middlewares=[track_requests])
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.forward)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        self._session: aiohttp.ClientSession | None = None
        self.guard: ConnectionGuard | None = None
        self.port = options.port

    @property
    def base_url(self) -> str:
        """The proxy's own address (``/healthz``, ``/metrics``)."""
        return f"http://{self.options.host}:{self.port}"

    @property
    def api_base_url(self) -> str:
        """What the bot processes' ``DISCORD_API_BASE_URL`` should be."""
        return self.base_url + API_PREFIX

    @property
    def waiting(self) -> int:
        """Requests waiting for a token now."""
        return self.budget.waiting

    async def start(self) -> None:
        """Start serving (``port`` is then the one listened on)."""
        # Bodies pass as they are: no decompressing, no Accept-Encoding or User-Agent of our own.
        self._session = aiohttp.ClientSession(
            auto_decompress=False,
            skip_auto_headers=("Accept-Encoding", "User-Agent", "Content-Type"),
            timeout=UPSTREAM_TIMEOUT,
            connector=aiohttp.TCPConnector(limit=0),  # the budget limits, not the pool
        )
        limits = self.options.connections or default_limits()
        self.guard = ConnectionGuard("REST proxy", limits)
        await self._runner.setup()
        self.port = await self.guard.serve(self._runner, self.options.host, self.options.port)
        self._registry.register(self.guard.collector("gamenight_proxy"))
        log.info(
            "REST proxy on %s, forwarding the bot's requests to %s; at most %d requests per "
            "%g s (interaction callbacks and follow-ups pass at once); at most %d connections, "
            "closed after %g s idle or %g s for a request's headers",
            self.api_base_url,
            self.upstream,
            self.options.limit,
            self.options.window,
            limits.max_connections,
            limits.idle_timeout,
            limits.header_timeout,
        )

    async def stop(self) -> None:
        """Stop serving and close the connections to Discord."""
        if self.guard is not None:
            await self.guard.close()
        await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def __aenter__(self) -> RestProxy:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    def is_the_bots(self, authorization: str) -> bool:
        """Whether ``authorization`` (an ``Authorization`` header) is the bot's own token."""
        given = authorization.encode("utf-8", "surrogateescape")
        return hmac.compare_digest(given, self._authorization)

    # -- the handlers ------------------------------------------------------------------------

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """Any request under ``/api/v10``: to Discord once the bot's budget allows it (at once
        for interaction routes), Discord's answer handed back as it came; 401 without asking
        Discord unless it is the bot's."""
        tail = request.rel_url.raw_path[len(API_PREFIX) :]
        authorization = request.headers.get("Authorization")
        exempt = is_exempt(tail)
        if not (
            (authorization is None and exempt)
            or (authorization is not None and self.is_the_bots(authorization))
        ):
            return self._refuse(request.method, tail)
        if exempt:
            self.stats.exempt += 1
            self._requests.labels("exempt").inc()
            return await self._send(request, tail, None)
        budget = self.budget
        waited = await budget.take()
        self.stats.forwarded += 1
        self._requests.labels("global").inc()
        self._waits.observe(waited)
        if waited > 0.0005:
            self.stats.delayed += 1
            self.stats.waited_seconds += waited
            self.stats.longest_wait = max(self.stats.longest_wait, waited)
        try:
            return await self._send(request, tail, budget)
        finally:
            budget.give_back()

    def _refuse(self, method: str, tail: str) -> web.Response:
        """Answer 401 as Discord would, without asking it; a log line at most once a minute."""
        self.stats.unauthorized += 1
        self._unauthorized.inc()
        now = time.monotonic()
        if now >= self._next_unauthorized_report:
            log.warning(
                "refused %d requests without the bot's token (answered 401, not forwarded), "
                "the last %s %s; is a process using another token?",
                self.stats.unauthorized - self._unauthorized_reported,
                method,
                redacted(tail),
            )
            self._unauthorized_reported = self.stats.unauthorized
            self._next_unauthorized_report = now + REFUSED_REPORT_INTERVAL
        return web.json_response(UNAUTHORIZED, status=401)

    async def _send(
        self, request: web.Request, tail: str, budget: GlobalBudget | None
    ) -> web.StreamResponse:
        assert self._session is not None
        url = yarl.URL(self.upstream + tail, encoded=True)
        if request.rel_url.raw_query_string:
            url = url.with_query(request.rel_url.raw_query_string)
        headers = _forwarded(request.headers)
        if request.content_length is not None:
            headers["Content-Length"] = str(request.content_length)
        body = request.content if request.body_exists else None
        try:
            async with self._session.request(
                request.method, url, headers=headers, data=body, allow_redirects=False
            ) as answer:
                content = await answer.read()
                status, answer_headers = answer.status, answer.headers
        except (aiohttp.ClientError, TimeoutError) as error:
            if request.transport is None or request.transport.is_closing():
                log.debug("the client went away during %s %s", request.method, redacted(tail))
                raise web.HTTPBadRequest from error  # nobody is left to read it
            self.stats.upstream_failures += 1
            self._failures.inc()
            log.warning(
                "Discord could not be reached for %s %s: %s",
                request.method,
                redacted(tail),
                type(error).__name__,
            )
            return web.json_response(
                {"message": "502: the REST proxy could not reach Discord", "code": 0}, status=502
            )
        if status == 429:
            self._note_429(request.method, tail, content, answer_headers, budget)
        return web.Response(status=status, body=content, headers=_forwarded(answer_headers))

    def _note_429(
        self,
        method: str,
        tail: str,
        content: bytes,
        headers: CIMultiDictProxy[str],
        budget: GlobalBudget | None,
    ) -> None:
        is_global = headers.get("X-RateLimit-Global", "").lower() == "true"
        retry_after = 1.0
        with contextlib.suppress(ValueError, TypeError, AttributeError):
            data = json.loads(content)
            is_global = is_global or bool(data.get("global"))
            retry_after = float(data.get("retry_after", retry_after))
        scope = headers.get("X-RateLimit-Scope") or ("global" if is_global else "unknown")
        self.stats.upstream_429[scope] = self.stats.upstream_429.get(scope, 0) + 1
        self._upstream_429.labels(scope).inc()
        if is_global and budget is not None:
            budget.stop(retry_after)
            log.warning(
                "Discord answered a global 429 for %s %s: the bot's requests wait %.2f s (is "
                "another client using its token without the proxy?)",
                method,
                redacted(tail),
                retry_after,
            )

    async def healthz(self, request: web.Request) -> web.Response:
        """200 while serving, with what the proxy did so far (it never asks Discord: that
        would spend the budget)."""
        stats = self.stats
        return web.json_response(
            {
                "ok": True,
                "upstream": self.upstream,
                "limit": self.options.limit,
                "window": self.options.window,
                "waiting": self.waiting,
                "forwarded": stats.forwarded,
                "exempt": stats.exempt,
                "unauthorized": stats.unauthorized,
                "connections": self.guard.open if self.guard is not None else 0,
                "delayed": stats.delayed,
                "longest_wait": round(stats.longest_wait, 3),
                "upstream_429": stats.upstream_429,
                "upstream_failures": stats.upstream_failures,
            }
        )

    async def metrics(self, request: web.Request) -> web.Response:
        """``/metrics`` in Prometheus' text format."""
        body = generate_latest(self._registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


def _forwarded(headers: Mapping[str, str] | Iterable[tuple[str, str]]) -> CIMultiDict[str]:
    """The end-to-end headers, repeated ones kept (every Set-Cookie, say)."""
    items = headers.items() if isinstance(headers, Mapping) else headers
    return CIMultiDict((name, value) for name, value in items if name.lower() not in HOP_BY_HOP)


async def serve(options: ProxyOptions) -> None:
    """Run the proxy until SIGTERM or SIGINT."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(stop_signal, stopping.set)
    async with RestProxy(options) as proxy:
        print(f"DISCORD_API_BASE_URL={proxy.api_base_url}", flush=True)
        await stopping.wait()
        log.info("stop signal received; closing")
