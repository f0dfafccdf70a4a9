"""Acknowledge first: the work an interaction starts once acknowledged waits while other
interactions still wait for their acknowledgement.

In a rush (a thousand Join clicks in a fraction of a second) every acknowledgement must reach
Discord within 3 s, while each Join also deals, stores, renders and sends a DM. Left to asyncio's
turn-taking, the acknowledgements of the last clicks queue behind the deals of the first ones;
with this gate a Join defers, then waits here until the interactions that arrived are all
acknowledged, so the rush is answered before it is served (bench/bench_load.py).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable, Hashable

log = logging.getLogger(__name__)

# Discord's deadline: an interaction not acknowledged by then has failed; nobody waits for it.
ACK_DEADLINE = 3.0
# However busy, the work waits no longer than this: a steady stream of interactions must not
# starve it.
MOST_WAIT = 2.0
# A rush still arriving (frames not yet read off the gateway) counts as waiting too: the work goes
# ahead once no interaction has arrived for this long.
QUIET = 0.05


class PendingAcknowledgements:
    """The interactions received and not yet acknowledged, by id, with when they arrived."""

    def __init__(self) -> None:
        self._arrived: dict[int, float] = {}
        self._last_arrival = float("-inf")
        self._settled = asyncio.Event()
        self._settled.set()

    def waiting(self) -> int:
        """How many interactions wait for their acknowledgement (within Discord's deadline)."""
        self._forget_expired()
        return len(self._arrived)

    def arrived(self, interaction_id: int) -> None:
        """An interaction came in (called as discord.py parses it, before any handler runs)."""
        self._last_arrival = self._arrived[interaction_id] = time.monotonic()
        self._settled.clear()

    def answered(self, interaction_id: int) -> None:
        """An interaction was acknowledged (deferred or answered)."""
        self._arrived.pop(interaction_id, None)
        if not self.waiting():
            self._settled.set()

    async def settled(self, most: float = MOST_WAIT) -> None:
        """Wait until every interaction received is acknowledged (or past Discord's deadline)
        and none has arrived for ``QUIET`` seconds, ``most`` seconds at the longest."""
        deadline = time.monotonic() + most
        while True:
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                return
            if self.waiting():
                # Woken by the last acknowledgement, or when the oldest one's deadline passes.
                oldest = next(iter(self._arrived.values())) + ACK_DEADLINE - now
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._settled.wait(), max(0.0, min(remaining, oldest)))
                continue
            still_arriving = self._last_arrival + QUIET - now
            if still_arriving <= 0:
                return
            await asyncio.sleep(min(remaining, still_arriving))

    def _forget_expired(self) -> None:
        # Arrival order is time order: the expired ones are first.
        cutoff = time.monotonic() - ACK_DEADLINE
        while self._arrived:
            interaction_id, at = next(iter(self._arrived.items()))
            if at > cutoff:
                break
            del self._arrived[interaction_id]
        if not self._arrived:
            self._settled.set()


# Interactions of one server handed to their handlers in one turn of the event loop.
ARRIVALS_PER_TURN = 4


class ServerArrivals:
    """Interactions are handed to their handlers in turns, server by server: each turn of the
    event loop takes up to ``per_turn`` of each server's waiting interactions, in arrival order.
    A burst of one server (hundreds read off the gateway at once) is thus handled a few at a
    time, while another server's interaction arriving behind it is handled on the next turn
    instead of after all of it (bench/bench_flood.py). Nothing waits for an answer: the bot
    handles the burst as fast as before, in another order."""

    def __init__(self, per_turn: int = ARRIVALS_PER_TURN) -> None:
        self.per_turn = per_turn
        # Servers in turn order (None: DMs), each with its interactions' handlers in order.
        self._lines: dict[int | None, collections.deque[Callable[[], None]]] = {}
        self._turn: asyncio.Handle | None = None

    def waiting(self, guild_id: int | None) -> int:
        """Interactions of server ``guild_id`` not handed to their handler yet."""
        return len(self._lines.get(guild_id, ()))

    def arrived(self, guild_id: int | None, handle: Callable[[], None]) -> None:
        """An interaction of server ``guild_id`` came in: ``handle`` it on the next turn that
        reaches it."""
        self._lines.setdefault(guild_id, collections.deque()).append(handle)
        if self._turn is None:
            self._turn = asyncio.get_running_loop().call_soon(self._take_turn)

    def _take_turn(self) -> None:
        self._turn = None
        for guild_id in list(self._lines):
            line = self._lines[guild_id]
            for _ in range(min(self.per_turn, len(line))):
                handle = line.popleft()
                try:
                    handle()
                except Exception:  # one interaction must not take the others down with it
                    log.exception("could not handle an interaction of server %s", guild_id)
            # A server served goes to the back of the order.
            del self._lines[guild_id]
            if line:
                self._lines[guild_id] = line
        if self._lines:
            self._turn = asyncio.get_running_loop().call_soon(self._take_turn)


class InOrder:
    """Work on one key (a channel's one calling game, a server's planned nights, a member's one
    table game) done in the order the interactions asking for it came, though each is
    acknowledged before it is done: the place in line is taken at once, with no await, and the
    work waits for the one before. What was counted when it was acknowledged (a channel free, a
    limit not reached) is then what the database finds, unless something else came between.
    """

    def __init__(self) -> None:
        self._last: dict[Hashable, asyncio.Future[None]] = {}

    def place(self, *keys: Hashable) -> Place:
        """Take a place in the line of each of ``keys`` (no await: before acknowledging)."""
        loop = asyncio.get_running_loop()
        mine = loop.create_future()
        before = []
        for key in keys:
            previous = self._last.get(key)
            if previous is not None and not previous.done():
                before.append(previous)
            self._last[key] = mine
        return Place(self, keys, mine, before)

    def _leave(self, keys: tuple[Hashable, ...], mine: asyncio.Future[None]) -> None:
        if not mine.done():
            mine.set_result(None)
        for key in keys:
            if self._last.get(key) is mine:
                del self._last[key]


class Place:
    """A place in :class:`InOrder`'s lines: ``behind`` says whether work came before it and is
    not done; ``async with place:`` waits for that work, then holds the place until done."""

    def __init__(
        self,
        line: InOrder,
        keys: tuple[Hashable, ...],
        mine: asyncio.Future[None],
        before: list[asyncio.Future[None]],
    ) -> None:
        self._line, self._keys, self._mine, self._before = line, keys, mine, before

    @property
    def behind(self) -> bool:
        """Whether other work on one of its keys came first and is not done."""
        return any(not previous.done() for previous in self._before)

    def leave(self) -> None:
        """Give the place up (done, or never to be used)."""
        self._line._leave(self._keys, self._mine)

    async def __aenter__(self) -> None:
        for previous in self._before:
            await asyncio.shield(previous)

    async def __aexit__(self, *exc: object) -> None:
        self.leave()
