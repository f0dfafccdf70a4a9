"""``gamenight check-config``: the settings and the database checked as the bot would check them at
start, without changing anything; and the bot token, by its shape, or by Discord itself
(``--online``, which ``gamenight run`` also asks before it starts).

The database is refused with the same one line as at start (``UnusableDatabaseError``); where it
is fine, the check opens it read-only, so a database that is not there yet is not created and
pending migrations are reported, not applied (the bot applies them when it starts).
"""

from __future__ import annotations

import asyncio
import errno
import os
import re
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import discord

from bot.config import WHERE_TOKENS_ARE_MADE, Settings
from bot.ops.invite import NoClientIdError, client_id_from_token
from bot.storage import MIGRATIONS
from bot.storage.database_file import (
    UnusableDatabaseError,
    check_database_path,
    check_file_writable,
    damaged,
    file_locks,
    newer_schema,
    unusable_because_of,
)

# A bot token: three parts of base64url (letters, digits, - and _) separated by dots.
TOKEN_PART = re.compile(r"[A-Za-z0-9_-]+")
# How long the question to Discord may take before the answer counts as none.
ASK_DISCORD_TIMEOUT = 30.0


class TokenRefusedError(Exception):
    """Discord refused the bot token (401); the message is the one line to show."""

    def __init__(self) -> None:
        super().__init__(
            "DISCORD_TOKEN was refused by Discord (401 Unauthorized): it is not the bot's "
            f"current token (was it reset?). Get a new one at {WHERE_TOKENS_ARE_MADE} and put "
            "it in DISCORD_TOKEN"
        )


class DiscordUnreachableError(Exception):
    """Discord could not be asked about the token (the network, an outage, a wrong
    DISCORD_API_BASE_URL); the message says what happened."""


@dataclass(frozen=True)
class BotIdentity:
    """Who Discord says the token belongs to (``GET /users/@me``)."""

    id: int
    name: str


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be a bot token, judged by its shape alone, or None. Never quotes
    the token."""
    how = f"copy it again from {WHERE_TOKENS_ARE_MADE}"
    if any(character.isspace() for character in token):
        return (
            "DISCORD_TOKEN does not look like a bot token: it holds a space (a comment or a "
            f"second word after the token?); {how}"
        )
    parts = token.split(".")
    if len(parts) != 3 or not all(TOKEN_PART.fullmatch(part) for part in parts):
        return (
            "DISCORD_TOKEN does not look like a bot token (three parts of letters, digits, - and _"
            f" separated by dots; this is {len(token)} characters in {len(parts)} parts); {how}"
        )
    try:
        client_id_from_token(token)
    except NoClientIdError:
        return (
            "DISCORD_TOKEN does not look like a bot token (its first part should be the bot's id "
            f"in base64); {how}"
        )
    return None


async def ask_discord(token: str) -> BotIdentity:
    """Who the token is, asked of Discord (or of ``DISCORD_API_BASE_URL``, as set with
    ``bot.fleet.endpoints.apply_endpoints``) the way discord.py logs in: ``GET /users/@me``. Raises
    ``TokenRefusedError`` on a 401, ``DiscordUnreachableError`` when there is no answer."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        async with asyncio.timeout(ASK_DISCORD_TIMEOUT):
            data = await http.static_login(token)
    except discord.LoginFailure:
        raise TokenRefusedError from None
    except TimeoutError:
        raise DiscordUnreachableError(
            f"Discord did not answer within {ASK_DISCORD_TIMEOUT:g} s"
        ) from None
    except (OSError, aiohttp.ClientError, discord.HTTPException) as error:
        raise DiscordUnreachableError(str(error).splitlines()[0] or type(error).__name__) from None
    finally:
        await http.close()
    return BotIdentity(int(data["id"]), str(data["username"]))


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
    # SQLite writes the file and, in WAL mode, creates files beside it. The file is checked as
    # the bot checks it (a real open for writing: os.access says yes to root on a read-only
    # file); the folder is checked without creating anything in it.
    check_file_writable(path)
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
    fcntl = file_locks()
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


def summary(
    settings: Settings,
    database: DatabaseState,
    env_files: Sequence[Path] | Path | None,
    identity: BotIdentity | None = None,
    invite: str | None = None,
) -> list[str]:
    """What the bot would run with, one setting a line; secrets are described, never shown.
    ``env_files``: the settings files read; ``identity`` and ``invite``: what Discord said of the
    token (``--online``), and the link that adds that bot."""
    try:
        credential_state = f"set (bot user id {client_id_from_token(settings.token)})"
    except NoClientIdError:
        credential_state = (
            "set, but it does not look like a bot token: was it copied from the Bot tab?"
        )
    if identity is not None:
        credential_state = f"set: Discord knows it as the bot {identity.name} (id {identity.id})"
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
    files = [env_files] if isinstance(env_files, Path) else list(env_files or ())
    source = " and ".join(["the environment", *(str(path) for path in files)])
    asked = (
        "Discord accepted the token."
        if identity is not None
        else "Discord was not contacted (--online asks it who the token is)."
    )
    lines = [
        f"Settings are valid (read from {source}); {asked}",
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
    if invite is not None:
        lines.append(f"  invite link             {invite}")
    return lines


def _shown_url(url: str | None) -> str:
    """``url`` without a password a proxy's address may carry."""
    if url is None:
        return "not set (Discord itself)"
    parsed = urlsplit(url)
    if parsed.password is None:
        return url
    host = parsed.netloc.rpartition("@")[2]
    return urlunsplit(parsed._replace(netloc=f"{parsed.username}:***@{host}"))
