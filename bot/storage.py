"""All persistence: one class with typed async methods on aiosqlite. Cogs never write SQL.

Schema changes are numbered migrations tracked with ``PRAGMA user_version``. Every write commits
before the method returns, so a caller that announces after ``await storage.x(...)`` has
written before announcing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.database_file import check_database_path, damaged, newer_schema, unusable_because_of

log = logging.getLogger(__name__)

# How long one attempt to take SQLite's write lock waits (another process may hold it, e.g. a
# backup); a write that still finds it taken waits again, so no accepted write is ever dropped.
BUSY_TIMEOUT_MS = 5000
BUSY_RETRY_LOG_EVERY = 3

MIGRATIONS: tuple[str, ...] = (
    # 1: the calling games and the table games share one games table.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        seed BLOB,
        options TEXT NOT NULL DEFAULT '{}',
        state TEXT NOT NULL DEFAULT '',
        lobby_message_id INTEGER,
        created_at REAL NOT NULL,
        started_at REAL,
        finished_at REAL
    );
    CREATE INDEX games_by_status ON games (status, kind);
    CREATE INDEX games_by_channel ON games (channel_id, status);
    CREATE TABLE players (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        display_name TEXT NOT NULL DEFAULT '',
        locale TEXT NOT NULL DEFAULT '',
        false_claims INTEGER NOT NULL DEFAULT 0,
        out INTEGER NOT NULL DEFAULT 0,
        dealt INTEGER NOT NULL DEFAULT 0,
        joined_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id),
        UNIQUE (game_id, seat)
    );
    CREATE TABLE boards (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        board_index INTEGER NOT NULL,
        deal_index INTEGER NOT NULL,
        state TEXT NOT NULL,
        code TEXT NOT NULL DEFAULT '',
        out INTEGER NOT NULL DEFAULT 0,
        FOREIGN KEY (game_id, user_id) REFERENCES players (game_id, user_id) ON DELETE CASCADE,
        UNIQUE (game_id, user_id, board_index),
        UNIQUE (game_id, deal_index)
    );
    CREATE TABLE draws (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        value INTEGER NOT NULL,
        drawn_at REAL NOT NULL,
        message_id INTEGER,
        PRIMARY KEY (game_id, seq),
        UNIQUE (game_id, value)
    );
    CREATE TABLE claims (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        board_id INTEGER REFERENCES boards (id),
        prize TEXT NOT NULL,
        draw_seq INTEGER NOT NULL,
        valid INTEGER NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL
    );
    CREATE INDEX claims_by_game ON claims (game_id, draw_seq);
    CREATE TABLE winners (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        prize TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        board_id INTEGER REFERENCES boards (id),
        draw_seq INTEGER NOT NULL,
        PRIMARY KEY (game_id, prize, user_id)
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: deal positions are never reused (a leaver's tabla is not dealt again); a claim keeps
    # what was asked (so a repeat on the same call is judged once); a player's boards record how
    # they were delivered (so undelivered boards are sent again after a restart).
    """
    ALTER TABLE games ADD COLUMN next_deal INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET next_deal = (
        SELECT COALESCE(MAX(deal_index) + 1, 0) FROM boards WHERE boards.game_id = games.id
    );
    ALTER TABLE claims ADD COLUMN request TEXT NOT NULL DEFAULT '';
    ALTER TABLE players ADD COLUMN delivery TEXT NOT NULL DEFAULT 'pending';
    UPDATE players SET delivery = 'dm' WHERE dealt = 1;
    CREATE INDEX games_by_guild ON games (guild_id, kind);
    """,
)


class GameStatus(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_live(self) -> bool:
        return self in {GameStatus.LOBBY, GameStatus.RUNNING, GameStatus.PAUSED}


# Literal SQL for the live statuses, kept in step with GameStatus.is_live by a test.
LIVE_SQL = "('lobby', 'running', 'paused')"


class Delivery(StrEnum):
    """How a player's boards reached them."""

    PENDING = "pending"  # stored, not sent yet (or the bot stopped while sending)
    DM = "dm"
    REPLY = "reply"  # in a private reply to their interaction (DMs closed or failing)
    UNDELIVERED = "undelivered"  # no way to reach them yet: shown at their next interaction

    @property
    def delivered(self) -> bool:
        return self in {Delivery.DM, Delivery.REPLY}


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    seed: bytes | None
    options: dict[str, Any]
    state: str
    lobby_message_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    next_deal: int = 0


