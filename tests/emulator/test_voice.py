"""Discord's voice in the emulator, with the real discord.py voice client (a minimal client, not
the game bot): joining a voice channel (op 4, VOICE_STATE_UPDATE, VOICE_SERVER_UPDATE), the voice
gateway v8, IP discovery and encrypted RTP over UDP, the Opus frames received and decoded;
leaving, refusals without Connect, and a dropped voice connection."""

from __future__ import annotations

import array
import asyncio
import io
import itertools
import json
import math
import struct

import aiohttp
import discord
import pytest

from emulator import Emulator, run_bot
from emulator.model import Permission
from emulator.voice import (
    FRAME_SECONDS,
    MODES,
    SAMPLE_RATE,
    SAMPLES_PER_FRAME,
    decrypt_rtpsize,
)

TONE_HZ = 440
AMPLITUDE = 8000


def tone(seconds: float, hz: int = TONE_HZ) -> bytes:
    """Raw 48 kHz stereo s16le PCM of a sine tone, as discord.PCMAudio plays it."""
    samples = array.array("h")
    for index in range(round(seconds * SAMPLE_RATE)):
        value = round(AMPLITUDE * math.sin(2 * math.pi * hz * index / SAMPLE_RATE))
        samples.extend((value, value))
    return samples.tobytes()


def rms(pcm: bytes) -> float:
    samples = array.array("h", pcm)
    return math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0


def voice_client() -> discord.Client:
    # Voice needs the guilds and voice_states intents (discord.py tracks voice states with them).
    intents = discord.Intents.none()
    intents.guilds = True
    intents.voice_states = True
    return discord.Client(intents=intents, guild_ready_timeout=0.05)


async def play(voice: discord.VoiceClient, pcm: bytes, within: float = 30) -> None:
    done = asyncio.get_running_loop().create_future()

    def after(error: Exception | None) -> None:
        done.get_loop().call_soon_threadsafe(done.set_result, error)

    voice.play(discord.PCMAudio(io.BytesIO(pcm)), after=after)
    error = await asyncio.wait_for(done, within)
    assert error is None


async def test_the_client_joins_plays_a_tone_and_the_emulator_hears_it(emulator: Emulator):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    client = voice_client()
    async with run_bot(emulator, client):
        channel = client.get_channel(stage.id)
        assert isinstance(channel, discord.VoiceChannel)
        voice = await channel.connect(timeout=10)
        assert voice.is_connected()
        call = emulator.voice(guild)
        assert call.channel is stage
        assert guild.members_in_voice(stage) == [emulator.bot_user]
        assert voice.mode in MODES
        seconds = 2.0
        await play(voice, tone(seconds))
        await call.wait_until_quiet()
        spans = call.spans()
        assert len(spans) == 1
        frames = spans[0]
        expected = round(seconds / FRAME_SECONDS)
        assert len(frames) == expected
        # RTP sequence and timestamp follow on frame by frame.
        assert all(
            (b.sequence - a.sequence) % 2**16 == 1
            and (b.timestamp - a.timestamp) % 2**32 == SAMPLES_PER_FRAME
            for a, b in itertools.pairwise(frames)
        )
        pcm = call.pcm(frames)
        decoded_seconds = len(pcm) / (SAMPLE_RATE * 2 * 2)
        assert abs(decoded_seconds - seconds) <= 0.02
        # Opus is lossy: the tone's energy comes back, within a margin (a sine's RMS is A/√2).
        assert rms(pcm) == pytest.approx(AMPLITUDE / math.sqrt(2), rel=0.25)
        # The client said it spoke, then stopped, and sent Discord's silence frames at the end.
        assert [event.speaking for event in call.speaking][-2:] == [1, 0]
        assert call.frames[-1].silence
        await voice.disconnect()
        await emulator.wait_until(lambda: call.channel is None, 5, lambda: "the bot left")
        assert guild.members_in_voice(stage) == []
        assert not call.connected


def test_rtpsize_packets_decrypt_as_discord_py_encrypts_them():
    import nacl.secret

    key = bytes(range(32))
    header = bytearray(12)
    header[0], header[1] = 0x80, 0x78
    struct.pack_into(">HII", header, 2, 7, 960 * 7, 1234)
    nonce = bytearray(24)
    nonce[:4] = struct.pack(">I", 5)
    box = nacl.secret.Aead(key)
    packet = (
        bytes(header) + box.encrypt(b"opus!", bytes(header), bytes(nonce)).ciphertext + nonce[:4]
    )
    assert decrypt_rtpsize("aead_xchacha20_poly1305_rtpsize", key, packet) == b"opus!"
    tampered = bytearray(packet)
    tampered[3] ^= 1  # the header is authenticated
    with pytest.raises(ValueError, match="authenticate"):
        decrypt_rtpsize("aead_xchacha20_poly1305_rtpsize", key, bytes(tampered))


