"""The PostgreSQL backend (asyncpg): a pool of connections, writes retried across lost
connections without ever being applied twice.

**Lost connections.** A read that loses its connection is simply asked again. A write is a
transaction; if its connection is lost before ``COMMIT`` was sent, the server cannot have
committed it (it rolls back what a vanished client left), so it is run again. If the connection
is lost while ``COMMIT`` was under way, the answer is the only thing missing: every write first
asks for its transaction id (``pg_current_xact_id()``), and after the loss the backend asks the
server, on another connection, whether that transaction committed (``pg_xact_status``): if it
did, the write is done and its result (computed before the commit) is returned; if not, it is run
again. So no accepted write is lost and none is applied twice, whatever it is (an increment, an
insert with a new id, a compare-and-set). Retries wait with back-off for as long as the server is
away, as SQLite's writes wait for its lock: answers slow down, they do not fail.

**Concurrency.** Transactions are READ COMMITTED, each statement seeing what was committed
before it. Changes to a game's players take the game's row lock first (``FOR NO KEY UPDATE``,
which does not block the foreign-key checks of other writes to the game), so seats and deal
positions are handed out one at a time across processes. A game that must be alone in its
channel among some kinds is checked and inserted under a transaction-scoped advisory lock keyed
by the channel: every such start in the channel waits for the one before it to commit, and its
check then sees that game. (A partial unique index cannot say "alone among the kinds this
caller names", and the kinds belong to the games' code, not the schema; SERIALIZABLE would be
correct too, but its predicate locks fail unrelated writes to the games table, which would all
need retrying.) Nights planned in a server are counted and added under such a lock keyed by the
server, so its limits hold against a burst. Compare-and-set updates (``UPDATE ... WHERE state = ?``) re-check their
condition on the newest row version after waiting for a concurrent update, so exactly one of two
racing updates wins. Deadlocks and serialization failures are retried like lost connections.

Every write goes through ``PostgresBackend.write``; a fleet's game writes begin with their
fencing check (a shard's lease and its token, see ``_leases``) in the same transaction.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar, cast
from urllib.parse import parse_qsl, urlencode, urlsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage._migrations import Migration
from bot.storage._rows import ConflictError, Row, StorageError
from bot.storage.database_file import UnusableDatabaseError, newer_schema

log = logging.getLogger(__name__)

T = TypeVar("T")

URL_SCHEMES = ("postgresql://", "postgres://")
POOL_SIZE = 10
RETRY_FIRST_PAUSE = 0.05
RETRY_LONGEST_PAUSE = 1.0
RETRY_LOG_EVERY = 10
# How long a transaction whose COMMIT was sent may stay in progress before its server process is
# taken for one that lost its client (see PostgresBackend._committed).
STALE_AFTER = 2.0
# Advisory lock keys (64-bit): one for migrations, one held by the running bot.
MIGRATION_LOCK = 0x67_6E_6D_69_67_72_61_74  # "gnmigrat"
BOT_LOCK = 0x67_6E_62_6F_74_6C_63_6B  # "gnbotlck"
# A bot that was just killed leaves its lock until the server notices; its successor waits
# this long for it before refusing to start.
BOT_LOCK_WAIT = 3.0
# No transaction of the bot's waits for itself this long; one that does belongs to a process
# that stopped (SIGSTOP) or was cut off, and the server ends it, releasing its locks (a shard
# lease's fence, the fleet's heartbeat lock) well within a lease's 10 s.
IDLE_TRANSACTION_LIMIT_MS = 5000


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:  # not a URL urlsplit reads (a broken [IPv6] address): hide what may be
        scheme, _, rest = url.partition("://")
        user, at, host = rest.rpartition("@")
        shown = f"{scheme}://{user.partition(':')[0]}:***@{host}" if at else url
        return re.sub(r"(?i)(password=)[^&]*", r"\1***", shown)
    if parts.password is None and not any(key == "password" for key, _ in query):
        return url
    netloc = parts.netloc
    if parts.password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:***@{host}"
    shown = f"{parts.scheme}://{netloc}{parts.path}"
    if query:
        shown += "?" + urlencode(
            [(k, "***" if k == "password" else v) for k, v in query], safe="/*"
        )
    return shown


_PLACEHOLDER = re.compile(r"'[^']*'|\?")


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (quoted text is left alone)."""
    numbers = itertools.count(1)
    return _PLACEHOLDER.sub(
        lambda match: match[0] if match[0].startswith("'") else f"${next(numbers)}", sql
    )