@dataclass(frozen=True, slots=True)
class PlayerRow:
    game_id: int
    user_id: int
    seat: int
    display_name: str
    locale: str
    false_claims: int
    out: bool
    delivery: Delivery

    @property
    def delivered(self) -> bool:
        return self.delivery.delivered


@dataclass(frozen=True, slots=True)
class BoardRow:
    id: int
    game_id: int
    user_id: int
    board_index: int
    deal_index: int
    state: str
    code: str
    out: bool


@dataclass(frozen=True, slots=True)
class DrawRow:
    seq: int
    value: int
    drawn_at: float
    message_id: int | None


@dataclass(frozen=True, slots=True)
class ClaimRow:
    id: int
    game_id: int
    user_id: int
    board_id: int | None
    prize: str
    draw_seq: int
    valid: bool
    reason: str


@dataclass(frozen=True, slots=True)
class WinnerRow:
    prize: str
    user_id: int
    board_id: int | None
    draw_seq: int


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    user_id: int
    kind: str
    wins: int


class StorageError(Exception):
    """The database refused a write (for example a second winner row for the same prize)."""


class DealExhaustedError(StorageError):
    """Every deal position of the game has been handed out (joins and leaves used them up)."""

    def __init__(self, game_id: int, limit: int) -> None:
        super().__init__(f"game {game_id} has dealt all {limit} deal positions")
        self.limit = limit


class ChannelBusyError(StorageError):
    """A game may not start in a channel that already has one of the games it excludes."""

    def __init__(self, existing: GameRow) -> None:
        super().__init__(f"channel {existing.channel_id} already has game {existing.id}")
        self.existing = existing


