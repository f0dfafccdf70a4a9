"""The bot's voice machinery: is voice on (and if not, why), the speech engines per language,
the phrases made ahead and cached, and the speakers of the games in voice channels.

Voice is an extra: without PyNaCl or davey (``pip install 'gamenight[voice]'``), libopus or
espeak-ng, the bot runs as it did, says once at start-up that voice is off and why, and
:meth:`Voices.join` answers every game with that reason (:class:`NoVoice`, ``voice_off``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes.util
import logging
import shutil
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import discord

import bot.voice.words  # noqa: F401 - registers the machinery's words
from bot.i18n import LocaleLike, message
from bot.permissions import VOICE_PERMISSIONS, permission_names
from bot.throttle import worker_threads
from bot.voice.cache import DEFAULT_MAX_BYTES, SpeechCache, cache_key
from bot.voice.engines import Espeak, Piper, SpeechEngine, SynthesisError
from bot.voice.phrase import Phrase
from bot.voice.speaker import (
    CONNECT_TIMEOUT,
    EMPTY_GRACE,
    PLAY_MARGIN,
    RECONNECT_WAIT,
    LeaveHandler,
    Speaker,
)
from bot.voice.speech import Speech, SpeechFormatError, encode
from bot.voice.voices import LANGUAGES, Language, PiperVoice

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

CACHE_FOLDER = "voice-cache"
# Phrases kept in memory once made or read (Opus: a night's calls are a few megabytes).
MEMORY_BYTES = 32 * 1024 * 1024
SYNTHESIS_THREADS = 2


@dataclass(frozen=True)
class NoVoice:
    """Why a game's calls will not be spoken: a message key for its host (``voice_off``,
    ``voice_missing_permissions``, ``voice_busy``, ``voice_not_joined``), the channel, the
    permissions missing, and the operator's detail (for the log, never shown to players)."""

    key: str
    channel_id: int | None = None
    missing: tuple[str, ...] = ()
    detail: str = ""

    def words(self, locale: LocaleLike = None) -> str:
        """The reason for the host, in their language."""
        return message(
            self.key,
            locale,
            channel=self.channel_id,
            permissions=permission_names(list(self.missing), locale),
        )


def missing_voice_parts(espeak_program: str | None) -> str | None:
    """What this process lacks to speak, or None: the voice extra's modules, libopus, and
    espeak-ng (``espeak_program``, None when Piper voices speak every language)."""
    try:
        import nacl.secret  # noqa: F401
    except ImportError:
        return "PyNaCl is not installed (pip install 'gamenight[voice]')"
    try:
        import davey  # noqa: F401
    except ImportError:
        return "davey is not installed (pip install 'gamenight[voice]')"
    if not discord.opus.is_loaded():
        found = ctypes.util.find_library("opus")
        if found is None:
            return "libopus is not installed (Debian: apt-get install libopus0)"
        try:
            discord.opus.load_opus(found)
        except OSError as error:
            return f"libopus could not be loaded ({error})"
    if espeak_program is not None and shutil.which(espeak_program) is None:
        return f"{espeak_program} is not installed (Debian: apt-get install espeak-ng)"
    return None


