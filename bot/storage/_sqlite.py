"""The SQLite backend (aiosqlite): one file, one writing connection, one reading connection."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from bot.storage._migrations import Migration
from bot.storage._rows import ConflictError, Row
from bot.storage.database_file import (
    check_database_path,
    create_private,
    damaged,
    newer_schema,
    unusable_because_of,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

# How long one attempt to take SQLite's write lock waits (another process may hold it, e.g. a
# backup); a write that still finds it taken waits again, so no accepted write is ever dropped.
BUSY_TIMEOUT_MS = 5000
BUSY_RETRY_LOG_EVERY = 3


Statement = tuple[str, Sequence[Any]]


class _WriteLockTakenError(Exception):
    """Another connection held SQLite's write lock past the busy timeout; nothing was begun."""


def _run_transactions(
    db: aiosqlite.Connection, writes: Sequence[Sequence[Statement]]
) -> list[list[int] | BaseException]:
    """On the connection's thread: each of ``writes`` in a transaction of its own; for each, the
    rows each statement changed, or the error that rolled it back (``_WriteLockTakenError``:
    another connection held the write lock, and nothing was begun)."""
    connection = db._conn
    outcomes: list[list[int] | BaseException] = []
    for statements in writes:
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                # The rest would each wait a busy timeout here: they wait on the event loop.
                outcomes += [_WriteLockTakenError()] * (len(writes) - len(outcomes))
                break
            outcomes.append(error)
            continue
        try:
            counts = [connection.execute(sql, tuple(params)).rowcount for sql, params in statements]
        except Exception as error:
            connection.execute("ROLLBACK")
            outcomes.append(error)
            continue
        connection.execute("COMMIT")
        outcomes.append(counts)
    return outcomes


class SQLiteTransaction:
    """The statements of a write on the writing connection, which holds SQLite's write lock (the
    whole database's) from ``BEGIN IMMEDIATE`` on: row, channel and server locks have nothing
    to add."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self._db.execute(sql, tuple(params))
        except sqlite3.IntegrityError as error:
            raise ConflictError(str(error)) from error
        return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as error:
            raise ConflictError(str(error)) from error

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self._db.execute(sql, tuple(params))
        except sqlite3.IntegrityError as error:
            raise ConflictError(str(error)) from error
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return cast(list[Row], list(await self._db.execute_fetchall(sql, tuple(params))))

    async def lock_game(self, game_id: int) -> None:
        return None

    async def lock_channel(self, channel_id: int) -> None:
        return None

    async def lock_server(self, guild_id: int) -> None:
        return None


class SQLiteBackend:
    name = "sqlite"

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self._db = connection
        # Reads have their own connection: in WAL mode they never wait for a writer, so a write
        # waiting on the lock (a backup, a slow disk) does not hold up answers that only read.
        self._reader = connection
        # One writing connection: transactions from concurrent tasks must not interleave.
        self._write_lock = asyncio.Lock()
        # write_statements's line, and the task writing it.
        self._line: list[tuple[Sequence[Statement], asyncio.Future[list[int]]]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._transaction = SQLiteTransaction(connection)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query on the reading connection, in one step: a statement left open
        between awaits would hold its snapshot, and a query run meanwhile on the same connection
        would miss writes committed since (the one just made, even)."""
        return cast(list[Row], list(await self._reader.execute_fetchall(sql, tuple(params))))

    async def write(self, work: Callable[[SQLiteTransaction], Awaitable[T]]) -> T:
        async with self._write_lock:
            await self._begin()
            try:
                result = await work(self._transaction)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
            return result

    async def write_statements(self, statements: Sequence[Statement]) -> list[int]:
        """The statements in one transaction of their own; the rows each changed.

        Such writes wait in one line, and the line goes to the connection's thread in one trip,
        each write still its own transaction: the event loop's turn between two writes (long on
        a busy bot: a hundred writes a second with a thousand games) is paid once per trip, not
        once per write, nor per statement."""
        done = asyncio.get_running_loop().create_future()
        self._line.append((statements, done))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush(), name="sqlite-writes")
        return cast(list[int], await asyncio.shield(done))

    async def _flush(self) -> None:
        """Write the line, trip after trip, until it is empty."""
        writes: list[tuple[Sequence[Statement], asyncio.Future[list[int]]]] = []
        try:
            await self._flush_line(writes)
        except BaseException as error:  # (cancelled as the bot stops): no write waits forever
            for _, done in [*writes, *self._line]:
                if not done.done():
                    done.set_exception(error)
            raise

    async def _flush_line(
        self, writes: list[tuple[Sequence[Statement], asyncio.Future[list[int]]]]
    ) -> None:
        async with self._write_lock:  # (write()'s transactions span trips: never inside one)
            while self._line:
                writes[:], self._line = self._line, []
                # aiosqlite's own way to run a function on its thread (private, and stable
                # across the versions pyproject allows).
                on_its_thread = cast(Callable[..., Awaitable[list[Any]]], self._db._execute)
                try:
                    outcomes = await on_its_thread(
                        _run_transactions, self._db, [statements for statements, _ in writes]
                    )
                except BaseException as error:  # (the connection failed: every write did)
                    outcomes = [error] * len(writes)
                for (statements, done), first_outcome in zip(writes, outcomes, strict=True):
                    outcome = first_outcome
                    if isinstance(outcome, _WriteLockTakenError):
                        # Another process holds SQLite's write lock (a backup): wait for it as
                        # write() does.
                        outcome = await self._write_waiting(statements)
                    if done.done():
                        continue
                    if isinstance(outcome, sqlite3.IntegrityError):
                        done.set_exception(ConflictError(str(outcome)))
                    elif isinstance(outcome, BaseException):
                        done.set_exception(outcome)
                    else:
                        done.set_result(outcome)

    async def _write_waiting(self, statements: Sequence[Statement]) -> list[int] | BaseException:
        """One write, statement by statement, after waiting for the write lock (held)."""
        try:
            await self._begin()
            try:
                counts = [
                    await self._transaction.execute(sql, params) for sql, params in statements
                ]
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
        except Exception as error:  # (ConflictError included: it is the write's own answer)
            return error
        return counts

    async def close(self) -> None:
        """Finish the writes in line."""
        if self._flushing is not None:
            await self._flushing

    async def _begin(self) -> None:
        """Take the write lock, waiting as long as another process holds it."""
        attempt = 0
        while True:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                attempt += 1
                if attempt % BUSY_RETRY_LOG_EVERY == 1:
                    log.warning("the database is locked by another connection; still waiting")
                await asyncio.sleep(0.05)

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Sequence[Migration]) -> int:
        """Apply every migration past ``PRAGMA user_version``; returns the new version."""
        try:
            version = await self.schema_version()
            for number, migration in enumerate(migrations[version:], start=version + 1):
                # executescript commits first; the BEGIN makes the migration and its version
                # atomic.
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{migration.sqlite}\nPRAGMA user_version = {number};\n"
                    "COMMIT;"
                )
            return await self.schema_version()
        except sqlite3.Error as error:
            raise unusable_because_of(self.path, error) from error


