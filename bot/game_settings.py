"""What each game adds to ``/gamenight settings``: the words its default prizes are described
by, and options of its own (Lotería's deck), so that the settings command lists no game.

A game registers them when its cog's module is imported (``register_game_settings``, as its
words are registered); start-up imports every game's cog before any is loaded
(``bot.app.game_cogs``), so ``/gamenight`` finds them all when its command is built, before the
command tree syncs."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import LocaleLike, message
from bot.storage import GameDefaults

# The fields of a game's server defaults an option of its own may set (GameDefaults' own,
# but for those every calling game shares, which /gamenight settings names itself).
_OWN_FIELDS = frozenset(field.name for field in dataclasses.fields(GameDefaults)) - {
    "interval",
    "prizes",
    "claims",
    "near_misses",
}


@dataclass(frozen=True, slots=True)
class GameOption:
    """An option of one game's own in ``/gamenight settings``: its value is a server default
    for that game's start command, kept in the field of ``GameDefaults`` of the same name."""

    name: str  # the option's name, and the field of GameDefaults it sets ("deck")
    description: str  # in English; its Spanish in the game's COMMAND_TRANSLATIONS
    choices: tuple[tuple[str, str], ...]  # (name in English, value); the names' Spanish too
    refusal: str  # the message key that refuses a value not among the choices
    # Its line in the settings shown: (the stored value, None for the command's own; the
    # reader's locale; the mark of a value left to the command) -> the line.
    line: Callable[[str | None, LocaleLike, str], str]


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What one game (``kind``) adds to ``/gamenight settings``."""

    kind: str
    # The message key of what its default prizes are ("a Lotería plan"), for the ``prizes``
    # option's description; None for a game without default prizes.
    prizes: str | None = None
    options: tuple[GameOption, ...] = ()


_GAMES: dict[str, GameSettings] = {}

# The prizes option's description is at most this long in any language: Discord's limit is 100,
# and this leaves a game's words room to change. Past it (more games, longer words) the
# description names no game.
PRIZES_DESCRIPTION_MOST = 90


def register_game_settings(settings: GameSettings) -> None:
    """Add (or, the same game again, replace) what ``settings.kind`` adds to the settings
    command. An option must set a field of ``GameDefaults`` of its own name, and no other
    game's option may have that name."""
    for option in settings.options:
        if option.name not in _OWN_FIELDS:
            raise ValueError(f"{option.name!r} is not a game's own field of GameDefaults")
        taken = [
            other.kind
            for other in _GAMES.values()
            if other.kind != settings.kind and option.name in {o.name for o in other.options}
        ]
        if taken:
            raise ValueError(f"the option {option.name!r} is already {taken[0]}'s")
    _GAMES[settings.kind] = settings


def registered() -> list[GameSettings]:
    """What every game registered, in the order of their kinds (not the order they were
    imported in, so the command is the same however they load)."""
    return [_GAMES[kind] for kind in sorted(_GAMES)]


def of_game(kind: str) -> GameSettings:
    """What ``kind`` added (nothing, if it registered nothing)."""
    return _GAMES.get(kind, GameSettings(kind))


def options() -> list[GameOption]:
    """Every game's own options, in the order of their games' kinds."""
    return [option for game in registered() for option in game.options]


def prizes_description() -> tuple[str, str]:
    """The ``prizes`` option's description in English and Spanish, from what each game's
    default prizes are ("Default prizes: Housie prizes, or a Lotería plan"), in the
    order of the English words; one that names no game when either would be longer than
    ``PRIZES_DESCRIPTION_MOST``."""
    phrases = sorted(
        (message(game.prizes, "en-US"), message(game.prizes, "es-ES"))
        for game in registered()
        if game.prizes is not None
    )
    english = ", or ".join(phrase for phrase, _ in phrases)
    spanish = ", o ".join(phrase for _, phrase in phrases)
    described = (
        message("settings_prizes_option", "en-US", what=english),
        message("settings_prizes_option", "es-ES", what=spanish),
    )
    if max(map(len, described)) > PRIZES_DESCRIPTION_MOST:
        return (
            message("settings_prizes_option_any", "en-US"),
            message("settings_prizes_option_any", "es-ES"),
        )
    return described


def with_option(defaults: GameDefaults, option: GameOption, value: str) -> GameDefaults:
    """``defaults`` with ``option`` set to ``value``."""
    change: dict[str, Any] = {option.name: value}
    return dataclasses.replace(defaults, **change)


def option_value(defaults: GameDefaults, option: GameOption) -> str | None:
    """The value ``defaults`` keep for ``option`` (None: the start command's own)."""
    value = getattr(defaults, option.name)
    return None if value is None else str(value)
