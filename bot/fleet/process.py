"""One process of a fleet that shares the bot's shards (``GAMENIGHT_SHARDS=0-7/32``, or
``standby/32``), on PostgreSQL.

**Leases.** Every shard's games are run by the one process holding the shard's lease
(``bot.storage._leases``): it renews its leases every ``HEARTBEAT`` seconds, and a lease not
renewed for ``LeaseTerms.seconds`` (10) expires. A process that dies, SIGKILL included, stops
renewing; another then takes its shards (a standby at once, a process with shards of its own a
little later, so that a standby is not raced by the survivors), with a fencing token one
higher, and resumes their games from the database. A process that stops cleanly (SIGTERM)
stops its games, then releases its leases, so a standby takes them at its next heartbeat.
When a process starts again, it asks for its own shards back and the holder hands them over
(stops their games, then releases them).

**Clients.** discord.py cannot add shards to a running ``AutoShardedBot``, so a process runs
at most two bot clients (``GameNightBot``), each on a fixed set of shards: one for its own
shards (by its settings), one for the shards it took over. When the set a client should run
changes (a takeover, a handback, a lost lease), that client is stopped as a clean stop stops the
bot (answers and calls under way finish) and started again on the new set; the other client is
not disturbed, so a process taking over never reconnects its own shards. A client is started
with the tokens of its leases, and every game write it makes is fenced by them
(``Storage.fenced``): once another process holds the shard, nothing it writes (a call, a
claim's verdict) is accepted, and it posts no more calls.

**Gateway sessions** go with the leases (``bot.fleet.gateway_sessions``): each heartbeat saves the
sessions of the shards held, a client that stops closes its connections so that its sessions
stay resumable and saves them as its shards are released, and a client starting on shards
another process (or client) ran RESUMEs their sessions rather than IDENTIFYing anew.

**Gateway IDENTIFYs** (a shard with no session to resume, or one Discord refused) are paced
across the fleet as Discord requires (one per 5 s per rate-limit
bucket ``shard_id % max_concurrency``), with a slot per bucket in the database. Each client
that IDENTIFYs spends the bot's daily session starts, which every process shares: a client
starting when they run low waits for their reset, or the process stops with exit code 2
(``GameNightBot.spare_session_starts``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import secrets
import socket
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import render
from bot.app import (
    EXTENSIONS,
    INTERACTION_GRACE,
    STOP_SIGNALS,
    GameNightBot,
    SessionStartsExhaustedError,
    freeze_when_warm,
    start_endpoint,
    warm_up_pictures,
)
from bot.config import Settings
from bot.fleet.shards import format_shards
from bot.games import GameKind
from bot.ops.http_server import HttpEndpoint
from bot.ops.metrics import Metrics
from bot.storage import (
    Fence,
    HeartbeatOutcome,
    HeartbeatRequest,
    LeaseTerms,
    ResumableSession,
    Storage,
    hold_database,
)

log = logging.getLogger(__name__)

HEARTBEAT = 2.0  # seconds between two heartbeats (renewals) of a process's leases
LEASE_TERMS = LeaseTerms()
# Discord: one IDENTIFY per 5 s per bucket; a little more, for the way there.
IDENTIFY_WINDOW = 5.5
OTHER_COUNT_LOG_EVERY = 30  # heartbeats between two errors about another fleet's leases


@dataclass
class Slot:
    """One bot client of the process and the leases (shard -> token) it runs under."""

    name: str
    bot: GameNightBot | None = None
    task: asyncio.Task[None] | None = None
    tokens: dict[int, int] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class ClientFailedError(RuntimeError):
    """A bot client stopped by itself (a refused token, say): the process stops with it."""


class FleetProcess:
    """The leases and bot clients of one process of a fleet; :meth:`run` until :meth:`stop`."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        *,
        terms: LeaseTerms = LEASE_TERMS,
        heartbeat: float = HEARTBEAT,
        **bot_options: Any,
    ) -> None:
        plan = settings.shards
        if plan.count is None:
            raise ValueError("a fleet's process needs a shard count (GAMENIGHT_SHARDS=.../N)")
        self.settings = settings
        self.storage = storage
        self.shard_count = plan.count
        self.own = frozenset(plan.own)
        self.terms = terms
        self.heartbeat_every = heartbeat
        self.bot_options = bot_options
        # One name per run of a process, never reused: a restarted process is a new owner.
        self.owner = f"{socket.gethostname()} pid {os.getpid()} {secrets.token_hex(3)}"
        self.metrics = Metrics()
        self.held: dict[int, int] = {}  # the leases held (shard -> token), as last renewed
        self.handing_back: set[int] = set()  # held, asked back: their client stops first
        self.to_release: set[int] = set()  # held, no client runs them: released next heartbeat
        # Gateway sessions to RESUME, by shard: handed over by a shard's previous holder (read at
        # the takeover), or this process's own, of a client it restarted on another set.
        self.resumable: dict[int, ResumableSession] = {}
        # Sessions of shards whose client stopped, saved with the next heartbeat or release.
        self.handed_over: dict[int, ResumableSession] = {}
        self.own_started = False  # the start wait for the own shards is over
        self.slots = {"own": Slot("own"), "adopted": Slot("taken-over")}
        self.stopping = False
        self._stop = asyncio.Event()
        self._beating = True
        self._look_now = asyncio.Event()
        self._started_at = 0.0
        self._since: float | None = None  # the first heartbeat, on the database's clock
        self._heartbeats = 0
        self._max_concurrency: int | None = None
        self._warm_up: asyncio.Task[None] | None = None
        self._warm_up_stop = threading.Event()  # set by stop(): the warm-up ends early

    # -- what the HTTP endpoint reports --------------------------------------------------------

    def clients(self) -> list[GameNightBot]:
        """The bot clients running now (none, one or two)."""
        return [slot.bot for slot in self.slots.values() if slot.bot is not None]

    def gateway_connected(self) -> bool:
        """Every shard this process holds is run by a client, and connected (a standby holding
        none: true). False while a client restarts on another set of shards."""
        running = {shard for slot in self.slots.values() if slot.bot for shard in slot.tokens}
        return set(self.held) <= running and all(bot.gateway_connected() for bot in self.clients())

    def games(self) -> list[GameKind]:
        """The games the clients run (every client loads the same cogs)."""
        return next((bot.games() for bot in self.clients()), [])

    async def live_counts(self) -> dict[str, int]:
        """Live games by kind, of the servers on the shards this process's clients run."""
        running = sorted(shard for slot in self.slots.values() for shard in slot.tokens)
        return await self.storage.live_counts((self.shard_count, running))

    def health_details(self) -> dict[str, Any]:
        """``/healthz``'s fleet fields: the shards held, the shard count, the own shards."""
        return {
            "shards": sorted(self.held),
            "shard_count": self.shard_count,
            "own": sorted(self.own),
        }

    # -- running -------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop: the clients stop as a clean stop does, then the leases are released."""
        self._stop.set()
        self._warm_up_stop.set()

    async def run(self) -> None:
        """Hold leases and run clients until :meth:`stop` (or a client fails, which is raised
        once everything has stopped)."""
        self._started_at = asyncio.get_running_loop().time()
        log.info(
            "fleet process %s: %s; taking leases",
            self.owner,
            self.settings.shards.describe(),
        )
        if not self.own:
            # A standby's first client starts during a takeover, with every game of the shards
            # taken over due at once: the pictures' palettes and pieces are ready by then.
            render.limit_retained_memory()
            self._warm_up = warm_up_pictures(
                self.bot_options.get("extensions", EXTENSIONS), self._warm_up_stop
            )
        heartbeats = asyncio.create_task(self._keep_heartbeat(), name="gamenight-leases")
        keepers = [
            asyncio.create_task(self._keep_slot(slot), name=f"gamenight-{slot.name}-client")
            for slot in self.slots.values()
        ]
        stopped = asyncio.create_task(self._stop.wait())
        returning_memory = asyncio.create_task(render.keep_returning_free_memory())
        try:
            await asyncio.wait([stopped, *keepers], return_when=asyncio.FIRST_COMPLETED)
        finally:
            returning_memory.cancel()
            self.stopping = True
            for slot in self.slots.values():
                slot.changed.set()
            results = await asyncio.gather(*keepers, return_exceptions=True)
            stopped.cancel()
            # Ended by a flag rather than cancelled mid-write (and cancelled only if a heartbeat
            # hangs on a database that is away): the leases are released below once it is over.
            self._beating = False
            self._look_now.set()
            _, hanging = await asyncio.wait([heartbeats], timeout=2 * self.terms.seconds)
            for task in hanging:
                task.cancel()
            if self.held:
                try:
                    await asyncio.wait_for(
                        self.storage.release_leases(self.owner, self.held, self.handed_over), 10
                    )
                    log.info("released the leases of shards %s", format_shards(self.held))
                except Exception:  # they expire by themselves
                    log.exception(
                        "could not release the leases; they expire in %gs", self.terms.seconds
                    )
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
                raise result

    # -- leases --------------------------------------------------------------------------------

    async def _keep_heartbeat(self) -> None:
        while self._beating:
            try:
                outcome = await self.storage.lease_heartbeat(self._request())
            except Exception as error:  # the next heartbeat tries again; leases outlast a few
                log.warning("shard leases: heartbeat failed (%s: %s)", type(error).__name__, error)
            else:
                self._apply(outcome)
            if self._beating:
                await self._pause()

    async def _pause(self) -> None:
        """Until the next heartbeat is due, or something asks to look at the leases now."""
        self._look_now.clear()
        waiter = asyncio.ensure_future(self._look_now.wait())
        try:
            await asyncio.wait([waiter], timeout=self.heartbeat_every)
        finally:
            waiter.cancel()

    def _request(self) -> HeartbeatRequest:
        live = {shard: s for bot in self.clients() for shard, s in bot.gateway_sessions().items()}
        return HeartbeatRequest(
            owner=self.owner,
            shard_count=self.shard_count,
            held=dict(self.held),
            own=frozenset() if self.stopping else self.own,
            release=frozenset(self.to_release),
            adopt=not self.stopping,
            since=self._since,
            terms=self.terms,
            sessions={**self.handed_over, **live},
        )

    def _apply(self, outcome: HeartbeatOutcome) -> None:
        self._heartbeats += 1
        if self._since is None:
            self._since = outcome.now
        self.held = dict(outcome.held)
        self.to_release -= outcome.released | outcome.lost
        for shard in outcome.released | outcome.lost:
            self.handed_over.pop(shard, None)
            self.resumable.pop(shard, None)
        self.resumable.update(outcome.sessions)
        self.handing_back &= set(self.held)
        if outcome.acquired:
            log.info(
                "took the leases of shards %s (tokens %s)",
                format_shards(outcome.acquired),
                ",".join(str(outcome.acquired[s]) for s in sorted(outcome.acquired)),
            )
        if outcome.lost:
            log.warning(
                "lost the leases of shards %s to another process; their games stop here",
                format_shards(outcome.lost),
            )
        if outcome.released:
            log.info("released the leases of shards %s", format_shards(outcome.released))
        if outcome.asked:
            log.info("asked for shards %s back", format_shards(outcome.asked))
        wanted = set(outcome.wanted) - self.handing_back
        if wanted:
            log.info("handing shards %s back to the process that runs them", format_shards(wanted))
            self.handing_back |= wanted
        if outcome.other_count is not None and self._heartbeats % OTHER_COUNT_LOG_EVERY == 1:
            log.error(
                "processes sharding by %d still hold leases, so this one (by %d) takes none;"
                " stop the whole old fleet before starting with a new shard count",
                outcome.other_count,
                self.shard_count,
            )
        # A starting process waits for all its own shards (a killed predecessor's leases expire,
        # a standby hands them back) for a while, then starts on those it has.
        if not self.own_started and (
            self.own <= set(self.held)
            or asyncio.get_running_loop().time() - self._started_at >= self.terms.start_wait
        ):
            self.own_started = True
        for slot in self.slots.values():
            slot.changed.set()

    def _wanted_tokens(self, slot: Slot) -> dict[int, int]:
        """The leases the slot's client should run under now."""
        if self.stopping:
            return {}
        if slot is self.slots["own"]:
            if not self.own_started:
                return {}
            shards = self.own
        else:
            shards = frozenset(self.held) - self.own
        return {
            shard: token
            for shard, token in self.held.items()
            if shard in shards and shard not in self.handing_back
        }

    def _refused(self, shard: int) -> None:
        """A client's write was refused by the shard's lease: look at the leases now."""
        self._look_now.set()

    # -- clients -------------------------------------------------------------------------------

    async def _keep_slot(self, slot: Slot) -> None:
        """Keep the slot's client running on the shards it should run (see ``_wanted_tokens``)."""
        try:
            while True:
                if slot.task is not None and slot.task.done():
                    failure = slot.task.exception() if not slot.task.cancelled() else None
                    if isinstance(failure, SessionStartsExhaustedError):
                        # Every process of the fleet spends the same starts: this one stops
                        # (exit code 2, its one line) rather than restart and spend more.
                        raise failure
                    raise ClientFailedError(
                        f"the client of shards {format_shards(slot.tokens)} stopped: {failure!r}"
                    ) from failure
                wanted = self._wanted_tokens(slot)
                if wanted != slot.tokens:
                    await self._restart(slot, wanted)
                    continue
                if self.stopping:
                    return
                slot.changed.clear()
                await slot.changed.wait()
        finally:
            if slot.bot is not None:
                await self._close(slot)

    async def _restart(self, slot: Slot, wanted: Mapping[int, int]) -> None:
        if slot.bot is not None:
            log.info("stopping the client of shards %s", format_shards(slot.tokens))
            sessions = await self._close(slot)
            # Its shards that the next client runs resume their sessions.
            self.resumable.update((s, sessions[s]) for s in wanted if s in sessions)
            # Shards still held that no client runs now (handed back): release them.
            gone = {s for s, t in slot.tokens.items() if s not in wanted and self.held.get(s) == t}
            if gone:
                self.to_release |= gone
                self._look_now.set()
        slot.tokens = {}
        if wanted:
            self._start(slot, dict(wanted))

    def _start(self, slot: Slot, tokens: dict[int, int]) -> None:
        fence = Fence(self.owner, self.shard_count, dict(tokens), on_refused=self._refused)
        settings = dataclasses.replace(self.settings, metrics_port=None)  # the process serves it
        resume = {s: self.resumable.pop(s) for s in sorted(tokens) if s in self.resumable}
        bot = GameNightBot(
            settings,
            self.storage.fenced(fence),
            shard_ids=sorted(tokens),
            shard_count=self.shard_count,
            metrics=self.metrics,
            identify_gate=self._identify,
            resume_sessions=resume,
            hands_over_sessions=True,
            time_scale=self.settings.time_scale,
            **self.bot_options,
        )
        log.info(
            "starting a client on %s shards %s of %d (resuming the sessions of %s)",
            slot.name,
            format_shards(tokens),
            self.shard_count,
            format_shards(resume) if resume else "none",
        )
        slot.bot = bot
        slot.tokens = tokens
        slot.task = asyncio.create_task(self._run_client(bot), name=f"gamenight-shards-{slot.name}")
        slot.task.add_done_callback(lambda _: slot.changed.set())

    async def _run_client(self, bot: GameNightBot) -> None:
        # As run_bot does: what the client's start-up built stays out of later collections.
        freezing = asyncio.create_task(freeze_when_warm(bot))
        try:
            async with bot:
                await bot.start(self.settings.token)
        finally:
            freezing.cancel()

    async def _close(self, slot: Slot) -> dict[int, ResumableSession]:
        """Stop the slot's client; returns its gateway sessions (also saved with the next
        heartbeat or release, for whoever runs the shards next)."""
        bot, task = slot.bot, slot.task
        slot.bot = slot.task = None
        if bot is None or task is None:
            return {}
        await bot.close()
        try:
            await asyncio.wait_for(task, INTERACTION_GRACE * 3)
        except (Exception, asyncio.CancelledError):  # stopped is what matters here
            log.debug("the client of shards %s ended so", format_shards(slot.tokens), exc_info=True)
        sessions = {s: session for s, session in bot.gateway_sessions().items() if s in self.held}
        self.handed_over.update(sessions)
        return sessions

    async def _identify(self, bot: GameNightBot, shard_id: int) -> None:
        """Wait for the fleet's IDENTIFY slot of the shard's bucket (Discord's max_concurrency:
        one IDENTIFY per bucket ``shard_id % max_concurrency`` every 5 s, across the fleet)."""
        if self._max_concurrency is None:
            try:
                limits = await bot.fetch_session_start_limits()
                self._max_concurrency = max(1, limits.max_concurrency)
            except (discord.HTTPException, discord.GatewayNotFound):
                self._max_concurrency = 1
        bucket = shard_id % self._max_concurrency
        while True:
            wait = await self.storage.take_identify_slot(bucket, IDENTIFY_WINDOW)
            if wait <= 0:
                return
            await asyncio.sleep(min(wait, IDENTIFY_WINDOW))


async def run_fleet(settings: Settings, **bot_options: Any) -> None:
    """Run one process of a fleet until SIGTERM or SIGINT (see the module's doc).

    Raises ``UnusableDatabaseError`` before connecting to Discord when the database cannot be
    used, or a process that runs every shard is using it."""
    loop = asyncio.get_running_loop()
    async with (
        hold_database(settings.database, fleet=True),
        Storage.open(settings.database) as storage,
    ):
        process = FleetProcess(settings, storage, **bot_options)
        endpoint: HttpEndpoint | None = None
        if settings.metrics_port is not None:
            endpoint = HttpEndpoint(process, settings.metrics_host, settings.metrics_port)
            await start_endpoint(endpoint)

        def stop_on_signal() -> None:
            if process.stopping:
                log.info("already stopping; answers under way get up to %gs", INTERACTION_GRACE)
                return
            log.info("stop signal received; stopping the clients, then releasing the leases")
            process.stop()

        for stop_signal in STOP_SIGNALS:
            loop.add_signal_handler(stop_signal, stop_on_signal)
        try:
            await process.run()
        finally:
            for stop_signal in STOP_SIGNALS:
                loop.remove_signal_handler(stop_signal)
            if endpoint is not None:
                await endpoint.stop()