@asynccontextmanager
async def open_sqlite(path: Path, known_version: int) -> AsyncIterator[SQLiteBackend]:
    """Open (or create) the database file and check it, writing nothing before it has passed.

    Raises ``UnusableDatabaseError`` with one line saying why and what to do when the path is a
    folder or in a missing one, the file is not SQLite or is damaged, cannot be written, or has
    a schema newer than ``known_version``. A new database is created 0600 (its ``-wal`` and
    ``-shm`` take its mode), whatever the umask: running games' seeds are in it."""
    check_database_path(path)
    try:
        create_private(path)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
    except (OSError, sqlite3.Error) as error:
        raise unusable_because_of(path, error) from error
    reader: aiosqlite.Connection | None = None
    try:
        try:
            connection.row_factory = aiosqlite.Row
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            backend = SQLiteBackend(path, connection)
            # SQLite opens a file it may not write read-only, without a word: the first write
            # would fail, after the bot has logged in. Take the write lock once (nothing is
            # written) so that such a file is refused now.
            await backend._begin()
            await connection.execute("ROLLBACK")
            version = await backend.schema_version()
            if version > known_version:
                raise newer_schema(path, version, known_version)
            async with connection.execute("PRAGMA quick_check") as cursor:
                verdict = [str(row[0]) for row in await cursor.fetchall()]
            if verdict != ["ok"]:
                raise damaged(path, verdict[0] if verdict else "quick_check said nothing")
            await connection.execute("PRAGMA journal_mode = WAL")
            reader = await aiosqlite.connect(str(path), isolation_level=None)
            reader.row_factory = aiosqlite.Row
            await reader.execute("PRAGMA query_only = ON")
            await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            backend._reader = reader
        except sqlite3.Error as error:
            raise unusable_because_of(path, error) from error
        try:
            yield backend
        finally:
            await backend.close()
    finally:
        if reader is not None:
            await reader.close()
        await connection.close()
