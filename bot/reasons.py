"""The engines' reasons in the player's words.

An engine says why it refused a move or a typed text, or why a claim is false, twice: in English
for logs and tests, and as a stable code (an ``engine.errors.Reason`` member) with the facts it
names (``values``). The message of ``bot.i18n.MESSAGES`` whose key is the code words it in
English or Spanish; here its values are made readable (numbers listed, an enum member by its
value). A code with no message, or an error with no code (one no player should cause), keeps
the engine's English text.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

from bot.i18n import MESSAGES, LocaleLike, message
from engine.errors import GameError

LISTED_NUMBERS = 5  # a list of numbers names this many, then says how many more


def number_list(numbers: Sequence[int], locale: LocaleLike, limit: int = LISTED_NUMBERS) -> str:
    """``numbers`` in order, at most ``limit`` by name: "2, 8, 10" or "8, 14, 21, 27, 33 and 9
    more" ("… y 9 más")."""
    names = ", ".join(str(number) for number in numbers[:limit])
    more = len(numbers) - limit
    return message("number_list_more", locale, numbers=names, more=more) if more > 0 else names


def readable(value: object, locale: LocaleLike) -> object:
    """A reason's value as a message shows it: numbers listed, an enum member by its value."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list | frozenset | set) and all(
        isinstance(item, int) for item in value
    ):
        return number_list(sorted(value) if isinstance(value, frozenset | set) else value, locale)
    return value


def has_words(code: str) -> bool:
    """Whether the bot can word the reason ``code`` (a message of that key exists)."""
    return bool(code) and code in MESSAGES


def reason_text(
    english: str, code: str, values: Mapping[str, object], locale: LocaleLike, /, **shown: object
) -> str:
    """The reason ``code`` with its ``values`` in ``locale``; ``shown`` gives values the caller
    words itself (a prize's name in the reader's language). ``english``, the engine's own text,
    when the code has no message."""
    if not has_words(code):
        return english
    words = {name: readable(value, locale) for name, value in values.items()}
    return message(code, locale, **(words | shown))


def error_text(error: GameError, locale: LocaleLike) -> str:
    """An engine's refusal in the reader's language (its English text when it has no code)."""
    return reason_text(str(error), error.code, error.values, locale)
