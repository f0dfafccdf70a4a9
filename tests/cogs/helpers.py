"""Small helpers for the end-to-end game tests: finding buttons, waiting, simulating boards."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from typing import Any

import pytest

from bot import calling
from bot.storage import Storage
from emulator.model import Message

# The network between a bot and Discord: 50-150 ms each way for every request, its answer and
# every gateway event. The end-to-end tests of joins, starts and claims run over it (with
# ``@over_the_network``), so that an answer that only fits Discord's 3 s on loopback fails.
NETWORK_LATENCY = (0.05, 0.15)
over_the_network = pytest.mark.emulator(latency=NETWORK_LATENCY)


def button_id(message: Message, action: str) -> str:
    """The custom id of the calling-game button for ``action`` (join, start, claim, ...)."""
    return next(cid for cid in message.custom_ids if f":{action}:" in cid)


def first_completion(masks: Sequence[int], marks_by_call: Sequence[int]) -> int | None:
    """The 1-based call at which any of ``masks`` is fully marked, or None."""
    for index, marks in enumerate(marks_by_call, start=1):
        if any(marks & mask == mask for mask in masks):
            return index
    return None


def call_texts(messages: Sequence[Message], marker: str) -> list[str]:
    return [m.content for m in messages if marker in m.content]


def grace_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seconds a game stays open after its last prize (claims on that call may still share
    it) are over at once: a test that ends a game by the caller's tick need not wait them."""
    monkeypatch.setattr(calling.live, "PRIZE_SHARING_GRACE", 0.0)


async def run_calls(cog: Any, game_id: int, count: int) -> None:
    """Make ``count`` calls right now through the cog's own caller path."""
    for _ in range(count):
        assert await cog.call_next(game_id)


class StuckDatabase:
    """The bot's database, made to hang on demand: while :meth:`stuck`, every query and every
    write waits (none completes) until the block ends."""

    def __init__(self, storage: Storage) -> None:
        self._real = storage._backend
        self._free = asyncio.Event()
        self._free.set()
        storage._backend = self  # type: ignore[assignment]

    @contextlib.asynccontextmanager
    async def stuck(self) -> AsyncIterator[None]:
        self._free.clear()
        try:
            yield
        finally:
            self._free.set()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> Any:
        await self._free.wait()
        return await self._real.fetch(sql, params)

    async def write(self, work: Callable[[Any], Awaitable[Any]]) -> Any:
        await self._free.wait()
        return await self._real.write(work)

    async def write_statements(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> Any:
        await self._free.wait()
        return await self._real.write_statements(statements)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class SlowDatabase:
    """The bot's database, a slow one on demand (a server over a network, or a busy one):
    while :meth:`slow`, every query and every write waits ``delay`` seconds first."""

    def __init__(self, storage: Storage) -> None:
        self._real = storage._backend
        self.delay = 0.0
        storage._backend = self  # type: ignore[assignment]

    @contextlib.contextmanager
    def slow(self, delay: float) -> Iterator[None]:
        self.delay = delay
        try:
            yield
        finally:
            self.delay = 0.0

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> Any:
        await asyncio.sleep(self.delay)
        return await self._real.fetch(sql, params)

    async def write(self, work: Callable[[Any], Awaitable[Any]]) -> Any:
        await asyncio.sleep(self.delay)
        return await self._real.write(work)

    async def write_statements(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> Any:
        await asyncio.sleep(self.delay)
        return await self._real.write_statements(statements)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)
