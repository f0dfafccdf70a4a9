"""SQL run behind the bot's back (to tamper with a game, or to look at what was stored), on
either backend: ``?`` placeholders, as the storage writes them."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage._postgres import to_postgres


async def raw_execute(database: Path | str, sql: str, *params: Any) -> None:
    if isinstance(database, Path):
        with closing(sqlite3.connect(database)) as raw, raw:
            raw.execute(sql, params)
        return
    raw = await asyncpg.connect(database)
    try:
        await raw.execute(to_postgres(sql), *params)
    finally:
        await raw.close()


@contextlib.asynccontextmanager
async def another_process_writing(database: Path) -> AsyncIterator[None]:
    """Another connection holds SQLite's write lock (as a backup or another process would) until
    the block ends."""
    locked, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        raw = sqlite3.connect(database, isolation_level=None)
        raw.execute("BEGIN IMMEDIATE")
        locked.set()
        release.wait(20)
        raw.execute("COMMIT")
        raw.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert await asyncio.to_thread(locked.wait, 5)
        yield
    finally:
        release.set()
        await asyncio.to_thread(holder.join, 10)