class Storage:
    """The bot's SQLite database. Open it with ``async with Storage.open(path) as storage``."""

    def __init__(
        self, connection: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._db = connection
        # Reads have their own connection: in WAL mode they never wait for a writer, so a write
        # waiting on the lock (a backup, a slow disk) does not hold up answers that only read.
        self._reader = reader or connection
        # One writing connection: transactions from concurrent tasks must not interleave.
        self._write_lock = asyncio.Lock()

    @classmethod
    @asynccontextmanager
    async def open(cls, path: Path | str) -> AsyncIterator[Self]:
        """Open (or create) the database, check it and bring its schema up to date.

        Raises ``UnusableDatabaseError`` with one line saying why and what to do when the path
        is a folder or in a missing one, the file is not SQLite or is damaged, cannot be
        written, or has a schema newer than ``MIGRATIONS`` (refused before anything is written).
        Reads get a connection of their own (see ``__init__``).
        """
        check_database_path(Path(path))
        try:
            connection = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as error:
            raise unusable_because_of(path, error) from error
        reader: aiosqlite.Connection | None = None
        try:
            try:
                connection.row_factory = aiosqlite.Row
                # Nothing is written to the file before it has passed the checks below.
                await connection.execute("PRAGMA foreign_keys = ON")
                await connection.execute("PRAGMA synchronous = NORMAL")
                await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                storage = cls(connection)
                version = await storage.schema_version()
                if version > len(MIGRATIONS):
                    raise newer_schema(path, version, len(MIGRATIONS))
                async with connection.execute("PRAGMA quick_check") as cursor:
                    verdict = [str(row[0]) for row in await cursor.fetchall()]
                if verdict != ["ok"]:
                    raise damaged(path, verdict[0] if verdict else "quick_check said nothing")
                await connection.execute("PRAGMA journal_mode = WAL")
                await storage.migrate()
                reader = await aiosqlite.connect(str(path), isolation_level=None)
                reader.row_factory = aiosqlite.Row
                await reader.execute("PRAGMA query_only = ON")
                await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                storage._reader = reader
            except sqlite3.Error as error:
                raise unusable_because_of(path, error) from error
            yield storage
        finally:
            if reader is not None:
                await reader.close()
            await connection.close()

    async def migrate(self) -> int:
        """Apply every migration past ``PRAGMA user_version``; returns the new version."""
        version = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            # executescript commits first; the BEGIN makes the migration and its version atomic.
            await self._db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        return await self.schema_version()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self._begin()
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        """Every row of a query on the reading connection, in one step: a statement left open
        between awaits would hold its snapshot, and a query run meanwhile on the same connection
        would miss writes committed since (the one just made, even)."""
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _begin(self) -> None:
        """Take the write lock, waiting as long as another process holds it."""
        attempt = 0
        while True:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                attempt += 1
                if attempt % BUSY_RETRY_LOG_EVERY == 1:
                    log.warning("the database is locked by another connection; still waiting")
                await asyncio.sleep(0.05)

    # -- games ---------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        seed: bytes | None,
        options: Mapping[str, Any],
        state: str = "",
        status: GameStatus = GameStatus.LOBBY,
        alone_among: Iterable[str] = (),
    ) -> GameRow:
        """Insert a game. With ``alone_among`` (kinds), the channel must have no live game of
        those kinds: checked in the same transaction, so two starts at once cannot both win
        (the loser gets ``ChannelBusyError`` naming the game already there)."""
        rivals = list(alone_among)
        async with self._transaction() as db:
            if rivals:
                marks = ",".join("?" * len(rivals))
                async with db.execute(
                    f"SELECT * FROM games WHERE channel_id = ? AND kind IN ({marks})"  # noqa: S608
                    f" AND status IN {LIVE_SQL} ORDER BY id LIMIT 1",
                    (channel_id, *rivals),
                ) as found:
                    existing = await found.fetchone()
                if existing is not None:
                    raise ChannelBusyError(_game(existing))
            cursor = await db.execute(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, options,"
                " state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    guild_id,
                    channel_id,
                    host_id,
                    status.value,
                    seed,
                    json.dumps(dict(options), sort_keys=True),
                    state,
                    time.time(),
                ),
            )
            game_id = cursor.lastrowid
        assert game_id is not None
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def live_game_in_channel(self, channel_id: int, kinds: Iterable[str]) -> GameRow | None:
        kind_list = list(kinds)
        marks = ",".join("?" * len(kind_list))
        row = await self._one(
            f"SELECT * FROM games WHERE channel_id = ? AND kind IN ({marks})"  # noqa: S608
            f" AND status IN {LIVE_SQL} ORDER BY id DESC LIMIT 1",
            (channel_id, *kind_list),
        )
        return _game(row) if row else None

    async def live_games(self, kind: str | None = None) -> list[GameRow]:
        query = f"SELECT * FROM games WHERE status IN {LIVE_SQL}"  # noqa: S608
        params: list[Any] = []
        if kind is not None:
            query += " AND kind = ?"
            params.append(kind)
        rows = await self._all(query + " ORDER BY id", params)
        return [_game(row) for row in rows]

    async def live_games_of_player(self, user_id: int, kind: str) -> list[GameRow]:
        query = (
            "SELECT games.* FROM games JOIN players ON players.game_id = games.id"  # noqa: S608
            " WHERE players.user_id = ? AND games.kind = ? AND players.out = 0"
            f" AND games.status IN {LIVE_SQL} ORDER BY games.id"
        )
        rows = await self._all(query, (user_id, kind))
        return [_game(row) for row in rows]

    async def update_game(
        self,
        game_id: int,
        *,
        status: GameStatus | None = None,
        state: str | None = None,
        options: Mapping[str, Any] | None = None,
        lobby_message_id: int | None = None,
        expect_status: GameStatus | None = None,
        expect_state: str | None = None,
    ) -> bool:
        """Update the given fields; with ``expect_status`` / ``expect_state``, only if the game
        is still in that status / state (compare-and-set).

        Returns whether a row changed, so callers can detect a lost race (two Start clicks, two
        moves on the same position).
        """
        fields: list[str] = []
        params: list[Any] = []
        if status is not None:
            fields.append("status = ?")
            params.append(status.value)
            if status is GameStatus.RUNNING:
                fields.append("started_at = COALESCE(started_at, ?)")
                params.append(time.time())
            if not status.is_live:
                fields.append("finished_at = ?")
                params.append(time.time())
        if state is not None:
            fields.append("state = ?")
            params.append(state)
        if options is not None:
            fields.append("options = ?")
            params.append(json.dumps(dict(options), sort_keys=True))
        if lobby_message_id is not None:
            fields.append("lobby_message_id = ?")
            params.append(lobby_message_id)
        if not fields:
            return False
        query = f"UPDATE games SET {', '.join(fields)} WHERE id = ?"  # noqa: S608
        params.append(game_id)
        if expect_status is not None:
            query += " AND status = ?"
            params.append(expect_status.value)
        if expect_state is not None:
            query += " AND state = ?"
            params.append(expect_state)
        async with self._transaction() as db:
            cursor = await db.execute(query, params)
            changed = cursor.rowcount
        return changed > 0

    # -- players and boards --------------------------------------------------------------------

    async def add_player(
        self,
        game_id: int,
        user_id: int,
        *,
        display_name: str,
        locale: str,
        boards: Callable[[int, int], Sequence[tuple[str, str]]],
        max_players: int | None = None,
        board_count: int = 0,
        deal_limit: int | None = None,
    ) -> PlayerRow | None:
        """Seat a player and deal their boards in one transaction.

        ``boards(seat, first_deal_index)`` returns the ``board_count`` boards ``(state, code)``
        dealt from the game's seeded stream at positions ``first_deal_index, ...``. Positions are
        never reused, not even a leaver's (``games.next_deal`` only grows), so a board can be
        re-derived from the seed for verification and a newcomer never gets a leaver's board.
        Returns ``None`` if the player is already seated or the game is full (checked atomically);
        raises ``DealExhaustedError`` when the boards would pass ``deal_limit`` positions.
        """
        async with self._transaction() as db:
            async with db.execute(
                "SELECT COUNT(*), COALESCE(MAX(seat), -1),"
                " SUM(user_id = ?) FROM players WHERE game_id = ?",
                (user_id, game_id),
            ) as cursor:
                row = await cursor.fetchone()
            assert row is not None
            count, last_seat, already = int(row[0]), int(row[1]), int(row[2] or 0)
            if already or (max_players is not None and count >= max_players):
                return None
            seat = last_seat + 1
            async with db.execute(
                "SELECT next_deal FROM games WHERE id = ?", (game_id,)
            ) as cursor:
                deal_row = await cursor.fetchone()
            first_deal_index = int(deal_row[0]) if deal_row else 0
            if deal_limit is not None and first_deal_index + board_count > deal_limit:
                raise DealExhaustedError(game_id, deal_limit)
            dealt = boards(seat, first_deal_index)
            await db.execute(
                "UPDATE games SET next_deal = ? WHERE id = ?",
                (first_deal_index + len(dealt), game_id),
            )
            await db.execute(
                "INSERT INTO players (game_id, user_id, seat, display_name, locale, joined_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, user_id, seat, display_name, locale, time.time()),
            )
            await db.executemany(
                "INSERT INTO boards (game_id, user_id, board_index, deal_index, state, code)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, user_id, index, first_deal_index + index, state, code)
                    for index, (state, code) in enumerate(dealt)
                ],
            )
        return await self.get_player(game_id, user_id)

    async def remove_player(self, game_id: int, user_id: int) -> bool:
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM boards WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            cursor = await db.execute(
                "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            removed = cursor.rowcount
        return removed > 0

    async def get_player(self, game_id: int, user_id: int) -> PlayerRow | None:
        row = await self._one(
            "SELECT * FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return _player(row) if row else None

    async def players(self, game_id: int) -> list[PlayerRow]:
        rows = await self._all(
            "SELECT * FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_player(row) for row in rows]

    async def count_players(self, game_id: int) -> int:
        row = await self._one(
            "SELECT COUNT(*) FROM players WHERE game_id = ?", (game_id,)
        )
        return int(row[0]) if row else 0

    async def set_delivery(self, game_id: int, user_id: int, delivery: Delivery) -> None:
        """Record how (or whether) a player's boards reached them."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE players SET delivery = ?, dealt = ? WHERE game_id = ? AND user_id = ?",
                (delivery.value, int(delivery.delivered), game_id, user_id),
            )

    async def undelivered_players(self, game_id: int) -> list[PlayerRow]:
        """Players whose boards are stored but have not reached them, in seating order."""
        rows = await self._all(
            "SELECT * FROM players WHERE game_id = ? AND delivery IN (?, ?) ORDER BY seat",
            (game_id, Delivery.PENDING.value, Delivery.UNDELIVERED.value),
        )
        return [_player(row) for row in rows]

    async def record_false_claim(self, game_id: int, user_id: int, *, limit: int) -> PlayerRow:
        """Count a false claim; at ``limit`` false claims the player is out of the game."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE players SET false_claims = false_claims + 1,"
                " out = (false_claims + 1 >= ?) WHERE game_id = ? AND user_id = ?",
                (limit, game_id, user_id),
            )
        player = await self.get_player(game_id, user_id)
        assert player is not None
        return player

    async def boards(self, game_id: int, user_id: int | None = None) -> list[BoardRow]:
        query = "SELECT * FROM boards WHERE game_id = ? ORDER BY user_id, board_index"
        params: tuple[int, ...] = (game_id,)
        if user_id is not None:
            query = "SELECT * FROM boards WHERE game_id = ? AND user_id = ? ORDER BY board_index"
            params = (game_id, user_id)
        rows = await self._all(query, params)
        return [_board(row) for row in rows]

    async def board_count(self, game_id: int) -> int:
        row = await self._one(
            "SELECT COUNT(*) FROM boards WHERE game_id = ?", (game_id,)
        )
        return int(row[0]) if row else 0

    async def set_board_out(self, board_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE boards SET out = 1 WHERE id = ?", (board_id,))

    # -- draws ---------------------------------------------------------------------------------

    async def record_draw(self, game_id: int, seq: int, value: int, state: str) -> None:
        """Store draw ``seq`` and the game's new state together, before anyone is told."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO draws (game_id, seq, value, drawn_at) VALUES (?, ?, ?, ?)",
                (game_id, seq, value, time.time()),
            )
            await db.execute("UPDATE games SET state = ? WHERE id = ?", (state, game_id))

    async def set_draw_message(self, game_id: int, seq: int, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE draws SET message_id = ? WHERE game_id = ? AND seq = ?",
                (message_id, game_id, seq),
            )

    async def draws(self, game_id: int) -> list[DrawRow]:
        rows = await self._all(
            "SELECT seq, value, drawn_at, message_id FROM draws WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [
            DrawRow(int(r["seq"]), int(r["value"]), float(r["drawn_at"]), r["message_id"])
            for r in rows
        ]

    # -- claims and winners --------------------------------------------------------------------

    async def record_claim(
        self,
        game_id: int,
        user_id: int,
        *,
        board_id: int | None,
        prize: str,
        draw_seq: int,
        valid: bool,
        reason: str,
        request: str = "",
    ) -> int:
        """Store a judged claim; ``request`` is what was asked (see :meth:`claim_requests`)."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO claims (game_id, user_id, board_id, prize, draw_seq, valid, reason,"
                " request, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    user_id,
                    board_id,
                    prize,
                    draw_seq,
                    int(valid),
                    reason,
                    request,
                    time.time(),
                ),
            )
            claim_id = cursor.lastrowid
        assert claim_id is not None
        return claim_id

    async def claim_requests(self, game_id: int) -> list[tuple[tuple[int, int, str], bool]]:
        """``((user_id, draw_seq, request), valid)`` of every claim judged in the game."""
        rows = await self._all(
            "SELECT user_id, draw_seq, request, valid FROM claims WHERE game_id = ? ORDER BY id",
            (game_id,),
        )
        return [((int(r[0]), int(r[1]), str(r[2])), bool(r[3])) for r in rows]

    async def claims(self, game_id: int) -> list[ClaimRow]:
        rows = await self._all(
            "SELECT * FROM claims WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [
            ClaimRow(
                id=int(r["id"]),
                game_id=int(r["game_id"]),
                user_id=int(r["user_id"]),
                board_id=r["board_id"],
                prize=str(r["prize"]),
                draw_seq=int(r["draw_seq"]),
                valid=bool(r["valid"]),
                reason=str(r["reason"]),
            )
            for r in rows
        ]

    async def record_win(
        self,
        game_id: int,
        *,
        prize: str,
        user_id: int,
        board_id: int | None,
        draw_seq: int,
        claim_reason: str = "",
        state: str | None = None,
        request: str = "",
    ) -> None:
        """Store a valid claim, its winner row and optionally the game's new state atomically."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO claims (game_id, user_id, board_id, prize, draw_seq, valid, reason,"
                " request, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)",
                (game_id, user_id, board_id, prize, draw_seq, claim_reason, request, time.time()),
            )
            try:
                await db.execute(
                    "INSERT INTO winners (game_id, prize, user_id, board_id, draw_seq)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, prize, user_id, board_id, draw_seq),
                )
            except aiosqlite.IntegrityError as error:
                raise StorageError(f"{user_id} already won {prize} in game {game_id}") from error
            if state is not None:
                await db.execute("UPDATE games SET state = ? WHERE id = ?", (state, game_id))

    async def winners(self, game_id: int) -> list[WinnerRow]:
        rows = await self._all(
            "SELECT prize, user_id, board_id, draw_seq FROM winners WHERE game_id = ?"
            " ORDER BY draw_seq, rowid",
            (game_id,),
        )
        return [
            WinnerRow(str(r["prize"]), int(r["user_id"]), r["board_id"], int(r["draw_seq"]))
            for r in rows
        ]

    async def leaderboard(self, guild_id: int, *, per_kind: int = 5) -> list[LeaderboardRow]:
        """The ``per_kind`` players with most wins in each game kind in a server (one win per
        game won, however many prizes), ranked within the kind so that a busy game cannot
        push another's leaders out; by kind, then most wins first."""
        rows = await self._all(
            "SELECT user_id, kind, wins FROM ("
            " SELECT winners.user_id, games.kind, COUNT(DISTINCT games.id) AS wins,"
            "  ROW_NUMBER() OVER (PARTITION BY games.kind"
            "   ORDER BY COUNT(DISTINCT games.id) DESC, winners.user_id) AS place"
            " FROM winners JOIN games ON games.id = winners.game_id"
            " WHERE games.guild_id = ? GROUP BY winners.user_id, games.kind"
            ") WHERE place <= ? ORDER BY kind, place",
            (guild_id, per_kind),
        )
        return [LeaderboardRow(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    # -- meta ----------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def ping(self) -> bool:
        """Whether the database answers a query (for the health check)."""
        return await self._one("SELECT 1") is not None

    async def live_counts(self) -> dict[str, int]:
        """How many games of each kind are live (in a lobby, running or paused)."""
        rows = await self._all(
            f"SELECT kind, COUNT(*) FROM games WHERE status IN {LIVE_SQL} GROUP BY kind"  # noqa: S608
        )
        return {str(row[0]): int(row[1]) for row in rows}

    async def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        """Every meta value whose key starts with ``prefix``."""
        rows = await self._all(
            "SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?", (len(prefix), prefix)
        )
        return {str(row[0]): str(row[1]) for row in rows}

    async def delete_meta(self, key: str) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM meta WHERE key = ?", (key,))

    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


def _game(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=int(row["id"]),
        kind=str(row["kind"]),
        guild_id=row["guild_id"],
        channel_id=int(row["channel_id"]),
        host_id=int(row["host_id"]),
        status=GameStatus(row["status"]),
        seed=row["seed"],
        options=json.loads(row["options"]),
        state=str(row["state"]),
        lobby_message_id=row["lobby_message_id"],
        created_at=float(row["created_at"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        next_deal=int(row["next_deal"]),
    )


def _player(row: aiosqlite.Row) -> PlayerRow:
    return PlayerRow(
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        seat=int(row["seat"]),
        display_name=str(row["display_name"]),
        locale=str(row["locale"]),
        false_claims=int(row["false_claims"]),
        out=bool(row["out"]),
        delivery=Delivery(row["delivery"]),
    )


def _board(row: aiosqlite.Row) -> BoardRow:
    return BoardRow(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        board_index=int(row["board_index"]),
        deal_index=int(row["deal_index"]),
        state=str(row["state"]),
        code=str(row["code"]),
        out=bool(row["out"]),
    )
