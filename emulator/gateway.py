"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME, dispatches and faults.

Frames are plain-text JSON (discord.py asks for zlib-stream but decodes text frames as is).
Every dispatch gets a sequence number and is kept per session, so a client that reconnects with
RESUME receives what it missed, as with Discord.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from emulator.model import Intent, World

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

_REPLAY_LIMIT = 5000


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
        return (guild_id >> 22) % shard_count == shard_id


class Gateway:
    """The bot's sessions and their websockets; the world's :class:`~emulator.model.EventSink`."""

    def __init__(self, world: World, *, heartbeat_interval: float = 41.25) -> None:
        self._world = world
        self.heartbeat_interval = heartbeat_interval
        self.url = ""  # this gateway's URL, for READY's resume_gateway_url (set by the server)
        self.sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        self._connections: set[_Connection] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    # Dispatching

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.live]

    def connected(self) -> bool:
        return bool(self.live_sessions())

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
            self.dispatch_one(session, event, chosen)
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
        shard_data = data.get("shard")
        shard = (int(shard_data[0]), int(shard_data[1])) if shard_data else None
        session = GatewaySession(secrets.token_hex(16), int(data["intents"]), shard)
        self.sessions[session.id] = session
        self.identify_count += 1
        guilds = [g for g in self._world.guilds if session.wants(g.id)]
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

    def dispatch_one(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
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