class Voices:
    """One bot's voice: the engines, the cache and the speakers, one per server at most."""

    def __init__(
        self,
        client: discord.Client,
        cache_folder: Path,
        *,
        piper_voices: Sequence[PiperVoice] = (),
        piper_program: str | None = None,
        espeak_program: str = "espeak-ng",
        cache_max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.client = client
        self.cache_folder = cache_folder
        self.cache_max_bytes = cache_max_bytes
        self.engines: dict[Language, SpeechEngine] = {}
        piper_by_language = {voice.language: voice for voice in piper_voices}
        if piper_by_language and piper_program is not None:
            piper = Piper(piper_program, piper_by_language)
            self.engines.update(dict.fromkeys(piper_by_language, piper))
        needs_espeak = any(language not in self.engines for language in LANGUAGES)
        self.espeak = Espeak(espeak_program)
        for language in LANGUAGES:
            self.engines.setdefault(language, self.espeak)
        # Why voice is off (None: it is on), said once now.
        self.off_reason = missing_voice_parts(espeak_program if needs_espeak else None)
        if self.off_reason is not None:
            log.warning("voice is off: %s", self.off_reason)
        else:
            log.info(
                "voice is on: %s; spoken phrases kept in %s",
                ", ".join(
                    f"{lang} {e.name} {e.voice_for(lang)}" for lang, e in self.engines.items()
                ),
                cache_folder,
            )
        self._cache: SpeechCache | None = None
        self._memory: OrderedDict[str, Speech] = OrderedDict()
        self._memory_bytes = 0
        self._making: dict[str, asyncio.Future[Speech | None]] = {}
        self._executor: ThreadPoolExecutor | None = None
        self.speakers: dict[int, Speaker] = {}

    @classmethod
    def for_settings(cls, client: discord.Client, settings: Settings) -> Voices:
        """The machinery with the bot's settings: its Piper voices, and its cache in the
        database's folder (``voice-cache`` beside the SQLite file)."""
        return cls(
            client,
            settings.database_path.parent / CACHE_FOLDER,
            piper_voices=settings.piper_voices,
            piper_program=settings.piper_program,
        )

    @property
    def available(self) -> bool:
        """Whether the bot can speak."""
        return self.off_reason is None

    @property
    def cache(self) -> SpeechCache:
        """The disk cache, its folder made at the first phrase (a bot that never speaks makes
        none)."""
        if self._cache is None:
            self._cache = SpeechCache(self.cache_folder, self.cache_max_bytes)
        return self._cache

    def key_of(self, phrase: Phrase) -> str:
        """The cache key of ``phrase``: its engine, voice, language and text."""
        engine = self.engines[phrase.language]
        return cache_key(
            engine.name, engine.voice_for(phrase.language), phrase.language, phrase.text
        )

    def make(self, phrase: Phrase) -> Speech:
        """``phrase`` ready to play, from the cache or made now (and cached). Blocking: the
        machinery calls it in its worker threads. Raises ``SynthesisError``."""
        key = self.key_of(phrase)
        stored = self.cache.get(key)
        if stored is not None:
            try:
                return Speech.from_bytes(stored)
            except SpeechFormatError as error:
                log.warning("a damaged spoken phrase in the cache is made again: %s", error)
        pcm = self.engines[phrase.language].synthesize(phrase.text, phrase.language)
        speech = encode(pcm)
        self.cache.put(key, speech.to_bytes())
        return speech

    def _remember(self, key: str, speech: Speech) -> None:
        size = sum(map(len, speech.frames))
        if key in self._memory:
            return
        self._memory[key] = speech
        self._memory_bytes += size
        while self._memory_bytes > MEMORY_BYTES and self._memory:
            _, dropped = self._memory.popitem(last=False)
            self._memory_bytes -= sum(map(len, dropped.frames))

    async def speech(self, phrase: Phrase) -> Speech | None:
        """``phrase`` ready to play, made off the event loop if it is not yet; None (logged)
        if the engine failed on it or voice is off."""
        if not self.available:
            return None
        key = self.key_of(phrase)
        known = self._memory.get(key)
        if known is not None:
            self._memory.move_to_end(key)
            return known
        making = self._making.get(key)
        if making is None:
            making = asyncio.ensure_future(self._make_off_loop(key, phrase))
            self._making[key] = making
        return await asyncio.shield(making)

    async def _make_off_loop(self, key: str, phrase: Phrase) -> Speech | None:
        if self._executor is None:
            self._executor = worker_threads(SYNTHESIS_THREADS, "voice")
        loop = asyncio.get_running_loop()
        try:
            speech = await loop.run_in_executor(self._executor, self.make, phrase)
        except (SynthesisError, OSError) as error:
            log.warning("could not speak %r (%s): %s", phrase.text, phrase.language, error)
            return None
        finally:
            self._making.pop(key, None)
        self._remember(key, speech)
        return speech

    async def prepare(self, phrases: Iterable[Phrase]) -> int:
        """Make every phrase of a game ahead (each once), so that its calls cost nothing live;
        how many are ready."""
        unique = list(dict.fromkeys(phrases))
        made = await asyncio.gather(*(self.speech(phrase) for phrase in unique))
        return sum(speech is not None for speech in made)

    async def join(
        self,
        channel: discord.VoiceChannel | discord.StageChannel,
        *,
        on_leave: LeaveHandler | None = None,
        empty_grace: float = EMPTY_GRACE,
        play_margin: float = PLAY_MARGIN,
        reconnect_wait: float = RECONNECT_WAIT,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> Speaker | NoVoice:
        """A speaker in ``channel`` for a game, joined; or why not (:class:`NoVoice`): voice
        off, the bot's permissions there (checked before joining, so the host can be told
        privately), another game's speaker in the server, or Discord not letting it in."""
        if self.off_reason is not None:
            return NoVoice("voice_off", channel.id, detail=self.off_reason)
        granted = channel.permissions_for(channel.guild.me)
        missing = tuple(name for name in VOICE_PERMISSIONS if not getattr(granted, name))
        if missing:
            return NoVoice("voice_missing_permissions", channel.id, missing)
        other = self.speakers.get(channel.guild.id)
        if other is not None or channel.guild.voice_client is not None:
            busy = other.channel_id if other is not None else channel.id
            return NoVoice("voice_busy", busy)
        speaker = Speaker(
            self,
            channel,
            on_leave=on_leave,
            empty_grace=empty_grace,
            play_margin=play_margin,
            reconnect_wait=reconnect_wait,
            connect_timeout=connect_timeout,
        )
        self.speakers[channel.guild.id] = speaker
        try:
            await speaker.connect()
        except (TimeoutError, discord.ClientException, OSError, RuntimeError) as error:
            self.speakers.pop(channel.guild.id, None)
            with contextlib.suppress(Exception):
                await channel.guild.change_voice_state(channel=None)
            log.info("could not join voice channel %s: %r", channel.id, error)
            return NoVoice("voice_not_joined", channel.id, detail=repr(error))
        return speaker

    def forget(self, speaker: Speaker) -> None:
        """``speaker`` has left: its server may have another."""
        if self.speakers.get(speaker.guild.id) is speaker:
            del self.speakers[speaker.guild.id]

    async def close(self) -> None:
        """Leave every voice channel and stop the worker threads (the bot is closing)."""
        await asyncio.gather(*(s.leave("closing") for s in list(self.speakers.values())))
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
