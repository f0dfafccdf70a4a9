"""The database file itself: checks before SQLite opens it, one clear line for each way it can be
unusable, and the lock that keeps a second Game Night process off it."""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class UnusableDatabaseError(Exception):
    """The database cannot be used as it is. The message is one line that names
    ``GAMENIGHT_DATABASE``, says what is wrong and what to do."""

    def __init__(self, path: Path | str, problem: str, remedy: str) -> None:
        super().__init__(f"GAMENIGHT_DATABASE is {path}: {problem}; {remedy}")


def check_database_path(path: Path) -> None:
    """Refuse a path SQLite could not make a database of, before anything is created."""
    problem = _path_problem(path)
    if problem is not None:
        raise problem


def _path_problem(path: Path) -> UnusableDatabaseError | None:
    if path.is_dir():
        return UnusableDatabaseError(
            path,
            "that is a folder",
            f"set GAMENIGHT_DATABASE to a file path such as {path / 'gamenight.sqlite3'}",
        )
    if not path.parent.is_dir():
        return UnusableDatabaseError(
            path,
            f"the folder {path.parent} does not exist",
            "create it, or choose a file in an existing folder",
        )
    return None


def unusable_because_of(path: Path | str, error: sqlite3.Error | OSError) -> UnusableDatabaseError:
    """The one-line explanation of an error SQLite or the OS gave while opening the database."""
    if isinstance(error, OSError):
        if error.errno == errno.ENOENT and (problem := _path_problem(Path(path))) is not None:
            return problem
        if error.errno in {errno.EROFS, errno.EACCES, errno.EPERM}:
            return _not_writable(path, error.strerror or str(error))
        return _cannot_open(path, error.strerror or str(error))
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return damaged(path, str(error))
    if name.startswith("SQLITE_READONLY"):
        return _not_writable(path, str(error))
    return _cannot_open(path, str(error))


def damaged(path: Path | str, detail: str) -> UnusableDatabaseError:
    """``detail``: SQLite's error, or the report of ``PRAGMA quick_check`` (of which the first
    finding is kept, to stay on one line)."""
    findings = [line for line in detail.splitlines() if line and not line.startswith("***")]
    return UnusableDatabaseError(
        path,
        f"it is not a SQLite database, or it is damaged ({findings[0] if findings else detail})",
        "restore it from a backup, or move it aside so that the bot starts a new one",
    )


def newer_schema(path: Path | str, version: int, known: int) -> UnusableDatabaseError:
    """The error for a database whose schema ``version`` is newer than the ``known`` one."""
    return UnusableDatabaseError(
        path,
        f"its schema is version {version}, newer than this Game Night knows ({known}), so it was"
        " left untouched",
        "run the newer Game Night that wrote it, or restore a backup made before that upgrade",
    )


def _not_writable(path: Path | str, detail: str) -> UnusableDatabaseError:
    return UnusableDatabaseError(
        path,
        f"the bot cannot write there ({detail})",
        "put the database on a writable disk, or let the bot write to the file and its folder",
    )


def _cannot_open(path: Path | str, detail: str) -> UnusableDatabaseError:
    return UnusableDatabaseError(
        path, f"it cannot be opened ({detail})", "check the path and its permissions"
    )


@contextmanager
def lock_database(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``<database>.lock`` while the body runs, so that a second
    process on the same database stops at once instead of answering every interaction twice.

    The OS releases the lock when the process ends, however it ends (SIGKILL included). The file
    stays behind on purpose: deleting it would let a process that had just opened it lock a file
    that no longer has a name while another locks a new one."""
    check_database_path(path)
    lock_path = path.with_name(path.name + ".lock")
    try:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise unusable_because_of(path, error) from error
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(descriptor, 20, 0).decode("ascii", "replace").strip()
            raise UnusableDatabaseError(
                path,
                f"another Game Night process{f' (pid {holder})' if holder.isdigit() else ''}"
                " is using it",
                "stop that one first, or give each bot its own GAMENIGHT_DATABASE",
            ) from None
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(descriptor)  # releases the lock
