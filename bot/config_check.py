"""``gamenight check-config``: the settings and the database checked as the bot would check them at
start, without connecting to Discord and without changing anything.

The database is refused with the same one line as at start (``UnusableDatabaseError``); where it
is fine, the check opens it read-only, so a database that is not there yet is not created and
pending migrations are reported, not applied (the bot applies them when it starts).
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.config import Settings
from bot.database_file import (
    UnusableDatabaseError,
    check_database_path,
    damaged,
    newer_schema,
    unusable_because_of,
)
from bot.invite import NoClientIdError, client_id_from_token
from bot.storage import MIGRATIONS


@dataclass(frozen=True)
class DatabaseState:
    """What ``check-config`` found of the database: how it is shown, its schema, who runs on it."""

    shown: str  # the file's full path, or the URL without its password
    schema_version: int | None  # None: the file is not there yet (the bot creates it)
    in_use_by: int | str | None  # the Game Night process running on it (0 or "" if unknown)


def inspect_database(path: Path) -> DatabaseState:
    """Raises ``UnusableDatabaseError`` where the bot would refuse to start on ``path``, in the
    order the bot checks: the path, the lock beside it, then the file."""
    check_database_path(path)
    shown = str(path.resolve())
    lock_path = path.with_name(path.name + ".lock")
    # The bot opens (or creates) the lock file for writing. Not created here: made by another
    # user (root, say) it could stop the bot's own user from opening it.
    _require_writable(path, lock_path if lock_path.exists() else path.parent)
    if not path.exists():
        return DatabaseState(shown, None, None)
    # SQLite writes the file and, in WAL mode, creates files beside it.
    _require_writable(path, path)
    _require_writable(path, path.parent)
    in_use_by = _lock_holder(lock_path)
    # Read-only: nothing is written to the database, and pending migrations wait for the bot.
    # Without -wal and -shm files no one is writing it (a WAL writer keeps them), and a read-only
    # connection would leave new ones behind: read the file as it is instead.
    in_wal_use = any(path.with_name(path.name + end).exists() for end in ("-wal", "-shm"))
    mode = "mode=ro" if in_wal_use else "immutable=1"
    try:
        reader = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)
    except sqlite3.Error as error:
        raise unusable_because_of(path, error) from error
    with closing(reader):
        try:
            version = int(reader.execute("PRAGMA user_version").fetchone()[0])
            if version > len(MIGRATIONS):
                raise newer_schema(path, version, len(MIGRATIONS))
            verdict = [str(row[0]) for row in reader.execute("PRAGMA quick_check")]
        except sqlite3.Error as error:
            raise unusable_because_of(path, error) from error
    if verdict != ["ok"]:
        raise damaged(path, verdict[0] if verdict else "quick_check said nothing")
    return DatabaseState(shown, version, in_use_by)


def inspect_postgres(url: str) -> DatabaseState:
    """The PostgreSQL database the bot would use, read-only: reachable, Game Night's (or empty),
    its schema version, and whether a bot holds it; ``UnusableDatabaseError`` as at start."""
    import asyncio

    import asyncpg

    from bot.storage import redact
    from bot.storage._postgres import _connect, _lock_holder, _unusable

    async def look() -> DatabaseState:
        connection = await _connect(url)
        try:
            names = {
                str(row[0])
                for row in await connection.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                )
            }
            if "schema_version" not in names:
                if names:
                    raise UnusableDatabaseError(
                        redact(url),
                        f"it holds tables that are not Game Night's ({', '.join(sorted(names)[:5])})",
                        "give the bot a database of its own (createdb gamenight)",
                    )
                return DatabaseState(redact(url), None, (await _lock_holder(connection))[0])
            version = int(await connection.fetchval("SELECT version FROM schema_version"))
            if version > len(MIGRATIONS):
                raise newer_schema(redact(url), version, len(MIGRATIONS))
            return DatabaseState(redact(url), version, (await _lock_holder(connection))[0])
        except (OSError, asyncpg.PostgresError) as error:
            raise _unusable(url, error) from error
        finally:
            await connection.close()

    return asyncio.run(look())


def _require_writable(database: Path, target: Path) -> None:
    """Refuse, as the bot would when writing fails, unless this user may write ``target``."""
    if os.access(target, os.W_OK | (os.X_OK if target.is_dir() else 0)):
        return
    read_only = os.statvfs(target).f_flag & os.ST_RDONLY
    code = errno.EROFS if read_only else errno.EACCES
    raise unusable_because_of(database, OSError(code, os.strerror(code)))


def _lock_holder(lock_path: Path) -> int | None:
    """The pid in ``<database>.lock`` if a process holds it (``lock_database``), else None."""
    try:
        descriptor = os.open(lock_path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            # A shared lock for an instant: it fails only while a bot holds the exclusive one.
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(descriptor, 20, 0).decode("ascii", "replace").strip()
            return int(holder) if holder.isdigit() else 0
        return None
    finally:
        os.close(descriptor)  # releases the shared lock


def summary(settings: Settings, database: DatabaseState, env_file: Path | None) -> list[str]:
    """What the bot would run with, one setting a line; secrets are described, never shown."""
    try:
        credential_state = f"set (bot user id {client_id_from_token(settings.token)})"
    except NoClientIdError:
        credential_state = (
            "set, but it does not look like a bot token: was it copied from the Bot tab?"
        )
    if database.schema_version is None:
        stored = "not created yet: the bot creates it when it starts"
    elif database.schema_version < len(MIGRATIONS):
        stored = (
            f"schema version {database.schema_version}; the bot upgrades it to "
            f"{len(MIGRATIONS)} when it starts (back it up first: gamenight backup FILE)"
        )
    else:
        stored = f"schema version {database.schema_version} (current)"
    if database.in_use_by is not None:
        holder = database.in_use_by
        pid = f" (pid {holder})" if isinstance(holder, int) and holder else ""
        if isinstance(holder, str) and holder:
            pid = f" ({holder})"
        stored += f"; in use by a running Game Night{pid}"
    source = f"the environment and {env_file}" if env_file is not None else "the environment"
    return [
        f"Settings are valid (read from {source}); Discord was not contacted.",
        f"  DISCORD_TOKEN           {credential_state}",
        f"  GAMENIGHT_SIGNING_KEY   set ({len(settings.signing_key)} bytes)",
        f"  GAMENIGHT_DATABASE      {database.shown}: {stored}",
        "  GAMENIGHT_DEV_GUILD_ID  "
        + (
            f"{settings.dev_guild_id} (commands sync there at once)"
            if settings.dev_guild_id is not None
            else "not set (commands sync to every server; new ones can take a while to show)"
        ),
        f"  GAMENIGHT_LOG_LEVEL     {settings.log_level}",
        f"  GAMENIGHT_TIME_SCALE    {settings.time_scale:g}"
        + (" (real time)" if settings.time_scale == 1 else " (timers run faster or slower)"),
        f"  DISCORD_API_BASE_URL    {_shown_url(settings.api_base_url)}",
        f"  DISCORD_GATEWAY_URL     {_shown_url(settings.gateway_url)}",
        f"  GAMENIGHT_SHARDS        {settings.shards.describe()}",
        "  GAMENIGHT_RETENTION_DAYS "
        + (
            f"{settings.retention_days} (games over for longer are deleted, daily)"
            if settings.retention_days is not None
            else "not set (finished games are kept)"
        ),
    ]


def _shown_url(url: str | None) -> str:
    """``url`` without a password a proxy's address may carry."""
    if url is None:
        return "not set (Discord itself)"
    parsed = urlsplit(url)
    if parsed.password is None:
        return url
    host = parsed.netloc.rpartition("@")[2]
    return urlunsplit(parsed._replace(netloc=f"{parsed.username}:***@{host}"))
