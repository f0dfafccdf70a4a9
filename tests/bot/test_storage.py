"""The storage API, on both backends (SQLite and a real PostgreSQL server)."""

import asyncio
import sqlite3
import time
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    LIVE_SQL,
    MIGRATIONS,
    ChannelBusyError,
    ConflictError,
    GameStatus,
    Storage,
    StorageError,
)
from bot.storage._sqlite import BUSY_TIMEOUT_MS
from tests.raw_sql import another_process_writing, raw_execute

pytestmark = pytest.mark.backends()


@pytest.fixture
async def storage(database: Path | str):
    async with Storage.open(database) as opened:
        yield opened


async def new_game(storage: Storage, channel_id: int = 10, kind: str = "loteria"):
    return await storage.create_game(
        kind=kind, guild_id=1, channel_id=channel_id, host_id=7, seed=b"s" * 32, options={"a": 1}
    )


async def test_migrations_set_the_schema_version_and_are_idempotent(
    database: Path | str, backend: str
):
    async with Storage.open(database) as storage:
        assert storage.backend == backend
        assert await storage.schema_version() == len(MIGRATIONS)
        assert await storage.migrate() == len(MIGRATIONS)
    if isinstance(database, Path):
        with sqlite3.connect(database) as raw:
            assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    else:
        raw = await asyncpg.connect(database)
        try:
            assert await raw.fetch("SELECT version FROM schema_version") == [(len(MIGRATIONS),)]
        finally:
            await raw.close()
    async with Storage.open(database) as storage:
        assert await storage.schema_version() == len(MIGRATIONS)


async def test_claims_and_wins_stored_before_the_step_was_named_keep_it(
    database: Path | str, monkeypatch: pytest.MonkeyPatch
):
    """Migration 10 renames ``draw_seq`` (a calling game's calls, a table game's moves) to
    ``step``: rows written under the old name read the same after it."""
    monkeypatch.setattr("bot.storage._storage.MIGRATIONS", MIGRATIONS[:9])
    async with Storage.open(database) as storage:
        assert await storage.schema_version() == 9
        duel = await new_game(storage, kind="tictactoe")
    for table in ("claims", "winners"):
        columns = "game_id, user_id, board_id, prize, draw_seq"
        extra = ", valid, created_at" if table == "claims" else ""
        values = ", 1, 0" if table == "claims" else ""
        await raw_execute(
            database,
            f"INSERT INTO {table} ({columns}{extra}) VALUES (?, 5, NULL, 'win', 7{values})",
            duel.id,
        )
    monkeypatch.undo()
    async with Storage.open(database) as storage:
        assert await storage.schema_version() == len(MIGRATIONS) >= 10
        assert [(w.user_id, w.prize, w.step) for w in await storage.winners(duel.id)] == [
            (5, "win", 7)
        ]
        assert [(c.user_id, c.step, c.valid) for c in await storage.claims(duel.id)] == [
            (5, 7, True)
        ]
        await storage.record_win(duel.id, prize="win", user_id=6, board_id=None, step=9)
        assert [w.step for w in await storage.winners(duel.id)] == [7, 9]


async def test_game_round_trip_and_conditional_update(storage: Storage):
    game = await new_game(storage)
    assert game.status is GameStatus.LOBBY
    assert game.options == {"a": 1}
    assert game.seed == b"s" * 32
    assert await storage.update_game(
        game.id, status=GameStatus.RUNNING, expect_status=GameStatus.LOBBY
    )
    # A second Start loses the race and changes nothing.
    assert not await storage.update_game(
        game.id, status=GameStatus.RUNNING, expect_status=GameStatus.LOBBY
    )
    reloaded = await storage.get_game(game.id)
    assert reloaded is not None
    assert reloaded.status is GameStatus.RUNNING
    assert reloaded.started_at is not None
    assert await storage.live_game_in_channel(10, ["loteria"]) == reloaded
    assert await storage.live_game_in_channel(10, ["housie"]) is None
    assert await storage.update_game(game.id, status=GameStatus.FINISHED)
    assert await storage.live_game_in_channel(10, ["loteria"]) is None
    assert (await storage.get_game(game.id)).finished_at is not None  # type: ignore[union-attr]


