"""Audio in the form discord.py plays: 48 kHz, stereo, signed 16-bit little-endian PCM.

Speech engines write WAV files at their own rate (espeak-ng 22,050 Hz mono, Piper voices 16,000
or 22,050 Hz mono); this module reads them and converts them with linear interpolation (no ffmpeg, no sox, no
numpy): by the standard library's ``audioop`` where Python still has it (3.11 and 3.12, where
discord.py imports it too), in pure Python where it is gone (3.13). For speech, already
band-limited to the engine's rate, linear interpolation is audibly fine. It runs once per
phrase, before it is cached, but in a worker thread beside the event loop: ``audioop`` does it
in C in under 2 ms, where the pure Python loop holds the interpreter 25 ms a phrase
(``bench/bench_voice.py``).
"""

from __future__ import annotations

import array
import math
import struct
import sys
import warnings
from dataclasses import dataclass
from types import ModuleType

_audioop: ModuleType | None
try:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # (gone in 3.13: the fallback below)
        import audioop as _audioop
except ImportError:
    _audioop = None

SAMPLE_RATE = 48_000
CHANNELS = 2
SAMPLE_BYTES = 2
BYTES_PER_SECOND = SAMPLE_RATE * CHANNELS * SAMPLE_BYTES
# An unfinished WAV header (written to a pipe, its length not known yet) says this, or 0.
_UNKNOWN_LENGTHS = {0, 0xFFFFFFFF, 0x7FFFFFFF}


class WavError(ValueError):
    """Bytes that are not a WAV file this module reads (PCM, 16-bit, mono or stereo)."""


@dataclass(frozen=True)
class Wav:
    """A WAV file's audio: its rate, its channels and its 16-bit samples (native order)."""

    rate: int
    channels: int
    samples: array.array[int]

    @property
    def seconds(self) -> float:
        """How long it plays."""
        return len(self.samples) / (self.rate * self.channels) if self.rate else 0.0


def read_wav(data: bytes) -> Wav:
    """The audio of a 16-bit PCM WAV file, also one written to a pipe, whose header's lengths
    are unfinished (the data chunk then runs to the end)."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise WavError("not a RIFF WAVE file")
    offset = 12
    rate = channels = bits = 0
    while offset + 8 <= len(data):
        chunk, size = struct.unpack_from("<4sI", data, offset)
        body = offset + 8
        if chunk == b"fmt ":
            audio_format, channels, rate, _, _, bits = struct.unpack_from("<HHIIHH", data, body)
            if audio_format not in {1, 0xFFFE} or bits != 16 or channels not in {1, 2}:
                raise WavError(
                    f"unsupported WAV: format {audio_format}, {bits} bits, {channels} ch"
                )
        elif chunk == b"data":
            if not rate:
                raise WavError("WAV data before its format")
            end = len(data) if size in _UNKNOWN_LENGTHS else min(len(data), body + size)
            end -= (end - body) % (2 * channels)
            samples = array.array("h", data[body:end])
            if sys.byteorder == "big":
                samples.byteswap()
            return Wav(rate, channels, samples)
        offset = body + size + (size & 1)
    raise WavError("no data chunk in the WAV file")


def to_discord_pcm(wav: Wav) -> bytes:
    """``wav`` as discord.py plays it: mixed to mono, resampled to 48 kHz by linear
    interpolation, and the same samples on both channels."""
    if _audioop is not None and sys.byteorder == "little":
        data = wav.samples.tobytes()
        if wav.channels == 2:
            data = _audioop.tomono(data, SAMPLE_BYTES, 0.5, 0.5)
        if wav.rate != SAMPLE_RATE and data:
            data, _ = _audioop.ratecv(data, SAMPLE_BYTES, 1, wav.rate, SAMPLE_RATE, None)
        return bytes(_audioop.tostereo(data, SAMPLE_BYTES, 1, 1))
    mono = wav.samples
    if wav.channels == 2:
        mono = array.array("h", ((a + b) // 2 for a, b in zip(mono[0::2], mono[1::2], strict=True)))
    resampled = resample(mono, wav.rate, SAMPLE_RATE)
    stereo = array.array("h", bytes(len(resampled) * 2 * SAMPLE_BYTES))
    stereo[0::2] = resampled
    stereo[1::2] = resampled
    if sys.byteorder == "big":
        stereo.byteswap()
    return stereo.tobytes()


def resample(samples: array.array[int], rate: int, target: int) -> array.array[int]:
    """``samples`` (mono) at ``target`` Hz, each output sample interpolated linearly between the
    two input samples around its moment."""
    if rate == target or not samples:
        return array.array("h", samples)
    count = len(samples) * target // rate
    last = len(samples) - 1
    out = array.array("h", bytes(count * SAMPLE_BYTES))
    # Integer positions: output sample j sits at j * rate / target input samples.
    for j in range(count):
        whole, part = divmod(j * rate, target)
        if whole >= last:
            out[j] = samples[last]
            continue
        here = samples[whole]
        out[j] = here + (samples[whole + 1] - here) * part // target
    return out


def seconds_of(pcm: bytes) -> float:
    """How long discord.py's PCM ``pcm`` plays."""
    return len(pcm) / BYTES_PER_SECOND


def loudness(pcm: bytes) -> float:
    """The root mean square of 16-bit PCM samples (0 for silence)."""
    samples = array.array("h", pcm[: len(pcm) - len(pcm) % 2])
    if sys.byteorder == "big":
        samples.byteswap()
    if not samples:
        return 0.0
    return math.sqrt(sum(s * s for s in samples) / len(samples))
