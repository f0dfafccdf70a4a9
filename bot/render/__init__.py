"""Pictures of the games: engine values in, ``Rendered`` (PNG bytes + alt text) out.

Every function is pure and CPU-bound: callers run it with ``asyncio.to_thread`` and attach
``rendered.png`` as ``rendered.filename`` with ``rendered.alt_text`` as its description; a
``locale`` keyword words both in the language of the message the picture goes with. The
calling games' pictures use fixed palettes, each built once from samples of every card or
number; ``warm_up`` builds them ahead of time (about two seconds of CPU, e.g. in a thread at
start-up), with the large card and ball of every call. The other pieces the pictures paste are
drawn the first time they are needed and kept, mapped onto their palette.
"""

from __future__ import annotations

from bot.render import housie, loteria
from bot.render.common import Rendered, limit_retained_memory, return_free_memory
from bot.render.housie import render_caller_board, render_housie_call, render_ticket
from bot.render.loteria import render_call, render_card, render_tabla

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
    """Build the calling games' palettes and their calls' large pieces, so that the first game
    does not wait for them."""
    loteria.tabla_palette()
    loteria.warm_up_calls()
    housie.ticket_palette()
    housie.board_palette()
    housie.warm_up_calls()
    return_free_memory()
