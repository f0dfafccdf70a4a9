"""What the bot counts for its operator, in Prometheus' terms (served by ``bot.ops.http_server``).

One :class:`Metrics` per bot, on a registry of its own (two bots in one process, as in the tests,
do not mix their figures). The games count calls, claims and board deliveries as they happen;
:func:`watch_acknowledgements` times how long each interaction waits for its acknowledgement,
and :func:`watch_rest` counts Discord's 429 and 5xx answers, and the invalid requests Discord
counts toward a ban (:class:`InvalidRequests`).
"""

from __future__ import annotations

import functools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ParamSpec, TypeVar

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from bot.acks import PendingAcknowledgements

log = logging.getLogger(__name__)

# Discord allows 3 s; the buckets resolve the part that matters (well under it) finely.
ACK_BUCKETS = (0.025, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
ACKNOWLEDGED = "acknowledged"  # set in ``Interaction.extras`` once its acknowledgement is timed

# Discord's invalid-request limit (Topics: Rate Limits, "Invalid Request Limit"): 10,000 answers
# of 401, 403 or 429 (a 429 of scope "shared" excepted) in 10 minutes, then the bot's address is
# banned for about an hour. The log warns from a tenth of it, at most once a minute.
INVALID_REQUEST_WINDOW = 600.0
INVALID_REQUEST_BAN_AT = 10_000
INVALID_REQUEST_WARN_AT = 1_000
INVALID_REQUEST_WARN_EVERY = 60.0

P = ParamSpec("P")
R = TypeVar("R")


def is_invalid_request(status: int, headers: Mapping[str, str]) -> bool:
    """Whether Discord counts an answer toward its invalid-request limit: every 401, 403 and
    429, except a 429 for a shared resource (``X-RateLimit-Scope: shared``)."""
    if status == 429:
        return headers.get("X-RateLimit-Scope", "").lower() != "shared"
    return status in (401, 403)


class InvalidRequests:
    """The invalid requests of the last ``window`` seconds (counted by the second), with a
    WARNING in the log once they reach ``warn_at`` (again at most every ``warn_every`` seconds
    while they stay there)."""

    def __init__(
        self,
        *,
        warn_at: int = INVALID_REQUEST_WARN_AT,
        window: float = INVALID_REQUEST_WINDOW,
        warn_every: float = INVALID_REQUEST_WARN_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.warn_at = warn_at
        self.window = window
        self.warn_every = warn_every
        self._clock = clock
        self._seconds: deque[list[int]] = deque()  # [second, count], oldest first
        self._in_window = 0
        self._warned_at: float | None = None

    def in_window(self) -> int:
        """Invalid requests in the last ``window`` seconds."""
        self._trim(int(self._clock()))
        return self._in_window

    def _trim(self, second: int) -> None:
        while self._seconds and second - self._seconds[0][0] >= self.window:
            self._in_window -= self._seconds.popleft()[1]

    def record(self, status: int) -> None:
        """One more invalid request (answered ``status``)."""
        now = self._clock()
        second = int(now)
        self._trim(second)
        if self._seconds and self._seconds[-1][0] == second:
            self._seconds[-1][1] += 1
        else:
            self._seconds.append([second, 1])
        self._in_window += 1
        if self._in_window < self.warn_at:
            return
        if self._warned_at is not None and now - self._warned_at < self.warn_every:
            return
        self._warned_at = now
        log.warning(
            "Discord answered %d invalid requests (401, 403 or 429; the last a %d) in the last "
            "%g minutes; at %d it bans the bot's address for about an hour. See which in "
            "gamenight_invalid_requests_total and the log",
            self._in_window,
            status,
            self.window / 60,
            INVALID_REQUEST_BAN_AT,
        )


class Metrics:
    """Counters, gauges and a histogram on a registry of their own."""

    def __init__(self, invalid_requests: InvalidRequests | None = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        # The log's warning before Discord's invalid-request ban (see InvalidRequests).
        self.invalid_window = (
            invalid_requests if invalid_requests is not None else InvalidRequests()
        )
        self.live_games = Gauge(
            "gamenight_live_games",
            "Games in a lobby, running or paused, by kind",
            ["kind"],
            registry=self.registry,
        )
        self.calls = Counter(
            "gamenight_calls",
            "Calls announced in a channel, by kind",
            ["kind"],
            registry=self.registry,
        )
        self.claims = Counter(
            "gamenight_claims",
            "Claims judged, by kind and verdict (won or false)",
            ["kind", "verdict"],
            registry=self.registry,
        )
        self.acknowledgement = Histogram(
            "gamenight_interaction_ack_seconds",
            "From an interaction reaching the bot to the bot acknowledging it",
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.rest_answers = Counter(
            "gamenight_rest_errors",
            "Discord REST answers that were rate limits (429) or server errors (5xx)",
            ["status"],
            registry=self.registry,
        )
        self.invalid_requests = Counter(
            "gamenight_invalid_requests",
            "Discord REST answers that count toward its invalid-request limit (10,000 in 10"
            " minutes bans the bot's address): 401, 403, and 429 but those of scope shared",
            ["status"],
            registry=self.registry,
        )
        self.session_starts_remaining = Gauge(
            "gamenight_session_starts_remaining",
            "Gateway session starts (IDENTIFYs) Discord allows the bot until its daily count"
            " resets, as last read at a start (past them Discord resets the bot's token)",
            registry=self.registry,
        )
        self.dm_fallbacks = Counter(
            "gamenight_dm_fallbacks",
            "Boards that could not go by DM and were shown in a private reply (or wait for one)",
            ["kind"],
            registry=self.registry,
        )
        self.flood_refusals = Counter(
            "gamenight_flood_refusals",
            "Requests refused for a flood (bot.throttle): a member's cooldown, or their server's"
            " line of heavy work full (server_busy)",
            ["reason"],
            registry=self.registry,
        )


def _acknowledged(interaction: discord.Interaction[Any]) -> None:
    """Time from Discord creating the interaction (its snowflake) to its acknowledgement: what
    Discord's 3 s limit counts, the way there included."""
    pending = getattr(interaction.client, "pending_acks", None)
    if isinstance(pending, PendingAcknowledgements):
        pending.answered(interaction.id)
    metrics = getattr(interaction.client, "metrics", None)
    if not isinstance(metrics, Metrics) or interaction.extras.get(ACKNOWLEDGED):
        return
    interaction.extras[ACKNOWLEDGED] = True
    waited = time.time() - interaction.created_at.timestamp()
    metrics.acknowledgement.observe(max(0.0, waited))


def _timing(
    method: Callable[P, Awaitable[R]],
) -> Callable[P, Awaitable[R]]:
    @functools.wraps(method)
    async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
        result = await method(*args, **kwargs)
        response = args[0]
        parent = getattr(response, "_parent", None)
        if isinstance(parent, discord.Interaction):
            _acknowledged(parent)
        return result

    return timed


_ACK_METHODS = ("defer", "send_message", "edit_message", "send_modal", "autocomplete", "pong")


def watch_acknowledgements() -> None:
    """Time every acknowledgement, however a handler gives it: discord.py has no hook for the
    moment an interaction is answered, so each way of answering (``InteractionResponse``'s
    methods) notes it once it has returned. Done once per process; a client without
    :class:`Metrics` is left alone."""
    response = discord.InteractionResponse
    if getattr(response, "_gamenight_timed", False):
        return
    for name in _ACK_METHODS:
        setattr(response, name, _timing(getattr(response, name)))
    response._gamenight_timed = True  # type: ignore[attr-defined]


def rest_trace(metrics: Metrics) -> aiohttp.TraceConfig:
    """An aiohttp trace that counts Discord's 429 and 5xx answers (discord.py retries them
    itself and only logs), and its invalid requests (401, 403, 429 but shared ones)."""

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: Any,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status == 429 or status >= 500:
            metrics.rest_answers.labels(str(status)).inc()
        if is_invalid_request(status, params.response.headers):
            metrics.invalid_requests.labels(str(status)).inc()
            metrics.invalid_window.record(status)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    trace.freeze()
    return trace


def watch_rest(session: aiohttp.ClientSession | None, metrics: Metrics) -> bool:
    """Count the REST answers of discord.py's HTTP session (made at login, without traces):
    the trace is added to the session's list, which aiohttp reads for every request."""
    traces = getattr(session, "_trace_configs", None)
    if not isinstance(traces, list):
        return False
    traces.append(rest_trace(metrics))
    return True
