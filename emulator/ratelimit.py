"""Discord-style rate limits: per-route buckets keyed by their top-level resource, the global
per-bot limit, their headers, and the invalid-request counter (Cloudflare bans).

Discord documents the mechanism (Topics: Rate Limits), not the numbers, bar the global 50
requests per second and the invalid-request limit (10,000 per 10 minutes); the per-route numbers
here are what Discord has been seen to send, each noted where it is defined, and any of them can
be changed (or switched off with None) in :class:`RateLimits`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``window`` seconds in one bucket (per top-level resource)."""

    limit: int
    window: float

    def __post_init__(self) -> None:
        if self.limit < 1 or self.window <= 0:
            raise ValueError(f"a route limit needs limit >= 1 and window > 0, got {self}")


@dataclass(frozen=True)
class RateLimits:
    """Limits the emulator enforces when rate limiting is on.

    ``channel_messages`` per ``channel_messages_window`` seconds: message posts per channel
    (5 per 5 s, as Discord has long answered; the original bot limit announced in
    discord-api-docs#20). ``global_requests`` per ``global_window``: every request with the bot's
    token except the interaction endpoints (documented: 50 per second). The per-route buckets,
    each keyed by its top-level resource (``channel_id``, ``guild_id``, ``webhook_id`` +
    ``webhook_token``), None to switch one off:

    * ``message_edits``: PATCH of a channel message, per channel (5 per 5 s, as posts: the 2016
      announcement covers "message creation and editing");
    * ``message_deletes``: DELETE of a channel message, per channel (5 per 1 s: the old Rate
      Limits page said deletes have "a separate, higher rate limit");
    * ``reactions``: adding or removing the bot's reaction, per channel (1 per 0.25 s, reported in
      discord-api-docs#182 and used by discord.js);
    * ``interaction_webhooks``: follow-ups and edits through an interaction's webhook, per
      interaction token (5 per 2 s: "Interactions webhooks share the same rate limit properties
      as normal webhooks", measured in discord-api-docs#2701);
    * ``dm_opens``: POST /users/@me/channels, per bot; Discord publishes no number and none has
      been reported, so the bucket (and its headers) is served with the global numbers (50 per
      1 s): never stricter than Discord, a bucket the bot must still honour;
    * ``scheduled_events``: creating, editing and deleting scheduled events, per guild; the
      same, for the same reason.

    ``identify_window``: the gateway's max_concurrency window (5 s, Gateway: Rate Limiting).
    """

    channel_messages: int = 5
    channel_messages_window: float = 5.0
    global_requests: int = 50
    global_window: float = 1.0
    identify_window: float = 5.0
    message_edits: RouteLimit | None = RouteLimit(5, 5.0)
    message_deletes: RouteLimit | None = RouteLimit(5, 1.0)
    reactions: RouteLimit | None = RouteLimit(1, 0.25)
    interaction_webhooks: RouteLimit | None = RouteLimit(5, 2.0)
    dm_opens: RouteLimit | None = RouteLimit(50, 1.0)
    scheduled_events: RouteLimit | None = RouteLimit(50, 1.0)

    def faster(self, factor: float) -> RateLimits:
        """The same limits over windows ``factor`` times shorter: for a test whose games run on
        a faster clock than Discord's (a call every few hundredths of a second) and that is
        about something else than Discord's pace. The buckets, their headers and the 429s stay;
        only the clock changes. (The gateway's IDENTIFY window is left as it is.)"""
        if factor <= 0:
            raise ValueError(f"a speed-up factor must be positive, got {factor}")

        def shorter(route: RouteLimit | None) -> RouteLimit | None:
            return None if route is None else RouteLimit(route.limit, route.window / factor)

        return dataclasses.replace(
            self,
            channel_messages_window=self.channel_messages_window / factor,
            global_window=self.global_window / factor,
            message_edits=shorter(self.message_edits),
            message_deletes=shorter(self.message_deletes),
            reactions=shorter(self.reactions),
            interaction_webhooks=shorter(self.interaction_webhooks),
            dm_opens=shorter(self.dm_opens),
            scheduled_events=shorter(self.scheduled_events),
        )

    def for_route(self, kind: str) -> RouteLimit | None:
        """The limit of a bucket kind (see :func:`bucket_of`), or None if it is off."""
        if kind == "messages.create":
            return RouteLimit(self.channel_messages, self.channel_messages_window)
        chosen: RouteLimit | None = {
            "messages.edit": self.message_edits,
            "messages.delete": self.message_deletes,
            "reactions": self.reactions,
            "webhook.execute": self.interaction_webhooks,
            "webhook.message": self.interaction_webhooks,
            "dm.open": self.dm_opens,
            "scheduled_events": self.scheduled_events,
        }.get(kind)
        return chosen


_CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
_REACTION = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me"
_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"


