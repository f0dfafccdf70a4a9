"""The root of every domain error raised by the engines, the codes that say why in a form a
program reads, and how errors quote what was typed."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

QUOTE_LIMIT = 40

NO_VALUES: Mapping[str, object] = MappingProxyType({})


class Reason(enum.StrEnum):
    """Why a move, a claim or a typed text was refused (or a claim judged), as a stable code.

    Each engine lists its own in a subclass (``DotsReason``, ``PrizeReason``...). The engines
    know no language: they give a code and its ``values`` (the facts it names: numbers, dots,
    a prize) next to an English text for logs and tests, and the bot words the code in the
    player's language. The code is a plain string too, the same text forever: renaming one is
    a breaking change.
    """


class GameError(ValueError):
    """A move, claim or state text that the rules reject; the message says why, in English.

    ``code`` (a :class:`Reason`) and ``values`` say it again for a program; ``code`` is ``""``
    for errors that no player can cause (a damaged state text, a broken random source).
    """

    code: str
    values: Mapping[str, object]

    def __init__(self, text: str, code: str = "", /, **values: object) -> None:
        super().__init__(text)
        self.code = code
        self.values = MappingProxyType(values) if values else NO_VALUES


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to at most ``limit`` characters (with "…"): an error message may
    be shown to a player, and what they typed can be thousands of characters long."""
    shown = str(text)
    if len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return repr(shown)
