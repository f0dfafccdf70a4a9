"""One game's voice: the bot in a voice channel, saying phrases one after another.

A phrase resolves once it has been played, so a caller can post the call's text after its voice.
Nothing here raises to the caller: a phrase that cannot be spoken (no connection within a
bound, a connection cut while it played) is skipped and logged, and the caller waits at most
the phrase's length and a margin. discord.py reconnects a cut voice connection by itself; when
it gives up (it left the channel) the speaker joins again. The speaker leaves when asked, or
when no human has been in the channel for a while.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import discord

from bot.voice.phrase import Phrase
from bot.voice.speech import Speech, SpeechSource

log = logging.getLogger(__name__)

# How long discord.py gets to join a voice channel, and to join it again after a cut: its UDP
# reader sits up to 30 s on the socket it had before a cut, so a shorter bound fails every
# reconnection (the calls go on meanwhile: a phrase waits RECONNECT_WAIT at most).
CONNECT_TIMEOUT = 45.0
# A phrase plays in its own length; past it and this margin it is cut and skipped.
PLAY_MARGIN = 1.5
# How long a phrase waits for a voice connection being re-established before it is skipped.
RECONNECT_WAIT = 2.0
# How long the channel may stay without a human before the speaker leaves.
EMPTY_GRACE = 60.0
# The pause between the phrases of one call.
PHRASE_GAP = 0.3
# How often the speaker looks at its channel and its connection.
WATCH_EVERY = 0.25
# Joining again after discord.py gave up: waits between tries, the longest.
REJOIN_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)

LeaveHandler = Callable[[str], Awaitable[None]]


class PhraseSupply(Protocol):
    """What a speaker asks of the machinery (``bot.voice.machinery.Voices``)."""

    async def speech(self, phrase: Phrase) -> Speech | None:
        """``phrase`` ready to play, or None if it cannot be spoken."""
        ...

    def forget(self, speaker: Speaker) -> None:
        """``speaker`` has left its channel."""
        ...


class Speaker:
    """The bot's voice in ``channel`` for one game. Made by ``Voices.join``, which checks the
    permissions and connects first."""

    def __init__(
        self,
        voices: PhraseSupply,
        channel: discord.VoiceChannel | discord.StageChannel,
        *,
        on_leave: LeaveHandler | None = None,
        empty_grace: float = EMPTY_GRACE,
        play_margin: float = PLAY_MARGIN,
        reconnect_wait: float = RECONNECT_WAIT,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        self.voices = voices
        self.guild = channel.guild
        self.channel_id = channel.id
        self.on_leave = on_leave
        self.empty_grace = empty_grace
        self.play_margin = play_margin
        self.reconnect_wait = reconnect_wait
        self.connect_timeout = connect_timeout
        self.voice: discord.VoiceClient | None = None
        # Why it left ("requested", "empty"), once it has.
        self.left: str | None = None
        self.spoken = 0
        self.skipped = 0
        self.rejoins = 0
        self._saying = asyncio.Lock()
        self._turns = asyncio.Lock()  # one say_all at a time: a call's phrases go together
        self._hushes = 0  # how many times it was hushed: a say_all under way stops at a change
        self._watcher: asyncio.Task[None] | None = None

    @property
    def channel(self) -> discord.VoiceChannel | discord.StageChannel | None:
        """The voice channel, as the client knows it now (None once deleted)."""
        channel = self.guild.get_channel(self.channel_id)
        return channel if isinstance(channel, discord.VoiceChannel | discord.StageChannel) else None

    @property
    def connected(self) -> bool:
        """Whether the voice connection is up now."""
        return self.voice is not None and self.voice.is_connected()

    async def connect(self) -> None:
        """Join the channel (raises what discord.py raises: ``asyncio.TimeoutError`` when
        Discord does not let the bot in), then watch it."""
        self.voice = await self._connect()
        self._watcher = asyncio.create_task(self._watch(), name=f"voice-watch-{self.guild.id}")

    async def _connect(self) -> discord.VoiceClient:
        channel = self.channel
        if channel is None:
            raise discord.ClientException("the voice channel is gone")
        return await channel.connect(timeout=self.connect_timeout, reconnect=True, self_deaf=True)

    async def say(self, phrase: Phrase) -> bool:
        """Speak ``phrase``; True once it has been played, False if it was skipped (logged)."""
        speech = await self.voices.speech(phrase)
        if speech is None:
            self.skipped += 1
            return False
        async with self._saying:
            spoken = await self._play(speech, phrase)
        if spoken:
            self.spoken += 1
        else:
            self.skipped += 1
        return spoken

    async def say_all(self, phrases: Sequence[Phrase], gap: float = PHRASE_GAP) -> int:
        """Speak ``phrases`` in turn, a short pause between them, after any other ``say_all``
        under way (a win or a farewell never comes between a call's phrases); how many were
        spoken."""
        spoken = 0
        async with self._turns:
            hushes = self._hushes
            for index, phrase in enumerate(phrases):
                if self.left is not None or self._hushes != hushes:
                    break
                if index:
                    await asyncio.sleep(gap)
                spoken += await self.say(phrase)
        return spoken

    def hush(self) -> None:
        """Stop what is being said now, and the rest of the phrases being said with it."""
        self._hushes += 1
        if self.voice is not None:
            self.voice.stop()

    async def _play(self, speech: Speech, phrase: Phrase) -> bool:
        if self.left is not None:
            return False
        if not await self._wait_connected(self.reconnect_wait):
            log.info("voice in %s not connected: skipped %r", self.guild.id, phrase.text)
            return False
        voice = self.voice
        assert voice is not None
        loop = asyncio.get_running_loop()
        played: asyncio.Future[Exception | None] = loop.create_future()

        def after(error: Exception | None) -> None:
            loop.call_soon_threadsafe(_settle, played, error)

        try:
            voice.play(SpeechSource(speech), after=after)
        except (discord.ClientException, OSError) as refused:
            log.info("voice in %s could not play %r: %s", self.guild.id, phrase.text, refused)
            return False
        try:
            error = await asyncio.wait_for(
                asyncio.shield(played), speech.play_seconds + self.play_margin
            )
        except TimeoutError:
            # The connection was cut while it played (discord.py waits for it to come back):
            # the caller goes on without it.
            voice.stop()
            log.info("voice in %s stalled: skipped the rest of %r", self.guild.id, phrase.text)
            return False
        if error is not None:
            log.warning("voice in %s failed on %r: %s", self.guild.id, phrase.text, error)
            return False
        return True

    async def _wait_connected(self, within: float) -> bool:
        deadline = time.monotonic() + within
        while not self.connected:
            if self.left is not None or time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def leave(self, reason: str = "requested") -> None:
        """Leave the channel (once; later calls do nothing) and tell ``on_leave`` why."""
        if self.left is not None:
            return
        self.left = reason
        watcher, self._watcher = self._watcher, None
        if watcher is not None and watcher is not asyncio.current_task():
            watcher.cancel()
        voice, self.voice = self.voice, None
        if voice is not None:
            voice.stop()
            with contextlib.suppress(Exception):  # gone already: nothing to leave
                await voice.disconnect(force=True)
        self.voices.forget(self)
        log.info("voice left channel %s of %s (%s)", self.channel_id, self.guild.id, reason)
        if self.on_leave is not None:
            try:
                await self.on_leave(reason)
            except Exception:
                log.exception("a voice leave handler failed")

    def _humans_here(self) -> bool:
        channel = self.channel
        return channel is not None and any(not member.bot for member in channel.members)

    async def _watch(self) -> None:
        """Leave an empty channel; join again when discord.py gave up on the connection."""
        empty_since: float | None = None
        failures = 0
        while self.left is None:
            await asyncio.sleep(WATCH_EVERY)
            now = time.monotonic()
            if self._humans_here():
                empty_since = None
            elif empty_since is None:
                empty_since = now
            if empty_since is not None and now - empty_since >= self.empty_grace:
                await self.leave("empty")
                return
            if self.guild.voice_client is not None or self.channel is None:
                continue
            # discord.py left the channel (a resume it could not finish, or a move): join again.
            try:
                self.voice = await self._connect()
            except (TimeoutError, discord.ClientException, OSError) as error:
                delay = REJOIN_BACKOFF[min(failures, len(REJOIN_BACKOFF) - 1)]
                failures += 1
                log.warning(
                    "voice in %s: rejoining failed (%s); again in %gs",
                    self.guild.id,
                    error or type(error).__name__,
                    delay,
                )
                await asyncio.sleep(delay)
            else:
                failures = 0
                self.rejoins += 1
                log.info("voice in %s: joined again", self.guild.id)


def _settle(future: asyncio.Future[Exception | None], error: Exception | None) -> None:
    if not future.done():
        future.set_result(error)
