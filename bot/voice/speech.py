"""A phrase ready to play: its Opus frames (20 ms each, encoded once, when it is made), so that
playing sends them as they are: the voice send loop encodes nothing live."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass

import discord

from bot.voice.pcm import BYTES_PER_SECOND, CHANNELS, SAMPLE_BYTES, SAMPLE_RATE

FRAME_SECONDS = 0.02
SAMPLES_PER_FRAME = round(SAMPLE_RATE * FRAME_SECONDS)
FRAME_BYTES = SAMPLES_PER_FRAME * CHANNELS * SAMPLE_BYTES
# Speech needs far less than discord.py's 128 kbit/s for music.
BITRATE_KBPS = 64
_MAGIC = b"GNS1"


class SpeechFormatError(ValueError):
    """Bytes that are not a stored phrase (a damaged or foreign cache file)."""


@dataclass(frozen=True)
class Speech:
    """A spoken phrase: its Opus frames and the length of the PCM they were encoded from."""

    frames: tuple[bytes, ...]
    pcm_bytes: int

    @property
    def seconds(self) -> float:
        """How long the phrase's PCM plays."""
        return self.pcm_bytes / BYTES_PER_SECOND

    @property
    def play_seconds(self) -> float:
        """How long its frames play (the last frame padded to 20 ms)."""
        return len(self.frames) * FRAME_SECONDS

    def to_bytes(self) -> bytes:
        """The stored form: a tag, the PCM's length, then each frame after its length."""
        parts = [_MAGIC, struct.pack("<II", self.pcm_bytes, len(self.frames))]
        for frame in self.frames:
            parts += [struct.pack("<H", len(frame)), frame]
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> Speech:
        """The phrase stored by :meth:`to_bytes`; raises ``SpeechFormatError``."""
        try:
            if data[:4] != _MAGIC:
                raise SpeechFormatError("not a stored phrase")
            pcm_bytes, count = struct.unpack_from("<II", data, 4)
            offset = 12
            frames = []
            for _ in range(count):
                (length,) = struct.unpack_from("<H", data, offset)
                frame = data[offset + 2 : offset + 2 + length]
                if len(frame) != length:
                    raise SpeechFormatError("a stored phrase cut short")
                frames.append(frame)
                offset += 2 + length
        except struct.error as error:
            raise SpeechFormatError(f"a stored phrase cut short: {error}") from None
        if offset != len(data):
            raise SpeechFormatError("bytes after a stored phrase")
        return cls(tuple(frames), pcm_bytes)


def encode(pcm: bytes) -> Speech:
    """discord.py's PCM as Opus frames (the last one padded with silence). Needs libopus."""
    encoder = discord.opus.Encoder(bitrate=BITRATE_KBPS, signal_type="voice")
    frames = []
    for start in range(0, len(pcm), FRAME_BYTES):
        chunk = pcm[start : start + FRAME_BYTES]
        if len(chunk) < FRAME_BYTES:
            chunk += bytes(FRAME_BYTES - len(chunk))
        frames.append(encoder.encode(chunk, SAMPLES_PER_FRAME))
    return Speech(tuple(frames), len(pcm))


class SpeechSource(discord.AudioSource):
    """A phrase for ``VoiceClient.play``: its Opus frames, one per 20 ms, already encoded."""

    def __init__(self, speech: Speech) -> None:
        self._frames: Iterator[bytes] = iter(speech.frames)

    def read(self) -> bytes:
        """The next frame; nothing at the end."""
        return next(self._frames, b"")

    def is_opus(self) -> bool:
        """Frames are Opus already: discord.py sends them as they are."""
        return True
