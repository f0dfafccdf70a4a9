"""PostgreSQL's own promises, on a real server: lost connections and a restarted server lose
and double no write, the rules hold between processes, bad databases are refused with one line,
and a second bot on the same database is turned away."""

from __future__ import annotations

import asyncio
import itertools
import logging

import asyncpg
import pytest

from bot.storage import (
    MIGRATIONS,
    ChannelBusyError,
    GameRow,
    Storage,
    StorageError,
    hold_database,
    redact,
)
from bot.storage.database_file import UnusableDatabaseError
from tests.commit_cutter import CommitCutter
from tests.postgres_server import (
    PostgresServer,
    PostgresUnavailableError,
    database_name,
    server_bindir,
)

pytestmark = pytest.mark.backends("postgres")


async def new_game(storage: Storage, channel_id: int = 10) -> GameRow:
    return await storage.create_game(
        kind="loteria", guild_id=1, channel_id=channel_id, host_id=7, seed=b"s" * 32, options={}
    )


def deal(seat: int, first: int) -> list[tuple[str, str]]:
    return [(f"board-{first}", f"code-{seat}")]


async def count(url: str, sql: str, *args: object) -> int:
    raw = await asyncpg.connect(url)
    try:
        return int(await raw.fetchval(sql, *args))
    finally:
        await raw.close()


async def test_a_commit_whose_answer_was_lost_is_made_once(
    database: str, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
):
    """The server commits, the answer never arrives: each kind of write is retried and found
    made, never made twice (an increment, a new row with a new id, a compare-and-set...)."""
    caplog.set_level(logging.INFO, "bot.storage")
    async with CommitCutter(postgres_server.socket_path) as cutter:
        async with Storage.open(cutter.url(database_name(database))) as storage:

            async def cut(write):
                cutter.armed = 1
                result = await write
                assert cutter.cut == cuts.__next__(), "the answer was not lost"
                return result

            cuts = itertools.count(1)
            game = await cut(new_game(storage))
            assert await count(database, "SELECT COUNT(*) FROM games") == 1
            player = await cut(
                storage.add_player(game.id, 5, display_name="", locale="", boards=deal)
            )
            assert player is not None, "a retried join must not look like a second join"
            assert (await storage.get_game(game.id)).next_deal == 1  # type: ignore[union-attr]
            assert await cut(
                storage.add_player(game.id, 6, display_name="", locale="", boards=deal)
            )
            assert [b.deal_index for b in await storage.boards(game.id)] == [0, 1]
            assert (await cut(storage.record_false_claim(game.id, 5, limit=3))).false_claims == 1
            claim_id = await cut(
                storage.record_claim(
                    game.id, 5, board_id=None, prize="line", step=1, valid=False, reason="no"
                )
            )
            assert [c.id for c in await storage.claims(game.id)] == [claim_id]
            await cut(storage.record_draw(game.id, 1, 40, state="after-1"))
            await cut(storage.record_win(game.id, prize="line", user_id=6, board_id=None, step=1))
            assert len(await storage.winners(game.id)) == 1
            assert await cut(storage.update_game(game.id, state="b", expect_state="after-1"))
            assert await cut(storage.remove_player(game.id, 5))
            assert [p.user_id for p in await storage.players(game.id)] == [6]
            await cut(storage.set_meta("k", "v"))
            assert await storage.get_meta("k") == "v"
        assert cutter.cut == 10
    assert caplog.text.count("a commit's answer was lost; the server says it was made") == 10


async def test_a_commit_lost_on_the_way_is_rolled_back_and_made_once(
    database: str, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
):
    """The COMMIT never reaches the server, which keeps the transaction open (it has not
    noticed the client is gone): its server process is ended, and the write made once."""
    async with (
        CommitCutter(postgres_server.socket_path) as cutter,
        Storage.open(cutter.url(database_name(database))) as storage,
    ):
        game = await new_game(storage)
        await storage.add_player(game.id, 5, display_name="", locale="", boards=deal)
        cutter.swallow = 1
        player = await asyncio.wait_for(storage.record_false_claim(game.id, 5, limit=3), 30)
        assert cutter.swallowed == 1
        assert player.false_claims == 1
    assert "still open on the server after 2s; ending its server process" in caplog.text