async def joined(
    client: discord.Client, channel_id: int, connect_timeout: float = 10
) -> discord.VoiceClient:
    channel = client.get_channel(channel_id)
    assert isinstance(channel, discord.VoiceChannel)
    return await channel.connect(timeout=connect_timeout)


@pytest.mark.slow
async def test_a_voice_connection_cut_mid_play_reconnects_and_the_audio_goes_on(
    emulator: Emulator,
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    client = voice_client()
    async with run_bot(emulator, client):
        # discord.py's UDP reader thread sits up to 30 s in select() on the socket it had before
        # the cut (nothing else arrives there), so its reconnection needs that long.
        voice = await joined(client, stage.id, connect_timeout=45)
        call = emulator.voice(guild)
        player = asyncio.create_task(play(voice, tone(3.0), within=90))
        await call.wait_for_frames(25)
        first_ssrc = call.frames[0].ssrc
        await emulator.drop_voice(guild)
        await emulator.wait_until(
            lambda: call.identified >= 2 or None,
            60,
            lambda: f"a second voice connection; {call!r}",
        )
        await player
        assert voice.is_connected()
        assert call.channel is stage
        before = [f for f in call.audio_frames if f.ssrc == first_ssrc]
        after = [f for f in call.audio_frames if f.ssrc != first_ssrc]
        # The player waited for the new connection and went on where it was: no audio lost
        # but what was sent into the cut, and the rest came through the new connection.
        assert len(before) >= 25
        assert len(after) > 0
        assert len(before) + len(after) <= round(3.0 / FRAME_SECONDS)
        assert rms(call.pcm(after)) > AMPLITUDE / 4


async def test_without_connect_the_join_goes_unanswered_as_on_discord(emulator: Emulator):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    closed = guild.add_voice_channel("Staff", bot_denied=Permission.CONNECT)
    client = voice_client()
    async with run_bot(emulator, client):
        # Discord sends neither VOICE_STATE_UPDATE nor VOICE_SERVER_UPDATE: discord.py times out.
        with pytest.raises(asyncio.TimeoutError):
            await joined(client, closed.id, connect_timeout=1.5)
        assert [(r.channel_id, r.reason) for r in emulator.voice_refusals] == [
            (closed.id, "the bot lacks Connect")
        ]
        assert guild.members_in_voice(closed) == []
        assert emulator.voice(guild).identified == 0
        # A moderator allows it: the same client joins.
        guild.set_bot_denied(closed, 0)
        voice = await joined(client, closed.id)
        assert voice.is_connected()
        assert guild.members_in_voice(closed) == [emulator.bot_user]
        await voice.disconnect()


async def test_without_speak_the_bot_joins_but_its_audio_is_dropped(emulator: Emulator):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    muted = guild.add_voice_channel("Listening", bot_denied=Permission.SPEAK)
    client = voice_client()
    async with run_bot(emulator, client):
        voice = await joined(client, muted.id)
        await play(voice, tone(0.5))
        call = emulator.voice(guild)
        await emulator.wait_until(
            lambda: call.dropped_without_speak >= 25 or None, 5, lambda: f"dropped frames; {call!r}"
        )
        assert call.frames == []
        await voice.disconnect()


async def test_members_join_and_leave_voice_and_the_bot_sees_them(emulator: Emulator):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    alice = guild.add_member("alice")
    client = voice_client()
    async with run_bot(emulator, client):
        alice.join_voice(stage)
        channel = client.get_channel(stage.id)
        assert isinstance(channel, discord.VoiceChannel)
        await emulator.wait_until(
            lambda: [m.id for m in channel.members] == [alice.id] or None,
            5,
            lambda: f"alice in {channel.members}",
        )
        assert alice.voice_channel is stage
        alice.leave_voice()
        await emulator.wait_until(
            lambda: channel.members == [] or None, 5, lambda: f"nobody in {channel.members}"
        )
        assert alice.voice_channel is None
    # A client that connects later learns who is in voice from GUILD_CREATE.
    alice.join_voice(stage)
    late = voice_client()
    async with run_bot(emulator, late):
        channel = late.get_channel(stage.id)
        assert isinstance(channel, discord.VoiceChannel)
        assert [m.id for m in channel.members] == [alice.id]


class RawVoice:
    """A hand-written voice gateway client, to see the protocol's edges discord.py never hits."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket

    async def send(self, op: int, data: object) -> None:
        await self.socket.send_str(json.dumps({"op": op, "d": data}))

    async def receive(self) -> dict:
        message = await asyncio.wait_for(self.socket.receive(), 5)
        assert message.type is aiohttp.WSMsgType.TEXT, (message.type, message.data)
        return json.loads(message.data)

    async def closed_with(self) -> int | None:
        while True:
            message = await asyncio.wait_for(self.socket.receive(), 5)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                return self.socket.close_code


async def granted(emulator: Emulator, client: discord.Client, guild_id: int, channel_id: int):
    """The bot's op 4 through discord.py, without its voice client: what Discord granted."""
    guild = client.get_guild(guild_id)
    assert guild is not None
    await guild.change_voice_state(channel=discord.Object(channel_id))
    call = emulator.voice(guild_id)
    await emulator.wait_until(lambda: call.session, 5, lambda: "a voice server grant")
    assert call.session is not None
    return call.session


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"token": "wrong"}, 4004),
        ({"session_id": "someone-else"}, 4006),
        ({"server_id": "1"}, 4011),
    ],
    ids=["token", "session", "server"],
)
async def test_identify_is_checked_as_discord_does(emulator: Emulator, change: dict, code: int):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    client = voice_client()
    async with run_bot(emulator, client), aiohttp.ClientSession() as http:
        grant = await granted(emulator, client, guild.id, stage.id)
        identify = {
            "server_id": str(guild.id),
            "user_id": str(emulator.bot_user.id),
            "session_id": grant.session_id,
            "token": grant.token,
        }
        async with http.ws_connect(f"ws://{emulator.voice_endpoint}/?v=8") as socket:
            raw = RawVoice(socket)
            hello = await raw.receive()
            assert hello["op"] == 8
            assert hello["d"]["heartbeat_interval"] > 0
            await raw.send(0, identify | change)
            assert await raw.closed_with() == code