def bucket_of(method: str, template: str, params: Mapping[str, str]) -> tuple[str, str] | None:
    """The bucket a request falls in: its kind and its top-level resource (Discord's "major
    parameter"), or None for a route with no per-route limit here."""
    if template == "/channels/{channel_id}/messages" and method == "POST":
        return "messages.create", params["channel_id"]
    if template == _CHANNEL_MESSAGE and method == "PATCH":
        return "messages.edit", params["channel_id"]
    if template == _CHANNEL_MESSAGE and method == "DELETE":
        return "messages.delete", params["channel_id"]
    if template == _REACTION:
        return "reactions", params["channel_id"]
    if template == _WEBHOOK:
        return "webhook.execute", f"{params['webhook_id']}/{params['webhook_token']}"
    if template.startswith(_WEBHOOK + "/messages/"):
        return "webhook.message", f"{params['webhook_id']}/{params['webhook_token']}"
    if template == "/users/@me/channels" and method == "POST":
        return "dm.open", "@me"
    if template.startswith("/guilds/{guild_id}/scheduled-events") and method != "GET":
        return "scheduled_events", params["guild_id"]
    return None


def bucket_hash(kind: str) -> str:
    """``X-RateLimit-Bucket``: an opaque id of the limit, the same whatever the top-level
    resource ("non-inclusive of top-level resources in the path")."""
    return hashlib.sha256(kind.encode()).hexdigest()[:32]


@dataclass
class _Window:
    limit: int
    window: float
    remaining: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.reset_at:
            self.remaining = self.limit
            self.reset_at = now + self.window
        if self.remaining <= 0:
            return False
        self.remaining -= 1
        return True


@dataclass(frozen=True)
class Verdict:
    """Whether a request may proceed; headers to send either way; ``retry_after`` if refused."""

    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    is_global: bool = False


@dataclass
class RateLimiter:
    limits: RateLimits
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Window] = field(default_factory=dict)
    _global: _Window | None = None
    refused: int = 0  # requests answered 429
    exhausted: int = 0  # times a bucket was used up (a well-behaved client then waits)

    def check(
        self, bucket: str | None, *, counts_globally: bool, kind: str = "messages.create"
    ) -> Verdict:
        """Take one request from the global window (if it counts) and from ``bucket`` (a key
        unique to the bucket kind and its top-level resource, e.g. ``messages.create:123``),
        whose limit is that of ``kind``."""
        now = self.clock()
        if counts_globally:
            if self._global is None:
                self._global = _Window(self.limits.global_requests, self.limits.global_window)
            if not self._global.take(now):
                self.refused += 1
                retry = max(self._global.reset_at - now, 0.001)
                return Verdict(
                    False,
                    {
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                        "Retry-After": _ceil(retry),
                    },
                    retry,
                    is_global=True,
                )
        limit = self.limits.for_route(kind)
        if bucket is None or limit is None:
            return Verdict(True, {})
        window = self._buckets.get(bucket)
        if window is None:
            window = self._buckets[bucket] = _Window(limit.limit, limit.window)
        allowed = window.take(now)
        if allowed and window.remaining == 0:
            self.exhausted += 1
        reset_after = max(window.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(window.remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(kind),
        }
        if allowed:
            return Verdict(True, headers)
        self.refused += 1
        headers["X-RateLimit-Scope"] = "user"
        headers["Retry-After"] = _ceil(reset_after)
        return Verdict(False, headers, max(reset_after, 0.001))


def _ceil(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))


# The invalid-request limit (Topics: Rate Limits, "Invalid Request Limit aka Cloudflare bans").
INVALID_REQUEST_LIMIT = 10_000
INVALID_REQUEST_WINDOW = 600.0


@dataclass(frozen=True)
class InvalidRequestLimit:
    """Discord's invalid-request limit: ``limit`` answers of 401, 403 or 429 (a 429 with
    ``X-RateLimit-Scope: shared`` excepted) within ``window`` seconds, and the address is banned
    from the API for ``ban`` seconds (Discord says "temporarily"; reports say about an hour)."""

    limit: int = INVALID_REQUEST_LIMIT
    window: float = INVALID_REQUEST_WINDOW
    ban: float = 3600.0

    def __post_init__(self) -> None:
        if self.limit < 1 or self.window <= 0 or self.ban <= 0:
            raise ValueError(f"an invalid-request limit needs positive numbers, got {self}")


class InvalidRequests:
    """The count of invalid requests (always kept) and, with a limit, the ban that follows."""

    def __init__(
        self, limit: InvalidRequestLimit | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self._clock = clock
        self.total = 0  # every invalid request since the start
        self._recent: deque[float] = deque()
        self.banned_until: float | None = None
        self.bans = 0

    @staticmethod
    def is_invalid(status: int, headers: Mapping[str, str]) -> bool:
        """401, 403 and 429 count, except a 429 for a shared resource."""
        if status == 429:
            return headers.get("X-RateLimit-Scope") != "shared"
        return status in (401, 403)

    def _trim(self, now: float) -> None:
        window = self.limit.window if self.limit is not None else INVALID_REQUEST_WINDOW
        while self._recent and now - self._recent[0] >= window:
            self._recent.popleft()

    def record(self, status: int, headers: Mapping[str, str]) -> None:
        if not self.is_invalid(status, headers):
            return
        now = self._clock()
        self.total += 1
        self._recent.append(now)
        self._trim(now)
        if self.limit is not None and len(self._recent) >= self.limit.limit and not self.banned:
            self.banned_until = now + self.limit.ban
            self.bans += 1

    def in_window(self) -> int:
        """Invalid requests in the last window (10 minutes unless the limit says otherwise)."""
        self._trim(self._clock())
        return len(self._recent)

    @property
    def banned(self) -> bool:
        until = self.banned_until
        if until is None:
            return False
        if self._clock() >= until:
            self.banned_until = None
            self._recent.clear()
            return False
        return True