async def test_connections_cut_again_and_again_lose_and_double_nothing(
    database: str, postgres_server: PostgresServer
):
    """Writes from many tasks while every connection to the database is cut 20 times a
    second: all of them land, once."""
    async with Storage.open(database) as storage:
        game = await new_game(storage)
        await storage.add_player(game.id, 1, display_name="", locale="", boards=deal)
        done = asyncio.Event()
        cuts = 0

        async def cut_connections() -> None:
            nonlocal cuts
            while not done.is_set():
                cuts += await postgres_server.terminate_connections(database)
                await asyncio.sleep(0.05)

        async def draws() -> None:
            for seq in range(1, 31):
                await storage.record_draw(game.id, seq, seq + 100, state=f"after-{seq}")

        async def false_claims() -> None:
            for _ in range(20):
                await storage.record_false_claim(game.id, 1, limit=100)

        async def claims() -> None:
            for seq in range(20):
                await storage.record_claim(
                    game.id, 1, board_id=None, prize="line", step=seq, valid=False, reason=""
                )

        async def joins() -> None:
            await asyncio.gather(
                *(
                    storage.add_player(game.id, user, display_name="", locale="", boards=deal)
                    for user in range(100, 120)
                )
            )

        cutter = asyncio.create_task(cut_connections())
        try:
            await asyncio.wait_for(asyncio.gather(draws(), false_claims(), claims(), joins()), 120)
        finally:
            done.set()
            await cutter
        assert cuts >= 10, f"only {cuts} connections were cut"

        assert [(d.seq, d.value) for d in await storage.draws(game.id)] == [
            (seq, seq + 100) for seq in range(1, 31)
        ]
        assert (await storage.get_player(game.id, 1)).false_claims == 20  # type: ignore[union-attr]
        assert sorted(c.step for c in await storage.claims(game.id)) == list(range(20))
        players = await storage.players(game.id)
        assert sorted(p.seat for p in players) == list(range(21))
        boards = await storage.boards(game.id)
        assert sorted(b.deal_index for b in boards) == list(range(21))
        assert (await storage.get_game(game.id)).next_deal == 21  # type: ignore[union-attr]


async def test_a_server_restart_mid_run_loses_and_doubles_nothing(
    database: str, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
):
    async with Storage.open(database) as storage:
        game = await new_game(storage)
        await storage.add_player(game.id, 1, display_name="", locale="", boards=deal)

        async def writes() -> None:
            for seq in range(1, 61):
                await storage.record_draw(game.id, seq, seq, state=f"after-{seq}")
                await storage.record_false_claim(game.id, 1, limit=1000)
                await asyncio.sleep(0.01)

        writing = asyncio.create_task(writes())
        await asyncio.sleep(0.2)
        await asyncio.to_thread(postgres_server.restart)
        await asyncio.wait_for(writing, 60)
        assert "the database connection was lost" in caplog.text, "the restart came too late"
        assert [d.seq for d in await storage.draws(game.id)] == list(range(1, 61))
        assert (await storage.get_player(game.id, 1)).false_claims == 60  # type: ignore[union-attr]


async def test_the_rules_hold_between_processes(database: str):
    """Two storages on one database (two pools, as two bot processes would have): one calling
    game per channel, one seat and deal position per join, one winner of a compare-and-set."""
    async with Storage.open(database) as first, Storage.open(database) as second:

        async def start(storage: Storage, kind: str) -> GameRow:
            return await storage.create_game(
                kind=kind,
                guild_id=1,
                channel_id=77,
                host_id=7,
                seed=None,
                options={},
                alone_among=("loteria", "housie"),
            )

        results = await asyncio.gather(
            *(
                start(storage, kind)
                for storage in (first, second)
                for kind in ("loteria", "housie") * 3
            ),
            return_exceptions=True,
        )
        created = [r for r in results if isinstance(r, GameRow)]
        assert len(created) == 1
        assert all(
            isinstance(r, ChannelBusyError) and r.existing == created[0]
            for r in results
            if r is not created[0]
        )

        game = created[0]
        joined = await asyncio.gather(
            *(
                storage.add_player(
                    game.id, user, display_name="", locale="", boards=deal, max_players=15
                )
                for user in range(20)
                for storage in (first, second)
            )
        )
        seated = [p for p in joined if p is not None]
        assert sorted(p.seat for p in seated) == list(range(15))
        assert sorted(b.deal_index for b in await first.boards(game.id)) == list(range(15))

        await first.update_game(game.id, state="a")
        won = await asyncio.gather(
            *(
                storage.update_game(game.id, state=f"{storage is first}-{i}", expect_state="a")
                for i in range(5)
                for storage in (first, second)
            )
        )
        assert won.count(True) == 1

        wins = await asyncio.gather(
            *(
                storage.record_win(game.id, prize="line", user_id=3, board_id=None, step=1)
                for storage in (first, second)
            ),
            return_exceptions=True,
        )
        assert sum(isinstance(w, StorageError) for w in wins) == 1
        assert len(await second.winners(game.id)) == 1


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text
    assert text.startswith("GAMENIGHT_DATABASE is postgresql://")
    return text


