"""``gamenight backup FILE``: a consistent copy of the database taken while the bot runs and
writes (draws and claims), which opens, passes an integrity check, verifies its finished game and
can be restored; and the refusals that keep a backup from ever damaging anything."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from itertools import cycle
from pathlib import Path

import pytest

from bot.ops.backup import BackupError, backup_database
from bot.storage import MIGRATIONS
from emulator import Emulator
from engine.fairness import draw_order
from engine.loteria import Pattern
from tests.bot.test_startup import ROOT, make_database, not_sqlite
from tests.cogs.helpers import button_id, grace_over, run_calls
from tests.cogs.test_loteria import completion_calls

FIRST_SEED = bytes(range(32))
SECOND_SEED = bytes(range(100, 132))
PLAYERS = 6


def raw_rows(path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as raw:
        return list(raw.execute(sql, params))


async def backup_process(database: Path, target: Path) -> tuple[int, str, str]:
    """``python -m bot backup`` in a process of its own, as an operator (or cron) runs it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "backup",
        "--database",
        str(database),
        str(target),
        cwd=target.parent,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_a_backup_during_a_game_opens_checks_verifies_and_restores(
    emulator: Emulator, start_bot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    guild = emulator.add_guild("Game Night")
    first_channel = guild.add_channel("general")
    second_channel = guild.add_channel("second")
    members = [guild.add_member(f"player{i}") for i in range(PLAYERS)]
    host = members[0]
    seeds = iter([FIRST_SEED, SECOND_SEED])
    bot = await start_bot(time_scale=100, seed_source=lambda: next(seeds))  # holds the lock
    cog = bot.get_cog("Lotería")
    database = bot.settings.database_path

    async def open_game(channel, prizes: str) -> int:
        lobby = await (await host.slash("loteria start", prizes=prizes, in_channel=channel)).reply()
        for member in members:
            await (await member.click(lobby, button_id(lobby, "join"))).reply()
        await (await host.click(lobby, button_id(lobby, "start"))).reply()
        (game,) = [g for g in await bot.storage.live_games("loteria") if g.channel_id == channel.id]
        return game.id

    # A finished game: played until the first line, claimed, over.
    finished = await open_game(first_channel, "line")
    lines = completion_calls(FIRST_SEED, PLAYERS, Pattern.LINE)
    await run_calls(cog, finished, min(lines))
    winner = members[lines.index(min(lines))]
    won = await (await winner.slash("loteria claim", in_channel=first_channel)).reply()
    assert "wins on call" in won.content
    grace_over(monkeypatch)
    assert not await cog.call_next(finished)
    assert (await bot.storage.get_game(finished)).status.value == "finished"

    # A second game keeps drawing and judging claims while backups are taken.
    running = await open_game(second_channel, "full")
    playing = True

    async def play() -> None:
        # At most 15 calls, paced so they spread over the backups: a full tabla needs 16 cards,
        # so the game is still running when the copy is restored, however slow the backups.
        claimers = cycle(members)
        for _ in range(15):
            if not playing:
                break
            await run_calls(cog, running, 1)
            claim = await next(claimers).slash("loteria claim", in_channel=second_channel)
            await claim.reply()
            await asyncio.sleep(0.1)

    player = asyncio.create_task(play())
    backups: list[tuple[Path, int, int]] = []
    try:
        for number in range(3):
            target = tmp_path / f"backup-{number}.sqlite3"
            draws_before = len(await bot.storage.draws(running))
            code, out, err = await backup_process(database, target)
            draws_after = len(await bot.storage.draws(running))
            assert code == 0, err
            assert f"Backed up {database} to {target}" in out
            assert "integrity check ok" in out
            backups.append((target, draws_before, draws_after))
    finally:
        playing = False
        await player
    assert backups[-1][2] > backups[0][1], "the game went on drawing during the backups"
    assert raw_rows(database, "SELECT COUNT(*) FROM claims WHERE game_id = ?", running)[0][0] > 0

    order = draw_order(SECOND_SEED, 54)
    for target, draws_before, draws_after in backups:
        assert raw_rows(target, "PRAGMA integrity_check") == [("ok",)]
        assert raw_rows(target, "PRAGMA journal_mode") == [("delete",)]  # one file, whole
        assert raw_rows(target, "PRAGMA user_version") == [(len(MIGRATIONS),)]
        assert not Path(f"{target}-wal").exists()  # noqa: ASYNC240 - a test
        # One moment of the game: the calls made by then, in the seed's order, no gap; every
        # claim judged against a call the copy holds.
        copied = raw_rows(target, "SELECT seq, value FROM draws WHERE game_id = ?", running)
        assert draws_before <= len(copied) <= draws_after
        assert sorted(copied) == [(seq, order[seq - 1]) for seq in range(1, len(copied) + 1)]
        last_claimed = raw_rows(target, "SELECT MAX(step) FROM claims WHERE game_id = ?", running)[
            0
        ][0]
        assert last_claimed is None or last_claimed <= len(copied)
        assert raw_rows(target, "SELECT status FROM games WHERE id = ?", finished) == [
            ("finished",)
        ]

    # Restore: stop the bot, start it on the copy; the finished game verifies from its seed and
    # the running one goes on from the copy's last announced call (a call stored but not yet
    # posted when the copy was taken counts once it is posted).
    restored = backups[-1][0]
    announced = raw_rows(
        restored,
        "SELECT COUNT(*) FROM draws WHERE game_id = ? AND message_id IS NOT NULL",
        running,
    )[0][0]
    await bot.stop_for_test()
    bot = await start_bot(time_scale=100, database=restored)
    verified = await (await members[1].slash("loteria verify", game=finished)).reply()
    assert f"#{finished} verified: all" in verified.content, verified.content
    assert (await bot.storage.get_game(running)).status.is_live
    shown = await (await members[1].slash("loteria tabla", in_channel=second_channel)).reply()
    # The restored bot resumes its timer at once, so a call may have been made since.
    match = re.search(r"(\d+) calls? so far", shown.content)
    assert match, shown.content
    calls_shown = int(match[1])
    stored = [(d.seq, d.value) for d in await bot.storage.draws(running)]
    assert announced <= calls_shown <= len(stored)
    assert stored[:calls_shown] == [(seq, order[seq - 1]) for seq in range(1, calls_shown + 1)]


# -- what a backup refuses, and what it never does -----------------------------------------------


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "bot.sqlite3"
    make_database(path)
    return path


def test_the_database_is_only_read(database: Path, tmp_path: Path):
    before = database.read_bytes()
    report = backup_database(database, tmp_path / "copy.sqlite3")
    assert database.read_bytes() == before
    assert report.size == (tmp_path / "copy.sqlite3").stat().st_size
    assert report.schema_version == len(MIGRATIONS)
    assert raw_rows(tmp_path / "copy.sqlite3", "SELECT value FROM meta WHERE key = 'made by'") == [
        ("the test",)
    ]


def test_an_existing_file_is_kept_unless_forced(database: Path, tmp_path: Path):
    target = tmp_path / "copy.sqlite3"
    target.write_text("an older backup")
    with pytest.raises(BackupError, match="already exists; choose another name, or use --force"):
        backup_database(database, target)
    assert target.read_text() == "an older backup"
    backup_database(database, target, force=True)
    assert raw_rows(target, "PRAGMA integrity_check") == [("ok",)]


def test_the_database_itself_is_never_the_target(database: Path):
    before = database.read_bytes()
    with pytest.raises(BackupError, match="is the database itself"):
        backup_database(database, database, force=True)
    assert database.read_bytes() == before


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("missing/copy.sqlite3", "does not exist; create it first"),
        (".", "is a folder; give the backup a file name inside it"),
    ],
)
def test_a_target_that_cannot_be_written_is_refused(
    database: Path, tmp_path: Path, target: str, says: str
):
    with pytest.raises(BackupError, match=says):
        backup_database(database, tmp_path / target)


def test_no_database_or_not_a_database_leaves_nothing_behind(tmp_path: Path):
    with pytest.raises(BackupError, match="there is no database at"):
        backup_database(tmp_path / "nothing.sqlite3", tmp_path / "copy.sqlite3")
    source = not_sqlite(tmp_path)
    backups = tmp_path / "backups"
    backups.mkdir()
    with pytest.raises(BackupError, match="file is not a database"):
        backup_database(source, backups / "copy.sqlite3")
    assert list(backups.iterdir()) == []  # no half-made copy under any name


def test_the_command_reads_gamenight_database_and_exits_2_when_refused(
    database: Path, tmp_path: Path
):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "GAMENIGHT_DATABASE": str(database),  # no token needed: a backup never meets Discord
    }
    command = [sys.executable, "-m", "bot", "backup", "copy.sqlite3"]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "copy.sqlite3").is_file()
    again = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert again.returncode == 2  # refused before copying anything: a bad argument
    assert again.stderr.startswith("error: copy.sqlite3 already exists")
    assert again.stderr.count("\n") == 1
