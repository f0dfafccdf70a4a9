"""The database file itself: checks before SQLite opens it, one clear line for each way it can be
unusable, the lock that keeps a second Game Night process off it, and the files' modes.

**File modes.** The database holds the seeds of running games (every future call), so the bot
creates it, and its ``.lock``, readable and writable by its own user only (0600), whatever the
umask: SQLite gives the ``-wal``, ``-shm`` and ``-journal`` files it creates beside a database the
database's own mode, so they are 0600 too. A file that is already there keeps its mode.

**Locks** are POSIX file locks (``fcntl.flock``). Without them (Windows has no ``fcntl``) the
commands that hold the database say so in one line; everything else (``--help``, ``gamenight
sandbox``, whose throw-away database needs no lock) works.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

PRIVATE = 0o600  # the mode of the files the bot creates: the database and its lock
SQLITE_HEADER = b"SQLite format 3\x00"


class UnusableDatabaseError(Exception):
    """The database cannot be used as it is. The message is one line that names
    ``GAMENIGHT_DATABASE``, says what is wrong and what to do."""

    def __init__(self, path: Path | str, problem: str, remedy: str) -> None:
        super().__init__(f"GAMENIGHT_DATABASE is {path}: {problem}; {remedy}")


class NoFileLocksError(UnusableDatabaseError):
    """This system is not POSIX: no file locks (``fcntl``), which keep a second process off the
    database (and no POSIX signals, which stop the bot cleanly)."""

    def __init__(self) -> None:
        Exception.__init__(
            self,
            "the bot needs a POSIX system (Linux, macOS...): Python's fcntl module, whose file "
            "locks keep a second process off the database, is missing here (as on Windows); run "
            "the bot on Linux or macOS, or on Windows in WSL or in the container "
            "(gamenight sandbox works here)",
        )


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


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` starts as a SQLite database does (an empty file is one too: SQLite makes
    a new database of it), read without SQLite: nothing is created beside it. Raises
    ``UnusableDatabaseError`` when it cannot be read."""
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise unusable_because_of(path, error) from error
    return header in {b"", SQLITE_HEADER}


def check_file_writable(path: Path) -> None:
    """Refuse an existing database file this process cannot write (a read-only mount, a file of
    another user, an immutable file): SQLite would open it read-only without a word, and the bot
    would fail at its first write. Tried with a real ``open``, which asks the kernel what this
    process may do (``os.access`` asks for the real user, and says yes to root where a mount or
    an attribute says no). Opens nothing for long and changes nothing. Not for a database this
    process already has open: closing a descriptor drops SQLite's locks on the file."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    except OSError as error:
        raise unusable_because_of(path, error) from error
    os.close(descriptor)


def create_private(path: Path) -> bool:
    """Create ``path`` empty with mode 0600 (whatever the umask) unless it exists; returns
    whether it was created (``OSError`` if it cannot be). An empty file is a new SQLite database
    to SQLite."""
    # (O_CLOEXEC and fchmod are POSIX's: the sandbox creates its database on Windows too.)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags, PRIVATE)
    except FileExistsError:
        return False
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(descriptor, PRIVATE)  # a umask such as 0277 takes bits off 0600 too
    finally:
        os.close(descriptor)
    return True


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
    that no longer has a name while another locks a new one. Raises ``UnusableDatabaseError``
    when the database is in use, or is a file this process cannot write."""
    fcntl = file_locks()
    check_database_path(path)
    lock_path = path.with_name(path.name + ".lock")
    try:
        create_private(lock_path)
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CLOEXEC)
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
        # The one process that may write the database must be able to: a file it cannot write
        # is refused now, as a folder it cannot write is (checked with the lock held, so that no
        # other connection of the bot's is open on the file).
        check_file_writable(path)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def file_locks() -> ModuleType:
    """The ``fcntl`` module, imported when a lock is first needed (so that the rest of the bot
    imports on a system without it); ``NoFileLocksError`` where there is none."""
    try:
        import fcntl  # POSIX only: imported where a lock is taken
    except ImportError:
        raise NoFileLocksError from None
    return fcntl
