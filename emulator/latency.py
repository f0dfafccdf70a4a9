"""Network latency between the bot and the emulated Discord: a one-way delay drawn for each REST
request, each REST answer and each gateway event, uniformly between two bounds, from an RNG
seeded so that a test's draws are the same from run to run."""

from __future__ import annotations

import random
from dataclasses import dataclass

LatencySetting = float | tuple[float, float] | None


@dataclass(frozen=True)
class Latency:
    """One-way delays of ``low`` to ``high`` seconds (uniform), from an RNG seeded by ``seed``."""

    low: float
    high: float
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high:
            raise ValueError(f"latency needs 0 <= low <= high, got ({self.low}, {self.high})")

    @classmethod
    def of(cls, setting: LatencySetting, seed: int = 0) -> Latency | None:
        """``None`` (no latency), one number (always that delay) or ``(low, high)``."""
        if setting is None:
            return None
        if isinstance(setting, tuple):
            low, high = setting
            return cls(float(low), float(high), seed)
        return cls(float(setting), float(setting), seed)


class LatencySource:
    """Draws delays for a :class:`Latency` (zero when there is none)."""

    def __init__(self, latency: Latency | None) -> None:
        self.latency = latency
        self._rng = random.Random(0 if latency is None else latency.seed)

    @property
    def enabled(self) -> bool:
        return self.latency is not None and self.latency.high > 0

    def draw(self) -> float:
        latency = self.latency
        if latency is None or latency.high <= 0:
            return 0.0
        if latency.low == latency.high:
            return latency.low
        return self._rng.uniform(latency.low, latency.high)