async def test_players_are_seated_once_and_respect_max(storage: Storage):
    game = await new_game(storage)
    first = await storage.add_player(
        game.id,
        100,
        display_name="a",
        locale="es-ES",
        boards=lambda seat, first: [("s1", "")],
        max_players=2,
    )
    assert first is not None
    assert first.seat == 0
    assert (
        await storage.add_player(
            game.id, 100, display_name="a", locale="", boards=lambda seat, first: []
        )
        is None
    )
    second = await storage.add_player(
        game.id,
        101,
        display_name="b",
        locale="",
        boards=lambda seat, first: [(f"s{first}", "c2"), (f"s{first + 1}", "c3")],
        max_players=2,
    )
    assert second is not None
    assert second.seat == 1
    assert (
        await storage.add_player(
            game.id, 102, display_name="c", locale="", boards=lambda seat, first: [], max_players=2
        )
        is None
    )
    boards = await storage.boards(game.id, 101)
    assert [(b.code, b.state, b.deal_index) for b in boards] == [("c2", "s1", 1), ("c3", "s2", 2)]
    assert await storage.board_count(game.id) == 3
    assert await storage.remove_player(game.id, 100)
    assert await storage.boards(game.id, 100) == []
    assert [p.user_id for p in await storage.players(game.id)] == [101]
    # Deal positions are never reused after a player leaves.
    again = await storage.add_player(
        game.id, 100, display_name="a", locale="", boards=lambda seat, first: [(str(first), "")]
    )
    assert again is not None
    assert again.seat == 2
    assert [b.deal_index for b in await storage.boards(game.id, 100)] == [3]


async def test_concurrent_joins_never_share_a_seat(storage: Storage):
    game = await new_game(storage)
    results = await asyncio.gather(
        *(
            storage.add_player(
                game.id, uid, display_name="", locale="", boards=lambda seat, first: [("x", "")]
            )
            for uid in range(30)
        )
    )
    seats = sorted(p.seat for p in results if p is not None)
    assert seats == list(range(30))


async def test_draws_are_unique_and_written_with_state(storage: Storage):
    game = await new_game(storage)
    await storage.record_draw(game.id, 1, 42, state="after-1")
    await storage.set_draw_message(game.id, 1, 999)
    with pytest.raises(ConflictError):
        await storage.record_draw(game.id, 1, 43, state="dup-seq")
    with pytest.raises(ConflictError):
        await storage.record_draw(game.id, 2, 42, state="dup-value")
    draws = await storage.draws(game.id)
    assert [(d.seq, d.value, d.message_id) for d in draws] == [(1, 42, 999)]
    assert (await storage.get_game(game.id)).state == "after-1"  # type: ignore[union-attr]
    # The failed writes rolled back and left the connection usable.
    await storage.record_draw(game.id, 2, 7, state="after-2")
    assert len(await storage.draws(game.id)) == 2


async def test_the_caller_reads_only_the_unannounced_draws_and_the_last_draws_time(
    storage: Storage,
):
    game, other = await new_game(storage), await new_game(storage)
    assert await storage.last_drawn_at(game.id) is None
    assert await storage.unannounced_draws(game.id) == []
    for seq, value in enumerate((42, 7, 19), start=1):
        await storage.record_draw(game.id, seq, value, state=f"after-{seq}")
    await storage.record_draw(other.id, 1, 5, state="other")
    await storage.set_draw_message(game.id, 1, 999)
    await storage.set_draw_message(game.id, 3, 1001)
    # A crash between call 2's storing and its post: it alone is left to announce.
    assert [(d.seq, d.value) for d in await storage.unannounced_draws(game.id)] == [(2, 7)]
    draws = await storage.draws(game.id)
    assert await storage.last_drawn_at(game.id) == draws[-1].drawn_at
    assert await storage.last_drawn_at(other.id) is not None


async def test_writes_made_together_are_each_their_own_transaction(storage: Storage):
    """Many games store their draws at once (SQLite takes them in one trip): a refused one is
    refused alone, and every other is stored with its state."""
    games = [await new_game(storage, channel_id=10 + i) for i in range(30)]
    await storage.record_draw(games[0].id, 1, 42, state="first")
    writes = [
        storage.record_draw(game.id, 1 if i else 2, 42, state=f"drawn-{i}")
        for i, game in enumerate(games)
    ]
    outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(outcomes[0], ConflictError)  # card 42 again in game 0
    assert outcomes[1:] == [None] * 29
    assert (await storage.get_game(games[0].id)).state == "first"  # type: ignore[union-attr]
    for i, game in enumerate(games[1:], start=1):
        assert (await storage.get_game(game.id)).state == f"drawn-{i}"  # type: ignore[union-attr]
        assert [(d.seq, d.value) for d in await storage.draws(game.id)] == [(1, 42)]


