"""Discord's voice in the emulator, with the real discord.py voice client (a minimal client, not
the game bot): joining a voice channel (op 4, VOICE_STATE_UPDATE, VOICE_SERVER_UPDATE), the voice
gateway v8, IP discovery and encrypted RTP over UDP, the Opus frames received and decoded;
leaving, refusals without Connect, and a dropped voice connection."""

from __future__ import annotations

import array
import asyncio
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


async def play(voice: discord.VoiceClient, pcm: bytes) -> None:
    done = asyncio.get_running_loop().create_future()

    def after(error: Exception | None) -> None:
        done.get_loop().call_soon_threadsafe(done.set_result, error)

    voice.play(discord.PCMAudio(__import__("io").BytesIO(pcm)), after=after)
    error = await asyncio.wait_for(done, 30)
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
            for a, b in zip(frames, frames[1:], strict=False)
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
    pytest.importorskip("nacl")
    import nacl.secret

    key = bytes(range(32))
    header = bytearray(12)
    header[0], header[1] = 0x80, 0x78
    struct.pack_into(">HII", header, 2, 7, 960 * 7, 1234)
    nonce = bytearray(24)
    nonce[:4] = struct.pack(">I", 5)
    box = nacl.secret.Aead(key)
    packet = bytes(header) + box.encrypt(b"opus!", bytes(header), bytes(nonce)).ciphertext + nonce[:4]
    assert decrypt_rtpsize("aead_xchacha20_poly1305_rtpsize", key, packet) == b"opus!"
    tampered = bytearray(packet)
    tampered[3] ^= 1  # the header is authenticated
    with pytest.raises(ValueError, match="authenticate"):
        decrypt_rtpsize("aead_xchacha20_poly1305_rtpsize", key, bytes(tampered))
