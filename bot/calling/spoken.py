"""A calling game's voice: the calls spoken in a voice channel before they are posted.

A game started with a voice channel (the ``voice`` option of its start command, the server's
default, or its planned night's) has the bot join that channel when its caller starts, speak
each call (the game's :meth:`SpokenCog.spoken_call`, in the game's languages) a moment before
it is posted, the wins as they are announced, and leave at the end. Voice never holds up the
game: a call that cannot be spoken (no connection, voice off) is posted in text as it would
have been, and the host is told privately, once, why the calls are not spoken.

The phrases of every call of the game are made ahead when the bot joins (the seed fixes them),
so that the calls cost nothing live (``bot.voice.machinery.Voices.prepare``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.call_names import nickname
from bot.calling.live import CheckT, GameT
from bot.calling.options import VOICE_IN_GAME_LANGUAGE
from bot.calling.recap import RecapCog
from bot.i18n import is_spanish, message
from bot.storage import GameRow
from bot.voice.machinery import NoVoice
from bot.voice.phrase import Phrase, VoiceLanguages, in_languages
from bot.voice.speaker import Speaker
from bot.voice.voices import Language
from engine.fairness import draw_order

log = logging.getLogger(__name__)

# How long a call waits for the bot to join its voice channel before it is posted unspoken.
JOIN_WAIT = 12.0
# Winners named aloud, at most; the rest are "and N more".
WINNERS_SPOKEN = 3
# The locale each spoken language's words are read in.
SPOKEN_LOCALES: dict[Language, str] = {"en": "en-US", "es": "es-ES"}


def speakable(text: str) -> str:
    """``text`` as a speech engine should read it: no markdown marks, mentions or emoji."""
    kept = []
    for character in text:
        if character in "*_~`|>#" or unicodedata.category(character) in {"So", "Sk", "Cs", "Co"}:
            continue
        kept.append(character)
    return " ".join("".join(kept).replace("\ufe0f", "").split())


def called_with_nickname(called: str, number: int, language: Language) -> list[Phrase]:
    """A number as bingo callers say it: ``called`` ("22", "B 7"), its nickname in
    ``language`` (``bot.call_names``), and ``called`` again; ``called`` alone without one."""
    said = Phrase(called, language)
    name = speakable(nickname(number, SPOKEN_LOCALES[language]))
    return [said, Phrase(name, language), said] if name else [said]


class SpokenCog(RecapCog[GameT, CheckT]):
    """The voice of a calling game: its hooks (:meth:`spoken_call`) and the speaker of each game
    that has a voice channel (``LiveGame.speaker``)."""

    # -- the hooks a game implements -----------------------------------------------------------

    def spoken_call(self, game: GameRow, value: int, seq: int, language: Language) -> list[Phrase]:
        """The phrases of call ``seq`` (``value``) in ``language``, in the order a caller says
        them (none by default: the game's calls are posted in text only). In riddle mode the
        last phrase is the answer: it is spoken when the riddle is revealed."""
        del game, value, seq, language
        return []

    # -- what is spoken ------------------------------------------------------------------------

    def voice_languages(self, game: GameRow) -> VoiceLanguages:
        """The languages ``game``'s calls are spoken in: as chosen for it, else the game's own
        (the language its posts are in)."""
        chosen = self.options_of(game).voice_language or VOICE_IN_GAME_LANGUAGE
        if chosen == VOICE_IN_GAME_LANGUAGE:
            spanish = is_spanish(self.channel_locale(game))
            return VoiceLanguages.SPANISH if spanish else VoiceLanguages.ENGLISH
        try:
            return VoiceLanguages(chosen)
        except ValueError:
            return VoiceLanguages.ENGLISH

    def call_phrases(
        self, game: GameRow, value: int, seq: int
    ) -> tuple[list[Phrase], list[Phrase]]:
        """Call ``seq`` as it is spoken, in every language of the game in turn: what is said
        before it is posted, and in riddle mode what is said when the riddle is revealed (the
        last phrase in each language: the answer)."""
        if not self.wants_voice(game):
            return [], []
        riddle = self.riddle(game, value, seq) is not None
        before: list[Phrase] = []
        after: list[Phrase] = []
        for language in self.voice_languages(game).languages:
            phrases = self.spoken_call(game, value, seq, language)
            if riddle and phrases:
                before += phrases[:-1]
                after.append(phrases[-1])
            else:
                before += phrases
        return before, after

    def words_phrases(self, game: GameRow, key: str, **values: Any) -> list[Phrase]:
        """Message ``key`` as it is spoken, in every language of the game in turn."""

        def phrases_in(language: Language) -> list[Phrase]:
            text = speakable(message(key, SPOKEN_LOCALES[language], **values))
            return [Phrase(text, language)] if text else []

        return in_languages(phrases_in, self.voice_languages(game))

    def win_phrases(self, game: GameRow, prize: str, names: Sequence[str]) -> list[Phrase]:
        """A win announced aloud: the prize and who won it, in the game's languages."""

        def phrases_in(language: Language) -> list[Phrase]:
            locale = SPOKEN_LOCALES[language]
            named = [speakable(name) or message("result_player", locale) for name in names]
            shown = ", ".join(named[:WINNERS_SPOKEN])
            if len(named) > WINNERS_SPOKEN:
                shown = message(
                    "voice_winners_more", locale, names=shown, count=len(named) - WINNERS_SPOKEN
                )
            text = message("voice_win", locale, prize=self.prize_name(prize, locale), names=shown)
            return [Phrase(speakable(text), language)]

        return in_languages(phrases_in, self.voice_languages(game))

    # -- the speaker ---------------------------------------------------------------------------

    def wants_voice(self, game: GameRow) -> bool:
        """Whether ``game``'s calls are to be spoken (it names a voice channel)."""
        return self.options_of(game).voice is not None

    def ensure_voice(self, game: GameRow) -> None:
        """Join ``game``'s voice channel unless it is joined, being joined, or was given up on
        (no voice, no permission, or everyone left)."""
        live = self.live_game(game.id)
        if not self.wants_voice(game) or live.voice_task is not None or self.is_closing():
            return
        live.voice_task = asyncio.create_task(
            self._join_voice(game), name=f"{self.kind}-{game.id}-voice"
        )

    async def _join_voice(self, game: GameRow) -> Speaker | None:
        live = self.live_game(game.id)
        channel_id = self.options_of(game).voice
        assert channel_id is not None
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.VoiceChannel | discord.StageChannel):
            joined: Speaker | NoVoice = NoVoice("voice_channel_gone", channel_id)
        else:

            async def on_leave(reason: str) -> None:
                if live.speaker is not None and live.speaker.left is not None:
                    live.speaker = None
                log.info("%s game %s: voice left (%s)", self.kind, game.id, reason)

            joined = await self.bot.voices.join(channel, on_leave=on_leave)
        if not isinstance(joined, Speaker):
            log.info(
                "%s game %s is not spoken: %s %s", self.kind, game.id, joined.key, joined.detail
            )
            await self.tell_host_no_voice(game, joined)
            return None
        live.speaker = joined
        live.voice_ready = asyncio.create_task(self.prepare_phrases(game))
        return joined

    async def prepare_phrases(self, game: GameRow) -> int:
        """Make the phrases of ``game``'s calls still to come ahead, in the order they will be
        called (the seed's), so that none is made live; how many are ready."""
        assert game.seed is not None
        done = len(self.called(game))
        order = draw_order(game.seed, self.total_calls)
        phrases: list[Phrase] = []
        for seq, value in enumerate(order[done:], start=done + 1):
            before, after = self.call_phrases(game, value, seq)
            phrases += before + after
        return await self.bot.voices.prepare(phrases)

    async def tell_host_no_voice(self, game: GameRow, refused: NoVoice) -> None:
        """Tell ``game``'s host privately why its calls are not spoken: on the Start press that
        started it when there is one, else by DM (or at their next interaction). Once per game
        start; a restart that cannot join again only logs it."""
        live = self.live_game(game.id)
        starter, live.voice_starter = live.voice_starter, None
        if starter is not None:
            locale = starter.locale
            with contextlib.suppress(discord.HTTPException):
                await starter.followup.send(refused.words(locale), ephemeral=True)
                return
        if self.called(game):
            return  # (told when it started)
        await self.bot.tell(game.host_id, refused.words(self.channel_locale(game)))

    async def speaker_of(self, game: GameRow) -> Speaker | None:
        """The speaker of ``game``, waiting for a join under way (at most JOIN_WAIT seconds);
        None when its calls are not spoken now."""
        live = self.live_game(game.id)
        if live.speaker is None and live.voice_task is not None and not live.voice_task.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(live.voice_task), JOIN_WAIT)
        speaker = live.speaker
        return speaker if speaker is not None and speaker.left is None else None

    async def speak(self, game: GameRow, phrases: Sequence[Phrase]) -> None:
        """Speak ``phrases`` in ``game``'s voice channel and return once they are played (at
        once when the game is not spoken)."""
        if not phrases or not self.wants_voice(game):
            return
        speaker = await self.speaker_of(game)
        if speaker is not None:
            await speaker.say_all(phrases)

    def speak_later(self, game: GameRow, phrases: Sequence[Phrase]) -> None:
        """Speak ``phrases`` after what is being spoken, without waiting for them (a win)."""
        live = self.live_game(game.id)
        if not phrases or live.speaker is None:
            return
        task = asyncio.create_task(self.speak(game, phrases), name=f"{self.kind}-{game.id}-say")
        live.voice_sayings.add(task)
        task.add_done_callback(live.voice_sayings.discard)

    def speak_win(self, game: GameRow, prize: str, user_ids: Iterable[int]) -> None:
        """Announce aloud that ``user_ids`` won ``prize`` (their names as the game knows them)."""
        live = self.live_game(game.id)
        if live.speaker is None:
            return
        players = live.players or {}
        names = [players[user].display_name if user in players else "" for user in user_ids]
        self.speak_later(game, self.win_phrases(game, prize, names))

    def hush(self, game_id: int) -> None:
        """Stop what ``game_id``'s voice is saying now (the game was paused)."""
        live = self.live.get(game_id)
        speaker = live.speaker if live is not None else None
        if speaker is not None:
            speaker.hush()

    async def leave_voice(self, game: GameRow, *, farewell: bool) -> None:
        """Leave ``game``'s voice channel (``farewell``: after saying the game is over), and
        give up joining it."""
        live = self.live_game(game.id)
        task, live.voice_task = live.voice_task, None
        if task is not None and not task.done():
            task.cancel()
        if live.voice_ready is not None:
            live.voice_ready.cancel()
            live.voice_ready = None
        speaker, live.speaker = live.speaker, None
        if speaker is None:
            return
        if farewell:
            said = [task for task in live.voice_sayings if task is not asyncio.current_task()]
            await asyncio.gather(*said, return_exceptions=True)
            with contextlib.suppress(Exception):
                await speaker.say_all(self.words_phrases(game, "voice_game_over"))
        await speaker.leave("ended")

    def leave_voice_later(self, game: GameRow, *, farewell: bool) -> None:
        """:meth:`leave_voice` without waiting for it (the end's summary is posted meanwhile)."""
        live = self.live_game(game.id)
        if live.speaker is None and live.voice_task is None:
            return
        task = asyncio.create_task(
            self.leave_voice(game, farewell=farewell), name=f"{self.kind}-{game.id}-leave"
        )
        live.voice_sayings.add(task)
        task.add_done_callback(live.voice_sayings.discard)
