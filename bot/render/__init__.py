"""Pictures of the games: engine values in, ``Rendered`` (PNG bytes + alt text) out.

Every function is pure and CPU-bound: callers run it with ``asyncio.to_thread`` and attach
``rendered.png`` as ``rendered.filename`` with ``rendered.alt_text`` as its description. The
calling games' pictures use fixed palettes, each built once from samples of every card or
number (a fraction of a second); ``warm_up`` builds them ahead of time, e.g. in a thread at
start-up. The tiles the pictures paste are drawn the first time they are needed and kept, mapped
onto their palette.
"""

from __future__ import annotations

from bot.render.common import Rendered, limit_retained_memory
from bot.render.housie import (
    board_palette,
    housie_call_palette,
    render_caller_board,
    render_housie_call,
    render_ticket,
    ticket_palette,
)
from bot.render.loteria import call_palette, render_call, render_card, render_tabla, tabla_palette

__all__ = [
    "Rendered",
    "limit_retained_memory",
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


def warm_up() -> None:
    """Build the calling games' palettes, so the first game does not wait for them."""
    for palette in (
        tabla_palette,
        call_palette,
        ticket_palette,
        board_palette,
        housie_call_palette,
    ):
        palette()
