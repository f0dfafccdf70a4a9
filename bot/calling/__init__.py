"""What Lotería and Housie nights share: lobby, dealing by DM, the caller's timer, claims,
host controls, planned nights, the end summary and verification. The cogs plug their game in:
its engine (``engine.calling.CallingGame``), its words and its pictures.

Every change is written to the database before it is announced. A draw is announced with a
nonce derived from (game, draw number), so a re-announcement after a crash cannot post twice.
The end's summary fits Discord's 2,000 characters: a crowded game's winners are condensed per
prize in it, and named in full in the messages that follow.

The parts, each a subclass of the one before: ``live`` (values and limits), ``base`` (the hooks
and memory), ``lobby`` (lobby and deal), ``summary`` (the end in words), ``recap`` (the replay
and near misses), ``spoken`` (the calls spoken in a voice channel), ``caller`` (host
controls, the caller, the end), ``nights`` (planned nights), ``claims``, and ``cog``
(``CallingGameCog``, and where its buttons' presses go); beside them ``options`` (a game's options, typed)
and ``auto`` (the winners the bot finds itself, with ``claims: auto``).
"""

from bot.calling.base import (
    CLAIMS_CHOICES,
    CLAIMS_DESCRIPTION,
    VOICE_LANGUAGE_CHOICES,
    CallingBase,
)
from bot.calling.cog import CallingGameCog
from bot.calling.live import (
    CLAIMS_BEFORE_THE_END,
    DEFAULT_INTERVAL,
    DEFAULT_MAX_PLAYERS,
    FALSE_CLAIM_LIMIT,
    LOBBY_EDIT_INTERVAL,
    LOBBY_EDITS_PER_SECOND,
    MAX_INTERVAL,
    MAX_PLAYERS_LIMIT,
    MIN_INTERVAL,
    PRIZE_SHARING_GRACE,
    WINNER_MESSAGES,
    ClaimAnswer,
    ClaimRequest,
    LiveGame,
    Verdict,
    WonBoard,
    lobby_edit_interval,
)
from bot.calling.nights import GameNights
from bot.calling.options import (
    CLAIM_MODES,
    CLAIMS_AUTO,
    CLAIMS_MANUAL,
    VOICE_IN_GAME_LANGUAGE,
    VOICE_LANGUAGES,
    VOICE_OFF,
    CallingOptions,
    option,
)
from bot.calling.spoken import SPOKEN_LOCALES, called_with_nickname, speakable

__all__ = [
    "CLAIMS_AUTO",
    "CLAIMS_BEFORE_THE_END",
    "CLAIMS_CHOICES",
    "CLAIMS_DESCRIPTION",
    "CLAIMS_MANUAL",
    "CLAIM_MODES",
    "DEFAULT_INTERVAL",
    "DEFAULT_MAX_PLAYERS",
    "FALSE_CLAIM_LIMIT",
    "LOBBY_EDITS_PER_SECOND",
    "LOBBY_EDIT_INTERVAL",
    "MAX_INTERVAL",
    "MAX_PLAYERS_LIMIT",
    "MIN_INTERVAL",
    "PRIZE_SHARING_GRACE",
    "SPOKEN_LOCALES",
    "VOICE_IN_GAME_LANGUAGE",
    "VOICE_LANGUAGES",
    "VOICE_LANGUAGE_CHOICES",
    "VOICE_OFF",
    "WINNER_MESSAGES",
    "CallingBase",
    "CallingGameCog",
    "CallingOptions",
    "ClaimAnswer",
    "ClaimRequest",
    "GameNights",
    "LiveGame",
    "Verdict",
    "WonBoard",
    "called_with_nickname",
    "lobby_edit_interval",
    "option",
    "speakable",
]
