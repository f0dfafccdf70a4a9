"""Injected faults: chosen REST requests answered with a 429 or a 5xx, as Discord does now and
then, so tests and benchmarks can check that a bot retries without losing or doubling anything.

A :class:`Fault` names the requests it hits (method, route template, a fraction of them, at most
``limit`` times). A 5xx either refuses the request (nothing happened) or, with
``after_handling=True``, lets it take effect and loses the answer, as when Discord's proxy times
out on a request the API did carry out: a bot that retries a message without an enforced nonce
then posts it twice.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from http import HTTPStatus

RATE_LIMITED = 429


@dataclass(frozen=True, eq=False)  # each fault is its own rule, even if two look alike
class Fault:
    """Answer matching requests with ``status`` (429, or 500-599) instead of their real answer.

    ``method`` (e.g. ``"POST"``) and ``route`` (a route template as in Discord's spec, e.g.
    ``"/channels/{channel_id}/messages"``) narrow the requests hit; None matches any.
    ``fraction`` of the matching requests are hit (drawn from the emulator's fault RNG), at most
    ``limit`` times in all. ``after_handling`` (5xx only): the request takes effect first.
    ``retry_after``: the seconds a 429 asks the bot to wait.
    """

    status: int
    method: str | None = None
    route: str | None = None
    fraction: float = 1.0
    limit: int | None = None
    after_handling: bool = False
    retry_after: float = 0.25

    def __post_init__(self) -> None:
        if self.status != RATE_LIMITED and not 500 <= self.status <= 599:
            raise ValueError(f"a fault answers 429 or 500-599, not {self.status}")
        if not 0.0 < self.fraction <= 1.0:
            raise ValueError(f"fraction must be in (0, 1], got {self.fraction}")
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"limit must be at least 1 (or None), got {self.limit}")
        if self.after_handling and self.status == RATE_LIMITED:
            raise ValueError("a 429 refuses the request: after_handling is for 5xx faults")
        if self.retry_after <= 0:
            raise ValueError(f"retry_after must be positive, got {self.retry_after}")

    def matches(self, method: str, route: str) -> bool:
        return (self.method is None or self.method.upper() == method) and (
            self.route is None or self.route == route
        )

    def answer(self) -> dict[str, object]:
        """The JSON body Discord sends with this status."""
        if self.status == RATE_LIMITED:
            return {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": False,
                "code": 0,
            }
        try:
            phrase = HTTPStatus(self.status).phrase
        except ValueError:
            phrase = "Server Error"
        return {"message": f"{self.status}: {phrase}", "code": 0}

    def headers(self) -> dict[str, str]:
        if self.status != RATE_LIMITED:
            return {}
        # "shared": a limit on a shared resource, which does not count against the bot; Via
        # because discord.py only retries a 429 that came through Discord's proxy.
        return {
            "Retry-After": str(max(1, math.ceil(self.retry_after))),
            "X-RateLimit-Scope": "shared",
            "Via": "1.1 google",
        }


@dataclass(frozen=True)
class InjectedFault:
    """One request that a fault hit."""

    method: str
    path: str
    route: str
    status: int
    after_handling: bool


class FaultInjector:
    """The faults in force and what they hit; decisions come from a seeded RNG, so a run with
    the same requests in the same order is hit the same way."""

    def __init__(self, faults: tuple[Fault, ...] = (), *, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._faults: list[Fault] = list(faults)
        self._hits: Counter[Fault] = Counter()
        self.injected: list[InjectedFault] = []

    @property
    def faults(self) -> tuple[Fault, ...]:
        return tuple(self._faults)

    def add(self, fault: Fault) -> Fault:
        self._faults.append(fault)
        return fault

    def remove(self, fault: Fault) -> None:
        self._faults = [f for f in self._faults if f is not fault]

    def clear(self) -> None:
        self._faults.clear()

    def pick(self, method: str, path: str, route: str) -> Fault | None:
        """The fault that hits this request, if any (the first matching fault that fires)."""
        for fault in self._faults:
            if not fault.matches(method, route):
                continue
            if fault.limit is not None and self._hits[fault] >= fault.limit:
                continue
            if fault.fraction < 1.0 and self._rng.random() >= fault.fraction:
                continue
            self._hits[fault] += 1
            self.injected.append(
                InjectedFault(method, path, route, fault.status, fault.after_handling)
            )
            return fault
        return None

    def hits(self, fault: Fault) -> int:
        return self._hits[fault]

    def counts(self) -> Counter[str]:
        """Injections by kind: ``"429"``, ``"500"``, ``"500 after handling"``..."""
        return Counter(
            f"{i.status} after handling" if i.after_handling else str(i.status)
            for i in self.injected
        )


AUTOMOD_BLOCKED = 200000  # JSON error code: "Message was blocked by automatic moderation"


@dataclass(frozen=True, eq=False)
class AutoModBlock:
    """A server's AutoMod rule with the BLOCK_MESSAGE action (Auto Moderation: Keyword trigger):
    the bot's messages whose content contains one of ``keywords`` (case-insensitive; None: every
    message) are refused with 400 / 200000, in ``channel_id`` only if given. It applies to
    message posts and edits; the message is not created or changed."""

    keywords: tuple[str, ...] | None = None
    channel_id: int | None = None

    def blocks(self, channel_id: int, content: str) -> bool:
        if self.channel_id is not None and self.channel_id != channel_id:
            return False
        if self.keywords is None:
            return True
        lowered = content.lower()
        return any(keyword.lower() in lowered for keyword in self.keywords)

    @staticmethod
    def answer() -> dict[str, object]:
        return {"message": "Message was blocked by automatic moderation", "code": AUTOMOD_BLOCKED}
