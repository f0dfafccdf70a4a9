"""A calling game's options, typed: what ``GameRow.options`` holds for a calling game. The
storage keeps the stored form (a JSON object); a game reads it with ``from_stored`` and writes
it with ``to_stored``, so that a misspelt option is a type error and not a silent default.

An option left out of a stored row (an old game, or one never set) reads as ``None``, and each
reader says what that means; ``to_stored`` writes back exactly what was read, so rewriting an
old row changes nothing but what was changed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

# How a calling game's wins are found (the ``claims`` option): players claim them (the default,
# and the game: a player who sleeps misses out), or the bot finds every board that completes the
# prize being played after each call.
CLAIMS_MANUAL, CLAIMS_AUTO = "manual", "auto"
CLAIM_MODES = (CLAIMS_MANUAL, CLAIMS_AUTO)

# What a game's calls are spoken in, when it has a voice channel (the ``voice_language``
# option): the game's own language (the default), English, Spanish, or both in turn.
VOICE_IN_GAME_LANGUAGE = "game"
VOICE_LANGUAGES = (VOICE_IN_GAME_LANGUAGE, "en", "es", "both")
VOICE_OFF = "off"  # (a server's setting: its games have no voice channel by default)


def option(read: Callable[[Any], Any]) -> Any:
    """An option stored under its own name, read back by ``read`` (None when not stored)."""
    return field(default=None, metadata={"read": read})


@dataclass(frozen=True, kw_only=True)
class CallingOptions:
    """What every calling game stores of its options and its state beside the engine's."""

    interval: int | None = option(int)  # seconds between calls
    max_players: int | None = option(int)  # players the lobby takes
    require_last: bool | None = option(bool)  # the slept rule: a win must use the last call
    guild_locale: str | None = option(str)  # the server's language for the game's posts
    stalled: str | None = option(str)  # why the channel refused its calls (a PostRefusal)
    nobody_came: bool | None = option(bool)  # a planned night that nobody joined
    night: int | None = option(int)  # the planned night that opened it
    event_id: int | None = option(int)  # that night's Discord scheduled event
    claims: str | None = option(str)  # CLAIMS_MANUAL (None too: games before the option) or AUTO
    voice: int | None = option(int)  # the voice channel its calls are spoken in (None: text only)
    voice_language: str | None = option(str)  # one of VOICE_LANGUAGES (None: the game's)
    others: Mapping[str, Any] = field(default_factory=dict)  # keys this class does not know

    @property
    def auto_claims(self) -> bool:
        """Whether the bot finds the winners itself after each call (``claims: auto``)."""
        return self.claims == CLAIMS_AUTO

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> Self:
        """The options of a stored row (old rows too: what is missing reads as None)."""
        known = {f.name: f for f in dataclasses.fields(cls) if "read" in f.metadata}
        values: dict[str, Any] = {}
        for name, value in stored.items():
            option = known.get(name)
            if option is not None:
                values[name] = None if value is None else option.metadata["read"](value)
        others = {name: value for name, value in stored.items() if name not in known}
        return cls(**values, others=others)

    def to_stored(self) -> dict[str, Any]:
        """The stored form: every option set, and the keys read but not known."""
        stored = dict(self.others)
        for option in dataclasses.fields(self):
            value = getattr(self, option.name)
            if "read" in option.metadata and value is not None:
                stored[option.name] = value
        return stored
