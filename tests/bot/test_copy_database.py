"""Moving a server's data: a SQLite database copied into PostgreSQL, ids kept, idempotent,
conflicts refused with one line (and nothing written)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import CopyConflictError, GameDefaults, GameStatus, Storage, copy_database
from bot.storage.database_file import lock_database
from tests.raw_sql import raw_execute

pytestmark = pytest.mark.backends("postgres")

ROOT = Path(__file__).resolve().parents[2]


def deal(seat: int, first: int) -> list[tuple[str, str]]:
    return [(f"board-{first}", f"code-{seat}-{first}")]


async def fill(storage: Storage) -> None:
    """Two games (one finished, with a leaver, claims and winners) and some meta."""
    done = await storage.create_game(
        kind="loteria", guild_id=1, channel_id=10, host_id=7, seed=bytes(32), options={"a": 1}
    )
    for user in (7, 8, 9):
        await storage.add_player(
            done.id, user, display_name=f"u{user}", locale="es-ES", boards=deal
        )
    await storage.remove_player(done.id, 8)  # a gap in the board ids
    await storage.update_game(done.id, status=GameStatus.RUNNING)
    for seq in range(1, 6):
        await storage.record_draw(done.id, seq, seq * 3, state=f"after-{seq}")
    await storage.set_draw_message(done.id, 1, 123456789012345678)
    await storage.record_claim(
        done.id, 9, board_id=None, prize="line", step=2, valid=False, reason="no", request="x"
    )
    await storage.record_false_claim(done.id, 9, limit=2)
    (board,) = await storage.boards(done.id, 7)
    await storage.record_win(done.id, prize="line", user_id=7, board_id=board.id, step=5)
    await storage.record_win(done.id, prize="line", user_id=9, board_id=None, step=5)
    await storage.update_game(done.id, status=GameStatus.FINISHED)
    running = await storage.create_game(
        kind="housie", guild_id=2, channel_id=11, host_id=8, seed=b"\xff" * 32, options={}
    )
    await storage.add_player(running.id, 8, display_name="", locale="", boards=deal)
    await storage.set_meta("commands:1:global", "abc")
    await storage.set_meta("notice:8", '["hello"]')
    await storage.set_dm_channel(7, 700)
    await storage.set_dms_closed(9, closed=True)
    await storage.add_schedule(
        kind="housie",
        guild_id=2,
        channel_id=11,
        host_id=8,
        starts_at=2_000_000_000.0,
        lobby_minutes=10,
        weekly=True,
        options={"calls": "classic"},
    )
    await storage.change_server_settings(
        1,
        lambda s: dataclasses.replace(
            s.with_defaults("loteria", GameDefaults(interval=20, prizes="full")),
            time_zone="America/Mexico_City",
        ),
    )
    await storage.put_server_record(1, "some-game", "heart", "heart=Heart=0000021")


async def dump(storage: Storage) -> dict[str, object]:
    games = [await storage.get_game(game_id) for game_id in (1, 2, 3)]
    return {
        "games": games,
        **{
            f"{what}-{game_id}": await getattr(storage, what)(game_id)
            for game_id in (1, 2)
            for what in ("players", "boards", "draws", "claims", "winners", "claim_requests")
        },
        "meta": await storage.meta_with_prefix(""),
        "dm": [await storage.dm_channel(user) for user in (7, 8, 9)],
        "closed dms": [await storage.dms_closed(user) for user in (7, 8, 9)],
        "schedules": await storage.pending_schedules("housie"),
        "settings": await storage.server_settings(1),
        "records": await storage.all_server_records("some-game"),
        "leaders": await storage.leaderboard(1),
    }


async def test_a_copy_keeps_everything_and_its_ids_and_a_second_changes_nothing(
    tmp_path: Path, database: str
):
    source = tmp_path / "bot.sqlite3"
    async with Storage.open(source) as sqlite:
        await fill(sqlite)
        before = await dump(sqlite)
    assert before["games"][2] is None  # type: ignore[index]

    report = await copy_database(source, database)
    assert report.copied == {
        "games": 2,
        "players": 3,
        "boards": 3,
        "draws": 5,
        "claims": 3,
        "winners": 2,
        "meta": 2,
        "dm_channels": 1,
        "closed_dms": 1,
        "schedules": 1,
        "server_settings": 1,
        "server_records": 1,
    }
    assert report.summary().startswith("copied 2 games, 3 players, 3 boards, 5 draws")
    async with Storage.open(database) as postgres:
        assert await dump(postgres) == before

    again = await copy_database(source, database)
    assert sum(again.copied.values()) == 0
    assert sum(again.already_there.values()) == 25
    assert "copied nothing; 25 rows were already there" in again.summary()
    async with Storage.open(database) as postgres:
        assert await dump(postgres) == before
        # New rows get ids past the copied ones.
        game = await postgres.create_game(
            kind="loteria", guild_id=1, channel_id=12, host_id=1, seed=None, options={}
        )
        assert game.id == 3
        await postgres.add_player(game.id, 1, display_name="", locale="", boards=deal)
        (board,) = await postgres.boards(game.id)
        assert board.id == 5  # 4 was the leaver's
        claim = await postgres.record_claim(
            game.id, 1, board_id=None, prize="line", step=1, valid=False, reason=""
        )
        assert claim == 4
        await postgres.record_win(game.id, prize="full", user_id=1, board_id=None, step=1)
        await postgres.record_win(game.id, prize="line", user_id=1, board_id=None, step=1)
        assert [w.prize for w in await postgres.winners(game.id)] == ["full", "line"]


async def test_a_target_with_other_data_is_refused_and_nothing_is_written(
    tmp_path: Path, database: str
):
    source = tmp_path / "bot.sqlite3"
    async with Storage.open(source) as sqlite:
        await fill(sqlite)
    await copy_database(source, database)
    await raw_execute(database, "UPDATE games SET state = ? WHERE id = ?", "edited", 1)
    async with Storage.open(source) as sqlite:
        await sqlite.create_game(
            kind="housie", guild_id=2, channel_id=99, host_id=1, seed=None, options={}
        )

    with pytest.raises(CopyConflictError) as refused:
        await copy_database(source, database)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("games row id=1 differs in the target (state)")
    async with Storage.open(database) as postgres:
        assert await postgres.get_game(3) is None  # the whole copy was refused


def migrate_db(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


async def test_the_migrate_db_command(tmp_path: Path, database: str):
    source = tmp_path / "bot.sqlite3"
    async with Storage.open(source) as sqlite:
        await fill(sqlite)

    first = migrate_db(str(source), database)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"{source} -> postgresql://")
    assert "copied 2 games, 3 players" in first.stdout
    second = migrate_db(str(source), database)
    assert second.returncode == 0, second.stderr
    assert "copied nothing; 25 rows were already there" in second.stdout

    usage = migrate_db(database, str(source))
    assert usage.returncode == 2
    assert usage.stderr.strip() == (
        "error: migrate-db copies a SQLite file into a postgresql:// database"
    )
    missing = migrate_db(str(tmp_path / "nope.sqlite3"), database)
    assert missing.returncode == 2
    assert missing.stderr.startswith(f"error: GAMENIGHT_DATABASE is {tmp_path / 'nope.sqlite3'}:")
    assert "there is no such file" in missing.stderr
    assert not (tmp_path / "nope.sqlite3").exists()

    with lock_database(source):  # a bot is running on it
        busy = migrate_db(str(source), database)
    assert busy.returncode == 2
    assert "another Game Night process" in busy.stderr
    assert len(busy.stderr.strip().splitlines()) == 1


async def test_check_config_and_backup_on_postgresql(tmp_path: Path, database: str):
    """check-config reads a PostgreSQL database without changing it; backup says to use pg_dump."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.x.y",
        "GAMENIGHT_SIGNING_KEY": "00" * 16,
        "GAMENIGHT_DATABASE": database,
    }

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    empty = command("check-config")
    assert empty.returncode == 0, empty.stderr
    assert "not created yet" in empty.stdout
    assert "password" not in empty.stdout.lower() or "***" in empty.stdout
    async with Storage.open(database):
        pass  # the bot's first start creates the tables
    current = command("check-config")
    assert current.returncode == 0, current.stderr
    assert "(current)" in current.stdout
    refused = command("backup", str(tmp_path / "copy.sqlite3"))
    assert refused.returncode == 2
    assert "pg_dump" in refused.stderr
    assert not (tmp_path / "copy.sqlite3").exists()