@pytest.mark.backends("sqlite")
async def test_a_quick_write_waits_for_another_process_holding_the_write_lock(
    storage: Storage, database: Path
):
    """A call's draw goes to SQLite in one trip; when another process (a backup) holds the write
    lock past the busy timeout, it waits for it as every other write does, and is stored."""
    game = await new_game(storage)
    async with another_process_writing(database):
        drawing = asyncio.create_task(storage.record_draw(game.id, 1, 42, state="after-1"))
        await asyncio.sleep(BUSY_TIMEOUT_MS / 1000 + 1)  # past one busy timeout
        assert not drawing.done()
    await drawing
    assert [(d.seq, d.value) for d in await storage.draws(game.id)] == [(1, 42)]
    assert (await storage.get_game(game.id)).state == "after-1"  # type: ignore[union-attr]


async def test_false_claims_take_a_player_out_at_the_limit(storage: Storage):
    game = await new_game(storage)
    await storage.add_player(
        game.id, 5, display_name="", locale="", boards=lambda seat, first: [("x", "")]
    )
    assert not (await storage.record_false_claim(game.id, 5, limit=2)).out
    player = await storage.record_false_claim(game.id, 5, limit=2)
    assert player.out
    assert player.false_claims == 2
    assert await storage.live_games_of_player(5, "loteria") == []


async def test_wins_are_recorded_once_and_counted(storage: Storage):
    game = await new_game(storage)
    other = await new_game(storage, channel_id=11, kind="housie")
    for g in (game, other):
        await storage.add_player(
            g.id, 5, display_name="", locale="", boards=lambda seat, first: [("x", "")]
        )
    await storage.record_win(game.id, prize="line", user_id=5, board_id=None, step=4, state="w")
    await storage.record_win(game.id, prize="full", user_id=5, board_id=None, step=9)
    await storage.record_win(other.id, prize="full_house", user_id=5, board_id=None, step=50)
    with pytest.raises(StorageError):
        await storage.record_win(game.id, prize="line", user_id=5, board_id=None, step=5)
    assert [w.prize for w in await storage.winners(game.id)] == ["line", "full"]
    assert len([c for c in await storage.claims(game.id) if c.valid]) == 2
    # Wins count once their game is over.
    assert await storage.leaderboard(1) == []
    for g in (game, other):
        await storage.update_game(g.id, status=GameStatus.FINISHED)
    board = {(row.user_id, row.kind): row.wins for row in await storage.leaderboard(1)}
    assert board == {(5, "loteria"): 1, (5, "housie"): 1}


