"""SQL run behind the bot's back (to tamper with a game, or to look at what was stored), on
either backend: ``?`` placeholders, as the storage writes them."""

from __future__ import annotations

import sqlite3
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
