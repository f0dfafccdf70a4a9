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
import time
from collections.abc import Callable

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


# Interactions of one server handled at once, from their arrival to their acknowledgement.
ANSWERING_PER_SERVER = 32


class ServerArrivals:
    """Interactions are handled in arrival order, but at most ``per_server`` of one server at a
    time, from their arrival to their acknowledgement (or Discord's deadline): the rest of a
    server's burst waits in its own line, and another server's interaction arriving behind the
    burst is handled at once instead of after all of it (bench/bench_flood.py)."""

    def __init__(self, per_server: int = ANSWERING_PER_SERVER) -> None:
        self.per_server = per_server
        self._answering: dict[int, set[int]] = {}
        self._waiting: dict[int, collections.deque[tuple[int, Callable[[], None]]]] = {}
        self._server_of: dict[int, int] = {}

    def answering(self, guild_id: int) -> int:
        """Interactions of server ``guild_id`` being handled now."""
        return len(self._answering.get(guild_id, ()))

    def waiting(self, guild_id: int) -> int:
        """Interactions of server ``guild_id`` waiting for their turn."""
        return len(self._waiting.get(guild_id, ()))

    def arrived(self, guild_id: int | None, interaction_id: int, handle: Callable[[], None]) -> None:
        """Interaction ``interaction_id`` came in: ``handle`` it now, or once its server's
        earlier ones are acknowledged."""
        if guild_id is None:
            handle()
            return
        if self.answering(guild_id) < self.per_server:
            self._start(guild_id, interaction_id, handle)
            return
        self._waiting.setdefault(guild_id, collections.deque()).append((interaction_id, handle))

    def answered(self, interaction_id: int) -> None:
        """Interaction ``interaction_id`` was acknowledged (or its deadline passed): the next of
        its server may go."""
        guild_id = self._server_of.pop(interaction_id, None)
        if guild_id is None:
            return
        answering = self._answering[guild_id]
        answering.discard(interaction_id)
        line = self._waiting.get(guild_id)
        while line and len(answering) < self.per_server:
            self._start(guild_id, *line.popleft())
        if not line:
            self._waiting.pop(guild_id, None)
        if not answering:
            del self._answering[guild_id]

    def _start(self, guild_id: int, interaction_id: int, handle: Callable[[], None]) -> None:
        self._answering.setdefault(guild_id, set()).add(interaction_id)
        self._server_of[interaction_id] = guild_id
        # However it ends (an answer, a handler that never answers, dropped as too late), its
        # place is given back by Discord's deadline.
        asyncio.get_running_loop().call_later(ACK_DEADLINE, self.answered, interaction_id)
        handle()
