"""Pictures of the games: engine values in, ``Rendered`` (PNG bytes + alt text) out.

Every function is pure and CPU-bound: callers run it with ``asyncio.to_thread`` and attach
``rendered.png`` as ``rendered.filename`` with ``rendered.alt_text`` as its description; a
``locale`` keyword words both in the language of the message the picture goes with. Each game's
pictures are its own module or package here (``bot/render/<kind>``), which its cog imports;
this package names none of them. Some games' pictures use fixed palettes built once from
samples; ``warm_up`` runs the games' own warm-ups (``GameCog.warm_up_pictures``) ahead of time
(about two seconds of CPU for the calling games, e.g. in a thread at start-up). The other pieces
the pictures paste are drawn the first time they are needed and kept, mapped onto their palette.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable

from bot.render.common import Rendered, limit_retained_memory, return_free_memory

__all__ = ["Rendered", "keep_returning_free_memory", "limit_retained_memory", "warm_up"]

# How often the bot hands the memory its allocator keeps free back to the system: pictures come
# and go in every heap, and the holes they leave between what stays are kept otherwise (at 1,000
# games, 548 MiB of RSS was 308 MiB in use: bench/bench_capacity.py).
RETURN_FREE_MEMORY_EVERY = 30.0  # seconds


def warm_up(warm_ups: Iterable[Callable[[], None]], stop: threading.Event | None = None) -> None:
    """Run each game's warm-up (its palettes and its calls' large pieces, built ahead), so that
    the first game does not wait for them; then give the memory freed meanwhile back. Once
    ``stop`` is set, no further game's (the bot is stopping: its exit waits for this thread)."""
    for warm_up_game in warm_ups:
        if stop is not None and stop.is_set():
            break
        warm_up_game()
    return_free_memory()


async def keep_returning_free_memory(every: float = RETURN_FREE_MEMORY_EVERY) -> None:
    """Every ``every`` seconds, until cancelled, hand the allocator's free pages back to the
    system, in a worker thread (it walks every heap). For the bot's own process only: a test's
    many bots in one process would each do it."""
    while True:
        await asyncio.sleep(every)
        await asyncio.to_thread(return_free_memory)