async def test_the_voice_gateway_v8_by_hand(emulator: Emulator):
    """Hello, Identify, Ready, IP discovery, Select Protocol, Session Description, heartbeats
    with seq_ack, Speaking, then a buffered Resume on a new socket."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    client = voice_client()
    loop = asyncio.get_running_loop()
    async with run_bot(emulator, client), aiohttp.ClientSession() as http:
        grant = await granted(emulator, client, guild.id, stage.id)
        url = f"ws://{emulator.voice_endpoint}/?v=8"
        async with http.ws_connect(url) as socket:
            raw = RawVoice(socket)
            assert (await raw.receive())["op"] == 8
            # Anything but Identify, Resume or a heartbeat first: 4003 Not authenticated.
            async with http.ws_connect(url) as early:
                early_raw = RawVoice(early)
                await early_raw.receive()
                await early_raw.send(5, {"speaking": 1, "delay": 0, "ssrc": 1})
                assert await early_raw.closed_with() == 4003
            await raw.send(
                0,
                {
                    "server_id": str(guild.id),
                    "user_id": str(emulator.bot_user.id),
                    "session_id": grant.session_id,
                    "token": grant.token,
                },
            )
            ready = await raw.receive()
            assert ready["op"] == 2
            assert ready["seq"] == 1
            assert set(ready["d"]["modes"]) == {
                "aead_aes256_gcm_rtpsize",
                "aead_xchacha20_poly1305_rtpsize",
            }
            ssrc = ready["d"]["ssrc"]
            # IP discovery over UDP: 74 bytes each way, our address and port in the answer.
            transport, protocol = await loop.create_datagram_endpoint(
                lambda: Collect(loop), remote_addr=(ready["d"]["ip"], ready["d"]["port"])
            )
            try:
                request = struct.pack(">HHI", 1, 70, ssrc) + bytes(66)
                transport.sendto(request)
                answer = await asyncio.wait_for(protocol.packets.get(), 5)
                own_host, own_port = transport.get_extra_info("sockname")[:2]
                assert len(answer) == 74
                assert struct.unpack_from(">HHI", answer) == (2, 70, ssrc)
                assert answer[8 : answer.index(0, 8)].decode() == own_host
                assert struct.unpack_from(">H", answer, 72)[0] == own_port
            finally:
                transport.close()
            # An unknown mode closes with 4016 (on a throwaway identify, below); the real one:
            await raw.send(
                1,
                {
                    "protocol": "udp",
                    "data": {
                        "address": own_host,
                        "port": own_port,
                        "mode": "aead_xchacha20_poly1305_rtpsize",
                    },
                },
            )
            description = await raw.receive()
            assert description["op"] == 4
            assert description["seq"] == 2
            assert description["d"]["mode"] == "aead_xchacha20_poly1305_rtpsize"
            assert len(description["d"]["secret_key"]) == 32
            assert description["d"]["dave_protocol_version"] == 0
            await raw.send(3, {"t": 1234, "seq_ack": 2})
            assert await raw.receive() == {"op": 6, "d": {"t": 1234}}
            await raw.send(5, {"speaking": 1, "delay": 0, "ssrc": ssrc})
            await emulator.wait_until(
                lambda: emulator.voice(guild).speaking or None, 5, lambda: "Speaking"
            )
        # The socket is gone; a Resume on a new one replays what came after seq_ack 1.
        async with http.ws_connect(url) as socket:
            raw = RawVoice(socket)
            assert (await raw.receive())["op"] == 8
            await raw.send(
                7,
                {
                    "server_id": str(guild.id),
                    "session_id": grant.session_id,
                    "token": grant.token,
                    "seq_ack": 1,
                },
            )
            replayed = await raw.receive()
            assert (replayed["op"], replayed["seq"]) == (4, 2)
            assert (await raw.receive())["op"] == 9
            assert emulator.voice(guild).resumed == 1
            await raw.send(
                1, {"protocol": "udp", "data": {"address": "x", "port": 1, "mode": "plain"}}
            )
            assert await raw.closed_with() == 4016
        # The bot leaves: the session ends, and resuming it closes with 4006.
        await client.get_guild(guild.id).change_voice_state(channel=None)
        await emulator.wait_until(
            lambda: emulator.voice(guild).channel is None or None, 5, lambda: "the bot left"
        )
        assert await resumed_closing(http, emulator, guild, grant, seq_ack=2) == 4006


async def resumed_closing(
    http: aiohttp.ClientSession, emulator: Emulator, guild, grant, *, seq_ack: int
) -> int | None:
    """The close code a new voice websocket gets when it resumes ``grant``'s session."""
    async with http.ws_connect(f"ws://{emulator.voice_endpoint}/?v=8") as socket:
        raw = RawVoice(socket)
        await raw.receive()
        await raw.send(
            7,
            {
                "server_id": str(guild.id),
                "session_id": grant.session_id,
                "token": grant.token,
                "seq_ack": seq_ack,
            },
        )
        return await raw.closed_with()