async def test_the_leaderboard_counts_wins_and_games_finished_in_the_period(
    storage: Storage, database: Path | str
):
    now = time.time()
    day = 24 * 60 * 60
    ann, bea, cy, dee = 11, 12, 13, 14

    async def played(
        kind: str,
        players: list[int],
        winners: list[int],
        *,
        days_ago: float,
        status: GameStatus = GameStatus.FINISHED,
        guild_id: int = 1,
    ) -> int:
        game = await storage.create_game(
            kind=kind, guild_id=guild_id, channel_id=3, host_id=players[0], seed=None, options={}
        )
        for user_id in players:
            await storage.add_player(
                game.id,
                user_id,
                display_name=f"{user_id}@{days_ago}",
                locale="",
                boards=lambda _seat, _first: [],
            )
        for prize, user_id in enumerate(winners):
            await storage.record_win(
                game.id, prize=f"p{prize}", user_id=user_id, board_id=None, step=1
            )
        await storage.update_game(game.id, status=status)
        await raw_execute(
            database, "UPDATE games SET finished_at = ? WHERE id = ?", now - days_ago * day, game.id
        )
        return game.id

    await played("loteria", [ann, bea], [ann, ann], days_ago=40)  # two prizes: one win
    await played("loteria", [ann, bea, cy], [bea], days_ago=10)
    await played("loteria", [ann, cy], [ann], days_ago=2)
    await played("loteria", [ann, bea, cy, dee], [], days_ago=1)  # nobody won
    await played("loteria", [bea, dee], [], days_ago=1, status=GameStatus.CANCELLED)
    await played("loteria", [dee], [dee], days_ago=1, guild_id=2)  # another server's
    running = await storage.create_game(
        kind="loteria", guild_id=1, channel_id=4, host_id=dee, seed=None, options={}
    )
    await storage.add_player(
        running.id, dee, display_name="", locale="", boards=lambda _seat, _first: []
    )
    await storage.record_win(running.id, prize="line", user_id=dee, board_id=None, step=1)
    await played("tictactoe", [cy, dee], [dee], days_ago=20)

    async def board(since_days: float | None, per_kind: int = 5) -> list[tuple[str, int, int, int]]:
        since = None if since_days is None else now - since_days * day
        rows = await storage.leaderboard(1, per_kind=per_kind, since=since)
        return [(row.kind, row.user_id, row.wins, row.played) for row in rows]

    # The last 7 days: Ann won one of her two games; the others played one and won none,
    # those with fewer games first.
    assert await board(7) == [
        ("loteria", ann, 1, 2),
        ("loteria", bea, 0, 1),
        ("loteria", dee, 0, 1),
        ("loteria", cy, 0, 2),
    ]
    # The last 30 days: equal wins, fewer games first; Tic-tac-toe ranked on its own.
    assert await board(30) == [
        ("loteria", bea, 1, 2),
        ("loteria", ann, 1, 3),
        ("loteria", dee, 0, 1),
        ("loteria", cy, 0, 3),
        ("tictactoe", dee, 1, 1),
        ("tictactoe", cy, 0, 1),
    ]
    assert await board(None, per_kind=2) == [
        ("loteria", ann, 2, 4),
        ("loteria", bea, 1, 3),
        ("tictactoe", dee, 1, 1),
        ("tictactoe", cy, 0, 1),
    ]
    assert await board(0.5) == []

    # The names the bot saw last (Dee's last join was the Tic-tac-toe game), never an empty
    # one; only this server's.
    names = await storage.member_names(1, [ann, dee, 99])
    assert names == {ann: f"{ann}@1", dee: f"{dee}@20"}
    assert await storage.member_names(2, [ann, dee]) == {dee: f"{dee}@1"}
    assert await storage.member_names(1, []) == {}


async def test_meta_upserts(storage: Storage):
    assert await storage.get_meta("k") is None
    await storage.set_meta("k", "1")
    await storage.set_meta("k", "2")
    assert await storage.get_meta("k") == "2"


def test_live_sql_matches_the_live_statuses():
    live = {status.value for status in GameStatus if status.is_live}
    expected = "(" + ", ".join(f"'{v}'" for v in GameStatus if v in live) + ")"
    assert expected == LIVE_SQL


async def test_closed_dms_are_remembered_per_member_until_forgotten(storage: Storage):
    game = await new_game(storage)
    other = await new_game(storage, channel_id=11)
    for user in (1, 2, 3):
        await storage.add_player(game.id, user, display_name="", locale="", boards=_one_board)
    await storage.add_player(other.id, 4, display_name="", locale="", boards=_one_board)
    assert not await storage.dms_closed(2)
    assert await storage.closed_dms_in_game(game.id) == set()

    await storage.set_dms_closed(2, closed=True)
    await storage.set_dms_closed(2, closed=True)  # found closed again: still one mark
    await storage.set_dms_closed(4, closed=True)
    assert await storage.dms_closed(2)
    assert not await storage.dms_closed(1)
    assert await storage.closed_dms_in_game(game.id) == {2}  # the member's, in any game
    assert await storage.closed_dms_in_game(other.id) == {4}

    await storage.set_dms_closed(2, closed=False)
    await storage.set_dms_closed(3, closed=False)  # never marked: nothing to forget
    assert not await storage.dms_closed(2)
    assert await storage.closed_dms_in_game(game.id) == set()
    assert await storage.dms_closed(4)


def _one_board(seat: int, first: int) -> list[tuple[str, str]]:
    return [(f"board-{first}", f"code-{first}")]


async def test_state_compare_and_set(storage: Storage):
    game = await new_game(storage)
    assert await storage.update_game(game.id, state="a")
    assert await storage.update_game(game.id, state="b", expect_state="a")
    assert not await storage.update_game(game.id, state="c", expect_state="a")
    assert (await storage.get_game(game.id)).state == "b"  # type: ignore[union-attr]


