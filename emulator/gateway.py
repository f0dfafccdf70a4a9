"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME, dispatches, sharding and
faults.

Frames are plain-text JSON (discord.py asks for zlib-stream but decodes text frames as is).
Every dispatch gets a sequence number and is kept per session, so a client that reconnects with
RESUME receives what it missed, as with Discord. Sharding is Discord's: a session identified
with ``shard: [shard_id, num_shards]`` receives the events of the guilds with
``(guild_id >> 22) % num_shards == shard_id`` (DMs: shard 0); sessions of one bot share its
session start limit and its ``max_concurrency`` IDENTIFY buckets, whatever their connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from emulator.latency import LatencySource
from emulator.model import Intent, World, bot_token, shard_of

_log = logging.getLogger(__name__)

# Opcodes
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Close codes (Opcodes and Status Codes: Gateway Close Event Codes)
AUTHENTICATION_FAILED = 4004
RATE_LIMITED = 4008
SESSION_TIMED_OUT = 4009
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
INVALID_INTENTS = 4013
DISALLOWED_INTENTS = 4014

# The intents Discord defines (Gateway: List of Intents); any other bit is an invalid intent.
DOCUMENTED_INTENTS = sum(1 << bit for bit in (*range(17), 20, 21, 24, 25))
# Those an app must enable (and, past 100 servers, be approved for) before asking for them.
PRIVILEGED_INTENTS = int(Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT)

_REPLAY_LIMIT = 5000

# Discord's documented numbers.
SESSION_START_LIMIT = 1000  # IDENTIFYs per 24 hours, across every shard and connection
SESSION_START_WINDOW = 24 * 60 * 60.0  # seconds
MAX_GUILDS_PER_SHARD = 2500  # a session that would hold more is closed with 4011
# Discord publishes no formula for GET /gateway/bot's "shards"; it is about one per 1,000 guilds.
GUILDS_PER_RECOMMENDED_SHARD = 1000


