"""Start-up and shutdown of ``python -m bot``: one process per database, one clear line for a
database it cannot use, a clean stop on SIGTERM and SIGINT, migrations run once."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, Storage
from emulator import Emulator, Fault
from tests.cogs.helpers import button_id
from tests.conftest import SIGNING_KEY

ROOT = Path(__file__).resolve().parents[2]


def bot_environment(database: Path, emulator: Emulator | None = None) -> dict[str, str]:
    """Settings for ``python -m bot``; without an emulator, Discord's URLs lead nowhere."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LC_ALL": "C",
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": emulator.token if emulator else "not-a-token",
        "GAMENIGHT_SIGNING_KEY": SIGNING_KEY.hex(),
        "GAMENIGHT_DATABASE": str(database),
        "DISCORD_API_BASE_URL": emulator.api_base_url if emulator else "http://127.0.0.1:9/api/v10",
        "DISCORD_GATEWAY_URL": emulator.gateway_url if emulator else "ws://127.0.0.1:9/gateway",
        "GAMENIGHT_TIME_SCALE": "0.04",
    }


def start_bot_process(
    emulator: Emulator, database: Path, log: Path, **settings: str
) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=database.parent,
            env={**bot_environment(database, emulator), **settings},
            stdout=output,
            stderr=subprocess.STDOUT,
        )


async def wait_for_exit(process: subprocess.Popen[bytes], timeout: float) -> int:  # noqa: ASYNC109
    return await asyncio.to_thread(process.wait, timeout)


async def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        await wait_for_exit(process, 10)


async def connected_and_synced(emulator: Emulator) -> None:
    await emulator.wait_for_bot(30)
    await emulator.wait_until(lambda: emulator.synced_commands or None, 30, lambda: "sync")


def one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith("error: GAMENIGHT_DATABASE is "), stderr
    return stderr


# -- one process per database --------------------------------------------------------------------


async def test_a_second_process_on_the_same_database_refuses_to_start(
    emulator: Emulator, tmp_path: Path
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    member = guild.add_member("member")
    database = tmp_path / "bot.sqlite3"
    log = tmp_path / "bot.log"
    first = start_bot_process(emulator, database, log)
    try:
        await connected_and_synced(emulator)
        identified = emulator.gateway.identify_count

        second = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env=bot_environment(database, emulator),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, stderr = await asyncio.wait_for(second.communicate(), 30)
        assert second.returncode == 2
        line = one_error_line(stderr.decode())
        assert str(database) in line
        assert f"another Game Night process (pid {first.pid}) is using it" in line
        assert emulator.gateway.identify_count == identified, "the second never reached Discord"

        assert first.poll() is None
        assert "No games finished" in (await (await member.slash("stats")).reply(10)).content

        first.send_signal(signal.SIGKILL)
        await wait_for_exit(first, 10)
        await emulator.wait_until(lambda: not emulator.bot_connected or None, 10, lambda: "drop")
        first = start_bot_process(emulator, database, log)  # the lock went with the process
        await emulator.wait_for_bot(30)
        assert "No games finished" in (await (await member.slash("stats")).reply(10)).content
    finally:
        await stop(first)


async def test_the_bot_process_freezes_its_start_up_heap_once_warm(
    emulator: Emulator, tmp_path: Path
):
    # What start-up built stays out of later garbage collections (long pauses while games draw).
    database = tmp_path / "bot.sqlite3"
    log = tmp_path / "bot.log"
    process = start_bot_process(emulator, database, log, GAMENIGHT_LOG_LEVEL="DEBUG")
    try:
        await connected_and_synced(emulator)
        frozen = await emulator.wait_until(
            lambda: re.search(r"start-up heap frozen: (\d+) objects", log.read_text()),
            30,
            lambda: "the heap frozen",
        )
        assert int(frozen[1]) > 50_000  # modules, fonts, palettes: far more than a few objects
    finally:
        await stop(process)


# -- a database the bot cannot use ---------------------------------------------------------------


def make_database(path: Path) -> None:
    async def create() -> None:
        async with Storage.open(path) as storage:
            await storage.set_meta("made by", "the test")

    asyncio.run(create())


def not_sqlite(folder: Path) -> Path:
    path = folder / "bot.sqlite3"
    path.write_text("DISCORD_TOKEN=this is a .env file, not a database\n" * 200)
    return path


def damaged_sqlite(folder: Path) -> Path:
    path = folder / "bot.sqlite3"
    make_database(path)
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("PRAGMA journal_mode = DELETE")
        page_size = raw.execute("PRAGMA page_size").fetchone()[0]
        pages = raw.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 3
    data = bytearray(path.read_bytes())
    data[page_size : 3 * page_size] = b"\xa5" * (2 * page_size)  # page 1 (the header) survives
    path.write_bytes(bytes(data))
    return path


def rows_out_of_order(folder: Path) -> Path:
    """A SQLite file that opens, but whose first table page lists its rows out of order."""
    path = folder / "bot.sqlite3"
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
        raw.executemany("INSERT INTO notes VALUES (?)", [(f"note {i}",) for i in range(10)])
        raw.commit()
        page_size = raw.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    pointers = page_size + 8  # page 2 is the table's only page, a leaf: swap its first two cells
    assert data[page_size] == 0x0D
    data[pointers : pointers + 4] = (
        data[pointers + 2 : pointers + 4] + data[pointers : pointers + 2]
    )
    path.write_bytes(bytes(data))
    return path


def newer_schema(folder: Path) -> Path:
    path = folder / "bot.sqlite3"
    make_database(path)
    with closing(sqlite3.connect(path)) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    return path


def a_folder(folder: Path) -> Path:
    path = folder / "bot.sqlite3"
    path.mkdir()
    return path


def in_a_missing_folder(folder: Path) -> Path:
    return folder / "nowhere" / "bot.sqlite3"


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (in_a_missing_folder, "the folder {folder}/nowhere does not exist; create it"),
        (a_folder, "that is a folder; set GAMENIGHT_DATABASE to a file path"),
        (not_sqlite, "it is not a SQLite database, or it is damaged (file is not a database)"),
        (damaged_sqlite, "it is not a SQLite database, or it is damaged (database disk image"),
        (rows_out_of_order, "or it is damaged (On tree page 2 cell 0: Rowid 2 out of order)"),
        (newer_schema, f"its schema is version {len(MIGRATIONS) + 5}, newer than this Game Night"),
    ],
)
def test_a_bad_database_stops_start_up_with_one_line(tmp_path: Path, make, says: str):
    database = make(tmp_path)
    before = database.read_bytes() if database.is_file() else None
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=bot_environment(database),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    line = one_error_line(result.stderr)
    assert line.startswith(f"error: GAMENIGHT_DATABASE is {database}: ")
    assert says.format(folder=tmp_path) in line
    if before is not None:
        assert database.read_bytes() == before, "an unusable database is left as it was"
    assert not database.with_name(database.name + "-wal").exists()


