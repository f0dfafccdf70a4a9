"""What an operator meets on the first night: each mistake they can make (a token Discord refuses,
a misspelt setting, a bad URL, a folder the bot cannot write...) is one line on stderr and exit
code 2, never a traceback (which exits 1, and systemd restarts a bot that exits 1 every 10 s);
misspelt settings are warned about; the database's files are its user's alone. Each through the
real command line, in a process of its own.

The tests run as root, whom file modes do not stop: a folder or file "this user cannot write" is
made real with ``as_an_ordinary_user`` (root without its power to ignore file modes) or a
read-only mount (``tests.bot.test_startup.read_only_mount``), never by trusting ``os.access``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import pytest

from bot.ops.invite import invite_url
from emulator import Emulator
from tests.bot.ops.test_cli import TOKEN, environment
from tests.bot.test_startup import (
    ROOT,
    bot_environment,
    connected_and_synced,
    make_database,
    read_only_mount,
    stop,
    wait_for_exit,
)
from tests.postgres_server import PostgresServer

RESET_TOKEN = "> your application > Bot > Reset Token"


def run(
    args: list[str], cwd: Path, env: dict[str, str], prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def run_async(
    args: list[str], cwd: Path, env: dict[str, str], prefix: list[str] | None = None
) -> tuple[int, str, str]:
    """``run``, without blocking the event loop the emulator answers on."""
    process = await asyncio.create_subprocess_exec(
        *(prefix or []),
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def start(
    args: list[str], cwd: Path, env: dict[str, str], log: Path, umask: int = -1
) -> subprocess.Popen[bytes]:
    """``python -m bot ARGS`` in the background, its stderr in ``log``."""
    with log.open("wb") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "bot", *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=output,
            umask=umask,
        )


def names_in(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def one_line(code: int, stderr: str, starts: str = "error: ") -> str:
    """The promise: exit code 2 and one line on stderr, no traceback."""
    assert "Traceback" not in stderr
    assert (code, stderr.count("\n")) == (2, 1), stderr
    assert stderr.startswith(starts), stderr
    return stderr


def as_an_ordinary_user() -> list[str]:
    """A command prefix that runs a command without root's power to ignore file modes
    (CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, dropped for good with ``setpriv``), so that a
    folder of mode 0555 or a file of mode 0444 stops it as it stops any user. Empty for a user
    who is not root: modes stop them already."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("setpriv (util-linux) is needed to run a command without root's file powers")
    prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    with tempfile.TemporaryDirectory() as folder:
        closed = Path(folder) / "closed"
        closed.write_text("root's alone")
        closed.chmod(0o000)
        probe = subprocess.run(
            [*prefix, "cat", str(closed)], capture_output=True, text=True, check=False
        )
    if "Permission denied" not in probe.stderr:
        pytest.fail(f"setpriv could not drop root's file powers here: {probe.stderr!r}")
    return prefix