def parse_shard(value: Any) -> tuple[int, int] | None:
    """IDENTIFY's ``shard``: None, or ``[shard_id, num_shards]`` with
    ``0 <= shard_id < num_shards``; anything else is an invalid shard (ValueError)."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(part, int) and not isinstance(part, bool) for part in value)
    ):
        raise ValueError(f"shard must be [shard_id, num_shards], got {value!r}")
    shard_id, shard_count = value
    if shard_count < 1 or not 0 <= shard_id < shard_count:
        raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
    return shard_id, shard_count


@dataclass
class SessionStartLimit:
    """A bot's IDENTIFY budget: ``total`` session starts in a 24-hour window that opens at the
    first one, across all its shards and connections (RESUMEs do not count)."""

    total: int = SESSION_START_LIMIT
    window: float = SESSION_START_WINDOW
    used: int = 0
    opened_at: float | None = None

    def _roll(self, now: float) -> None:
        if self.opened_at is not None and now - self.opened_at >= self.window:
            self.used, self.opened_at = 0, None

    def remaining(self, now: float) -> int:
        self._roll(now)
        return max(self.total - self.used, 0)

    def reset_after_ms(self, now: float) -> int:
        """Milliseconds until ``remaining`` is back to ``total`` (0 when nothing is used)."""
        self._roll(now)
        if self.opened_at is None:
            return 0
        return math.ceil((self.opened_at + self.window - now) * 1000)

    def take(self, now: float) -> None:
        self._roll(now)
        if self.opened_at is None:
            self.opened_at = now
        self.used += 1


async def heartbeat_missed(
    socket: web.WebSocketResponse, last_heartbeat: Callable[[], float], allowed: float
) -> bool:
    """Wait until no heartbeat came for ``allowed`` seconds (True: the connection timed out) or
    ``socket`` closed first (False). The main gateway and the voice gateway time out alike."""
    loop = asyncio.get_running_loop()
    while not socket.closed:
        late = loop.time() - last_heartbeat() - allowed
        if late >= 0:
            return True
        await asyncio.sleep(-late)
    return False


@dataclass(frozen=True)
class GatewayLimits:
    """Gateway rules the emulator enforces when they are on (Gateway: Gateway Intents,
    Sending Heartbeats, Rate Limiting): ``intents``, an IDENTIFY with a bit Discord does not
    define is closed with 4013; ``heartbeat_grace``, a connection with no heartbeat for
    ``heartbeat_interval * (1 + heartbeat_grace)`` seconds is closed with 4009 (its session
    stays resumable: "you will be forced to Resume"; Discord documents a tolerance, not its
    size; None: not enforced); ``sends``, more than that many frames from the bot in
    ``send_window`` seconds on one connection close it with 4008 (None: not enforced)."""

    intents: bool = True
    heartbeat_grace: float | None = 0.25
    sends: int | None = 120
    send_window: float = 60.0


class _Connection:
    """One websocket; frames go through a queue so they leave in dispatch order, each after
    the network's latency (never before an earlier frame)."""

    def __init__(self, socket: web.WebSocketResponse, latency: LatencySource) -> None:
        self.socket = socket
        self.queue: asyncio.Queue[tuple[float, str] | None] = asyncio.Queue()
        self.session: GatewaySession | None = None
        self._latency = latency
        self._last_due = 0.0
        self.last_heartbeat = asyncio.get_running_loop().time()
        self.received: deque[float] = deque()  # when the bot's recent frames came

    def send(self, frame: str) -> None:
        due = 0.0
        if self._latency.enabled:
            now = asyncio.get_running_loop().time()
            due = self._last_due = max(now + self._latency.draw(), self._last_due)
        self.queue.put_nowait((due, frame))

    async def writer(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            item = await self.queue.get()
            if item is None or self.socket.closed:
                return
            due, frame = item
            if due and (wait := due - loop.time()) > 0:
                await asyncio.sleep(wait)  # a socket closed meanwhile refuses the send below
            try:
                await self.socket.send_str(frame)
            except (ConnectionError, RuntimeError):
                return


@dataclass(eq=False)
class GatewaySession:
    """A bot's gateway session; it outlives its websocket until invalidated."""

    id: str
    intents: int
    shard: tuple[int, int] | None
    seq: int = 0
    sent: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=_REPLAY_LIMIT))
    connection: _Connection | None = None
    invalidated: bool = False

    @property
    def live(self) -> bool:
        return self.connection is not None and not self.invalidated

    def wants(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives events of ``guild_id`` (DMs go to shard 0)."""
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, shard_count) == shard_id


class Gateway:
    """The bot's sessions and their websockets; the world's :class:`~emulator.model.EventSink`.

    ``shards``: the shard count ``GET /gateway/bot`` recommends (None: one per 1,000 guilds, or
    per ``max_guilds_per_shard`` if that is lower). ``max_concurrency``: IDENTIFYs allowed per
    ``identify_window`` seconds, one per rate-limit key ``shard_id % max_concurrency`` (None:
    not enforced); more are answered op 9 INVALID_SESSION. ``session_start_limit``: IDENTIFYs per
    24 hours; the one after the last terminates every session and resets the bot's token.
    ``max_guilds_per_shard``: a session that would receive more guilds is closed with 4011.
    """

    def __init__(
        self,
        world: World,
        *,
        heartbeat_interval: float = 41.25,
        shards: int | None = None,
        max_concurrency: int = 1,
        identify_window: float | None = None,
        session_start_limit: int = SESSION_START_LIMIT,
        max_guilds_per_shard: int = MAX_GUILDS_PER_SHARD,
        clock: Callable[[], float] = time.monotonic,
        latency: LatencySource | None = None,
        limits: GatewayLimits | None = None,
        privileged_intents: int = PRIVILEGED_INTENTS,
    ) -> None:
        if shards is not None and shards < 1:
            raise ValueError(f"shards must be at least 1, not {shards}")
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency}")
        self._world = world
        self.heartbeat_interval = heartbeat_interval
        self.url = ""  # this gateway's URL, for READY's resume_gateway_url (set by the server)
        self.shards = shards
        self.max_concurrency = max_concurrency
        self.identify_window = identify_window
        self.session_starts = SessionStartLimit(session_start_limit)
        self.max_guilds_per_shard = max_guilds_per_shard
        self._clock = clock
        self.latency = LatencySource(None) if latency is None else latency
        self.limits = limits
        # The privileged intents enabled for the app in the Developer Portal.
        self.privileged_intents = privileged_intents
        self._identified_at: dict[int, float] = {}  # rate-limit key -> last IDENTIFY
        self.sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.identify_refused = 0  # IDENTIFYs answered op 9 for exceeding max_concurrency
        self.heartbeats = 0  # heartbeats received, over every connection
        self._connections: set[_Connection] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        # Who answers the bot's op 4 Update Voice State (the voice layer, set by the server);
        # None: voice is not emulated and op 4 is ignored.
        self.voice_state_handler: (
            Callable[[GatewaySession, dict[str, Any]], Awaitable[None]] | None
        ) = None
        # Told when a session ends (the voice layer closes the voice connections it holds).
        self.session_end_handler: Callable[[GatewaySession], None] | None = None

    def _end_session(self, session: GatewaySession) -> None:
        """``session`` can no longer be resumed; what hangs on it (voice) is told."""
        if session.invalidated:
            return
        session.invalidated = True
        if self.session_end_handler is not None:
            self.session_end_handler(session)

    # Sharding

    def recommended_shards(self) -> int:
        """``GET /gateway/bot``'s ``shards``: the configured count, or enough shards for the
        bot's guilds (one per 1,000, or per ``max_guilds_per_shard`` if lower)."""
        if self.shards is not None:
            return self.shards
        per_shard = max(1, min(GUILDS_PER_RECOMMENDED_SHARD, self.max_guilds_per_shard))
        return max(1, math.ceil(len(self._world.guilds) / per_shard))

    def bot_gateway(self) -> dict[str, Any]:
        """The ``GET /gateway/bot`` answer: URL, recommended shards, session start limit."""
        now = self._clock()
        starts = self.session_starts
        return {
            "url": self.url,
            "shards": self.recommended_shards(),
            "session_start_limit": {
                "total": starts.total,
                "remaining": starts.remaining(now),
                "reset_after": starts.reset_after_ms(now),
                "max_concurrency": self.max_concurrency,
            },
        }

    # Dispatching

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.live]

    def connected(self) -> bool:
        return bool(self.live_sessions())

    def receives(self, guild_id: int | None) -> bool:
        return any(session.wants(guild_id) for session in self.live_sessions())

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        guild_id: int | None = None,
        needs_message_content: bool = False,
    ) -> int:
        """Send event ``event`` to every session (buffered for resume if its socket is down);
        returns how many sessions were live. ``needs_message_content``: a session without the
        MESSAGE_CONTENT intent gets the message with its content, embeds, attachments and
        components emptied, as on Discord."""
        delivered = 0
        redacted: dict[str, Any] | None = None
        encoded: dict[int, str] = {}  # each payload encoded once, whatever the sessions
        for session in self.sessions.values():
            if session.invalidated or not session.wants(guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            chosen = data
            if needs_message_content and not session.intents & Intent.MESSAGE_CONTENT:
                if redacted is None:
                    redacted = {
                        **data,
                        "content": "",
                        "embeds": [],
                        "attachments": [],
                        "components": [],
                    }
                chosen = redacted
            if session.connection is not None:
                delivered += 1
            if id(chosen) not in encoded:
                encoded[id(chosen)] = json.dumps(chosen)
            self.dispatch_one(session, event, chosen, encoded[id(chosen)])
        return delivered

    # Faults for tests

    async def disconnect(self, code: int = 4000) -> None:
        """Drop every bot websocket with ``code`` (non-1000 codes leave sessions resumable)."""
        for connection in list(self._connections):
            session = connection.session
            if session is not None:
                session.connection = None
                if code in (1000, 1001):
                    self._end_session(session)
            connection.queue.put_nowait(None)
            await connection.socket.close(code=code, message=b"emulator: forced disconnect")
        self._world.notify()

    def request_reconnect(self) -> None:
        """Op 7: ask every connected bot to reconnect and resume."""
        for connection in list(self._connections):
            connection.send(json.dumps({"op": RECONNECT, "d": None}))

    def invalidate_sessions(self, *, resumable: bool = False) -> None:
        """Op 9: tell every connected bot its session is invalid."""
        for connection in list(self._connections):
            session = connection.session
            if session is not None and not resumable:
                self._end_session(session)
                session.connection = None
            connection.send(json.dumps({"op": INVALID_SESSION, "d": resumable}))
        self._world.notify()

    async def close(self) -> None:
        for connection in list(self._connections):
            connection.queue.put_nowait(None)
            await connection.socket.close(code=1001, message=b"emulator stopping")
        for task in list(self._tasks):
            task.cancel()

    # The websocket endpoint

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        connection = _Connection(socket, self.latency)
        self._connections.add(connection)
        writer = asyncio.create_task(connection.writer())
        self._tasks.add(writer)
        writer.add_done_callback(self._tasks.discard)
        limits = self.limits
        if limits is not None and limits.heartbeat_grace is not None:
            watchdog = asyncio.create_task(
                self._watch_heartbeats(connection, limits.heartbeat_grace)
            )
            self._tasks.add(watchdog)
            watchdog.add_done_callback(self._tasks.discard)
        interval_ms = int(self.heartbeat_interval * 1000)
        connection.send(json.dumps({"op": HELLO, "d": {"heartbeat_interval": interval_ms}}))
        try:
            async for message in socket:
                if (
                    limits is not None
                    and limits.sends is not None
                    and self._over_send_limit(connection, limits.sends, limits.send_window)
                ):
                    await socket.close(code=RATE_LIMITED, message=b"rate limited")
                    break
                if message.type is not WSMsgType.TEXT:
                    if message.type is WSMsgType.BINARY:
                        await socket.close(code=4002, message=b"decode error: send text frames")
                    continue
                try:
                    frame = json.loads(message.data)
                    await self._on_frame(connection, frame)
                except (ValueError, KeyError, TypeError) as error:
                    _log.warning("bad gateway frame %r: %s", message.data[:200], error)
                    await socket.close(code=4002, message=b"decode error")
        finally:
            self._connections.discard(connection)
            connection.queue.put_nowait(None)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                if socket.close_code in (1000, 1001):
                    # A clean close by the client ends the session, as on Discord.
                    self._end_session(session)
            self._world.notify()
        return socket

    async def _on_frame(self, connection: _Connection, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data: Any = frame.get("d")
        if op in (IDENTIFY, RESUME, REQUEST_GUILD_MEMBERS, VOICE_STATE_UPDATE) and not isinstance(
            data, dict
        ):
            await connection.socket.close(code=4002, message=b"decode error: d must be an object")
            return
        if op == HEARTBEAT:
            self.heartbeats += 1
            connection.last_heartbeat = asyncio.get_running_loop().time()
            connection.send(json.dumps({"op": HEARTBEAT_ACK}))
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif op == REQUEST_GUILD_MEMBERS:
            self._guild_members(connection, data)
        elif op == VOICE_STATE_UPDATE:
            handler = self.voice_state_handler
            if handler is not None and connection.session is not None:
                await handler(connection.session, data)
        elif op == PRESENCE_UPDATE:
            return
        else:
            await connection.socket.close(code=4001, message=b"unknown opcode")

    async def _identify(self, connection: _Connection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.socket.close(code=4005, message=b"already authenticated")
            return
        if data.get("token") != self._world.token:
            await connection.socket.close(code=4004, message=b"authentication failed")
            return
        if "intents" not in data:
            await connection.socket.close(code=INVALID_INTENTS, message=b"intents are required")
            return
        if not await self._intents_allowed(connection, data["intents"]):
            return
        try:
            shard = parse_shard(data.get("shard"))
        except ValueError as error:
            self._world.record_failure("invalid_shard", f"IDENTIFY closed with 4010: {error}")
            await connection.socket.close(code=INVALID_SHARD, message=b"invalid shard")
            return
        session = GatewaySession(secrets.token_hex(16), int(data["intents"]), shard)
        guilds = [g for g in self._world.guilds if session.wants(g.id)]
        if len(guilds) > self.max_guilds_per_shard:
            self._world.record_failure(
                "sharding_required",
                f"IDENTIFY closed with 4011: the session (shard {shard or 'none'}) would have "
                f"held {len(guilds)} guilds; a shard holds at most {self.max_guilds_per_shard}",
            )
            await connection.socket.close(code=SHARDING_REQUIRED, message=b"sharding required")
            return
        now = self._clock()
        if self.session_starts.remaining(now) == 0:
            await self._reset_token()
            return
        key = (0 if shard is None else shard[0]) % self.max_concurrency
        last = self._identified_at.get(key)
        window = self.identify_window
        if window is not None and last is not None and now - last < window:
            # Over max_concurrency: Discord answers op 9 and starts no session.
            self.identify_refused += 1
            connection.send(json.dumps({"op": INVALID_SESSION, "d": False}))
            return
        self._identified_at[key] = now
        self.session_starts.take(now)
        self.sessions[session.id] = session
        self.identify_count += 1
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self._world.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(self._world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        connection.session = session
        session.connection = connection
        self.dispatch_one(session, "READY", ready)
        for guild in guilds:
            self.dispatch_one(session, "GUILD_CREATE", guild.payload())
        self._world.notify()

    async def _intents_allowed(self, connection: _Connection, intents: Any) -> bool:
        """IDENTIFY's intents as Discord checks them: bits it does not define close the socket
        with 4013 (with the gateway limits on), privileged intents the app has not enabled
        with 4014 (Gateway: Gateway Intents, Privileged Intents)."""
        if not isinstance(intents, int) or isinstance(intents, bool):
            await connection.socket.close(code=4002, message=b"decode error: intents")
            return False
        limits = self.limits
        if limits is not None and limits.intents and intents & ~DOCUMENTED_INTENTS:
            self._world.record_failure(
                "invalid_intents",
                f"IDENTIFY closed with 4013: intents {intents:#x} include bits Discord does not "
                f"define ({intents & ~DOCUMENTED_INTENTS:#x})",
            )
            await connection.socket.close(code=INVALID_INTENTS, message=b"invalid intent(s)")
            return False
        disallowed = intents & PRIVILEGED_INTENTS & ~self.privileged_intents
        if disallowed:
            self._world.record_failure(
                "disallowed_intents",
                f"IDENTIFY closed with 4014: privileged intents {Intent(disallowed)!r} are not "
                "enabled for the app",
            )
            await connection.socket.close(code=DISALLOWED_INTENTS, message=b"disallowed intent(s)")
            return False
        return True

    async def _watch_heartbeats(self, connection: _Connection, grace: float) -> None:
        """Close ``connection`` with 4009 once no heartbeat came for the interval and its grace
        ("If your app fails to send a heartbeat event in time, your connection will be closed
        and you will be forced to Resume")."""
        allowed = self.heartbeat_interval * (1 + grace)
        if await heartbeat_missed(connection.socket, lambda: connection.last_heartbeat, allowed):
            self._world.record_failure(
                "heartbeat_timeout",
                f"no heartbeat for {allowed:g} s (interval {self.heartbeat_interval:g} s): the "
                "connection is closed with 4009; the bot must resume",
            )
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            connection.queue.put_nowait(None)
            await connection.socket.close(code=SESSION_TIMED_OUT, message=b"session timed out")
            self._world.notify()
            return

    def _over_send_limit(self, connection: _Connection, sends: int, window: float) -> bool:
        """Count a frame from the bot; past ``sends`` in ``window`` seconds, record it and
        return True (the caller closes with 4008; the session stays resumable)."""
        now = asyncio.get_running_loop().time()
        received = connection.received
        received.append(now)
        while received and now - received[0] >= window:
            received.popleft()
        if len(received) <= sends:
            return False
        self._world.record_failure(
            "gateway_rate_limited",
            f"more than {sends} gateway frames in {window:g} s on one connection: closed with 4008",
        )
        connection.queue.put_nowait(None)
        return True

    async def _reset_token(self) -> None:
        """The IDENTIFY after the session start limit: as Discord documents, every session of
        the bot is terminated and its token reset (the owner gets an email; here, a failure)."""
        starts = self.session_starts
        self._world.record_failure(
            "session_start_limit",
            f"IDENTIFY after the session start limit ({starts.total} per 24 h): Discord "
            "terminates every session of the bot and resets its token",
        )
        self._world.token = bot_token(self._world.bot_user.id)  # the same id, a new secret
        for session in self.sessions.values():
            self._end_session(session)
            session.connection = None
        for each in list(self._connections):
            each.queue.put_nowait(None)
            await each.socket.close(
                code=AUTHENTICATION_FAILED, message=b"authentication failed (token reset)"
            )
        self._world.notify()

    def dispatch_one(
        self,
        session: GatewaySession,
        event: str,
        data: dict[str, Any],
        data_json: str | None = None,
    ) -> None:
        """Send (or buffer for a resume) one event to ``session``; ``data_json`` is ``data``
        already encoded, when several sessions get it."""
        session.seq += 1
        if data_json is None:
            data_json = json.dumps(data)
        frame = (
            f'{{"op": {DISPATCH}, "t": {json.dumps(event)}, "s": {session.seq}, "d": {data_json}}}'
        )
        session.sent.append((session.seq, frame))
        if session.connection is not None:
            session.connection.send(frame)

    async def _resume(self, connection: _Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self._world.token:
            await connection.socket.close(code=4004, message=b"authentication failed")
            return
        last_seq = int(data.get("seq") or 0)
        oldest = session.sent[0][0] if session is not None and session.sent else 1
        if session is None or session.invalidated or last_seq + 1 < oldest:
            connection.send(json.dumps({"op": INVALID_SESSION, "d": False}))
            return
        if session.connection is not None and session.connection is not connection:
            # The old socket is superseded, as when Discord sees a resume from a new connection.
            stale = session.connection
            stale.queue.put_nowait(None)
            task = asyncio.create_task(stale.socket.close(code=4009, message=b"session superseded"))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        connection.session = session
        for seq, frame in session.sent:
            if seq > last_seq:
                connection.send(frame)
        session.connection = connection
        self.resume_count += 1
        self.dispatch_one(session, "RESUMED", {})
        self._world.notify()

    def _guild_members(self, connection: _Connection, data: dict[str, Any]) -> None:
        session = connection.session
        if session is None:
            return
        guild = self._world.get_guild(int(data["guild_id"]))
        if guild is None:
            return
        query = str(data.get("query") or "").lower()
        wanted = {int(u) for u in data.get("user_ids") or []}
        limit = int(data.get("limit") or 0)
        members = [guild.bot_member_payload(), *(m.payload() for m in guild.members)]
        chosen = [
            m
            for m in members
            if (not wanted or int(m["user"]["id"]) in wanted)
            and str(m["user"]["username"]).lower().startswith(query)
        ]
        if limit:
            chosen = chosen[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": chosen,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if wanted:
            found = {int(m["user"]["id"]) for m in chosen}
            chunk["not_found"] = [str(u) for u in wanted - found]
        self.dispatch_one(session, "GUILD_MEMBERS_CHUNK", chunk)