def read_only_mount(folder: Path) -> list[str]:
    """A command prefix that runs a command with ``folder`` bind-mounted read-only in a private
    mount namespace: a real read-only file system, which stops root too (permission bits and a
    ``chmod`` would not). Root can make the namespace; other users need user namespaces."""
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    for unshare in (
        ["unshare", "--mount", "--propagation", "private"],
        ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private"],
    ):
        prefix = [*unshare, "sh", "-c", script, str(folder)]
        probe = subprocess.run(
            [*prefix, "touch", str(folder / "probe")],
            capture_output=True,
            text=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"},
            check=False,
        )
        if "Read-only file system" in probe.stderr:
            return prefix
    pytest.fail("this machine cannot mount a folder read-only (unshare --mount was refused)")


def test_a_database_on_a_read_only_file_system_stops_start_up_with_one_line(tmp_path: Path):
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "bot.sqlite3"
    make_database(database)  # made by an earlier run; the disk has been remounted read-only
    before = database.read_bytes()
    result = subprocess.run(
        [*read_only_mount(folder), sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=bot_environment(database),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    line = one_error_line(result.stderr)
    assert line.startswith(f"error: GAMENIGHT_DATABASE is {database}: ")
    assert "the bot cannot write there (Read-only file system)" in line
    assert database.read_bytes() == before


# -- stopping ------------------------------------------------------------------------------------


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_lets_answers_under_way_finish_and_closes_the_database(
    emulator: Emulator, tmp_path: Path, stop_signal: signal.Signals
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    database = tmp_path / "bot.sqlite3"
    log = tmp_path / "bot.log"
    process = start_bot_process(emulator, database, log)
    try:
        await connected_and_synced(emulator)
        lobby = await (await host.slash("loteria start", interval=5)).reply(10)
        await (await host.click(lobby, button_id(lobby, "join"))).reply(10)
        await (await host.click(lobby, button_id(lobby, "start"))).reply(10)
        await channel.wait_for_message(lambda m: "card 2 of 54" in m.content, timeout=10)

        # The tabla's follow-up is held up by a rate limit: the answer is under way when the
        # signal comes, and has two seconds to go.
        held_up = emulator.inject_fault(
            Fault(429, method="POST", route="/webhooks/{webhook_id}/{webhook_token}", retry_after=2)
        )
        showing = await host.slash("loteria tabla")
        await showing.acknowledgement()
        await emulator.wait_until(
            lambda: emulator.faults.hits(held_up) or None, 10, lambda: "the rate limit"
        )
        emulator.faults.remove(held_up)
        process.send_signal(stop_signal)

        reply = await showing.reply(15)
        assert reply.attachments
        assert await wait_for_exit(process, 20) == 0, log.read_text()
    finally:
        await stop(process)
    # Closed, not killed: the last connection checkpointed the WAL into the database and
    # removed it, which a killed process leaves behind.
    assert not database.with_name(database.name + "-wal").exists()
    with closing(sqlite3.connect(database)) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert raw.execute("SELECT status FROM games").fetchone()[0] == "running"
    assert "Traceback" not in log.read_text()


async def test_a_stop_signal_while_connecting_exits_quietly(tmp_path: Path):
    """Discord is slow to answer the login (here: never answers) when systemd stops the bot."""
    connections: list[asyncio.StreamWriter] = []

    async def never_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(writer)

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    database = tmp_path / "bot.sqlite3"
    environment = bot_environment(database) | {
        "DISCORD_API_BASE_URL": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
    }
    async with server:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env=environment,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            for _ in range(300):
                if connections:
                    break
                await asyncio.sleep(0.1)
            assert connections, "the bot never tried to log in"
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 20)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            for writer in connections:
                writer.close()
    assert process.returncode == 0
    assert "Traceback" not in stderr.decode()
    assert not database.with_name(database.name + "-wal").exists()


# -- migrations ----------------------------------------------------------------------------------


async def test_start_up_migrates_once(start_bot, monkeypatch: pytest.MonkeyPatch):
    migrations = []
    migrate = Storage.migrate

    async def counting_migrate(self: Storage) -> int:
        migrations.append(await migrate(self))
        return migrations[-1]

    monkeypatch.setattr(Storage, "migrate", counting_migrate)
    await start_bot()
    assert migrations == [len(MIGRATIONS)]
