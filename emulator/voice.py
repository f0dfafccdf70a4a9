"""Discord's voice, as far as a test needs (Topics: Voice Connections; Gateway: Update Voice
State, VOICE_STATE_UPDATE, VOICE_SERVER_UPDATE).

The bot's op 4 on the main gateway asks to join a voice channel; if it may (View Channel and
Connect), it hears VOICE_STATE_UPDATE (its own, with its session id) and VOICE_SERVER_UPDATE (a
token and the endpoint of this voice gateway). It then opens the voice websocket (version 8):
Hello, Identify, Ready (an SSRC and this server's UDP address), IP discovery over UDP, Select
Protocol, Session Description (the mode and the secret key), Speaking, heartbeats with v8's
``seq_ack`` (none for the interval and a grace: closed with 4009, the voice session over), Resume;
the main gateway session ending closes the voice connections on it (4014) and takes the bot out
of its voice channels. Its RTP packets are decrypted with the session's key (the ``rtpsize`` AEAD
modes) and each Opus frame is recorded per guild in a :class:`VoiceCall`, which a test reads
and decodes to PCM. DAVE (end-to-end encryption) is not emulated: the Session Description says
``dave_protocol_version`` 0, and the client sends plain Opus inside the transport encryption.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import struct
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from emulator.gateway import Gateway, GatewaySession, heartbeat_missed
from emulator.model import Channel, Guild, Permission, World

_log = logging.getLogger(__name__)

# Voice opcodes (Opcodes and Status Codes: Voice Opcodes); DAVE's (21-31) are not emulated.
IDENTIFY = 0
SELECT_PROTOCOL = 1
READY = 2
HEARTBEAT = 3
SESSION_DESCRIPTION = 4
SPEAKING = 5
HEARTBEAT_ACK = 6
RESUME = 7
HELLO = 8
RESUMED = 9

# Voice close event codes (Opcodes and Status Codes: Voice Close Event Codes).
UNKNOWN_OPCODE = 4001
FAILED_TO_DECODE = 4002
NOT_AUTHENTICATED = 4003
AUTHENTICATION_FAILED = 4004
ALREADY_AUTHENTICATED = 4005
SESSION_NO_LONGER_VALID = 4006
SESSION_TIMEOUT = 4009
SERVER_NOT_FOUND = 4011
UNKNOWN_PROTOCOL = 4012
DISCONNECTED = 4014
VOICE_SERVER_CRASHED = 4015
UNKNOWN_ENCRYPTION_MODE = 4016
BAD_REQUEST = 4020

GATEWAY_VERSION = "8"
# The transport encryption modes Discord offers since the others' removal (18 November 2024):
# AES-256-GCM preferred, XChaCha20-Poly1305 always available; both "rtpsize" (the RTP header,
# its CSRCs and extension header in clear, authenticated as associated data).
MODES = ("aead_aes256_gcm_rtpsize", "aead_xchacha20_poly1305_rtpsize")
# Discord's voice servers ask for a heartbeat every 13.75 s (discord.py sends one every 5 s at most).
HEARTBEAT_INTERVAL_MS = 13_750
# A connection silent for the interval and this share of it more is closed with 4009 ("Your
# session has timed out"); Discord documents no tolerance, the main gateway's rule uses the same.
HEARTBEAT_GRACE = 0.25
IP_DISCOVERY_SIZE = 74
IP_DISCOVERY_REQUEST = 0x1
IP_DISCOVERY_RESPONSE = 0x2
RTP_HEADER_SIZE = 12
OPUS_PAYLOAD_TYPE = 0x78
# The Opus frame Discord clients send for silence, five of them when they stop speaking.
OPUS_SILENCE = b"\xf8\xff\xfe"
SAMPLE_RATE = 48_000
CHANNELS = 2
SAMPLES_PER_FRAME = 960  # 20 ms at 48 kHz
FRAME_SECONDS = SAMPLES_PER_FRAME / SAMPLE_RATE


@dataclass(frozen=True)
class VoiceFrame:
    """One Opus frame the bot sent, decrypted: its RTP sequence and timestamp, its SSRC and when
    it arrived (the event loop's clock)."""

    opus: bytes
    sequence: int
    timestamp: int
    ssrc: int
    arrived: float

    @property
    def silence(self) -> bool:
        return self.opus == OPUS_SILENCE


@dataclass(frozen=True)
class SpeakingEvent:
    """An op 5 Speaking from the bot: its flags (1 microphone, 0 stopped) and when it came."""

    speaking: int
    ssrc: int
    at: float


@dataclass(frozen=True)
class VoiceRefusal:
    """An op 4 Discord did not answer (the bot may not join that channel), and why."""

    guild_id: int
    channel_id: int
    reason: str


def decode_opus(frames: list[VoiceFrame]) -> bytes:
    """The PCM of ``frames`` (48 kHz stereo signed 16-bit little-endian), decoded in order with
    libopus through discord.py (``discord.opus.OpusNotLoaded`` without libopus)."""
    from discord.opus import Decoder  # libopus is loaded on first use, not at import

    decoder = Decoder()  # type: ignore[no-untyped-call]
    return b"".join(decoder.decode(frame.opus, fec=False) for frame in frames)


class VoiceCall:
    """What the bot did in one guild's voice: the channel it is in, the Opus frames it sent (in
    arrival order, across reconnections), its Speaking events, and the connections made."""

    def __init__(self, world: World, guild_id: int) -> None:
        self._world = world
        self.guild_id = guild_id
        self.frames: list[VoiceFrame] = []
        self.speaking: list[SpeakingEvent] = []
        self.identified = 0  # voice websockets identified (the first connection and reconnections)
        self.resumed = 0  # voice websockets resumed
        self.dropped_without_speak = 0  # frames dropped: the bot may not Speak in the channel
        self.session: VoiceSession | None = None

    def __repr__(self) -> str:
        return f"<VoiceCall guild={self.guild_id} frames={len(self.frames)}>"

    @property
    def channel(self) -> Channel | None:
        """The voice channel the bot is in now (its voice state), if any."""
        guild = self._world.get_guild(self.guild_id)
        if guild is None:
            return None
        state = guild.voice_states.get(self._world.bot_user.id)
        return None if state is None else state.channel

    @property
    def connected(self) -> bool:
        """Whether a voice websocket of the bot is identified (or resumed) and open here."""
        session = self.session
        return session is not None and session.socket is not None and not session.ended

    @property
    def audio_frames(self) -> list[VoiceFrame]:
        """The frames that are not Discord's silence frame."""
        return [frame for frame in self.frames if not frame.silence]

    def spans(self) -> list[list[VoiceFrame]]:
        """The frames in spans of speech: a span ends at a silence frame (clients send five when
        they stop) or where the RTP timestamp does not follow on by one frame."""
        spans: list[list[VoiceFrame]] = []
        current: list[VoiceFrame] = []
        for frame in self.frames:
            follows = (
                bool(current)
                and (frame.timestamp - current[-1].timestamp) % 2**32 == SAMPLES_PER_FRAME
                and frame.ssrc == current[-1].ssrc
            )
            if current and (frame.silence or not follows):
                spans.append(current)
                current = []
            if not frame.silence:
                current.append(frame)
        if current:
            spans.append(current)
        return spans

    def pcm(self, frames: list[VoiceFrame] | None = None) -> bytes:
        """``frames`` (default: every frame) decoded to 48 kHz stereo s16le PCM."""
        return decode_opus(self.frames if frames is None else frames)

    async def wait_for_frames(
        self,
        count: int,
        *,
        timeout: float = 10.0,  # noqa: ASYNC109 - a deadline for the wait is the point
        audio_only: bool = True,
    ) -> list[VoiceFrame]:
        """Wait until at least ``count`` frames (not counting silence, unless ``audio_only`` is
        False) arrived; returns them all."""

        def check() -> list[VoiceFrame] | None:
            frames = self.audio_frames if audio_only else self.frames
            return frames if len(frames) >= count else None

        return await self._world.wait_until(
            check, timeout, lambda: f"{count} voice frames in {self!r}"
        )

    async def wait_until_quiet(
        self,
        quiet: float = 0.3,
        *,
        timeout: float = 15.0,  # noqa: ASYNC109 - a deadline for the wait is the point
    ) -> None:
        """Wait until frames have arrived and none came for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            last = self.frames[-1].arrived if self.frames else None
            now = loop.time()
            if last is not None and now - last >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(f"{self!r} did not go quiet within {timeout:g} s")
            await asyncio.sleep(quiet / 3)


@dataclass(eq=False)
class VoiceSession:
    """A voice server session the bot was granted by VOICE_SERVER_UPDATE: the token it must
    identify with, the gateway session it belongs to, and once identified its SSRC, the mode
    and key it chose and the sequenced messages sent (for a v8 buffered resume)."""

    guild: Guild
    channel: Channel
    session_id: str  # the bot's main gateway session id, as in its voice state
    token: str
    ssrc: int = 0
    mode: str | None = None
    secret_key: bytes = b""
    seq: int = 0
    sent: list[tuple[int, str]] = field(default_factory=list)
    socket: _VoiceSocket | None = None
    client_address: tuple[str, int] | None = None
    announced: bool = False  # a Speaking came (Discord needs one before any audio)
    # Frames that came before the first Speaking: UDP may overtake the websocket, so they wait
    # for it; still waiting when the connection ends, they broke the rule.
    unannounced: list[VoiceFrame] = field(default_factory=list)
    ended: bool = False

    def send(self, op: int, data: Any) -> None:
        """A sequenced message (``seq``, acknowledged by the client's ``seq_ack``)."""
        self.seq += 1
        frame = json.dumps({"op": op, "d": data, "seq": self.seq})
        self.sent.append((self.seq, frame))
        if self.socket is not None:
            self.socket.send(frame)


class _VoiceSocket:
    """One voice websocket; frames leave in order through a queue."""

    def __init__(self, socket: web.WebSocketResponse, request: web.Request) -> None:
        self.socket = socket
        self.request = request
        self.session: VoiceSession | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.last_heartbeat = asyncio.get_running_loop().time()

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

    async def close(self, code: int, reason: bytes) -> None:
        self.queue.put_nowait(None)
        await self.socket.close(code=code, message=reason)

    def abort(self) -> None:
        """Cut the connection without a close frame, as a network failure does."""
        self.queue.put_nowait(None)
        transport = self.request.transport
        if transport is not None:
            transport.abort()


class _UdpProtocol(asyncio.DatagramProtocol):
    def __init__(self, on_datagram: Callable[[bytes, tuple[str, int]], None]) -> None:
        self._on_datagram = on_datagram

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        self._on_datagram(data, (str(addr[0]), int(addr[1])))


def rtp_header_size(packet: bytes) -> int:
    """The clear part of an ``rtpsize`` packet: the 12-byte RTP header, its CSRCs, and the
    4-byte extension header when the X bit is set (the extension's body is encrypted)."""
    csrc_count = packet[0] & 0x0F
    extension = bool(packet[0] & 0x10)
    return RTP_HEADER_SIZE + 4 * csrc_count + (4 if extension else 0)


def decrypt_rtpsize(mode: str, key: bytes, packet: bytes) -> bytes:
    """The Opus payload of an RTP packet in an ``rtpsize`` AEAD mode: the clear header is the
    associated data, a 32-bit counter ends the packet and, zero-padded, is the nonce (24 bytes
    for XChaCha20-Poly1305, 12 for AES-256-GCM); an RTP extension's body, if any, is dropped
    from the front of the plaintext. Raises ValueError when it does not authenticate."""
    header_size = rtp_header_size(packet)
    if len(packet) < header_size + 4 + 16:
        raise ValueError("packet too short")
    header, ciphertext, counter = packet[:header_size], packet[header_size:-4], packet[-4:]
    if mode == "aead_xchacha20_poly1305_rtpsize":
        import nacl.bindings  # the voice extra's PyNaCl
        import nacl.exceptions

        try:
            plain: bytes = nacl.bindings.crypto_aead_xchacha20poly1305_ietf_decrypt(
                ciphertext, header, counter + bytes(20), key
            )
        except nacl.exceptions.CryptoError as error:
            raise ValueError(f"XChaCha20-Poly1305 did not authenticate: {error}") from error
    elif mode == "aead_aes256_gcm_rtpsize":
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            plain = AESGCM(key).decrypt(counter + bytes(8), ciphertext, header)
        except InvalidTag as error:
            raise ValueError("AES-256-GCM did not authenticate") from error
    else:
        raise ValueError(f"unknown mode {mode!r}")
    if packet[0] & 0x10:
        (words,) = struct.unpack_from(">H", packet, header_size - 2)
        plain = plain[4 * words :]
    return plain


class VoiceServer:
    """Discord's voice side: answers the bot's op 4, serves the voice websocket (v8) at
    ``/voice`` and receives RTP over UDP on the same host; :meth:`call` holds what it heard."""

    def __init__(
        self,
        world: World,
        gateway: Gateway,
        *,
        heartbeat_interval: float = HEARTBEAT_INTERVAL_MS / 1000,
        heartbeat_grace: float = HEARTBEAT_GRACE,
    ) -> None:
        self._world = world
        self._gateway = gateway
        self.heartbeat_interval = heartbeat_interval
        self.heartbeat_grace = heartbeat_grace
        self.endpoint = ""  # host:port/voice, as VOICE_SERVER_UPDATE gives it (set at start)
        self.host = "127.0.0.1"
        self.udp_port = 0
        self.calls: dict[int, VoiceCall] = {}
        self.refusals: list[VoiceRefusal] = []
        self.unknown_packets = 0  # UDP packets no voice session owns, or malformed
        self._by_ssrc: dict[int, VoiceSession] = {}
        self._transport: asyncio.DatagramTransport | None = None
        self._sockets: set[_VoiceSocket] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        gateway.voice_state_handler = self.on_voice_state_update
        gateway.session_end_handler = self.on_session_end

    # Lifecycle

    async def start(self, host: str, endpoint: str) -> None:
        loop = asyncio.get_running_loop()
        transport, _ = await loop.create_datagram_endpoint(
            lambda: _UdpProtocol(self.on_datagram), local_addr=(host, 0)
        )
        self._transport = transport
        self.host = host
        self.udp_port = int(transport.get_extra_info("sockname")[1])
        self.endpoint = endpoint

    async def close(self) -> None:
        for call in self.calls.values():
            if call.session is not None:
                self._check_announced(call.session)
        for socket in list(self._sockets):
            await socket.close(1001, b"emulator stopping")
        if self._transport is not None:
            self._transport.close()
            self._transport = None
        for task in list(self._tasks):
            task.cancel()

    def call(self, guild_id: int) -> VoiceCall:
        call = self.calls.get(guild_id)
        if call is None:
            call = self.calls[guild_id] = VoiceCall(self._world, guild_id)
        return call

    # The main gateway's op 4

    async def on_voice_state_update(self, session: GatewaySession, data: dict[str, Any]) -> None:
        """Update Voice State: join, move or (``channel_id`` null) leave. Discord answers a
        join it refuses with nothing at all ("you will not receive the Voice State Update or
        Voice Server Update events"): the refusal is only kept in :attr:`refusals`."""
        try:
            guild_id = int(data["guild_id"])
        except (KeyError, TypeError, ValueError):
            _log.warning("op 4 without a guild_id: %r", data)
            return
        guild = self._world.get_guild(guild_id)
        if guild is None or not session.wants(guild_id):
            return
        channel_id = data.get("channel_id")
        bot = self._world.bot_user
        if channel_id is None:
            guild.set_voice_state(bot, None, session_id=session.id)
            call = self.call(guild_id)
            if call.session is not None:
                await self._end(call.session, DISCONNECTED, b"disconnected")
            self._world.notify()
            return
        channel = self._world.channels.get(int(channel_id))
        if channel is None or channel.guild is not guild or not channel.is_voice:
            self._refuse(guild_id, int(channel_id), "not a voice channel of the guild")
            return
        permissions = channel.bot_permissions()
        if not permissions & Permission.ADMINISTRATOR:
            missing = [
                name
                for bit, name in (
                    (Permission.VIEW_CHANNEL, "View Channel"),
                    (Permission.CONNECT, "Connect"),
                )
                if not permissions & bit
            ]
            if missing:
                self._refuse(guild_id, channel.id, "the bot lacks " + " and ".join(missing))
                return
        guild.set_voice_state(
            bot,
            channel,
            session_id=session.id,
            self_mute=bool(data.get("self_mute")),
            self_deaf=bool(data.get("self_deaf")),
        )
        call = self.call(guild_id)
        voice = call.session
        if voice is None or voice.ended or voice.channel is not channel:
            if voice is not None and not voice.ended:
                # Moved: the voice server changes; the old voice connection ends.
                await self._end(voice, DISCONNECTED, b"moved")
            voice = VoiceSession(guild, channel, session.id, secrets.token_hex(8))
            call.session = voice
        voice.session_id = session.id
        self._gateway.dispatch_one(
            session,
            "VOICE_SERVER_UPDATE",
            {"token": voice.token, "guild_id": str(guild_id), "endpoint": self.endpoint},
        )
        self._world.notify()

    def on_session_end(self, session: GatewaySession) -> None:
        """The bot's main gateway session ended: Discord drops its voice connections on that
        session (4014, "the main gateway session was dropped") and its voice states."""
        bot = self._world.bot_user
        for call in self.calls.values():
            voice = call.session
            if voice is None or voice.ended or voice.session_id != session.id:
                continue
            guild = voice.guild
            state = guild.voice_states.get(bot.id)
            if state is not None and state.session_id == session.id:
                guild.set_voice_state(bot, None, session_id=session.id)
            self._spawn(self._end(voice, DISCONNECTED, b"main gateway session ended"))
        self._world.notify()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _refuse(self, guild_id: int, channel_id: int, reason: str) -> None:
        self.refusals.append(VoiceRefusal(guild_id, channel_id, reason))
        self._world.notify()

    async def _end(self, voice: VoiceSession, code: int, reason: bytes) -> None:
        voice.ended = True
        self._check_announced(voice)
        self._by_ssrc.pop(voice.ssrc, None)
        socket, voice.socket = voice.socket, None
        if socket is not None:
            await socket.close(code, reason)

    # Faults

    async def drop(self, guild_id: int, code: int | None = None) -> None:
        """Drop the bot's voice websocket in ``guild_id``: cut, as a network failure would
        (``code`` None), or closed with ``code`` (4015: the voice server crashed, resume). The
        voice session stays valid, so the client may resume it or identify again."""
        voice = self.call(guild_id).session
        if voice is None or voice.socket is None:
            raise RuntimeError(f"the bot has no voice connection in guild {guild_id}")
        socket, voice.socket = voice.socket, None
        if code is None:
            socket.abort()
        else:
            await socket.close(code, b"emulator: voice connection dropped")
        self._world.notify()

    # The voice websocket

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        connection = _VoiceSocket(socket, request)
        self._sockets.add(connection)
        writer = asyncio.create_task(connection.writer())
        self._tasks.add(writer)
        writer.add_done_callback(self._tasks.discard)
        self._spawn(self._watch_heartbeats(connection))
        try:
            if request.query.get("v") != GATEWAY_VERSION:
                # Discord serves older versions too; the emulator speaks only discord.py's v8.
                self._world.record_failure(
                    "voice_protocol",
                    f"voice gateway version {request.query.get('v')!r}: the emulator speaks v8",
                )
                await connection.close(BAD_REQUEST, b"voice gateway version 8 only")
                return socket
            connection.send(
                json.dumps(
                    {
                        "op": HELLO,
                        "d": {"v": 8, "heartbeat_interval": round(self.heartbeat_interval * 1000)},
                    }
                )
            )
            async for message in socket:
                if message.type is WSMsgType.BINARY:
                    # DAVE's binary messages: never due, since DAVE is not negotiated.
                    self._world.record_failure(
                        "voice_protocol", "a binary (DAVE) voice message without DAVE negotiated"
                    )
                    continue
                if message.type is not WSMsgType.TEXT:
                    continue
                try:
                    frame = json.loads(message.data)
                    await self._on_frame(connection, frame)
                except (ValueError, KeyError, TypeError) as error:
                    _log.warning("bad voice frame %r: %s", message.data[:200], error)
                    await connection.close(FAILED_TO_DECODE, b"failed to decode payload")
        finally:
            self._sockets.discard(connection)
            connection.queue.put_nowait(None)
            voice = connection.session
            if voice is not None and voice.socket is connection:
                voice.socket = None
            self._world.notify()
        return socket

    async def _on_frame(self, connection: _VoiceSocket, frame: dict[str, Any]) -> None:
        op = frame["op"]
        data: Any = frame.get("d")
        if op == HEARTBEAT:
            self._heartbeat(connection, data)
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif connection.session is None:
            await connection.close(NOT_AUTHENTICATED, b"not authenticated")
        elif op == SELECT_PROTOCOL:
            await self._select_protocol(connection, connection.session, data)
        elif op == SPEAKING:
            self._speaking(connection.session, data)
        elif op in (11, 12, 13, *range(21, 32)):
            return  # client connect notices and DAVE's JSON messages: nothing to do here
        else:
            await connection.close(UNKNOWN_OPCODE, b"unknown opcode")

    def _heartbeat(self, connection: _VoiceSocket, data: Any) -> None:
        """v8 heartbeats: ``{"t": nonce, "seq_ack": last seq received}``, answered with the
        nonce; a ``seq_ack`` beyond what was sent is a client's error."""
        if not isinstance(data, dict) or "t" not in data:
            self._world.record_failure(
                "voice_protocol", f"voice heartbeat {data!r}: v8 sends {{'t': ..., 'seq_ack': ...}}"
            )
            return
        connection.last_heartbeat = asyncio.get_running_loop().time()
        voice = connection.session
        seq_ack = data.get("seq_ack")
        if voice is not None and (not isinstance(seq_ack, int) or seq_ack > voice.seq):
            self._world.record_failure(
                "voice_protocol",
                f"voice heartbeat's seq_ack {seq_ack!r}, but the last message sent was {voice.seq}",
            )
        connection.send(json.dumps({"op": HEARTBEAT_ACK, "d": {"t": data["t"]}}))

    async def _watch_heartbeats(self, connection: _VoiceSocket) -> None:
        """Close ``connection`` with 4009 once no heartbeat came for the interval and its grace:
        its voice session has timed out (a resume is refused with 4006; the client starts a
        new one with op 4)."""
        allowed = self.heartbeat_interval * (1 + self.heartbeat_grace)
        if await heartbeat_missed(connection.socket, lambda: connection.last_heartbeat, allowed):
            self._world.record_failure(
                "voice_heartbeat_timeout",
                f"no voice heartbeat for {allowed:g} s (interval {self.heartbeat_interval:g} s): "
                "the voice connection is closed with 4009",
            )
            voice = connection.session
            if voice is not None and voice.socket is connection:
                await self._end(voice, SESSION_TIMEOUT, b"session timed out")
            else:
                await connection.close(SESSION_TIMEOUT, b"session timed out")
            self._world.notify()
            return

    def _find_session(self, data: dict[str, Any]) -> tuple[VoiceSession | None, int]:
        """The voice session ``data`` names, or the close code that refuses it."""
        try:
            guild_id = int(data["server_id"])
        except (KeyError, TypeError, ValueError):
            return None, BAD_REQUEST
        voice = self.calls[guild_id].session if guild_id in self.calls else None
        if voice is None:
            return None, SERVER_NOT_FOUND
        if data.get("token") != voice.token:
            return None, AUTHENTICATION_FAILED
        if voice.ended or data.get("session_id") != voice.session_id:
            return None, SESSION_NO_LONGER_VALID
        return voice, 0

    async def _identify(self, connection: _VoiceSocket, data: Any) -> None:
        if not isinstance(data, dict):
            await connection.close(FAILED_TO_DECODE, b"failed to decode payload")
            return
        if connection.session is not None:
            await connection.close(ALREADY_AUTHENTICATED, b"already authenticated")
            return
        voice, code = self._find_session(data)
        if voice is not None and str(data.get("user_id")) != str(self._world.bot_user.id):
            voice, code = None, AUTHENTICATION_FAILED
        if voice is None:
            await connection.close(code, b"identify refused")
            return
        if voice.socket is not None and voice.socket is not connection:
            stale = voice.socket
            voice.socket = None
            await stale.close(SESSION_NO_LONGER_VALID, b"superseded")
        # A new identify is a new connection: new SSRC, protocol chosen again, new key.
        self._check_announced(voice)
        self._by_ssrc.pop(voice.ssrc, None)
        voice.ssrc = self._new_ssrc()
        voice.mode, voice.secret_key, voice.announced = None, b"", False
        voice.sent.clear()
        voice.seq = 0
        self._by_ssrc[voice.ssrc] = voice
        connection.session = voice
        voice.socket = connection
        self.call(voice.guild.id).identified += 1
        voice.send(
            READY,
            {"ssrc": voice.ssrc, "ip": self.host, "port": self.udp_port, "modes": list(MODES)},
        )
        self._world.notify()

    def _new_ssrc(self) -> int:
        while True:
            ssrc = secrets.randbits(32)
            if ssrc and ssrc not in self._by_ssrc:
                return ssrc

    async def _resume(self, connection: _VoiceSocket, data: Any) -> None:
        """v8 buffered resume: the messages after the client's ``seq_ack`` are sent again,
        then Resumed; a session that ended (or an unknown one) closes with 4006."""
        if not isinstance(data, dict):
            await connection.close(FAILED_TO_DECODE, b"failed to decode payload")
            return
        voice, code = self._find_session(data)
        if voice is None or not voice.ssrc:
            await connection.close(code or SESSION_NO_LONGER_VALID, b"resume refused")
            return
        if voice.socket is not None and voice.socket is not connection:
            stale = voice.socket
            voice.socket = None
            await stale.close(SESSION_NO_LONGER_VALID, b"superseded")
        seq_ack = data.get("seq_ack")
        last = seq_ack if isinstance(seq_ack, int) else -1
        connection.session = voice
        voice.socket = connection
        for seq, frame in voice.sent:
            if seq > last:
                connection.send(frame)
        connection.send(json.dumps({"op": RESUMED, "d": None}))
        self.call(voice.guild.id).resumed += 1
        self._world.notify()

    async def _select_protocol(
        self, connection: _VoiceSocket, voice: VoiceSession, data: Any
    ) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("data"), dict):
            await connection.close(FAILED_TO_DECODE, b"failed to decode payload")
            return
        if data.get("protocol") != "udp":
            await connection.close(UNKNOWN_PROTOCOL, b"unknown protocol")
            return
        chosen = data["data"]
        mode = chosen.get("mode")
        if mode not in MODES:
            await connection.close(UNKNOWN_ENCRYPTION_MODE, b"unknown encryption mode")
            return
        address = (chosen.get("address"), chosen.get("port"))
        if voice.client_address is not None and address != voice.client_address:
            self._world.record_failure(
                "voice_protocol",
                f"Select Protocol gave {address}, but IP discovery found {voice.client_address}",
            )
        voice.mode = mode
        voice.secret_key = secrets.token_bytes(32)
        voice.send(
            SESSION_DESCRIPTION,
            {
                "mode": mode,
                "secret_key": list(voice.secret_key),
                "dave_protocol_version": 0,
                "audio_codec": "opus",
                "video_codec": None,
                "media_session_id": secrets.token_hex(16),
            },
        )

    def _speaking(self, voice: VoiceSession, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("speaking"), int):
            self._world.record_failure("voice_protocol", f"Speaking {data!r} has no flags")
            return
        if data.get("ssrc") != voice.ssrc:
            self._world.record_failure(
                "voice_protocol", f"Speaking with SSRC {data.get('ssrc')}, not {voice.ssrc}"
            )
            return
        voice.announced = True
        loop = asyncio.get_running_loop()
        call = self.call(voice.guild.id)
        call.speaking.append(SpeakingEvent(data["speaking"], voice.ssrc, loop.time()))
        call.frames.extend(voice.unannounced)
        voice.unannounced.clear()
        self._world.notify()

    # UDP

    def on_datagram(self, data: bytes, address: tuple[str, int]) -> None:
        if len(data) == IP_DISCOVERY_SIZE and data[:2] == struct.pack(">H", IP_DISCOVERY_REQUEST):
            self._discover(data, address)
            return
        if len(data) < RTP_HEADER_SIZE or data[0] >> 6 != 2:
            self.unknown_packets += 1
            return
        (ssrc,) = struct.unpack_from(">I", data, 8)
        voice = self._by_ssrc.get(ssrc)
        if voice is None or voice.ended:
            self.unknown_packets += 1
            return
        if voice.mode is None:
            self._world.record_failure(
                "voice_protocol", "RTP before the Session Description gave a mode and key"
            )
            return
        try:
            opus = decrypt_rtpsize(voice.mode, voice.secret_key, data)
        except ValueError as error:
            self._world.record_failure("voice_decrypt", f"an RTP packet did not decrypt: {error}")
            return
        call = self.call(voice.guild.id)
        permissions = voice.channel.bot_permissions()
        if not permissions & (Permission.SPEAK | Permission.ADMINISTRATOR):
            call.dropped_without_speak += 1
            return
        sequence, timestamp = struct.unpack_from(">HI", data, 2)
        loop = asyncio.get_running_loop()
        frame = VoiceFrame(opus, sequence, timestamp, ssrc, loop.time())
        if voice.announced:
            call.frames.append(frame)
        else:
            voice.unannounced.append(frame)
        self._world.notify()

    def _check_announced(self, voice: VoiceSession) -> None:
        """The frames of a connection that never sent Speaking break Discord's rule: "You must
        send at least one Opcode 5 Speaking payload before sending voice data"."""
        if voice.unannounced:
            self._world.record_failure(
                "voice_protocol",
                f"{len(voice.unannounced)} audio frames from SSRC {voice.ssrc} and no Speaking",
            )
            voice.unannounced.clear()

    def _discover(self, data: bytes, address: tuple[str, int]) -> None:
        """IP discovery: the request (type 1, length 70, SSRC) is answered with type 2, the
        same length and SSRC, the sender's address (null-terminated, 64 bytes) and its port."""
        (ssrc,) = struct.unpack_from(">I", data, 4)
        voice = self._by_ssrc.get(ssrc)
        if voice is None or self._transport is None:
            self.unknown_packets += 1
            return
        voice.client_address = address
        host, port = address
        answer = struct.pack(">HHI", IP_DISCOVERY_RESPONSE, 70, ssrc)
        answer += host.encode("ascii").ljust(64, b"\0") + struct.pack(">H", port)
        self._transport.sendto(answer, address)