def retryable(error: BaseException) -> bool:
    """Whether a statement failed because its connection (or the server) went away, or because
    PostgreSQL rolled the transaction back to break a deadlock: asking again is safe."""
    return isinstance(
        error,
        (
            OSError,  # refused, reset, socket missing while the server restarts, timeouts
            asyncpg.PostgresConnectionError,
            asyncpg.AdminShutdownError,  # terminated, or the server is shutting down
            asyncpg.CrashShutdownError,
            asyncpg.CannotConnectNowError,  # starting up
            asyncpg.SerializationError,
            asyncpg.DeadlockDetectedError,
            asyncpg.InternalClientError,  # the protocol lost its footing on a dying connection
        ),
    ) or (isinstance(error, asyncpg.InterfaceError) and "connection is closed" in str(error))


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


# A connection of its own, or one lent by the pool.
Connection = asyncpg.Connection | PoolConnectionProxy


class PostgresTransaction:
    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            status = await self._connection.execute(to_postgres(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConflictError(str(error)) from error
        return _rowcount(status)

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._connection.executemany(to_postgres(sql), list(rows))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConflictError(str(error)) from error

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            new_id = await self._connection.fetchval(to_postgres(sql) + " RETURNING id", *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConflictError(str(error)) from error
        return int(new_id)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return cast(list[Row], await self._connection.fetch(to_postgres(sql), *params))

    async def execute_script(self, sql: str) -> None:
        """Several statements, no parameters (the simple query protocol runs them all)."""
        await self._connection.execute(sql)

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Many rows at once (``COPY``), values given for every column, ids included."""
        if not rows:
            return
        try:
            await self._connection.copy_records_to_table(
                table, columns=list(columns), records=[tuple(row) for row in rows]
            )
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConflictError(str(error).splitlines()[0]) from error

    async def move_sequence_past(self, table: str, column: str) -> None:
        """Make the identity ``column`` hand out values past every one in ``table``."""
        sequence = await self._connection.fetchval(
            "SELECT pg_get_serial_sequence($1, $2)", table, column
        )
        highest = await self._connection.fetchval(
            f"SELECT MAX({column}) FROM {table}"  # noqa: S608 (names from the code, not input)
        )
        if highest is not None:
            await self._connection.execute(
                "SELECT setval($1::regclass, GREATEST($2::bigint, last_value)) FROM "  # noqa: S608
                + sequence,  # a name PostgreSQL gave
                sequence,
                int(highest),
            )

    async def lock_game(self, game_id: int) -> None:
        await self._connection.execute(
            "SELECT 1 FROM games WHERE id = $1 FOR NO KEY UPDATE", game_id
        )

    async def lock_channel(self, channel_id: int) -> None:
        await self._connection.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended('gamenight channel ' || $1::bigint, 0))",
            channel_id,
        )

    async def lock_server(self, guild_id: int) -> None:
        await self._connection.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended('gamenight server ' || $1::bigint, 0))",
            guild_id,
        )


class PostgresBackend:
    name = "postgres"

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:
        self.url = url
        self._pool = pool

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection from the pool; one that failed with a lost connection (or in a state
        asyncpg cannot go on from) is closed, so that the pool never lends it again."""
        async with self._pool.acquire() as connection:
            try:
                yield connection
            except Exception as error:
                if retryable(error):
                    # (A connection already closed has left the pool by itself.)
                    with suppress(asyncpg.InterfaceError):
                        connection.terminate()
                raise

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        query = to_postgres(sql)
        attempt = 0
        while True:
            try:
                async with self._connection() as connection:
                    return cast(list[Row], await connection.fetch(query, *params))
            except Exception as error:
                if not retryable(error):
                    raise
                attempt += 1
                await self._pause(attempt, error)

    async def write_statements(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """The statements in one transaction; the rows each changed."""

        async def work(db: PostgresTransaction) -> list[int]:
            return [await db.execute(sql, params) for sql, params in statements]

        return await self.write(work)

    async def write(self, work: Callable[[PostgresTransaction], Awaitable[T]]) -> T:
        attempt = 0
        while True:
            xid: str | None = None
            committing = False
            try:
                async with self._connection() as connection:
                    server_pid = connection.get_server_pid()
                    transaction = connection.transaction()
                    await transaction.start()
                    try:
                        xid = await connection.fetchval("SELECT pg_current_xact_id()::text")
                        result = await work(PostgresTransaction(connection))
                        committing = True
                        await transaction.commit()
                    except BaseException:
                        if not committing:
                            with suppress(Exception):  # a lost connection has rolled it back
                                await transaction.rollback()
                        raise
                return result
            except Exception as error:
                if not retryable(error):
                    raise
                if committing and xid is not None and await self._committed(xid, server_pid):
                    log.info("a commit's answer was lost; the server says it was made")
                    return result
                attempt += 1
                await self._pause(attempt, error)

    async def _committed(self, xid: str, server_pid: int) -> bool:
        """Whether transaction ``xid`` committed, asked on another connection (waiting for the
        server to come back, and for a commit still in progress to end).

        A transaction still in progress after ``STALE_AFTER`` seconds belongs to a server
        process that has not noticed its client is gone (the ``COMMIT`` was lost on the way, in
        a network cut the server does not see for hours): that process is ended, which rolls
        the transaction back, so the write can be made again."""
        waited = 0.0
        while True:
            (row,) = await self.fetch("SELECT pg_xact_status(?::text::xid8)", (xid,))
            if row[0] == "committed":
                return True
            if row[0] == "aborted":
                return False
            if row[0] is None:
                raise StorageError(
                    f"the server no longer knows whether transaction {xid} committed"
                )
            if waited >= STALE_AFTER:
                if waited - RETRY_FIRST_PAUSE < STALE_AFTER:
                    log.warning(
                        "a transaction whose answer was lost is still open on the server after"
                        " %gs; ending its server process (pid %s)",
                        STALE_AFTER,
                        server_pid,
                    )
                # Only that process, and only while it still holds that transaction.
                await self.fetch(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE pid = ? AND backend_xid::text = ?",
                    (server_pid, str(int(xid) % 2**32)),
                )
            await asyncio.sleep(RETRY_FIRST_PAUSE)
            waited += RETRY_FIRST_PAUSE

    async def _pause(self, attempt: int, error: BaseException) -> None:
        if attempt % RETRY_LOG_EVERY == 1:
            log.warning(
                "the database connection was lost (%s: %s); retrying",
                type(error).__name__,
                error,
            )
        await asyncio.sleep(min(RETRY_LONGEST_PAUSE, RETRY_FIRST_PAUSE * 2 ** min(attempt, 8)))

    async def schema_version(self) -> int:
        rows = await self.fetch("SELECT version FROM schema_version")
        return int(rows[0]["version"]) if rows else 0

    async def migrate(self, migrations: Sequence[Migration]) -> int:
        """Apply every migration past ``schema_version``, each in its own transaction with its
        new version; processes starting together take turns (an advisory lock)."""

        async def next_step(transaction: PostgresTransaction) -> int | None:
            await transaction.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            rows = await transaction.fetch("SELECT version FROM schema_version FOR UPDATE")
            version = int(rows[0]["version"])
            if version >= len(migrations):
                return None
            await transaction.execute_script(migrations[version].postgres)
            await transaction.execute("UPDATE schema_version SET version = ?", (version + 1,))
            return version + 1

        try:
            while await self.write(next_step) is not None:
                pass
        except asyncpg.PostgresError as error:  # e.g. a user who may not create tables
            raise _unusable(self.url, error) from error
        return await self.schema_version()


def _unusable(url: str, error: BaseException) -> UnusableDatabaseError:
    """The one-line explanation of an error met while connecting to the server."""
    shown = redact(url)
    detail = str(error).splitlines()[0] if str(error) else type(error).__name__
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return UnusableDatabaseError(
            shown,
            f"the database does not exist ({detail})",
            "create it (createdb NAME) or fix the URL",
        )
    if isinstance(
        error, asyncpg.InvalidAuthorizationSpecificationError | asyncpg.InvalidPasswordError
    ):
        return UnusableDatabaseError(
            shown, f"the server refused the login ({detail})", "check the user and password"
        )
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        return UnusableDatabaseError(
            shown,
            f"the user may not do what the bot needs ({detail})",
            "let it create tables in the database (GRANT CREATE), or use the database's owner",
        )
    if isinstance(error, OSError | asyncpg.CannotConnectNowError):
        return UnusableDatabaseError(
            shown,
            f"the server cannot be reached ({detail})",
            "start PostgreSQL, or fix the host and port in the URL",
        )
    return UnusableDatabaseError(shown, f"it cannot be used ({detail})", "check the URL")


async def _connect(url: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(url, server_settings=_server_settings())
    # ValueError: asyncpg's reading of the URL (a port that is not a number...).
    except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise _unusable(url, error) from error


def _server_settings() -> dict[str, str]:
    return {
        # Shows in pg_stat_activity: which process holds a connection (and the bot's lock).
        "application_name": f"gamenight pid {os.getpid()} on {socket.gethostname()}"[:63],
        "idle_in_transaction_session_timeout": str(IDLE_TRANSACTION_LIMIT_MS),
    }


async def _bootstrap(connection: asyncpg.Connection, url: str, known_version: int) -> None:
    """Create the version table of an empty database (version 0); refuse a database holding
    tables that are not Game Night's, or a schema newer than ``known_version``, writing nothing."""
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        names = [
            str(row[0])
            for row in await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " ORDER BY tablename"
            )
        ]
        if "schema_version" not in names:
            if names:
                raise UnusableDatabaseError(
                    redact(url),
                    f"it holds tables that are not Game Night's ({', '.join(names[:5])})",
                    "give the bot a database of its own (createdb gamenight)",
                )
            await connection.execute(
                "CREATE TABLE schema_version ("
                " only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),"
                " version INTEGER NOT NULL)"
            )
            await connection.execute("INSERT INTO schema_version (version) VALUES (0)")
            return
        version = int(await connection.fetchval("SELECT version FROM schema_version"))
        if version > known_version:
            raise newer_schema(redact(url), version, known_version)


@asynccontextmanager
async def open_postgres(url: str, known_version: int) -> AsyncIterator[PostgresBackend]:
    """Connect a pool to the database and check it (see ``_bootstrap``). Raises
    ``UnusableDatabaseError`` with one line (the password left out) when it cannot be used."""
    connection = await _connect(url)
    try:
        await _bootstrap(connection, url, known_version)
    except (OSError, asyncpg.PostgresError) as error:
        raise _unusable(url, error) from error
    finally:
        await connection.close()
    try:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=POOL_SIZE, server_settings=_server_settings()
        )
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise _unusable(url, error) from error
    try:
        yield PostgresBackend(url, pool)
    finally:
        await pool.close()


def _try_lock_sql(shared: bool) -> str:
    return f"SELECT pg_try_advisory_lock{'_shared' if shared else ''}($1)"


@asynccontextmanager
async def hold_postgres(url: str, *, shared: bool = False) -> AsyncIterator[None]:
    """Hold the bot's advisory lock on the database while the body runs, so that a second bot
    on the same database stops at once with one line instead of answering everything twice.

    ``shared``: the processes of a fleet (``GAMENIGHT_SHARDS``) hold it together, and keep a
    process that runs every shard off (and are kept off by one); among themselves, shard leases
    decide who runs what.

    The lock lives as long as its connection; the server releases it when the process ends,
    however it ends. If the connection is lost, it is taken again as soon as the server answers
    (and an error is logged if another process took it meanwhile)."""
    connection = await _connect(url)
    deadline = asyncio.get_running_loop().time() + BOT_LOCK_WAIT
    try:
        while not await connection.fetchval(_try_lock_sql(shared), BOT_LOCK):
            if asyncio.get_running_loop().time() > deadline:
                holder, fleet = await _lock_holder(connection)
                if shared:
                    problem = "a Game Night process that runs every shard"
                    remedy = "stop it first; every process of a fleet sets GAMENIGHT_SHARDS=.../N"
                elif fleet:
                    problem = "a fleet of Game Night processes (GAMENIGHT_SHARDS), one of them"
                    remedy = "stop them first, or run this one as part of the fleet"
                else:
                    problem = "another Game Night process"
                    remedy = "stop that one first, or give each bot its own GAMENIGHT_DATABASE"
                raise UnusableDatabaseError(
                    redact(url),
                    f"{problem}{f' ({holder})' if holder else ''} is using it",
                    remedy,
                )
            await asyncio.sleep(0.1)
    except BaseException:
        await connection.close()
        raise
    keeper = asyncio.create_task(
        _keep_lock(url, connection, shared), name="gamenight-database-lock"
    )
    try:
        yield
    finally:
        keeper.cancel()
        with suppress(asyncio.CancelledError):
            await keeper


async def _lock_holder(connection: asyncpg.Connection) -> tuple[str | None, bool]:
    """Which process holds the bot's lock (one of them, if a fleet shares it), and whether it
    is shared."""
    row = await connection.fetchrow(
        "SELECT activity.application_name, locks.mode FROM pg_locks AS locks"
        " JOIN pg_stat_activity AS activity ON activity.pid = locks.pid"
        " WHERE locks.locktype = 'advisory' AND locks.granted"
        " AND locks.classid::bigint = $1 AND locks.objid::bigint = $2 AND locks.objsubid = 1"
        " LIMIT 1",
        BOT_LOCK >> 32,
        BOT_LOCK & 0xFFFFFFFF,
    )
    if row is None:
        return None, False
    name = str(row[0]).removeprefix("gamenight ") if row[0] else None
    return name, row[1] == "ShareLock"


async def _keep_lock(url: str, connection: asyncpg.Connection, shared: bool) -> None:
    """Take the lock again whenever its connection is lost."""
    try:
        while True:
            lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            def on_loss(_: object, lost: asyncio.Future[None] = lost) -> None:
                if not lost.done():
                    lost.set_result(None)

            connection.add_termination_listener(on_loss)
            await lost
            log.warning("the connection holding the database lock was lost; taking it again")
            for attempt in itertools.count():
                await asyncio.sleep(1)
                try:
                    connection = await asyncpg.connect(url, server_settings=_server_settings())
                    if await connection.fetchval(_try_lock_sql(shared), BOT_LOCK):
                        log.info("the database lock is held again")
                        break
                    if attempt % 60 == 0:
                        log.error(
                            "another Game Night process (%s) holds the database lock",
                            (await _lock_holder(connection))[0],
                        )
                    await connection.close()
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    continue
    finally:
        with suppress(Exception):
            await connection.close()