async def test_a_channel_holds_one_game_of_the_excluded_kinds_even_under_a_race(storage: Storage):
    async def start(kind: str):
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
        *(start(kind) for kind in ("loteria", "housie", "loteria")), return_exceptions=True
    )
    created = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, ChannelBusyError)]
    assert len(created) == 1
    assert len(refused) == 2
    assert all(r.existing.id == created[0].id for r in refused)
    # Other kinds, other channels and finished games do not block.
    assert await new_game(storage, channel_id=77, kind="tictactoe")
    await storage.update_game(created[0].id, status=GameStatus.FINISHED)
    assert await start("housie")


async def test_game_nights_are_planned_and_move_on_once(storage: Storage):
    from bot.storage import ScheduleStatus

    later = await storage.add_schedule(
        kind="loteria",
        guild_id=1,
        channel_id=10,
        host_id=7,
        starts_at=2_000_000_600.0,
        lobby_minutes=15,
        weekly=True,
        options={"prizes": "line"},
    )
    sooner = await storage.add_schedule(
        kind="loteria",
        guild_id=2,
        channel_id=20,
        host_id=8,
        starts_at=2_000_000_000.0,
        lobby_minutes=5,
        weekly=False,
        options={},
    )
    assert later.status is ScheduleStatus.WAITING
    assert later.lobby_at == 2_000_000_600.0 - 15 * 60
    assert later.weekly
    assert later.options == {"prizes": "line"}
    assert [s.id for s in await storage.pending_schedules("loteria")] == [sooner.id, later.id]
    assert [s.id for s in await storage.pending_schedules("loteria", 1)] == [later.id]
    assert await storage.pending_schedules("housie") == []

    assert await storage.update_schedule(
        later.id, expect=ScheduleStatus.WAITING, status=ScheduleStatus.LOBBY, game_id=44
    )
    # A second opening of the same night loses: compare-and-set.
    assert not await storage.update_schedule(
        later.id, expect=ScheduleStatus.WAITING, status=ScheduleStatus.LOBBY, game_id=45
    )
    opened = await storage.get_schedule(later.id)
    assert (opened.status, opened.game_id) == (ScheduleStatus.LOBBY, 44)
    assert await storage.update_schedule(
        sooner.id, expect=ScheduleStatus.WAITING, status=ScheduleStatus.CANCELLED
    )
    assert [s.id for s in await storage.pending_schedules("loteria")] == [later.id]


async def test_a_weekly_night_closes_and_plans_its_next_week_in_one_write(storage: Storage):
    """The night's close and its next week are one compare-and-set: the next week is planned
    once, only by the close that moved the night, with the night's settings and no event."""
    from bot.storage import ScheduleStatus

    night = await storage.add_schedule(
        kind="housie",
        guild_id=3,
        channel_id=30,
        host_id=9,
        starts_at=2_000_000_000.0,
        lobby_minutes=10,
        weekly=True,
        options={"prizes": "lines"},
    )
    await storage.update_schedule(
        night.id, expect=ScheduleStatus.WAITING, status=ScheduleStatus.LOBBY, event_id=5
    )
    night = await storage.get_schedule(night.id)
    week = 7 * 24 * 3600.0
    closes = [
        storage.close_schedule(
            night,
            expect=ScheduleStatus.LOBBY,
            status=ScheduleStatus.DONE,
            next_starts_at=night.starts_at + week,
        )
        for _ in range(3)
    ]
    results = await asyncio.gather(*closes)
    assert sorted(moved for moved, _ in results) == [False, False, True]
    ((_, following),) = [result for result in results if result[0]]
    assert following is not None
    assert (await storage.get_schedule(night.id)).status is ScheduleStatus.DONE
    assert (following.kind, following.guild_id, following.channel_id, following.host_id) == (
        "housie",
        3,
        30,
        9,
    )
    assert (following.starts_at, following.lobby_minutes, following.weekly) == (
        night.starts_at + week,
        10,
        True,
    )
    assert following.options == {"prizes": "lines"}
    assert (following.status, following.event_id, following.game_id) == (
        ScheduleStatus.WAITING,
        None,
        None,
    )
    assert [s.id for s in await storage.pending_schedules("housie")] == [following.id]

    # A series that ends: the night closes, nothing follows.
    moved, nothing = await storage.close_schedule(
        following, expect=ScheduleStatus.WAITING, status=ScheduleStatus.CANCELLED
    )
    assert (moved, nothing) == (True, None)
    assert await storage.pending_schedules("housie") == []