def read_only_file(path: Path) -> list[str]:
    """A command prefix that runs a command with the file ``path`` bind-mounted read-only in a
    private mount namespace (its folder stays writable): a file no one, root included, may
    write, as on a mount made read-only or a file of another user."""
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    prefix = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(path)]
    probe = subprocess.run(
        [*prefix, "sh", "-c", ': >> "$1"', "sh", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if "Read-only file system" not in probe.stderr:
        pytest.fail(f"this machine cannot mount a file read-only: {probe.stderr!r}")
    return prefix


# -- the token -----------------------------------------------------------------------------------


def refused(emulator: Emulator) -> str:
    """A token of the right shape, for the right bot, that is not its current one (reset)."""
    head, stamp, _ = emulator.token.split(".")
    return f"{head}.{stamp}.{'x' * 38}"


async def test_a_token_discord_refuses_stops_the_bot_with_one_line(
    emulator: Emulator, tmp_path: Path
):
    database = tmp_path / "bot.sqlite3"
    token = refused(emulator)
    env = {**bot_environment(database, emulator), "DISCORD_TOKEN": token}
    code, _, err = await run_async(["run"], tmp_path, env)
    line = one_line(code, err)
    assert line.startswith("error: DISCORD_TOKEN was refused by Discord (401 Unauthorized)")
    assert RESET_TOKEN in line
    assert token not in line
    assert token.split(".")[2] not in line
    assert emulator.take_failures("unauthorized"), "Discord was asked"
    assert emulator.gateway.identify_count == 0
    assert names_in(tmp_path) == [], "a refused token touches no database"


async def test_a_token_with_bot_before_it_is_refused_before_asking_discord(
    emulator: Emulator, tmp_path: Path
):
    env = {**bot_environment(tmp_path / "bot.sqlite3", emulator)}
    for token in (f"Bot {emulator.token}", f"bot {emulator.token}"):
        for command in ("run", "check-config"):
            code, out, err = await run_async([command], tmp_path, {**env, "DISCORD_TOKEN": token})
            line = one_line(code, err)
            assert line.startswith("error: DISCORD_TOKEN starts with 'Bot ': set it to the token")
            assert RESET_TOKEN in line
            assert emulator.token not in line
            assert out == ""
    assert emulator.requests == []


@pytest.mark.emulator(session_start_limit=1)
async def test_a_token_reset_while_the_bot_runs_stops_it_with_one_line(
    emulator: Emulator, tmp_path: Path
):
    """Discord resets the token (here: the IDENTIFY after the session start limit) and closes
    the gateway with 4004: the bot stops with exit code 2, so systemd does not restart it."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    database = tmp_path / "bot.sqlite3"
    log = tmp_path / "bot.log"
    process = start(["run"], tmp_path, bot_environment(database, emulator), log)
    try:
        await connected_and_synced(emulator)
        emulator.invalidate_session(resumable=False)  # the bot must IDENTIFY again: one too many
        code = await wait_for_exit(process, 60)
    finally:
        await stop(process)
    assert emulator.take_failures("session_start_limit")
    emulator.take_failures("unauthorized")  # requests still under way with the old token
    text = await asyncio.to_thread(log.read_text)
    assert "Traceback" not in text
    errors = [line for line in text.splitlines() if line.startswith("error: ")]
    assert (code, len(errors)) == (2, 1), text
    assert errors[0].startswith("error: DISCORD_TOKEN was refused by Discord")
    assert text.endswith(errors[0] + "\n")


async def test_check_config_online_asks_discord_who_the_token_is(
    emulator: Emulator, tmp_path: Path
):
    env = bot_environment(tmp_path / "bot.sqlite3", emulator)
    code, out, err = await run_async(["check-config", "--online"], tmp_path, env)
    assert (code, err) == (0, ""), err
    assert "Discord accepted the token" in out
    user = emulator.bot_user
    assert (
        f"DISCORD_TOKEN           set: Discord knows it as the bot {user.name} (id {user.id})"
        in (out)
    )
    assert f"invite link             {invite_url(user.id)}" in out
    asked = [r.path for r in emulator.requests]
    assert asked == ["/users/@me"], asked
    assert emulator.token not in out

    code, out, err = await run_async(
        ["check-config", "--online"], tmp_path, {**env, "DISCORD_TOKEN": refused(emulator)}
    )
    assert one_line(code, err).startswith("error: DISCORD_TOKEN was refused by Discord")
    assert out == ""
    assert emulator.take_failures("unauthorized")

    # Without --online, Discord is not asked; nowhere to ask is a failure (1), not a verdict.
    asked = len(emulator.requests)
    assert (await run_async(["check-config"], tmp_path, env))[0] == 0
    nowhere = {**env, "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10"}
    code, out, err = await run_async(["check-config", "--online"], tmp_path, nowhere)
    assert (code, err.count("\n")) == (1, 1)
    assert err.startswith("error: could not ask Discord who DISCORD_TOKEN is: ")
    assert len(emulator.requests) == asked


# -- misspelt settings ---------------------------------------------------------------------------


def test_check_config_warns_of_misspelt_settings_with_the_nearest_name(tmp_path: Path):
    database = tmp_path / "bot.sqlite3"
    (tmp_path / ".env").write_text("GAMENIGHT_SHARD=auto\nGAMENIGHT_LOGLEVEL=DEBUG\n")
    env = environment(database, GAMENIGHT_RETENTON_DAYS="30", GAMENIGHT_COLOUR="blue")
    result = run(["check-config"], tmp_path, env)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "warning: GAMENIGHT_LOGLEVEL (in .env) is not a Game Night setting and is ignored; did "
        "you mean GAMENIGHT_LOG_LEVEL?",
        "warning: GAMENIGHT_SHARD (in .env) is not a Game Night setting and is ignored; did you "
        "mean GAMENIGHT_SHARDS?",
        "warning: GAMENIGHT_COLOUR (in the environment) is not a Game Night setting and is "
        "ignored; the settings are in .env.example",
        "warning: GAMENIGHT_RETENTON_DAYS (in the environment) is not a Game Night setting and "
        "is ignored; did you mean GAMENIGHT_RETENTION_DAYS?",
    ]
    assert "GAMENIGHT_RETENTION_DAYS not set (finished games are kept)" in result.stdout


def test_a_misspelt_name_is_named_before_the_error_it_causes(tmp_path: Path):
    env = environment(tmp_path / "bot.sqlite3", GAMENIGHT_SIGNING_KY="00" * 32)
    del env["GAMENIGHT_SIGNING_KEY"]
    for command in ("check-config", "run"):
        result = run([command], tmp_path, env)
        assert result.returncode == 2
        assert result.stderr.splitlines() == [
            "warning: GAMENIGHT_SIGNING_KY (in the environment) is not a Game Night setting and "
            "is ignored; did you mean GAMENIGHT_SIGNING_KEY?",
            result.stderr.splitlines()[1],
        ]
        assert result.stderr.splitlines()[1].startswith("error: GAMENIGHT_SIGNING_KEY is not set")


async def test_the_bot_warns_of_a_misspelt_setting_when_it_starts(
    emulator: Emulator, tmp_path: Path
):
    database = tmp_path / "bot.sqlite3"
    log = tmp_path / "bot.log"
    env = {**bot_environment(database, emulator), "GAMENIGHT_RETENTON_DAYS": "30"}
    process = start([], tmp_path, env, log)
    try:
        await connected_and_synced(emulator)
    finally:
        process.send_signal(signal.SIGTERM)
        await wait_for_exit(process, 30)
    text = await asyncio.to_thread(log.read_text)
    warned = [line for line in text.splitlines() if "GAMENIGHT_RETENTON_DAYS" in line]
    assert len(warned) == 1
    assert "WARNING" in warned[0]
    assert warned[0].endswith(
        "GAMENIGHT_RETENTON_DAYS (in the environment) is not a Game Night setting and is ignored;"
        " did you mean GAMENIGHT_RETENTION_DAYS?"
    )


# -- one line, exit 2 ----------------------------------------------------------------------------


BAD_URLS = [
    ("postgresql://bot:hunter2@db.example:99999/gamenight", "the port '99999' is not a number"),
    ("postgresql://bot:hunter2@db.example:54x2/gamenight", "the port '54x2' is not a number"),
    ("postgresql://bot:hunter2@db.example/gamenight?port=5²", "the port '5²' is not a number"),
    ("postgresql://bot:hunter2@[::1:5432/gamenight", "it is not a valid URL (Invalid IPv6 URL)"),
    ("postgresql://bot:hunter2@[::1]5432/gamenight", "'[::1]5432' is not [IPv6 address]:port"),
    ("postgresql://bot:hunter2@[::g]:5432/gamenight", "is not"),
]


@pytest.mark.parametrize(("url", "says"), BAD_URLS)
def test_a_postgresql_url_that_cannot_be_used_is_one_line(tmp_path: Path, url: str, says: str):
    source = tmp_path / "old.sqlite3"
    make_database(source)
    env = environment(tmp_path / "unused.sqlite3", GAMENIGHT_DATABASE=url)
    for args, starts in (
        (["check-config"], "error: GAMENIGHT_DATABASE is not a usable postgresql:// URL: "),
        (["run"], "error: GAMENIGHT_DATABASE is not a usable postgresql:// URL: "),
        (["migrate-db", str(source), url], "error: POSTGRESQL_URL is not a usable postgresql:// "),
    ):
        result = run(args, tmp_path, env)
        line = one_line(result.returncode, result.stderr, starts)
        assert says in line
        assert "hunter2" not in line
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old.sqlite3"], "no .lock left"


@pytest.mark.parametrize("shards", ["0-1/4²", "²/4", "0-²/4", "standby/²"])
def test_shards_in_superscript_digits_are_one_line(tmp_path: Path, shards: str):
    env = environment(tmp_path / "bot.sqlite3", GAMENIGHT_SHARDS=shards)
    for command in ("check-config", "run"):
        result = run([command], tmp_path, env)
        assert one_line(result.returncode, result.stderr).startswith("error: GAMENIGHT_SHARDS: ")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GAMENIGHT_METRICS_PORT", "80²"),
        ("GAMENIGHT_RETENTION_DAYS", "3⁰"),
        ("GAMENIGHT_DEV_GUILD_ID", "4²"),
    ],
)
def test_other_numbers_in_superscript_digits_are_one_line(tmp_path: Path, name: str, value: str):
    result = run(["run"], tmp_path, environment(tmp_path / "bot.sqlite3", **{name: value}))
    assert one_line(result.returncode, result.stderr).startswith(f"error: {name} ")


@pytest.mark.parametrize("command", ["run", "check-config", "backup", "invite", "rest-proxy"])
def test_a_settings_file_that_cannot_be_read_is_one_line(tmp_path: Path, command: str):
    args = {"backup": ["backup", "copy.sqlite3"], "rest-proxy": ["rest-proxy", "--port", "0"]}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
    settings = tmp_path / ".env"
    # Saved in Latin-1 by an editor: not UTF-8.
    settings.write_bytes(
        "DISCORD_TOKEN=x\n# the bot's token, from the Portal: año 2026\n".encode("latin-1")
    )
    result = run(args.get(command, [command]), tmp_path, env)
    line = one_line(result.returncode, result.stderr)
    assert line.startswith("error: cannot read the settings file .env: it is not UTF-8 text")

    # Readable by root only, and the bot runs as another user.
    settings.write_text(f"DISCORD_TOKEN={TOKEN}\n")
    settings.chmod(0o000)
    result = run(args.get(command, [command]), tmp_path, env, as_an_ordinary_user())
    line = one_line(result.returncode, result.stderr)
    assert line == (
        "error: cannot read the settings file .env (Permission denied); let the bot's user read "
        "it, or point --env-file elsewhere\n"
    )


def test_backup_into_a_folder_it_cannot_write_is_one_line(tmp_path: Path):
    database = tmp_path / "bot.sqlite3"
    make_database(database)
    env = {**environment(database)}
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o555)
    result = run(["backup", str(closed / "copy.sqlite3")], tmp_path, env, as_an_ordinary_user())
    line = one_line(result.returncode, result.stderr)
    assert line == (
        f"error: cannot write in the folder {closed} (Permission denied); choose a folder this "
        "user may write\n"
    )
    mounted = tmp_path / "mounted"
    mounted.mkdir()
    result = run(["backup", str(mounted / "copy.sqlite3")], tmp_path, env, read_only_mount(mounted))
    assert "(Read-only file system)" in one_line(result.returncode, result.stderr)
    assert list(closed.iterdir()) == list(mounted.iterdir()) == []


def test_the_sandbox_in_a_folder_it_cannot_write_is_one_line(tmp_path: Path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o555)
    quick = ["sandbox", "--players", "1", "--speed", "100"]
    result = run(quick, closed, env, as_an_ordinary_user())  # images under ./sandbox-images
    assert one_line(result.returncode, result.stderr) == (
        "error: cannot make a folder for the images under sandbox-images (Permission denied); "
        "choose another with --images DIR\n"
    )
    (tmp_path / "notes.txt").write_text("not a folder")
    for images in ("notes.txt", "notes.txt/images"):
        result = run([*quick, "--images", images], tmp_path, env)
        line = one_line(result.returncode, result.stderr)
        assert line.startswith(f"error: cannot make a folder for the images under {images} (")
        assert "Not a directory" in line
    assert result.stdout == "", "nothing started"


async def test_migrate_db_on_a_file_that_is_not_sqlite_is_one_line_and_leaves_nothing(
    tmp_path: Path, postgres_server: PostgresServer
):
    url = await postgres_server.create_database()
    try:
        for name in (".env", "notes.txt"):
            source = tmp_path / name
            source.write_text(f"DISCORD_TOKEN={TOKEN}\n")
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "migrate-db", str(source), url,
                cwd=tmp_path, env=environment(tmp_path / "bot.sqlite3"),
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            _, err = await asyncio.wait_for(process.communicate(), 60)
            assert process.returncode is not None
            line = one_line(process.returncode, err.decode())
            assert line == (
                f"error: GAMENIGHT_DATABASE is {source}: it is not a SQLite database; name the "
                "SQLite database to copy\n"
            )
        assert names_in(tmp_path) == [".env", "notes.txt"]
    finally:
        await postgres_server.drop_database(url)


async def test_an_http_endpoint_port_already_taken_is_one_line(emulator: Emulator, tmp_path: Path):
    """Another program (a node exporter...) already listens on the port asked for."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    env = {
        **bot_environment(tmp_path / "bot.sqlite3", emulator),
        "GAMENIGHT_METRICS_PORT": str(port),
    }
    try:
        code, _, err = await run_async(["run"], tmp_path, env)
    finally:
        taken.close()
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert (code, len(errors)) == (2, 1), err
    assert errors[0].startswith(
        f"error: GAMENIGHT_METRICS_PORT: the HTTP endpoint cannot listen on 127.0.0.1:{port} ("
    )
    assert err.endswith(errors[0] + "\n")
    assert emulator.gateway.identify_count == 0


# -- the database's files ------------------------------------------------------------------------


@pytest.mark.parametrize("make_read_only", ["mode 0444, the bot not root", "read-only mount"])
async def test_a_database_file_the_bot_cannot_write_is_refused_before_connecting(
    emulator: Emulator, tmp_path: Path, make_read_only: str
):
    """A restored backup left as root's, or a file on a mount made read-only: SQLite would open
    it read-only without a word, the bot would log in, sync its commands and fail at its first
    write (and, under systemd, again every 10 s)."""
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    database = tmp_path / "bot.sqlite3"
    await asyncio.to_thread(make_database, database)
    before = database.read_bytes()
    if make_read_only == "read-only mount":
        prefix = read_only_file(database)
        reason = "Read-only file system"
    else:
        database.chmod(0o444)
        prefix = as_an_ordinary_user()
        reason = "Permission denied"
    env = bot_environment(database, emulator)
    checked = await run_async(["check-config"], tmp_path, env, prefix)
    started = await run_async(["run"], tmp_path, env, prefix)
    for code, out, err in (checked, started):
        assert out == ""
        line = one_line(code, err)
        assert line == (
            f"error: GAMENIGHT_DATABASE is {database}: the bot cannot write there ({reason}); put "
            "the database on a writable disk, or let the bot write to the file and its folder\n"
        )
    assert emulator.gateway.identify_count == 0
    assert not emulator.synced_commands
    assert database.read_bytes() == before


def modes(folder: Path, *names: str) -> dict[str, int]:
    return {name: stat.S_IMODE((folder / name).stat().st_mode) for name in names}


@pytest.mark.parametrize("umask", [0o022, 0o000])
async def test_the_database_and_the_files_beside_it_are_the_bots_users_alone(
    emulator: Emulator, tmp_path: Path, umask: int
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    database = tmp_path / "bot.sqlite3"
    # Started by hand from a login shell (umask 022), or worse.
    process = start([], tmp_path, bot_environment(database, emulator), tmp_path / "log", umask)
    try:
        await connected_and_synced(emulator)
        await (await host.slash("loteria start")).reply(10)  # written: the -wal holds it
        files = await asyncio.to_thread(
            modes, tmp_path, "bot.sqlite3", "bot.sqlite3-wal", "bot.sqlite3-shm", "bot.sqlite3.lock"
        )
    finally:
        process.send_signal(signal.SIGTERM)
        await wait_for_exit(process, 30)
    assert files == dict.fromkeys(files, 0o600)


# -- backup --force ------------------------------------------------------------------------------


def a_fifo(path: Path) -> None:
    os.mkfifo(path)


def a_device(path: Path) -> None:
    """A character device like /dev/null (1, 3), made where replacing it harms nothing."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.fail("making a device node needs root (CAP_MKNOD), as the tests run")


def a_symlink(path: Path) -> None:
    path.symlink_to(path.with_name("elsewhere.sqlite3"))


def a_socket(path: Path) -> None:
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.close()


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (a_fifo, "a FIFO (named pipe)"),
        (a_device, "a character device"),
        (a_symlink, "a symbolic link"),
        (a_socket, "a socket"),
    ],
)
def test_backup_force_replaces_only_a_regular_file(tmp_path: Path, make, kind: str):
    database = tmp_path / "bot.sqlite3"
    make_database(database)
    target = tmp_path / "target"
    make(target)
    before = target.lstat()
    result = run(["backup", "--force", str(target)], tmp_path, environment(database))
    line = one_line(result.returncode, result.stderr)
    assert line == (
        f"error: {target} is {kind}, not a file a backup may replace (even with --force); "
        "choose another name\n"
    )
    after = target.lstat()
    assert (after.st_ino, stat.S_IFMT(after.st_mode)) == (
        before.st_ino,
        stat.S_IFMT(before.st_mode),
    )
    assert not [path for path in tmp_path.iterdir() if path.name.endswith(".partial")]
    # A regular file is still replaced.
    regular = tmp_path / "old-backup.sqlite3"
    regular.write_text("last week's")
    assert run(["backup", "--force", str(regular)], tmp_path, environment(database)).returncode == 0
    with closing(sqlite3.connect(regular)) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert stat.S_IMODE(regular.stat().st_mode) == 0o600


# -- a system without fcntl (Windows) ------------------------------------------------------------


WITHOUT_FCNTL = (
    "import sys; sys.modules['fcntl'] = None; from bot.ops.cli import main; sys.exit(main())"
)


def without_fcntl(
    args: list[str], cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """``gamenight ARGS`` where ``import fcntl`` fails, as on Windows."""
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_FCNTL, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_fcntl_the_sandbox_plays_and_the_bot_says_why_it_cannot_run(tmp_path: Path):
    env = {**environment(tmp_path / "bot.sqlite3")}
    shown = without_fcntl(["sandbox", "--help"], tmp_path, env)
    assert (shown.returncode, shown.stderr) == (0, "")
    assert shown.stdout.startswith("usage: ")
    played = without_fcntl(
        ["sandbox", "--players", "2", "--speed", "100", "--images", str(tmp_path / "images")],
        tmp_path,
        env,
    )
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr
    assert "images saved in" in played.stdout
    postgres = {**env, "GAMENIGHT_DATABASE": "postgresql://bot@db.example/gamenight"}
    for args, settings in (
        (["run"], env),
        (["run"], postgres),  # not only SQLite's lock: the bot as a whole needs POSIX
        (["check-config"], env),
        (["migrate-db", str(tmp_path / "bot.sqlite3"), postgres["GAMENIGHT_DATABASE"]], env),
    ):
        if args[0] == "migrate-db":
            make_database(tmp_path / "bot.sqlite3")
        result = without_fcntl(args, tmp_path, settings)
        line = one_line(result.returncode, result.stderr)
        assert line.startswith(
            "error: the bot needs a POSIX system (Linux, macOS...): Python's "
        ), args
        assert "gamenight sandbox works here" in line
    assert not (tmp_path / "bot.sqlite3.lock").exists()
