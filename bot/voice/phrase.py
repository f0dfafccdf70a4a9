"""What is spoken: a phrase is a text in a language; a game builds the phrases of its calls.

A calling game builds the phrases of a call in one language (its cog's ``spoken_call``,
``bot.calling.spoken``), and the caller speaks them in the game's languages
(:func:`in_languages`: English, Spanish, or both in turn). The machinery knows no game: it
speaks phrases.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.voice.voices import LANGUAGES, Language


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
