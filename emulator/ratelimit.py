"""Discord-style rate limits: per-route buckets and the global per-bot limit, with its headers."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RateLimits:
    """Limits the emulator enforces when rate limiting is on (Discord's documented defaults)."""

    channel_messages: int = 5
    channel_messages_window: float = 5.0
    global_requests: int = 50
    global_window: float = 1.0
    # The gateway's max_concurrency: IDENTIFYs per rate-limit key in this many seconds.
    identify_window: float = 5.0


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

    def check(self, bucket: str | None, *, counts_globally: bool) -> Verdict:
        """Take one request from the global window (if it counts) and from ``bucket``."""
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
        if bucket is None:
            return Verdict(True, {})
        window = self._buckets.get(bucket)
        if window is None:
            window = self._buckets[bucket] = _Window(
                self.limits.channel_messages, self.limits.channel_messages_window
            )
        allowed = window.take(now)
        if allowed and window.remaining == 0:
            self.exhausted += 1
        reset_after = max(window.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(window.remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.split(":", 1)[0],
        }
        if allowed:
            return Verdict(True, headers)
        self.refused += 1
        headers["X-RateLimit-Scope"] = "user"
        headers["Retry-After"] = _ceil(reset_after)
        return Verdict(False, headers, max(reset_after, 0.001))


def _ceil(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))