async def test_databases_it_cannot_use_are_refused_with_one_line(
    database: str, postgres_server: PostgresServer
):
    missing = postgres_server.url("no_such_database")
    with pytest.raises(UnusableDatabaseError) as refused:
        async with Storage.open(missing):
            pass
    assert "the database does not exist" in one_line(refused.value)

    unreachable = "postgresql://gamenight:s3cret@127.0.0.1:1/gamenight"
    with pytest.raises(UnusableDatabaseError) as refused:
        async with Storage.open(unreachable):
            pass
    text = one_line(refused.value)
    assert "the server cannot be reached" in text
    assert "s3cret" not in text
    assert "gamenight:***@127.0.0.1:1" in text

    raw = await asyncpg.connect(database)
    try:
        role = f"limited_{database_name(database)}"  # may log in, may not create tables
        await raw.execute(f"CREATE ROLE {role} LOGIN")
        with pytest.raises(UnusableDatabaseError) as refused:
            async with Storage.open(database.replace("postgres@", f"{role}@", 1)):
                pass
        assert "the user may not do what the bot needs" in one_line(refused.value)

        await raw.execute("CREATE TABLE invoices (id INTEGER)")
        with pytest.raises(UnusableDatabaseError) as refused:
            async with Storage.open(database):
                pass
        assert "holds tables that are not Game Night's (invoices)" in one_line(refused.value)
        assert await raw.fetchval("SELECT to_regclass('schema_version')") is None

        await raw.execute("DROP TABLE invoices")
        async with Storage.open(database):
            pass
        await raw.execute("UPDATE schema_version SET version = $1", len(MIGRATIONS) + 5)
        with pytest.raises(UnusableDatabaseError) as refused:
            async with Storage.open(database):
                pass
        assert f"its schema is version {len(MIGRATIONS) + 5}, newer" in one_line(refused.value)
        assert await raw.fetchval("SELECT version FROM schema_version") == len(MIGRATIONS) + 5
    finally:
        await raw.close()


def test_urls_are_shown_without_their_password():
    assert (
        redact("postgresql://bot:pw@db.example:5432/gn")
        == "postgresql://bot:***@db.example:5432/gn"
    )
    assert redact("postgres://bot@/gn?host=/run/pg&password=pw") == (
        "postgres://bot@/gn?host=/run/pg&password=***"
    )
    assert redact("postgresql:///gn") == "postgresql:///gn"


async def test_a_second_bot_on_the_same_database_is_turned_away(
    database: str, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr("bot.storage._postgres.BOT_LOCK_WAIT", 0.3)
    async with hold_database(database):
        with pytest.raises(UnusableDatabaseError) as refused:
            async with hold_database(database):
                pass
        text = one_line(refused.value)
        assert "another Game Night process (pid " in text
        # The lock outlives a lost connection: it is taken again.
        assert await postgres_server.terminate_connections(database) == 1
        for _ in range(50):
            await asyncio.sleep(0.1)
            if await count(database, "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'"):
                break
        with pytest.raises(UnusableDatabaseError):
            async with hold_database(database):
                pass
    async with hold_database(database):  # released with the first bot
        pass


def test_without_server_binaries_the_tests_fail_and_say_how_to_install_them(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr("tests.postgres_server.shutil.which", lambda name: None)
    monkeypatch.setattr("tests.postgres_server.glob.glob", lambda pattern: [])
    with pytest.raises(PostgresUnavailableError, match=r"apt-get install -y postgresql"):
        server_bindir()
