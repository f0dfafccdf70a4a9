"""Bingo's picture for ``/help``: the whole built-in pattern book, each pattern's first placement
on a small grid with its name, in English or Spanish (for the cog's ``help_pictures``).

The cells come from the engine's own masks (``engine.bingo.PATTERN_BOOK``), so the picture cannot
drift from the rules claims are judged by. It depends only on its language, so it is drawn once
per language and kept.
"""

from __future__ import annotations

from functools import lru_cache

from bot.i18n import LocaleLike
from bot.render.bingo import render_pattern_book
from bot.render.common import Rendered, language
from engine.bingo import PATTERN_BOOK


@lru_cache(maxsize=2)
def _bingo_patterns(lang: str) -> Rendered:
    return render_pattern_book(list(PATTERN_BOOK.values()), locale=lang)


def render_bingo_patterns(locale: LocaleLike) -> Rendered:
    """The built-in pattern book in ``locale``'s language (None: English), drawn once per
    language."""
    return _bingo_patterns(language(locale))
