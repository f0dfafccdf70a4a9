"""The ``gamenight`` command and ``python -m bot``: sub-commands, help, exit codes, and
``check-config``, which judges settings and the database as the bot does without touching
Discord or the database."""

from __future__ import annotations

import asyncio
import base64
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.ops.cli import COMMANDS, main
from bot.storage import MIGRATIONS
from bot.storage.database_file import UnusableDatabaseError, lock_database
from emulator import Emulator
from tests.bot.test_startup import (
    ROOT,
    a_folder,
    bot_environment,
    damaged_sqlite,
    in_a_missing_folder,
    make_database,
    newer_schema,
    not_sqlite,
    read_only_mount,
    rows_out_of_order,
)
from tests.conftest import SIGNING_KEY

BOT_ID = 1234567890123456789
TOKEN = (
    base64.b64encode(str(BOT_ID).encode()).decode().rstrip("=")
    + ".GkZ9aB.s3cr3t-part-of-the-token-that-must-never-be-printed"
)


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def environment(database: Path, **more: str) -> dict[str, str]:
    return {**bot_environment(database), "DISCORD_TOKEN": TOKEN, **more}


# -- the command ---------------------------------------------------------------------------------


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: gamenight ")
    names = ["run", "sandbox", "invite", "backup", "migrate-db", "check-config", "rest-proxy"]
    for command in names:
        assert f"    {command}" in shown
    assert [c.name for c in COMMANDS] == names


