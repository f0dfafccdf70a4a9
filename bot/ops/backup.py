"""``gamenight backup FILE``: a consistent copy of the SQLite database, taken while the bot runs.

A plain copy of a database in WAL mode can miss the commits still in ``-wal``, or catch the file
half-written. SQLite's online backup API copies one consistent snapshot instead: it reads in a
single read transaction, which in WAL mode never blocks the bot's writes (nor is blocked by
them). The backup only reads, so it does not take ``<database>.lock``: the bot keeps running.

The copy is written beside its final name, checked (``PRAGMA integrity_check``), switched to a
rollback journal so that it is one self-contained file, synced to disk, and only then renamed
into place: an interrupted backup never leaves a half-written file under the name asked for.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import tempfile
from contextlib import closing, suppress
from dataclasses import dataclass
from pathlib import Path


class BackupError(Exception):
    """The backup was not made; the message is one line saying why and what to do."""


class BackupRefusedError(BackupError):
    """The backup was refused before anything was copied: there is no database where it was
    asked for, or ``FILE`` cannot be (or must not be) written (``gamenight backup`` exits 2)."""


# What a path that is not a regular file is, for the refusal (lstat's file type).
FILE_TYPES = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


@dataclass(frozen=True)
class BackupReport:
    """A backup made: from where, to where, its size in bytes and the copy's schema version."""

    source: Path
    target: Path
    size: int
    schema_version: int


def backup_database(source: Path, target: Path, *, force: bool = False) -> BackupReport:
    """Copy the database at ``source`` to ``target`` (refused if ``target`` exists, unless
    ``force``; only ever a regular file is replaced: never a device such as ``/dev/null``, a
    FIFO or a symbolic link). Raises ``BackupRefusedError`` before copying anything, else
    ``BackupError``; ``source`` is never written to. The copy is made 0600."""
    if not source.is_file():
        raise BackupRefusedError(f"there is no database at {source} (check GAMENIGHT_DATABASE)")
    if target.is_dir():
        raise BackupRefusedError(f"{target} is a folder; give the backup a file name inside it")
    if not target.parent.is_dir():
        raise BackupRefusedError(f"the folder {target.parent} does not exist; create it first")
    try:
        kind = stat.S_IFMT(target.lstat().st_mode)
    except FileNotFoundError:
        kind = None
    if kind is not None:
        if kind != stat.S_IFREG:
            raise BackupRefusedError(
                f"{target} is {FILE_TYPES.get(kind, 'not a regular file')}, not a file a backup "
                "may replace (even with --force); choose another name"
            )
        if _same_file(source, target):
            raise BackupRefusedError(f"{target} is the database itself; choose another file")
        if not force:
            raise BackupRefusedError(
                f"{target} already exists; choose another name, or use --force"
            )
    try:
        handle, temporary_name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".partial", dir=target.parent
        )
    except OSError as error:
        raise BackupRefusedError(
            f"cannot write in the folder {target.parent} ({error.strerror or error}); choose a "
            "folder this user may write"
        ) from None
    os.close(handle)
    temporary = Path(temporary_name)
    try:
        version = _copy(source, temporary)
        _fsync(temporary)
        temporary.replace(target)
        _fsync(target.parent)
    except OSError as error:  # a full disk, a folder that went away...
        with suppress(FileNotFoundError):
            temporary.unlink()
        raise BackupError(f"cannot write the copy {target} ({error.strerror or error})") from None
    except BaseException:
        with suppress(FileNotFoundError):
            temporary.unlink()
        raise
    return BackupReport(source, target, target.stat().st_size, version)


def _copy(source: Path, temporary: Path) -> int:
    """The online backup of ``source`` into the empty file ``temporary``, checked; returns the
    copy's schema version."""
    try:
        # Read-only: the backup must never change the database it copies.
        reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open the database {source}: {error}") from error
    with closing(reader), closing(sqlite3.connect(temporary)) as copy:
        try:
            reader.execute("PRAGMA busy_timeout = 30000")
            reader.backup(copy)  # every page in one step: one snapshot
        except sqlite3.Error as error:
            raise BackupError(f"cannot copy the database {source}: {error}") from error
        try:
            # The copy keeps the source's WAL mode in its header; a rollback journal makes it
            # one file, whole on its own.
            copy.execute("PRAGMA journal_mode = DELETE")
            verdict = [str(row[0]) for row in copy.execute("PRAGMA integrity_check")]
            version = int(copy.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.Error as error:  # a full disk, say
            raise BackupError(f"cannot write the copy of {source}: {error}") from error
        if verdict != ["ok"]:
            raise BackupError(
                f"the copy of {source} failed its integrity check ({verdict[0]}); the database "
                "itself may be damaged: stop the bot and run PRAGMA integrity_check on it"
            )
        return version


def _same_file(first: Path, second: Path) -> bool:
    try:
        return first.samefile(second)
    except OSError:
        return False


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
