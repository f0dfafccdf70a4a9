"""The speech engines, each a program run once per phrase: espeak-ng (Debian's ``espeak-ng``,
English and Spanish built in, no download) and Piper (a neural voice, when the operator
downloaded a voice model and set ``GAMENIGHT_PIPER_MODEL``). Both write WAV, which
:mod:`bot.voice.pcm` turns into discord.py's PCM. Blocking: the machinery runs them in its
worker threads, never on the event loop.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from bot.voice.pcm import WavError, read_wav, to_discord_pcm
from bot.voice.voices import ESPEAK_VOICES, Language, PiperVoice

# Words per minute: a caller speaks a little slower than espeak-ng's 175.
ESPEAK_SPEED = 150
# A phrase longer than this is a bug, not speech: the program is stopped.
SYNTHESIS_TIMEOUT = 30.0


class SynthesisError(RuntimeError):
    """A speech program failed on a phrase (it said why on its standard error)."""


class SpeechEngine(Protocol):
    """A speech program: its name and voice per language (with the text, the cache's key) and
    the phrase spoken as discord.py's PCM."""

    @property
    def name(self) -> str:
        """The engine's name, part of the cache key."""
        ...

    @property
    def runs(self) -> int:
        """How many times the program was run (the cache's hits run it no more)."""
        ...

    def voice_for(self, language: Language) -> str:
        """The voice that speaks ``language`` (part of the cache key)."""
        ...

    def synthesize(self, text: str, language: Language) -> bytes:
        """``text`` spoken in ``language``, as 48 kHz stereo s16le PCM. Blocking."""
        ...


class _Runs:
    """A thread-safe count of the programs run."""

    def __init__(self) -> None:
        self._count = 0
        self._lock = threading.Lock()

    def add(self) -> None:
        with self._lock:
            self._count += 1

    @property
    def count(self) -> int:
        return self._count


def _run(argv: list[str], text: str, what: str) -> bytes:
    try:
        done = subprocess.run(  # noqa: S603 - our own argv, the text on standard input
            argv,
            input=text.encode("utf-8"),
            capture_output=True,
            timeout=SYNTHESIS_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SynthesisError(f"{what} could not run: {error}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise SynthesisError(f"{what} exited with {done.returncode}: {' '.join(said[-2:])}")
    return done.stdout


def _pcm_of(wav: bytes, what: str) -> bytes:
    try:
        return to_discord_pcm(read_wav(wav))
    except WavError as error:
        raise SynthesisError(f"{what} wrote no usable WAV: {error}") from None


class Espeak:
    """espeak-ng, WAV on its standard output, the text on its standard input."""

    name = "espeak-ng"

    def __init__(
        self, binary: str = "espeak-ng", voices: Mapping[Language, str] = ESPEAK_VOICES
    ) -> None:
        self.binary = binary
        self.voices = dict(voices)
        self._runs = _Runs()

    @property
    def runs(self) -> int:
        """How many times espeak-ng was run."""
        return self._runs.count

    def voice_for(self, language: Language) -> str:
        """espeak-ng's voice for ``language``."""
        return self.voices[language]

    def synthesize(self, text: str, language: Language) -> bytes:
        """``text`` spoken by espeak-ng, as discord.py's PCM."""
        argv = [self.binary, "-v", self.voice_for(language), "-s", str(ESPEAK_SPEED)]
        self._runs.add()
        return _pcm_of(_run([*argv, "--stdin", "--stdout"], text, "espeak-ng"), "espeak-ng")


class Piper:
    """Piper (``piper``), one voice model per language it speaks; the text on its standard input,
    WAV written to a temporary file (``--output_file``, which every Piper release takes)."""

    name = "piper"

    def __init__(self, binary: str, voices: Mapping[Language, PiperVoice]) -> None:
        self.binary = binary
        self.voices = dict(voices)
        self._runs = _Runs()

    @property
    def runs(self) -> int:
        """How many times piper was run."""
        return self._runs.count

    def voice_for(self, language: Language) -> str:
        """The model file for ``language``, with its size: a new download is a new voice."""
        model = self.voices[language].model
        return f"{model.name}:{model.stat().st_size}"

    def synthesize(self, text: str, language: Language) -> bytes:
        """``text`` spoken by the language's Piper voice, as discord.py's PCM."""
        model = self.voices[language].model
        with tempfile.TemporaryDirectory(prefix="gamenight-piper-") as folder:
            output = Path(folder) / "phrase.wav"
            argv = [self.binary, "--model", os.fspath(model), "--output_file", os.fspath(output)]
            self._runs.add()
            _run(argv, text, "piper")
            try:
                wav = output.read_bytes()
            except OSError as error:
                raise SynthesisError(f"piper wrote no WAV file: {error}") from None
        return _pcm_of(wav, "piper")
