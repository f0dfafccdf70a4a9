"""Pictures of the games: engine values in, ``Rendered`` (PNG bytes + alt text) out.

Every function is pure and CPU-bound: callers run it with ``asyncio.to_thread`` and attach
``rendered.png`` as ``rendered.filename`` with ``rendered.alt_text`` as its description. The
first picture of a deck builds its tiles and palette (about a second); ``warm_up`` does that
ahead of time, e.g. in a thread at start-up.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.common import Rendered
from bot.render.housie import (
    render_caller_board,
    render_housie_call,
    render_ticket,
    ticket_palette,
)
from bot.render.loteria import render_call, render_card, render_tabla, tabla_palette
from engine.loteria import DECKS, Deck

__all__ = [
    "Rendered",
    "render_call",
    "render_caller_board",
    "render_card",
    "render_dots",
    "render_housie_call",
    "render_solution",
    "render_tabla",
    "render_ticket",
    "render_tictactoe",
    "render_triangle",
    "warm_up",
]


def warm_up(decks: Iterable[Deck] = DECKS.values()) -> None:
    """Fill the caches (fonts, OpenMoji art, tiles, palettes) so the first game renders warm."""
    for deck in decks:
        tabla_palette(deck)
    ticket_palette()
