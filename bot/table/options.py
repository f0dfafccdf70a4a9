"""A table game's options, typed: a frozen dataclass per game that reads and writes the stored
form (the JSON object in the game's row), so that a misspelt option is a type error.

The stored form is the one the games have always written: each field under its own name, a
field that is ``None`` left out (except where :meth:`TableOptions.written` says otherwise),
tuples as lists. Keys a type does not know are kept as they were (``extra``) and written back,
so a row from another version loads and keeps what it holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self


@dataclass(frozen=True, kw_only=True)
class TableOptions:
    """What every table game keeps: the language of its channel's messages and its deadline."""

    guild_locale: str | None = None  # the server's language for public messages
    deadline: float | None = None  # the wall-clock time the game's timer acts at
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this type does not know

    @classmethod
    def stored_keys(cls) -> frozenset[str]:
        """The keys of the stored form this type reads (its fields but ``extra``)."""
        return frozenset(f.name for f in dataclasses.fields(cls) if f.name != "extra")

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> Self:
        """The options of a stored row (lists read as tuples; unknown keys kept in ``extra``);
        a required option missing is a ``TypeError``."""
        keys = cls.stored_keys()
        known: dict[str, Any] = {
            key: tuple(value) if isinstance(value, list) else value
            for key, value in stored.items()
            if key in keys
        }
        extra = {key: value for key, value in stored.items() if key not in keys}
        return cls(**known, extra=extra)

    def to_stored(self) -> dict[str, Any]:
        """The stored form: ``extra`` as it came, then each option written."""
        stored = dict(self.extra)
        for key in sorted(self.stored_keys()):
            value = getattr(self, key)
            if self.written(key, value):
                stored[key] = list(value) if isinstance(value, tuple) else value
        return stored

    def written(self, key: str, value: Any) -> bool:
        """Whether option ``key`` is stored: when it is not ``None``."""
        return value is not None

    def but(self, **changes: Any) -> Self:
        """A copy with ``changes`` (``dataclasses.replace``, which checks the names)."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, kw_only=True)
class DuelOptions(TableOptions):
    """A two-player game's options: who plays, how long a move may take, the bot's level, what
    was last played, and once over who won and how."""

    seats: tuple[int, int]  # [first, second] member ids, 0 for the bot (bot.table.BOT_SEAT_ID)
    names: tuple[str, str]  # their display names
    turn_time: int  # seconds per move
    level: str | None = None  # the bot's, against the bot
    last: tuple[str, ...] | None = None  # what the latest move (and the bot's replies) did
    winner: int | None = None  # the winning seat, once over (None: a draw)
    end: str | None = None  # once over: "" on the board, "resign" or "time" (the loser's)
    rematch: int | None = None  # the rematch game opened from this one

    def written(self, key: str, value: Any) -> bool:
        """A finished game stores its winner, ``None`` for a draw."""
        return (key == "winner" and self.end is not None) or super().written(key, value)