class Collect(asyncio.DatagramProtocol):
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.packets: asyncio.Queue[bytes] = asyncio.Queue()

    def datagram_received(self, data: bytes, addr: object) -> None:
        self.packets.put_nowait(data)


def test_aes256_gcm_rtpsize_packets_decrypt_too():
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    key = bytes(range(32))
    header = bytes([0x80, 0x78]) + struct.pack(">HII", 1, 960, 99)
    counter = struct.pack(">I", 3)
    sealed = AESGCM(key).encrypt(counter + bytes(8), b"frame", header)
    assert decrypt_rtpsize("aead_aes256_gcm_rtpsize", key, header + sealed + counter) == b"frame"
    with pytest.raises(ValueError, match="authenticate"):
        decrypt_rtpsize("aead_aes256_gcm_rtpsize", bytes(32), header + sealed + counter)


# -- heartbeats, the main session's end, the owner's permissions ----------------------------------


async def identified(http: aiohttp.ClientSession, emulator: Emulator, guild, grant) -> RawVoice:
    socket = await http.ws_connect(f"ws://{emulator.voice_endpoint}/?v=8")
    raw = RawVoice(socket)
    hello = await raw.receive()
    assert hello["op"] == 8
    await raw.send(
        0,
        {
            "server_id": str(guild.id),
            "user_id": str(emulator.bot_user.id),
            "session_id": grant.session_id,
            "token": grant.token,
        },
    )
    assert (await raw.receive())["op"] == 2
    return raw


