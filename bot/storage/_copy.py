"""Copy a SQLite database into PostgreSQL (``python -m bot migrate-db FILE URL``).

The copy keeps every id (so game numbers, ticket codes and ``/<game> verify`` keep working) and
moves PostgreSQL's id sequences past them. It is idempotent: a row already in the target with
the same values is left as it is, so running it again changes nothing. A target row with the
same key but other values is a conflict: the copy is refused with one line and nothing is
written (it is one transaction). Rows the target has of its own, with other keys, are kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.plurals import counted, plural
from bot.storage._migrations import MIGRATIONS
from bot.storage._postgres import PostgresTransaction, open_postgres, redact
from bot.storage._rows import ConflictError, Row, StorageError
from bot.storage._sqlite import SQLiteBackend, open_sqlite
from bot.storage._storage import Storage, hold_database
from bot.storage.database_file import UnusableDatabaseError, is_sqlite_file

# Parents before children, for the foreign keys.
TABLES = (
    "games",
    "players",
    "boards",
    "draws",
    "claims",
    "winners",
    "meta",
    "dm_channels",
    "closed_dms",
    "schedules",
    "server_settings",
    "server_records",
)
# What one row of a table is called in the summary (the others read the same for one).
_ONE_ROW = {
    "games": "game",
    "players": "player",
    "boards": "board",
    "draws": "draw",
    "claims": "claim",
    "winners": "winner",
    "dm_channels": "dm_channel",
    "closed_dms": "closed_dm",
    "schedules": "schedule",
    "server_records": "server_record",
}
# A fleet's running state (bot.fleet.process), which means nothing to another database: not copied.
NOT_COPIED = frozenset({"shard_leases", "gateway_identify"})
# Columns whose values PostgreSQL makes (identity columns), and that SQLite holds as rowid.
IDENTITY = {
    "games": "id",
    "boards": "id",
    "claims": "id",
    "winners": "rowid",
    "schedules": "id",
}


class CopyConflictError(StorageError):
    """The target holds other data under the same keys; nothing was copied."""


@dataclass
class CopyReport:
    copied: dict[str, int] = field(default_factory=dict)
    already_there: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        copied = ", ".join(
            counted(self.copied[t], _ONE_ROW.get(t, t), t) for t in TABLES if self.copied.get(t)
        )
        there = sum(self.already_there.values())
        return f"copied {copied or 'nothing'}" + (
            f"; {counted(there, 'row was', 'rows were')} already there and left as"
            f" {plural(there, 'it is', 'they are')}"
            if there
            else ""
        )


@dataclass(frozen=True)
class _Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]


async def _sqlite_tables(source: SQLiteBackend) -> list[_Table]:
    names = {
        str(row[0])
        for row in await source.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    } - NOT_COPIED
    if names != set(TABLES):
        unknown = sorted(names.symmetric_difference(TABLES))
        raise CopyConflictError(
            "the SQLite database's tables are not the ones this Game Night copies"
            f" ({', '.join(unknown)})"
        )
    tables = []
    for name in TABLES:
        info = await source.fetch(f"PRAGMA table_info({name})")
        columns = [str(row["name"]) for row in info]
        keyed = sorted((int(row["pk"]), str(row["name"])) for row in info if int(row["pk"]))
        key = [column for _, column in keyed]
        if name == "winners":
            columns.append("rowid")  # the order winners are listed in
        tables.append(_Table(name, tuple(columns), tuple(key)))
    return tables


def _differs(
    table: _Table, key: tuple[Any, ...], ours: Sequence[Any], theirs: Sequence[Any]
) -> str:
    column = next(c for c, a, b in zip(table.columns, ours, theirs, strict=True) if a != b)
    shown = ", ".join(f"{k}={v}" for k, v in zip(table.key, key, strict=True))
    return f"{table.name} row {shown} differs in the target ({column})"


async def copy_database(source: Path, target: str) -> CopyReport:
    """Copy the SQLite database ``source`` into the PostgreSQL database at URL ``target``,
    bringing both schemas up to date first. Raises ``UnusableDatabaseError`` when either cannot
    be used (or a bot is running on it), ``CopyConflictError`` when the target conflicts."""
    if not await asyncio.to_thread(source.is_file):
        raise UnusableDatabaseError(
            source, "there is no such file", "name the SQLite database to copy"
        )
    # Before its lock is taken: a file named by mistake gets no <file>.lock beside it.
    if not await asyncio.to_thread(is_sqlite_file, source):
        raise UnusableDatabaseError(
            source, "it is not a SQLite database", "name the SQLite database to copy"
        )
    async with (
        hold_database(source),
        hold_database(target),
        open_sqlite(source, len(MIGRATIONS)) as sqlite,
        open_postgres(target, len(MIGRATIONS)) as postgres,
    ):
        await Storage(sqlite).migrate()
        await Storage(postgres).migrate()
        tables = await _sqlite_tables(sqlite)
        rows: dict[str, list[Row]] = {}
        for table in tables:
            rows[table.name] = await sqlite.fetch(
                f"SELECT {', '.join(table.columns)} FROM {table.name}"  # noqa: S608
            )

        async def work(db: PostgresTransaction) -> CopyReport:
            report = CopyReport()
            for table in tables:
                have: dict[tuple[Any, ...], tuple[Any, ...]] = {
                    tuple(row[c] for c in table.key): tuple(row[c] for c in table.columns)
                    for row in await db.fetch(
                        f"SELECT {', '.join(table.columns)} FROM {table.name}"  # noqa: S608
                    )
                }
                missing = []
                for row in rows[table.name]:
                    values = tuple(row[c] for c in table.columns)
                    key = tuple(row[c] for c in table.key)
                    there = have.get(key)
                    if there is None:
                        missing.append(values)
                    elif there != values:
                        raise CopyConflictError(
                            f"{_differs(table, key, values, there)}, so it holds data of its "
                            f"own; copy into an empty database instead of {redact(target)}"
                        )
                try:
                    await db.copy_rows(table.name, table.columns, missing)
                except ConflictError as error:
                    raise CopyConflictError(
                        f"the target's {table.name} clash with the copy ({error}); copy into an"
                        f" empty database instead of {redact(target)}"
                    ) from error
                report.copied[table.name] = len(missing)
                report.already_there[table.name] = len(rows[table.name]) - len(missing)
            for table_name, column in IDENTITY.items():
                await db.move_sequence_past(table_name, column)
            return report

        return await postgres.write(work)
