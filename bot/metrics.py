"""What the bot counts for its operator, in Prometheus' terms (served by ``bot.http_server``).

One :class:`Metrics` per bot, on a registry of its own (two bots in one process, as in the tests,
do not mix their figures). The games count calls, claims and board deliveries as they happen;
:func:`watch_acknowledgements` times how long each interaction waits for its acknowledgement,
and :func:`watch_rest` counts Discord's 429 and 5xx answers.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from bot.acks import PendingAcknowledgements

# Discord allows 3 s; the buckets resolve the part that matters (well under it) finely.
ACK_BUCKETS = (0.025, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
ACKNOWLEDGED = "acknowledged"  # set in ``Interaction.extras`` once its acknowledgement is timed

P = ParamSpec("P")
R = TypeVar("R")


class Metrics:
    """Counters, gauges and a histogram on a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
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
    itself and only logs)."""

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: Any,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status == 429 or status >= 500:
            metrics.rest_answers.labels(str(status)).inc()

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