async def test_a_voice_connection_without_heartbeats_times_out_with_4009():
    async with Emulator(voice_heartbeat_interval=0.4) as emulator:
        guild = emulator.add_guild("Game Night")
        guild.add_channel("general")
        stage = guild.add_voice_channel("Calling")
        client = voice_client()
        async with run_bot(emulator, client), aiohttp.ClientSession() as http:
            grant = await granted(emulator, client, guild.id, stage.id)
            # One that heartbeats as Hello asks stays open past the interval and its grace...
            steady = await identified(http, emulator, guild, grant)
            for beat in range(8):
                await steady.send(3, {"t": beat, "seq_ack": 1})
                assert await steady.receive() == {"op": 6, "d": {"t": beat}}
                await asyncio.sleep(0.15)
            assert not steady.socket.closed
            assert emulator.take_failures() == []
            # ...one that stops is closed with 4009: its session is over, a resume is refused.
            assert await steady.closed_with() == 4009
            (failure,) = emulator.take_failures()
            assert failure.kind == "voice_heartbeat_timeout"
            assert not emulator.voice(guild).connected
            assert await resumed_closing(http, emulator, guild, grant, seq_ack=1) == 4006


async def test_discord_pys_voice_heartbeats_keep_its_connection_open():
    # discord.py heartbeats at Hello's interval (at most every 5 s): no 4009 while it plays.
    async with Emulator(voice_heartbeat_interval=0.3) as emulator:
        guild = emulator.add_guild("Game Night")
        guild.add_channel("general")
        stage = guild.add_voice_channel("Calling")
        client = voice_client()
        async with run_bot(emulator, client):
            voice = await joined(client, stage.id)
            await play(voice, tone(1.5))
            call = emulator.voice(guild)
            assert call.connected
            assert call.identified == 1
            assert emulator.take_failures() == []
            await voice.disconnect()


async def test_the_main_gateway_session_ending_closes_the_voice_connection_with_4014(
    emulator: Emulator,
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    alice = guild.add_member("alice")
    alice.join_voice(stage)
    client = voice_client()
    async with run_bot(emulator, client), aiohttp.ClientSession() as http:
        grant = await granted(emulator, client, guild.id, stage.id)
        raw = await identified(http, emulator, guild, grant)
        assert guild.members_in_voice(stage) == [alice.user, emulator.bot_user]
        # The bot's main session ends (Discord invalidates it: op 9, not resumable).
        emulator.gateway.invalidate_sessions(resumable=False)
        assert await raw.closed_with() == 4014
        # Discord takes the bot out of the channel; the voice session cannot be resumed.
        assert guild.members_in_voice(stage) == [alice.user]
        assert emulator.voice(guild).channel is None
        assert await resumed_closing(http, emulator, guild, grant, seq_ack=0) == 4006


async def test_a_server_the_bot_owns_lets_it_join_whatever_the_overwrites(emulator: Emulator):
    # Discord: the owner holds every permission ("if guild.is_owner(member): return ALL").
    owned = emulator.add_guild("The bot's own")
    owned.owner = emulator.bot_user
    owned.add_channel("general")
    closed = owned.add_voice_channel("Staff", bot_denied=Permission.CONNECT | Permission.SPEAK)
    # A server with nobody in it yet is a person's (the app's owner), not the bot's: the
    # overwrite holds, and discord.py computes the same.
    other = emulator.add_guild("Somebody's")
    other.add_channel("general")
    shut = other.add_voice_channel("Staff", bot_denied=Permission.CONNECT)
    client = voice_client()
    async with run_bot(emulator, client):
        own_guild = client.get_guild(owned.id)
        assert own_guild is not None
        assert own_guild.owner_id == emulator.bot_user.id
        assert closed.bot_permissions() & (Permission.CONNECT | Permission.SPEAK)
        voice = await joined(client, closed.id)
        await play(voice, tone(0.3))
        call = emulator.voice(owned)
        await call.wait_for_frames(10)
        assert call.dropped_without_speak == 0
        await voice.disconnect()

        their_guild = client.get_guild(other.id)
        assert their_guild is not None
        assert their_guild.owner_id != emulator.bot_user.id
        channel = client.get_channel(shut.id)
        assert isinstance(channel, discord.VoiceChannel)
        assert not channel.permissions_for(their_guild.me).connect
        with pytest.raises(asyncio.TimeoutError):
            await joined(client, shut.id, connect_timeout=1.0)
        assert [r.reason for r in emulator.voice_refusals] == ["the bot lacks Connect"]