@pytest.mark.parametrize(
    "command", ["run", "invite", "backup", "migrate-db", "check-config", "rest-proxy"]
)
def test_each_command_explains_itself(command: str, capsys):
    assert main([command, "--help"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: gamenight {command}")
    description = next(c.description for c in COMMANDS if c.name == command)
    assert " ".join(description.split()[:4]) in " ".join(shown.split())


def test_sandbox_keeps_its_own_options(capsys):
    assert main(["sandbox", "--help"]) == 0
    assert "--players" in capsys.readouterr().out
    assert main(["sandbox", "--players", "0"]) == 2


def test_unknown_commands_and_options_exit_2(capsys):
    assert main(["bogus"]) == 2
    assert "invalid choice: 'bogus'" in capsys.readouterr().err
    assert main(["backup"]) == 2
    assert "FILE" in capsys.readouterr().err
    assert main(["invite", "--client-id", "12ab"]) == 2
    assert "not a Discord id" in capsys.readouterr().err


def test_the_installed_console_script_and_python_m_bot_are_the_same_command(tmp_path: Path):
    script = Path(sys.executable).parent / "gamenight"
    assert script.is_file(), "pip install puts a gamenight command beside python"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    installed = subprocess.run(
        [str(script), "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    )
    module = run(["--help"], tmp_path, {**env, "PYTHONPATH": str(ROOT)})
    assert module.returncode == 0
    assert installed.stdout.startswith("usage: gamenight [-h]")
    assert module.stdout.startswith("usage: python -m bot [-h]")
    words = installed.stdout.split("\n", 1)[1].split()
    assert words == module.stdout.split("\n", 1)[1].replace("python -m bot", "gamenight").split()
    version = subprocess.run(
        [str(script), "--version"], env=env, capture_output=True, text=True, check=True
    )
    assert version.stdout.startswith("gamenight 0.")


def test_run_is_the_default_and_stops_on_bad_settings_with_one_line(tmp_path: Path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    for args in ([], ["run"]):
        result = run(args, tmp_path, env)
        assert result.returncode == 2
        assert result.stderr.startswith("error: DISCORD_TOKEN is not set.")
        assert result.stderr.count("\n") == 1


# -- check-config --------------------------------------------------------------------------------


def test_check_config_summarises_without_secrets_or_discord(tmp_path: Path):
    database = tmp_path / "bot.sqlite3"
    make_database(database)
    before = database.read_bytes()
    result = run(["check-config"], tmp_path, environment(database, GAMENIGHT_DEV_GUILD_ID="42"))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "Settings are valid" in out
    assert "Discord was not contacted" in out
    assert f"set (bot user id {BOT_ID})" in out
    assert f"{database}: schema version {len(MIGRATIONS)} (current)" in out
    assert "GAMENIGHT_DEV_GUILD_ID  42" in out
    assert "GAMENIGHT_SHARDS        every shard Discord recommends, in this process" in out
    assert "http://127.0.0.1:9/api/v10" in out  # where the bot would connect (nowhere, here)
    for secret in (TOKEN, TOKEN.split(".", 1)[1], SIGNING_KEY.hex(), "s3cr3t"):
        assert secret not in out
    assert database.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [database.name]  # no -wal, -shm or .lock


def test_check_config_hides_a_password_in_a_proxy_url(tmp_path: Path):
    env = environment(
        tmp_path / "bot.sqlite3", DISCORD_API_BASE_URL="https://user:hunter2@proxy.example/api/v10"
    )
    result = run(["check-config"], tmp_path, env)
    assert result.returncode == 0
    assert "https://user:***@proxy.example/api/v10" in result.stdout
    assert "hunter2" not in result.stdout


def test_check_config_creates_nothing(tmp_path: Path):
    database = tmp_path / "bot.sqlite3"
    result = run(["check-config"], tmp_path, environment(database))
    assert result.returncode == 0, result.stderr
    assert "not created yet: the bot creates it when it starts" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_check_config_reports_migrations_and_leaves_them_to_the_bot(tmp_path: Path):
    database = tmp_path / "bot.sqlite3"
    make_database(database)
    with closing(sqlite3.connect(database)) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    before = database.read_bytes()
    result = run(["check-config"], tmp_path, environment(database))
    assert result.returncode == 0, result.stderr
    assert f"schema version {len(MIGRATIONS) - 1}; the bot upgrades it to {len(MIGRATIONS)}" in (
        result.stdout
    )
    assert database.read_bytes() == before


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("abc", "(three parts of letters, digits, - and _ separated by dots; this is 3 char"),
        ("an0th3r-s3cret-pasted-by-mistake", "this is 32 characters in 1 parts"),
        (TOKEN + "  # my bot", "it holds a space (a comment or a second word after the token?)"),
        ("bm90LWRpZ2l0cw.GkZ9aB.s3cr3t", "its first part should be the bot's id in base64"),
        ("MTIz.a+b.c", "three parts of letters, digits, - and _ separated by dots"),
        ("MTIz..c", "three parts of letters, digits, - and _ separated by dots"),
    ],
)
def test_check_config_refuses_a_token_that_is_not_a_bot_token(
    tmp_path: Path, token: str, says: str
):
    result = run(["check-config"], tmp_path, environment(tmp_path / "db", DISCORD_TOKEN=token))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: DISCORD_TOKEN does not look like a bot token")
    assert says in result.stderr
    assert "> your application > Bot > Reset Token" in result.stderr
    assert result.stderr.count("\n") == 1
    assert token not in result.stderr  # never the token itself
    assert "s3cr3t" not in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GAMENIGHT_SIGNING_KEY", "abc"),
        ("DISCORD_GATEWAY_URL", "http://wrong.scheme"),
        ("GAMENIGHT_LOG_LEVEL", "LOUD"),
    ],
)
def test_check_config_names_a_bad_setting_in_one_line(tmp_path: Path, name: str, value: str):
    result = run(["check-config"], tmp_path, environment(tmp_path / "db", **{name: value}))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: {name} ")
    assert result.stderr.count("\n") == 1
    assert TOKEN not in result.stderr


@pytest.mark.parametrize(
    "make",
    [in_a_missing_folder, a_folder, not_sqlite, damaged_sqlite, rows_out_of_order, newer_schema],
)
def test_check_config_refuses_a_bad_database_with_the_bots_own_line(tmp_path: Path, make):
    database = make(tmp_path)
    before = database.read_bytes() if database.is_file() else None
    env = environment(database)
    checked = run(["check-config"], tmp_path, env)
    started = run([], tmp_path, env)  # the bot itself, refusing before it reaches Discord
    assert checked.returncode == started.returncode == 2
    assert checked.stderr.startswith(f"error: GAMENIGHT_DATABASE is {database}: ")
    assert checked.stderr == started.stderr
    assert checked.stdout == ""
    if before is not None:
        assert database.read_bytes() == before


def test_check_config_refuses_a_read_only_disk_as_the_bot_does(tmp_path: Path):
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "bot.sqlite3"
    make_database(database)
    env = environment(database)
    mount = read_only_mount(folder)
    checked = subprocess.run(
        [*mount, sys.executable, "-m", "bot", "check-config"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    started = subprocess.run(
        [*mount, sys.executable, "-m", "bot"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert checked.returncode == started.returncode == 2
    assert "the bot cannot write there (Read-only file system)" in checked.stderr
    assert checked.stderr == started.stderr


async def test_check_config_while_the_bot_runs_says_so(emulator: Emulator, start_bot, tmp_path):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot()  # holds <database>.lock, as `gamenight run` does
    await (await host.slash("loteria start")).reply()
    database = bot.settings.database_path
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "check-config",
        cwd=tmp_path,
        env=environment(database),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    assert f"in use by a running Game Night (pid {os.getpid()})" in out.decode()
    assert await bot.storage.live_games("loteria"), "the running bot was left alone"
    # Still one process per database: check-config took no lasting lock.
    with (
        pytest.raises(UnusableDatabaseError, match="another Game Night process"),
        lock_database(database),
    ):
        pass


def test_settings_can_come_from_another_file(tmp_path: Path):
    settings = tmp_path / "etc" / "gamenight.env"
    settings.parent.mkdir()
    database = tmp_path / "bot.sqlite3"
    settings.write_text(
        f"DISCORD_TOKEN={TOKEN}\nGAMENIGHT_SIGNING_KEY={SIGNING_KEY.hex()}\n"
        f"GAMENIGHT_DATABASE={database}\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = run(["--env-file", str(settings), "check-config"], tmp_path, env)
    assert result.returncode == 0, result.stderr
    assert f"read from the environment and {settings}" in result.stdout
    assert f"GAMENIGHT_DATABASE      {database}: not created yet" in result.stdout
    missing = run(["--env-file", str(tmp_path / "nothing.env"), "check-config"], tmp_path, env)
    assert missing.returncode == 2
    assert missing.stderr == f"error: --env-file {tmp_path / 'nothing.env'} is not a file\n"
