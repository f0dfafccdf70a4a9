"""``--voice``: what the bot says in the sandbox's voice channel, saved as WAV files beside the
pictures and played from the page.

The emulator records every Opus frame the bot sends in voice (:class:`emulator.VoiceCall`) and
cuts them into spans, one per phrase. After each game the spans are given to the messages they
go with: a call's phrases are said just before it is posted (in riddle mode, its answer just
after), so each call gets the spans heard since the previous call's post that match its phrases
(their number of frames); what else was said (the wins, the farewell) goes with the bot's
last other message in the channel posted before it ended. Each group is decoded, mixed down to mono and written with :mod:`wave`
(48 kHz, 16-bit): a call's file is named after its picture (``0012-…-call-3-….wav`` beside
``0012-…-call-3-….png``).
"""

from __future__ import annotations

import array
import importlib.util
import sys
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.voice.machinery import missing_voice_parts
from bot.voice.pcm import CHANNELS, SAMPLE_BYTES, SAMPLE_RATE
from bot.voice.phrase import Phrase
from emulator import Message
from emulator.voice import VoiceCall, VoiceFrame

# The voice channel the sandbox makes, the members join and the host names at the start.
VOICE_CHANNEL = "game-night-voice"
ESPEAK_PROGRAM = "espeak-ng"  # the sandbox's bot speaks with espeak-ng (no Piper settings)

Span = list[VoiceFrame]


def voice_unavailable() -> str | None:
    """Why ``--voice`` cannot run here, or None: what the bot lacks to speak (the voice extra,
    libopus, espeak-ng), or what the emulator lacks to hear it (cryptography, which decrypts the
    AES-GCM packets discord.py sends)."""
    missing = missing_voice_parts(ESPEAK_PROGRAM)
    if missing is not None:
        return missing
    if importlib.util.find_spec("cryptography") is None:
        return "cryptography is not installed (pip install 'gamenight[emulator]')"
    return None


@dataclass(frozen=True)
class Spoken:
    """What the bot said in voice with one of its messages, saved as a WAV file: whether it is
    a call's (and then its phrases), and how long it plays."""

    message_id: int
    path: Path
    seconds: float
    call: bool
    phrases: tuple[Phrase, ...] = ()


@dataclass(frozen=True)
class CallPost:
    """A call as the channel saw it: its message, the phrases said with it (before it was
    posted; in riddle mode the last ``after`` of them once it was revealed) and how many Opus
    frames each of them is (None when the bot could not make it)."""

    message: Message
    phrases: tuple[Phrase, ...]
    frames: tuple[int | None, ...]
    after: int = 0


def mono_pcm(stereo: bytes) -> bytes:
    """48 kHz stereo s16le PCM mixed down to mono (the voice says the same on both sides)."""
    samples = array.array("h", stereo[: len(stereo) - len(stereo) % (CHANNELS * SAMPLE_BYTES)])
    if sys.byteorder == "big":
        samples.byteswap()
    mono = array.array(
        "h", ((a + b) // 2 for a, b in zip(samples[0::2], samples[1::2], strict=True))
    )
    if sys.byteorder == "big":
        mono.byteswap()
    return mono.tobytes()


def write_wav(path: Path, stereo: bytes) -> float:
    """Write ``stereo`` (discord.py's PCM) to ``path`` as a mono 48 kHz 16-bit WAV file; how
    long it plays."""
    mono = mono_pcm(stereo)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(SAMPLE_BYTES)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(mono)
    return len(mono) / (SAMPLE_RATE * SAMPLE_BYTES)


@dataclass
class Heard:
    """The spans heard with one message: a call's or the others said near it."""

    message: Message
    spans: list[Span]
    call: bool
    phrases: tuple[Phrase, ...] = ()


def _matching_run(
    spans: Sequence[Span], candidates: Sequence[int], frames: Sequence[int | None]
) -> list[int]:
    """The first run of consecutive ``candidates`` whose spans have as many frames as the
    phrases (``frames``), or none."""
    size = len(frames)
    for first in range(len(candidates) - size + 1):
        run = candidates[first : first + size]
        if all(
            count is None or len(spans[n]) == count for n, count in zip(run, frames, strict=True)
        ):
            return list(run)
    return []


def assign_spans(
    spans: Sequence[Span], calls: Sequence[CallPost], others: Sequence[Message]
) -> list[Heard]:
    """The ``spans`` (a game's, in order) given to the messages they go with, in message order.

    A call's phrases are said one after the other once the previous call is posted: each call
    gets the first run of spans heard since then with as many frames as its phrases (a call
    posted at a stop is still being said). Failing that (a phrase cut short), the last spans
    that began before it was posted, one per phrase said before, and in riddle mode the first
    after. Every other span (a win, the farewell) goes with the last of ``others`` (the bot's
    other messages in the channel) posted before it ended."""
    taken: set[int] = set()
    heard: dict[int, Heard] = {}
    previous = float("-inf")
    for call in calls:
        posted = call.message.created
        candidates = [
            n for n, span in enumerate(spans) if n not in taken and span[0].arrived > previous
        ]
        chosen = _matching_run(spans, candidates, call.frames) if call.phrases else []
        if not chosen:
            before = len(call.phrases) - call.after
            began = [n for n in candidates if spans[n][0].arrived <= posted]
            chosen = began[len(began) - before :] if before else []
            chosen += [n for n in candidates if spans[n][0].arrived > posted][: call.after]
        taken.update(chosen)
        if chosen:
            heard[call.message.id] = Heard(
                call.message, [spans[n] for n in chosen], call=True, phrases=call.phrases
            )
        previous = posted
    for n, span in enumerate(spans):
        posted_before = [m for m in others if m.created <= span[-1].arrived]
        if n in taken or not posted_before:
            continue
        latest = max(posted_before, key=lambda m: m.created)
        group = heard.setdefault(latest.id, Heard(latest, [], call=False))
        group.spans.append(span)
    return sorted(heard.values(), key=lambda h: h.message.id)


def save_spoken(call: VoiceCall, heard: Sequence[Heard], path_of: dict[int, Path]) -> list[Spoken]:
    """Each group of ``heard`` decoded and written to its message's file in ``path_of``."""
    saved = []
    for group in heard:
        frames = [frame for span in group.spans for frame in span]
        path = path_of[group.message.id]
        seconds = write_wav(path, call.pcm(frames))
        saved.append(Spoken(group.message.id, path, seconds, group.call, group.phrases))
    return saved
