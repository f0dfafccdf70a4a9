"""A throw-away PostgreSQL server for the tests, from the machine's server binaries (Debian's
``postgresql`` package): ``initdb`` in a temporary folder, ``pg_ctl start`` listening only on a
Unix socket in that folder, a fresh database per test, everything removed at the end."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg

HOW_TO_INSTALL = (
    "the PostgreSQL server binaries (initdb, pg_ctl) were not found; the storage and game tests "
    "run on a real PostgreSQL server. Install them with `apt-get install -y postgresql` "
    "(Debian, Ubuntu; .ci/run does this), or put a server's pg_config on PATH"
)
# Speed over durability: the server's data is thrown away after the tests.
SETTINGS = """
listen_addresses = ''
unix_socket_directories = '{socket_dir}'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 300
"""


class PostgresUnavailableError(RuntimeError):
    pass


def server_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: ``pg_config --bindir``, or else Debian's
    newest ``/usr/lib/postgresql/*/bin``."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        result = subprocess.run(
            [pg_config, "--bindir"], capture_output=True, text=True, check=False
        )
        if result.returncode == 0:
            candidates.append(Path(result.stdout.strip()))
    candidates += [
        Path(found)
        for found in sorted(
            glob.glob("/usr/lib/postgresql/*/bin"),
            key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
            reverse=True,
        )
    ]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise PostgresUnavailableError(HOW_TO_INSTALL)


class PostgresServer:
    def __init__(self, bindir: Path, base: Path, owner: str | None) -> None:
        self.bindir = bindir
        self.base = base
        self.data = base / "data"
        self.log = base / "server.log"
        self._owner = owner  # the user the server runs as, when we are root
        self._names = itertools.count(1)

    @classmethod
    def start(cls) -> PostgresServer:
        bindir = server_bindir()
        base = Path(tempfile.mkdtemp(prefix="gamenight-pg-"))
        owner: str | None = None
        if os.geteuid() == 0:  # initdb refuses to run as root
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailableError(
                    "running as root, the test server needs the `postgres` user to run as; "
                    "it comes with `apt-get install -y postgresql`"
                ) from None
            os.chown(base, user.pw_uid, user.pw_gid)
            owner = user.pw_name
        server = cls(bindir, base, owner)
        server._run(
            "initdb",
            "-D",
            str(server.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
        )
        with (server.data / "postgresql.conf").open("a") as conf:
            conf.write(SETTINGS.format(socket_dir=base))
        server._pg_ctl("start")
        return server

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self._owner is not None:
            command = ["runuser", "-u", self._owner, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise PostgresUnavailableError(
                f"{program} failed ({result.returncode}): {result.stderr.strip()}\n{log[-2000:]}"
            )

    def _pg_ctl(self, action: str, *args: str) -> None:
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", *args, action
        )

    @property
    def socket_path(self) -> Path:
        return self.base / ".s.PGSQL.5432"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.base}"

    def restart(self) -> None:
        self._pg_ctl("restart", "-m", "fast")

    def stop(self) -> None:
        try:
            self._pg_ctl("stop", "-m", "fast")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    async def create_database(self) -> str:
        """A new empty database; returns its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await admin.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        name = database_name(url)
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    async def terminate_connections(self, url: str) -> int:
        """Cut every connection to the database (as a crash of the network or the server's
        operator would); returns how many were cut."""
        name = database_name(url)
        admin = await asyncpg.connect(self.url())
        try:
            cut = await admin.fetchval(
                "SELECT COUNT(*) FILTER (WHERE pg_terminate_backend(pid))"
                " FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                name,
            )
        finally:
            await admin.close()
        return int(cut)


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")
