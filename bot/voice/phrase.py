"""What is spoken: a phrase is a text in a language; a game builds the phrases of its calls.

A calling game implements :class:`SpokenCalls` (``spoken_call``: the phrases of one call in one
language, as a caller says it; none by default, :class:`SilentCalls`), and the caller speaks
them in the game's languages (:func:`in_languages`: English, Spanish, or both in turn). The
machinery knows no game: it speaks phrases.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.voice.voices import LANGUAGES, Language

if TYPE_CHECKING:
    from bot.storage import GameRow


@dataclass(frozen=True)
class Phrase:
    """A text to speak and its language (``en`` or ``es``)."""

    text: str
    language: Language = "en"

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(f"a phrase's language is en or es, not {self.language!r}")


class VoiceLanguages(enum.Enum):
    """The languages a game's calls are spoken in: one, or both in turn (English first)."""

    ENGLISH = "en"
    SPANISH = "es"
    BOTH = "both"

    @property
    def languages(self) -> tuple[Language, ...]:
        """The languages spoken, in their order."""
        if self is VoiceLanguages.ENGLISH:
            return ("en",)
        if self is VoiceLanguages.SPANISH:
            return ("es",)
        return LANGUAGES


def in_languages(
    phrases_in: Callable[[Language], Iterable[Phrase]], choice: VoiceLanguages
) -> list[Phrase]:
    """The phrases ``phrases_in`` gives for each language of ``choice``, one language after the
    other (a call first in English, then repeated in Spanish)."""
    return [phrase for language in choice.languages for phrase in phrases_in(language)]


class SpokenCalls(Protocol):
    """What a calling game says aloud of a call: ``spoken_call`` receives what ``render_call``
    receives (the game's row, the value called, its number in the game) and a language."""

    def spoken_call(self, game: GameRow, value: int, seq: int, language: Language) -> list[Phrase]:
        """The phrases of call number ``seq`` in ``language``, in the order a caller says them."""
        ...


class SilentCalls:
    """The default of :class:`SpokenCalls`: a game that says nothing aloud."""

    def spoken_call(self, game: GameRow, value: int, seq: int, language: Language) -> list[Phrase]:
        """No phrases: the game's calls are posted in text only."""
        del game, value, seq, language
        return []
