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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

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

# Close codes
AUTHENTICATION_FAILED = 4004
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011

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


class _Connection:
    """One websocket; frames go through a queue so they leave in dispatch order."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.session: GatewaySession | None = None

    def send(self, frame: str) -> None:
        self.queue.put_nowait(frame)

    async def writer(self) -> None:
        while True:
            frame = await self.queue.get()
            if frame is None or self.socket.closed:
                return
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
        self._identified_at: dict[int, float] = {}  # rate-limit key -> last IDENTIFY
        self.sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.identify_refused = 0  # IDENTIFYs answered op 9 for exceeding max_concurrency
        self._connections: set[_Connection] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

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
                    session.invalidated = True
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
                session.invalidated = True
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
        connection = _Connection(socket)
        self._connections.add(connection)
        writer = asyncio.create_task(connection.writer())
        self._tasks.add(writer)
        writer.add_done_callback(self._tasks.discard)
        interval_ms = int(self.heartbeat_interval * 1000)
        connection.send(json.dumps({"op": HELLO, "d": {"heartbeat_interval": interval_ms}}))
        try:
            async for message in socket:
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
                    session.invalidated = True
            self._world.notify()
        return socket

    async def _on_frame(self, connection: _Connection, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data: Any = frame.get("d")
        if op in (IDENTIFY, RESUME, REQUEST_GUILD_MEMBERS) and not isinstance(data, dict):
            await connection.socket.close(code=4002, message=b"decode error: d must be an object")
            return
        if op == HEARTBEAT:
            connection.send(json.dumps({"op": HEARTBEAT_ACK}))
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif op == REQUEST_GUILD_MEMBERS:
            self._guild_members(connection, data)
        elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
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
            await connection.socket.close(code=4013, message=b"intents are required")
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
            session.invalidated = True
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
        frame = f'{{"op": {DISPATCH}, "t": {json.dumps(event)}, "s": {session.seq}, "d": {data_json}}}'
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
