"""All persistence: one class with typed async methods. Cogs never write SQL.

The database is SQLite (a file) or PostgreSQL (a ``postgresql://`` URL); the SQL here is written
once for both (see ``_backend``). Schema changes are numbered migrations (``MIGRATIONS``). Every
write commits before the method returns, so a caller that announces after
``await storage.x(...)`` has written before announcing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Self, TypeVar

from bot.fleet.shards import shard_of
from bot.storage._backend import Backend, Transaction
from bot.storage._leases import (
    Fence,
    HeartbeatOutcome,
    HeartbeatRequest,
    LeaseRow,
    ResumableSession,
    heartbeat,
    hold_lease,
    lease_row,
    release,
    take_identify_slot,
)
from bot.storage._migrations import MIGRATIONS
from bot.storage._postgres import hold_postgres, is_postgres_url, open_postgres
from bot.storage._rows import (
    LIVE_SQL,
    BoardRow,
    ChannelBusyError,
    ClaimRow,
    ConflictError,
    DealExhaustedError,
    DealMovedError,
    Delivery,
    DrawRow,
    GameRow,
    GameStatus,
    LeaderboardRow,
    MemberGames,
    NightLimitError,
    PlayerRow,
    RecordLimitError,
    Row,
    ScheduleRow,
    ScheduleStatus,
    ServerSettings,
    StorageError,
    WinnerRow,
    board_row,
    game_row,
    player_row,
    schedule_row,
    server_settings_row,
)
from bot.storage._sqlite import open_sqlite
from bot.storage.database_file import lock_database

DatabaseTarget = Path | str  # a SQLite file, or a postgresql:// URL
T = TypeVar("T")

# Games that are over (finished or cancelled): what forget-me and the retention purge touch.
OVER_SQL = f"status NOT IN {LIVE_SQL}"
# The games holding a member's personal data (``?`` five times: the member's id, then a LIKE
# pattern for table games' seats in the options, which the caller checks exactly).
_MEMBER_GAMES_SQL = (
    "(host_id = ? OR options LIKE ?"
    " OR id IN (SELECT game_id FROM players WHERE user_id = ?)"
    " OR id IN (SELECT game_id FROM claims WHERE user_id = ?)"
    " OR id IN (SELECT game_id FROM winners WHERE user_id = ?))"
)
# Meta keys of notices waiting for a member's next interaction (``bot.app`` keeps them).
NOTICE_PREFIX = "notice:"
# Planned nights still to come: forget-me and the purge leave them alone.
_PENDING_NIGHTS = "(" + ", ".join(f"'{s.value}'" for s in ScheduleStatus if s.is_pending) + ")"
# The retention purge deletes at most this many games (or past nights) a transaction, and fewer
# when a transaction takes longer than PURGE_TRANSACTION_SECONDS: each holds the database's
# write lock for tens of milliseconds at most (bench/bench_storage.py --purge).
PURGE_BATCH = 100
PURGE_TRANSACTION_SECONDS = 0.03
# Rows of a game that are its own, children before parents (the foreign keys).
_GAME_TABLES = ("winners", "claims", "draws", "boards", "players")


def anonymous_holder(seat: int) -> int:
    """The id a forgotten player keeps in a finished game: negative, so never a member's (Discord
    ids are positive), and one per seat, so the game's boards still belong to distinct holders."""
    return -(seat + 1)


def _member_games_params(user_id: int) -> tuple[Any, ...]:
    return (user_id, f"%{user_id}%", user_id, user_id, user_id)


def _seats_hold(options: Mapping[str, Any], user_id: int) -> bool:
    """Whether a table game's options seat ``user_id`` (its ``seats``, with their ``names``)."""
    seats = options.get("seats")
    return isinstance(seats, list) and user_id in seats


def _open_backend(target: DatabaseTarget) -> AbstractAsyncContextManager[Backend]:
    if is_postgres_url(target):
        return open_postgres(str(target), len(MIGRATIONS))
    return open_sqlite(Path(target), len(MIGRATIONS))


@asynccontextmanager
async def hold_database(target: DatabaseTarget, *, fleet: bool = False) -> AsyncIterator[None]:
    """Keep other Game Night processes off the database while the body runs (they stop at once
    with one line): a lock on ``<file>.lock`` for SQLite, an advisory lock for PostgreSQL.

    ``fleet``: this process is one of a fleet sharing the database (``GAMENIGHT_SHARDS``),
    which hold the lock together (shared) and keep a process that runs every shard off it, and
    are kept off by one; only on PostgreSQL."""
    if is_postgres_url(target):
        async with hold_postgres(str(target), shared=fleet):
            yield
    else:
        with lock_database(Path(target)):
            yield


class Storage:
    """The bot's database. Open it with ``async with Storage.open(target) as storage``."""

    def __init__(self, backend: Backend, fence: Fence | None = None) -> None:
        self._backend = backend
        self._fence = fence
        self._shard_of_game: dict[int, int] = {}  # for the fence: a game's server never changes

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgres``."""
        return self._backend.name

    @classmethod
    @asynccontextmanager
    async def open(cls, target: DatabaseTarget) -> AsyncIterator[Self]:
        """Open (or create) the database, check it and bring its schema up to date.

        ``target`` is a SQLite file path or a ``postgresql://`` (``postgres://``) URL. Raises
        ``UnusableDatabaseError`` with one line saying why and what to do when the database
        cannot be used (a missing folder, a file that is not SQLite or is damaged, a read-only
        disk, a server that cannot be reached or refuses the login, another program's tables, a
        schema newer than ``MIGRATIONS``: refused before anything is written).
        """
        async with _open_backend(target) as backend:
            storage = cls(backend)
            await storage.migrate()
            yield storage

    def fenced(self, fence: Fence) -> Storage:
        """The same database for one bot client of a fleet: its game writes are refused
        (``LeaseLostError``) once the client no longer holds their shard's lease as ``fence``
        says (see ``_leases``). PostgreSQL only."""
        if self._backend.name != "postgres":
            raise StorageError("shard leases need PostgreSQL")
        return type(self)(self._backend, fence)

    async def migrate(self) -> int:
        """Apply every migration past the schema version; returns the new version."""
        return await self._backend.migrate(MIGRATIONS)

    async def schema_version(self) -> int:
        return await self._backend.schema_version()

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self._backend.fetch(sql, tuple(params))

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

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
        those kinds: checked in the same transaction, under the channel's lock, so two starts at
        once cannot both win (the loser gets ``ChannelBusyError`` naming the game already
        there)."""
        rivals = list(alone_among)
        options_text = json.dumps(dict(options), sort_keys=True)
        created_at = time.time()

        async def work(db: Transaction) -> int:
            if rivals:
                await db.lock_channel(channel_id)
                marks = ",".join("?" * len(rivals))
                found = await db.fetch(
                    f"SELECT * FROM games WHERE channel_id = ? AND kind IN ({marks})"  # noqa: S608
                    f" AND status IN {LIVE_SQL} ORDER BY id LIMIT 1",
                    (channel_id, *rivals),
                )
                if found:
                    raise ChannelBusyError(game_row(found[0]))
            return await db.insert(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, options,"
                " state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    guild_id,
                    channel_id,
                    host_id,
                    status.value,
                    seed,
                    options_text,
                    state,
                    created_at,
                ),
            )

        game = await self.get_game(await self._write_guild(guild_id, work))
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def live_game_in_channel(self, channel_id: int, kinds: Iterable[str]) -> GameRow | None:
        kind_list = list(kinds)
        marks = ",".join("?" * len(kind_list))
        row = await self._one(
            f"SELECT * FROM games WHERE channel_id = ? AND kind IN ({marks})"  # noqa: S608
            f" AND status IN {LIVE_SQL} ORDER BY id DESC LIMIT 1",
            (channel_id, *kind_list),
        )
        return game_row(row) if row else None

    async def live_games(self, kind: str | None = None) -> list[GameRow]:
        query = f"SELECT * FROM games WHERE status IN {LIVE_SQL}"  # noqa: S608
        params: list[Any] = []
        if kind is not None:
            query += " AND kind = ?"
            params.append(kind)
        rows = await self._all(query + " ORDER BY id", params)
        return [game_row(row) for row in rows]

    async def live_games_of_player(self, user_id: int, kind: str) -> list[GameRow]:
        query = (
            "SELECT games.* FROM games JOIN players ON players.game_id = games.id"  # noqa: S608
            " WHERE players.user_id = ? AND games.kind = ? AND players.out = 0"
            f" AND games.status IN {LIVE_SQL} ORDER BY games.id"
        )
        rows = await self._all(query, (user_id, kind))
        return [game_row(row) for row in rows]

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

        async def work(db: Transaction) -> int:
            return await db.execute(query, params)

        return await self._write_game(game_id, work) > 0

    # -- players and boards --------------------------------------------------------------------

    async def add_player(
        self,
        game_id: int,
        user_id: int,
        *,
        display_name: str,
        locale: str,
        boards: Callable[[int, int], Sequence[tuple[str, str]]] | Sequence[tuple[str, str]],
        max_players: int | None = None,
        board_count: int = 0,
        deal_limit: int | None = None,
        dealt_from: int | None = None,
    ) -> PlayerRow | None:
        """Seat a player and deal their boards in one transaction.

        ``boards(seat, first_deal_index)`` returns the ``board_count`` boards ``(state, code)``
        dealt from the game's seeded stream at positions ``first_deal_index, ...`` (it may be
        called again if the write is retried, so it must only compute). Positions are never
        reused, not even a leaver's (``games.next_deal`` only grows), so a board can be
        re-derived from the seed for verification and a newcomer never gets a leaver's board.
        Returns ``None`` if the player is already seated or the game is full (checked atomically,
        under the game's lock); raises ``DealExhaustedError`` when the boards would pass
        ``deal_limit`` positions.

        ``boards`` may instead be the boards already dealt, from position ``dealt_from``: dealing
        is CPU work that belongs off the event loop, not inside a transaction. They are stored
        only if the game's next position is still ``dealt_from`` (else ``DealMovedError``).
        """
        joined_at = time.time()

        async def work(db: Transaction) -> bool:
            await db.lock_game(game_id)
            (row,) = await db.fetch(
                "SELECT COUNT(*), COALESCE(MAX(seat), -1), COUNT(*) FILTER (WHERE user_id = ?)"
                " FROM players WHERE game_id = ?",
                (user_id, game_id),
            )
            count, last_seat, already = int(row[0]), int(row[1]), int(row[2])
            if already or (max_players is not None and count >= max_players):
                return False
            seat = last_seat + 1
            deal_rows = await db.fetch("SELECT next_deal FROM games WHERE id = ?", (game_id,))
            first_deal_index = int(deal_rows[0][0]) if deal_rows else 0
            if deal_limit is not None and first_deal_index + board_count > deal_limit:
                raise DealExhaustedError(game_id, deal_limit)
            if callable(boards):
                dealt = boards(seat, first_deal_index)
            elif dealt_from != first_deal_index:
                raise DealMovedError(game_id, dealt_from, first_deal_index)
            else:
                dealt = boards
            await db.execute(
                "UPDATE games SET next_deal = ? WHERE id = ?",
                (first_deal_index + len(dealt), game_id),
            )
            await db.execute(
                "INSERT INTO players (game_id, user_id, seat, display_name, locale, joined_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, user_id, seat, display_name, locale, joined_at),
            )
            await db.execute_many(
                "INSERT INTO boards (game_id, user_id, board_index, deal_index, state, code)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, user_id, index, first_deal_index + index, state, code)
                    for index, (state, code) in enumerate(dealt)
                ],
            )
            return True

        if not await self._write_game(game_id, work):
            return None
        return await self.get_player(game_id, user_id)

    async def remove_player(self, game_id: int, user_id: int) -> bool:
        async def work(db: Transaction) -> int:
            await db.lock_game(game_id)
            await db.execute(
                "DELETE FROM boards WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            return await db.execute(
                "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )

        return await self._write_game(game_id, work) > 0

    async def get_player(self, game_id: int, user_id: int) -> PlayerRow | None:
        row = await self._one(
            "SELECT * FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return player_row(row) if row else None

    async def players(self, game_id: int) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE game_id = ? ORDER BY seat", (game_id,))
        return [player_row(row) for row in rows]

    async def count_players(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM players WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def set_delivery(self, game_id: int, user_id: int, delivery: Delivery) -> None:
        """Record how (or whether) a player's boards reached them."""
        await self._write(
            "UPDATE players SET delivery = ?, dealt = ? WHERE game_id = ? AND user_id = ?",
            (delivery.value, int(delivery.delivered), game_id, user_id),
            game_id=game_id,
        )

    async def undelivered_players(self, game_id: int) -> list[PlayerRow]:
        """Players whose boards are stored but have not reached them, in seating order."""
        rows = await self._all(
            "SELECT * FROM players WHERE game_id = ? AND delivery IN (?, ?) ORDER BY seat",
            (game_id, Delivery.PENDING.value, Delivery.UNDELIVERED.value),
        )
        return [player_row(row) for row in rows]

    async def record_false_claim(self, game_id: int, user_id: int, *, limit: int) -> PlayerRow:
        """Count a false claim; at ``limit`` false claims the player is out of the game."""
        await self._write(
            "UPDATE players SET false_claims = false_claims + 1,"
            " out = CASE WHEN false_claims + 1 >= ? THEN 1 ELSE 0 END"
            " WHERE game_id = ? AND user_id = ?",
            (limit, game_id, user_id),
            game_id=game_id,
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
        return [board_row(row) for row in rows]

    async def board_count(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM boards WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def set_board_out(self, board_id: int) -> None:
        async def work(db: Transaction) -> int:
            return await db.execute("UPDATE boards SET out = 1 WHERE id = ?", (board_id,))

        async def shard(db: Transaction) -> int | None:
            rows = await db.fetch("SELECT game_id FROM boards WHERE id = ?", (board_id,))
            return await self._shard_of(db, int(rows[0][0])) if rows else None

        await self._write_fenced(work, shard)

    # -- draws ---------------------------------------------------------------------------------

    async def record_draw(self, game_id: int, seq: int, value: int, state: str) -> None:
        """Store draw ``seq`` and the game's new state together, before anyone is told."""
        await self._write_statements(
            [
                (
                    "INSERT INTO draws (game_id, seq, value, drawn_at) VALUES (?, ?, ?, ?)",
                    (game_id, seq, value, time.time()),
                ),
                ("UPDATE games SET state = ? WHERE id = ?", (state, game_id)),
            ],
            game_id=game_id,
        )

    async def set_draw_message(self, game_id: int, seq: int, message_id: int) -> None:
        await self._write(
            "UPDATE draws SET message_id = ? WHERE game_id = ? AND seq = ?",
            (message_id, game_id, seq),
            game_id=game_id,
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

    async def unannounced_draws(self, game_id: int) -> list[DrawRow]:
        """The draws stored but never posted (a crash between the two), in order: what the
        caller reads before every call, so one row at most in a game and usually none."""
        rows = await self._all(
            "SELECT seq, value, drawn_at, message_id FROM draws"
            " WHERE game_id = ? AND message_id IS NULL ORDER BY seq",
            (game_id,),
        )
        return [DrawRow(int(r["seq"]), int(r["value"]), float(r["drawn_at"]), None) for r in rows]

    async def last_drawn_at(self, game_id: int) -> float | None:
        """When the game's latest draw was stored (a Unix time); None before its first."""
        row = await self._one(
            "SELECT drawn_at FROM draws WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        )
        return None if row is None else float(row["drawn_at"])

    # -- claims and winners --------------------------------------------------------------------

    async def record_claim(
        self,
        game_id: int,
        user_id: int,
        *,
        board_id: int | None,
        prize: str,
        step: int,
        valid: bool,
        reason: str,
        request: str = "",
    ) -> int:
        """Store a judged claim; ``request`` is what was asked (see :meth:`claim_requests`)."""
        created_at = time.time()

        async def work(db: Transaction) -> int:
            return await db.insert(
                "INSERT INTO claims (game_id, user_id, board_id, prize, step, valid, reason,"
                " request, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    user_id,
                    board_id,
                    prize,
                    step,
                    int(valid),
                    reason,
                    request,
                    created_at,
                ),
            )

        return await self._write_game(game_id, work)

    async def claim_requests(self, game_id: int) -> list[tuple[tuple[int, int, str], bool]]:
        """``((user_id, step, request), valid)`` of every claim judged in the game."""
        rows = await self._all(
            "SELECT user_id, step, request, valid FROM claims WHERE game_id = ? ORDER BY id",
            (game_id,),
        )
        return [((int(r[0]), int(r[1]), str(r[2])), bool(r[3])) for r in rows]

    async def claims(self, game_id: int) -> list[ClaimRow]:
        rows = await self._all("SELECT * FROM claims WHERE game_id = ? ORDER BY id", (game_id,))
        return [
            ClaimRow(
                id=int(r["id"]),
                game_id=int(r["game_id"]),
                user_id=int(r["user_id"]),
                board_id=r["board_id"],
                prize=str(r["prize"]),
                step=int(r["step"]),
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
        step: int,
        claim_reason: str = "",
        state: str | None = None,
        request: str = "",
    ) -> None:
        """Store a valid claim, its winner row and optionally the game's new state atomically;
        ``step`` is how far the game had gone: the calls made in a calling game, the moves played
        in a table game."""
        created_at = time.time()

        async def work(db: Transaction) -> None:
            await db.execute(
                "INSERT INTO claims (game_id, user_id, board_id, prize, step, valid, reason,"
                " request, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)",
                (game_id, user_id, board_id, prize, step, claim_reason, request, created_at),
            )
            try:
                await db.execute(
                    "INSERT INTO winners (game_id, prize, user_id, board_id, step)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, prize, user_id, board_id, step),
                )
            except ConflictError as error:
                raise StorageError(f"{user_id} already won {prize} in game {game_id}") from error
            if state is not None:
                await db.execute("UPDATE games SET state = ? WHERE id = ?", (state, game_id))

        await self._write_game(game_id, work)

    async def last_win_at(self, game_id: int) -> float | None:
        """When the game's latest win (a valid claim) was stored, as a Unix time; None before
        its first."""
        row = await self._one(
            "SELECT MAX(created_at) AS won_at FROM claims WHERE game_id = ? AND valid = 1",
            (game_id,),
        )
        return None if row is None or row["won_at"] is None else float(row["won_at"])

    async def winners(self, game_id: int) -> list[WinnerRow]:
        rows = await self._all(
            "SELECT prize, user_id, board_id, step FROM winners WHERE game_id = ?"
            " ORDER BY step, rowid",
            (game_id,),
        )
        return [
            WinnerRow(str(r["prize"]), int(r["user_id"]), r["board_id"], int(r["step"]))
            for r in rows
        ]

    async def leaderboard(
        self, guild_id: int, *, per_kind: int = 5, since: float | None = None
    ) -> list[LeaderboardRow]:
        """The ``per_kind`` best players of each game kind in a server, over its finished games
        (those that ended at or after ``since``, a Unix time, when given; cancelled ones never
        count): most wins first (one per game won, however many prizes), then the fewest games
        played for them. Ranked within the kind, so that a busy game cannot push another's
        leaders out; by kind, then best first. ``played`` counts the games they took part in."""
        finished = "games.guild_id = ? AND games.status = ?"
        # Forgotten members (anonymous holders, below 0) are not ranked.
        params: list[Any] = [guild_id, GameStatus.FINISHED.value]
        if since is not None:
            finished += " AND games.finished_at >= ?"
            params.append(since)
        # Each (player, game) once: seated in it, won in it, or both.
        rows = await self._all(
            "SELECT user_id, kind, wins, played FROM ("  # noqa: S608
            " SELECT user_id, kind, SUM(won) AS wins, COUNT(*) AS played,"
            "  ROW_NUMBER() OVER (PARTITION BY kind"
            "   ORDER BY SUM(won) DESC, COUNT(*), user_id) AS place"
            " FROM ("
            "  SELECT user_id, kind, game_id, MAX(won) AS won FROM ("
            "   SELECT players.user_id, games.kind, games.id AS game_id, 0 AS won"
            "   FROM players JOIN games ON games.id = players.game_id"
            f"   WHERE {finished} AND players.user_id > 0"
            "   UNION ALL"
            "   SELECT winners.user_id, games.kind, games.id AS game_id, 1 AS won"
            "   FROM winners JOIN games ON games.id = winners.game_id"
            f"   WHERE {finished} AND winners.user_id > 0"
            "  ) AS taking_part GROUP BY user_id, kind, game_id"
            " ) AS per_game GROUP BY user_id, kind"
            ") AS ranked WHERE place <= ? ORDER BY kind, place",
            (*params, *params, per_kind),
        )
        return [LeaderboardRow(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def member_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Each member's display name as they last joined a game in the server (the bot does
        not follow members, so this is the name it saw last); members never seen are left out."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        rows = await self._all(
            "SELECT players.user_id, players.display_name FROM players"  # noqa: S608
            " JOIN games ON games.id = players.game_id"
            f" WHERE games.guild_id = ? AND players.user_id IN ({marks})"
            " AND players.display_name <> '' ORDER BY players.joined_at, games.id",
            (guild_id, *wanted),
        )
        return {int(row[0]): str(row[1]) for row in rows}  # the latest wins

    # -- game nights planned ahead --------------------------------------------------------------

    async def add_schedule(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        starts_at: float,
        lobby_minutes: int,
        weekly: bool,
        options: Mapping[str, Any],
        server_limit: int | None = None,
        member_limit: int | None = None,
    ) -> ScheduleRow:
        """Plan a game night (waiting for its lobby to open). With limits, the server may have
        at most ``server_limit`` nights to come (of every game) and the host at most
        ``member_limit`` of them; they are counted in the same transaction, under the server's
        lock, so a burst of plans cannot pass them (``NightLimitError`` says which was reached).
        """
        created_at = time.time()

        async def within_limits(db: Transaction) -> None:
            await db.lock_server(guild_id)
            rows = await db.fetch(
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN host_id = ? THEN 1 ELSE 0 END), 0)"  # noqa: S608
                f" FROM schedules WHERE guild_id = ? AND status IN {_PENDING_NIGHTS}",
                (host_id, guild_id),
            )
            in_server, by_member = int(rows[0][0]), int(rows[0][1])
            if server_limit is not None and in_server >= server_limit:
                raise NightLimitError("server", server_limit)
            if member_limit is not None and by_member >= member_limit:
                raise NightLimitError("member", member_limit)

        async def work(db: Transaction) -> int:
            if server_limit is not None or member_limit is not None:
                await within_limits(db)
            return await db.insert(
                "INSERT INTO schedules (kind, guild_id, channel_id, host_id, starts_at,"
                " lobby_minutes, weekly, options, status, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    guild_id,
                    channel_id,
                    host_id,
                    starts_at,
                    lobby_minutes,
                    int(weekly),
                    json.dumps(dict(options), sort_keys=True),
                    ScheduleStatus.WAITING.value,
                    created_at,
                ),
            )

        schedule = await self.get_schedule(await self._write_guild(guild_id, work))
        assert schedule is not None
        return schedule

    async def get_schedule(self, schedule_id: int) -> ScheduleRow | None:
        row = await self._one("SELECT * FROM schedules WHERE id = ?", (schedule_id,))
        return schedule_row(row) if row else None

    async def pending_schedules(self, kind: str, guild_id: int | None = None) -> list[ScheduleRow]:
        """Game nights of ``kind`` still to come (waiting, or with their lobby open), soonest
        first; only those of ``guild_id`` if given."""
        query = "SELECT * FROM schedules WHERE kind = ? AND status IN (?, ?)"
        params: list[Any] = [kind, ScheduleStatus.WAITING.value, ScheduleStatus.LOBBY.value]
        if guild_id is not None:
            query += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._all(query + " ORDER BY starts_at, id", params)
        return [schedule_row(row) for row in rows]

    async def update_schedule(
        self,
        schedule_id: int,
        *,
        expect: ScheduleStatus,
        status: ScheduleStatus | None = None,
        event_id: int | None = None,
        game_id: int | None = None,
    ) -> bool:
        """Change a schedule if it is still in status ``expect`` (compare-and-set: a night is
        opened, started or cancelled once); returns whether it changed."""
        fields: list[str] = []
        params: list[Any] = []
        for column, value in (("status", status), ("event_id", event_id), ("game_id", game_id)):
            if value is not None:
                fields.append(f"{column} = ?")
                params.append(value.value if isinstance(value, ScheduleStatus) else value)
        if not fields:
            return False
        params += [schedule_id, expect.value]
        sql = f"UPDATE schedules SET {', '.join(fields)} WHERE id = ? AND status = ?"  # noqa: S608

        async def work(db: Transaction) -> int:
            return await db.execute(sql, params)

        async def shard(db: Transaction) -> int | None:  # the night's server's
            assert self._fence is not None
            rows = await db.fetch("SELECT guild_id FROM schedules WHERE id = ?", (schedule_id,))
            return shard_of(int(rows[0][0]), self._fence.shard_count) if rows else None

        return await self._write_fenced(work, shard) > 0

    async def close_schedule(
        self,
        schedule: ScheduleRow,
        *,
        expect: ScheduleStatus,
        status: ScheduleStatus,
        next_starts_at: float | None = None,
    ) -> tuple[bool, ScheduleRow | None]:
        """Move ``schedule`` from ``expect`` to ``status`` (compare-and-set, as
        :meth:`update_schedule`) and, with ``next_starts_at``, plan its next week in the same
        transaction (a weekly night: same server, channel, host, lobby and options, waiting, no
        event yet): a crash cannot end a weekly series between the two. Returns whether the
        night moved, and the next week's night if one was planned. The next week is not
        counted against the limits: it takes the place of the night it follows."""
        created_at = time.time()

        async def work(db: Transaction) -> int | None:
            moved = await db.execute(
                "UPDATE schedules SET status = ? WHERE id = ? AND status = ?",
                (status.value, schedule.id, expect.value),
            )
            if not moved or next_starts_at is None:
                return 0 if moved else None
            return await db.insert(
                "INSERT INTO schedules (kind, guild_id, channel_id, host_id, starts_at,"
                " lobby_minutes, weekly, options, status, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    schedule.kind,
                    schedule.guild_id,
                    schedule.channel_id,
                    schedule.host_id,
                    next_starts_at,
                    schedule.lobby_minutes,
                    int(schedule.weekly),
                    json.dumps(dict(schedule.options), sort_keys=True),
                    ScheduleStatus.WAITING.value,
                    created_at,
                ),
            )

        following_id = await self._write_guild(schedule.guild_id, work)
        if following_id is None:
            return False, None
        return True, (await self.get_schedule(following_id) if following_id else None)

    # -- DM channels ---------------------------------------------------------------------------

    async def dm_channel(self, user_id: int) -> int | None:
        """The member's DM channel with the bot, if the bot opened one before."""
        row = await self._one("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return int(row[0]) if row else None

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._write(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (user_id, channel_id),
        )

    async def forget_dm_channel(self, user_id: int) -> None:
        await self._write("DELETE FROM dm_channels WHERE user_id = ?", (user_id,))

    async def dms_closed(self, user_id: int) -> bool:
        """Whether the bot found the member's DMs closed (Discord's 50007) and has not reached
        them by DM since."""
        return await self._one("SELECT 1 FROM closed_dms WHERE user_id = ?", (user_id,)) is not None

    async def closed_dms_in_game(self, game_id: int) -> set[int]:
        """The players of game ``game_id`` whose DMs the bot found closed (see
        :meth:`dms_closed`)."""
        rows = await self._all(
            "SELECT closed_dms.user_id FROM closed_dms"
            " JOIN players ON players.user_id = closed_dms.user_id WHERE players.game_id = ?",
            (game_id,),
        )
        return {int(row[0]) for row in rows}

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        """Remember (``closed``) or forget that the member's DMs refuse the bot."""
        if closed:
            await self._write(
                "INSERT INTO closed_dms (user_id, closed_at) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET closed_at = excluded.closed_at",
                (user_id, time.time()),
            )
        else:
            await self._write("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))

    async def ping(self) -> bool:
        """Whether the database answers a query (for the health check)."""
        return await self._one("SELECT 1") is not None

    async def live_counts(self, shards: tuple[int, Sequence[int]] | None = None) -> dict[str, int]:
        """How many games of each kind are live (in a lobby, running or paused); with
        ``shards`` = ``(shard_count, shard_ids)``, only those of the servers on these shards."""
        query = f"SELECT kind, COUNT(*) FROM games WHERE status IN {LIVE_SQL}"  # noqa: S608
        params: list[int] = []
        if shards is not None:
            count, ids = shards
            if not ids:
                return {}
            query += f" AND ((COALESCE(guild_id, 0) >> 22) % ?) IN ({','.join('?' * len(ids))})"
            params = [count, *ids]
        rows = await self._all(query + " GROUP BY kind", params)
        return {str(row[0]): int(row[1]) for row in rows}

    # -- server settings -----------------------------------------------------------------------

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The server's settings (its defaults if it never changed any)."""
        row = await self._one("SELECT * FROM server_settings WHERE guild_id = ?", (guild_id,))
        return server_settings_row(row) if row else ServerSettings(guild_id)

    async def all_server_settings(self) -> list[ServerSettings]:
        """Every server's settings that were ever changed (the others have the defaults): what
        the bot holds in memory, so that an interaction is answered without asking."""
        rows = await self._all("SELECT * FROM server_settings ORDER BY guild_id")
        return [server_settings_row(row) for row in rows]

    async def change_server_settings(
        self, guild_id: int, change: Callable[[ServerSettings], ServerSettings]
    ) -> ServerSettings:
        """Apply ``change`` (pure: it may be run again if the write is retried) to the server's
        settings and store the result; two changes at once are made one after the other, so
        neither is lost. Returns the settings stored."""
        now = time.time()

        async def work(db: Transaction) -> ServerSettings:
            await db.execute(
                "INSERT INTO server_settings (guild_id, updated_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, now),
            )
            # Takes the row's lock (PostgreSQL) before it is read: a concurrent change waits.
            await db.execute(
                "UPDATE server_settings SET updated_at = ? WHERE guild_id = ?", (now, guild_id)
            )
            (row,) = await db.fetch("SELECT * FROM server_settings WHERE guild_id = ?", (guild_id,))
            changed = change(server_settings_row(row))
            await db.execute(
                "UPDATE server_settings SET language = ?, host_role_id = ?, time_zone = ?,"
                " game_defaults = ? WHERE guild_id = ?",
                (
                    changed.language.value,
                    changed.host_role_id,
                    changed.time_zone,
                    json.dumps(
                        {kind: d.to_json() for kind, d in changed.game_defaults.items()},
                        sort_keys=True,
                    ),
                    guild_id,
                ),
            )
            return changed

        return await self._write_guild(guild_id, work)

    # -- a game's own records in each server ---------------------------------------------------

    async def put_server_record(
        self, guild_id: int, kind: str, name: str, value: str, *, limit: int | None = None
    ) -> bool:
        """Keep ``value`` under ``name`` among the server's records of game ``kind`` (what it
        means is the game's: a custom pattern's text, say). Returns ``False`` and changes
        nothing when the name is already taken. With ``limit``, the server may hold at most
        that many records of the kind: counted in the same transaction, under the server's
        lock, so two at once cannot pass it (``RecordLimitError``)."""

        async def work(db: Transaction) -> bool:
            await db.lock_server(guild_id)
            rows = await db.fetch(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE name = ?) FROM server_records"
                " WHERE guild_id = ? AND kind = ?",
                (name, guild_id, kind),
            )
            held, taken = int(rows[0][0]), int(rows[0][1])
            if taken:
                return False
            if limit is not None and held >= limit:
                raise RecordLimitError(kind, limit)
            await db.execute(
                "INSERT INTO server_records (guild_id, kind, name, value) VALUES (?, ?, ?, ?)",
                (guild_id, kind, name, value),
            )
            return True

        return await self._write_guild(guild_id, work)

    async def server_record(self, guild_id: int, kind: str, name: str) -> str | None:
        """The value of the server's record ``name`` of game ``kind``, if there is one."""
        row = await self._one(
            "SELECT value FROM server_records WHERE guild_id = ? AND kind = ? AND name = ?",
            (guild_id, kind, name),
        )
        return str(row[0]) if row else None

    async def server_records(self, guild_id: int, kind: str) -> dict[str, str]:
        """The server's records of game ``kind``, name -> value, in the order of their names."""
        rows = await self._all(
            "SELECT name, value FROM server_records WHERE guild_id = ? AND kind = ? ORDER BY name",
            (guild_id, kind),
        )
        return {str(row[0]): str(row[1]) for row in rows}

    async def all_server_records(self, kind: str) -> dict[int, dict[str, str]]:
        """Every server's records of game ``kind`` (server -> name -> value, by name): what a
        game holds in memory, so that an interaction is answered without asking."""
        rows = await self._all(
            "SELECT guild_id, name, value FROM server_records WHERE kind = ?"
            " ORDER BY guild_id, name",
            (kind,),
        )
        found: dict[int, dict[str, str]] = {}
        for row in rows:
            found.setdefault(int(row[0]), {})[str(row[1])] = str(row[2])
        return found

    async def delete_server_record(self, guild_id: int, kind: str, name: str) -> bool:
        """Delete the server's record ``name`` of game ``kind``; returns whether there was one."""

        async def work(db: Transaction) -> int:
            return await db.execute(
                "DELETE FROM server_records WHERE guild_id = ? AND kind = ? AND name = ?",
                (guild_id, kind, name),
            )

        return await self._write_guild(guild_id, work) > 0

    # -- privacy -------------------------------------------------------------------------------

    async def member_games(self, user_id: int) -> MemberGames:
        """How many games hold the member's personal data, over and live."""
        rows = await self._all(
            f"SELECT status, host_id, options, id IN (SELECT game_id FROM players"  # noqa: S608
            f" WHERE user_id = ?) AS seated FROM games WHERE {_MEMBER_GAMES_SQL}",
            (user_id, *_member_games_params(user_id)),
        )
        over = live = 0
        for row in rows:
            # The LIKE on the options can match another number containing the id's digits.
            if not (
                row["seated"]
                or int(row["host_id"]) == user_id
                or _seats_hold(json.loads(row["options"]), user_id)
            ):
                continue
            if GameStatus(row["status"]).is_live:
                live += 1
            else:
                over += 1
        return MemberGames(over=over, live=live)

    async def forget_member(self, user_id: int) -> int:
        """Remove the member's personal data from every game that is over, keeping the games
        verifiable; returns how many games changed. Live games keep the member until they end.

        In each such game the member's player row keeps its seat, false claims and delivery
        under an anonymous holder id (:func:`anonymous_holder`) with no name or locale; their
        boards keep their deal positions and states under that id (``/<game> verify``
        re-derives them from the seed); their wins keep the prize and the call under it (and
        leave ``/stats``); their claims are deleted; a game they hosted, or a table game that
        seated them (its options' ``seats`` and ``names``), no longer names them. Beyond games:
        their DM channel (and whether their DMs were closed), the notices waiting for them and
        the past nights they planned go; a night still to come stays theirs.
        """

        async def work(db: Transaction) -> int:
            games = await db.fetch(
                f"SELECT id, host_id, options FROM games"  # noqa: S608
                f" WHERE {OVER_SQL} AND {_MEMBER_GAMES_SQL} ORDER BY id",
                _member_games_params(user_id),
            )
            changed = 0
            for game in games:
                if await self._forget_in_game(db, int(game["id"]), user_id, game):
                    changed += 1
            await db.execute("DELETE FROM dm_channels WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM meta WHERE key = ?", (f"{NOTICE_PREFIX}{user_id}",))
            await db.execute(
                f"DELETE FROM schedules WHERE host_id = ? AND status NOT IN {_PENDING_NIGHTS}",  # noqa: S608
                (user_id,),
            )
            return changed

        return await self._backend.write(work)

    @staticmethod
    async def _forget_in_game(db: Transaction, game_id: int, user_id: int, game: Row) -> bool:
        options = json.loads(game["options"])
        seated = await db.fetch(
            "SELECT seat FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        hosted = int(game["host_id"]) == user_id
        in_seats = _seats_hold(options, user_id)
        if not (seated or hosted or in_seats):
            return False  # the options' LIKE matched another number
        if seated:
            seat = int(seated[0]["seat"])
            anonymous = anonymous_holder(seat)
            # The new row takes a free seat until the old one is gone (seats are unique).
            await db.execute(
                "INSERT INTO players (game_id, user_id, seat, display_name, locale,"
                " false_claims, out, dealt, joined_at, delivery)"
                " SELECT game_id, ?, ?, '', '', false_claims, out, dealt, joined_at, delivery"
                " FROM players WHERE game_id = ? AND user_id = ?",
                (anonymous, anonymous, game_id, user_id),
            )
            await db.execute(
                "UPDATE boards SET user_id = ? WHERE game_id = ? AND user_id = ?",
                (anonymous, game_id, user_id),
            )
            await db.execute(
                "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            await db.execute(
                "UPDATE players SET seat = ? WHERE game_id = ? AND user_id = ?",
                (seat, game_id, anonymous),
            )
        else:
            # A host who did not play, or a challenged member who never accepted: an id below
            # every seat's, and not one the game already uses.
            (row,) = await db.fetch(
                "SELECT COALESCE(MAX(seat), -1) FROM players WHERE game_id = ?", (game_id,)
            )
            anonymous = anonymous_holder(int(row[0]) + 1)
            taken = {int(game["host_id"]), *options.get("seats", [])}
            while anonymous in taken:
                anonymous -= 1
        await db.execute("DELETE FROM claims WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        await db.execute(
            "UPDATE winners SET user_id = ? WHERE game_id = ? AND user_id = ?",
            (anonymous, game_id, user_id),
        )
        if hosted:
            await db.execute("UPDATE games SET host_id = ? WHERE id = ?", (anonymous, game_id))
        if in_seats:
            seats = [anonymous if seat == user_id else seat for seat in options["seats"]]
            names = list(options.get("names", []))
            for index, seat in enumerate(options["seats"]):
                if seat == user_id and index < len(names):
                    names[index] = ""
            options = {**options, "seats": seats, "names": names}
            await db.execute(
                "UPDATE games SET options = ? WHERE id = ?",
                (json.dumps(options, sort_keys=True), game_id),
            )
        return True

    async def purge_over_games(self, finished_before: float, *, batch: int = PURGE_BATCH) -> int:
        """Delete every game that ended (finished or was cancelled) before ``finished_before``
        (a Unix time), with everything of theirs, and the nights planned before it that are
        past; returns how many games went.

        In transactions of at most ``batch`` games (or nights) each, fewer when a transaction
        takes longer than ``PURGE_TRANSACTION_SECONDS`` (a game's rows vary from a few to
        thousands), letting other writes in between: running games wait for one small
        transaction at a time, never for the whole purge."""
        if batch < 1:
            raise ValueError(f"a purge batch is at least one game, not {batch}")
        over = f"{OVER_SQL} AND COALESCE(finished_at, created_at) < ?"

        async def some_games(db: Transaction, size: int) -> int:
            rows = await db.fetch(
                f"SELECT id FROM games WHERE {over} LIMIT ?",  # noqa: S608 (names from the code)
                (finished_before, size),
            )
            ids = [int(row[0]) for row in rows]
            if ids:
                marks = ", ".join("?" * len(ids))
                for table in _GAME_TABLES:
                    await db.execute(
                        f"DELETE FROM {table} WHERE game_id IN ({marks})",  # noqa: S608
                        ids,
                    )
                await db.execute(f"DELETE FROM games WHERE id IN ({marks})", ids)  # noqa: S608
            return len(ids)

        async def some_nights(db: Transaction, size: int) -> int:
            # Past nights go with their games (a night still to come stays).
            return await db.execute(
                "DELETE FROM schedules WHERE id IN (SELECT id FROM schedules"  # noqa: S608
                f" WHERE status NOT IN {_PENDING_NIGHTS} AND starts_at < ? LIMIT ?)",
                (finished_before, size),
            )

        async def _in_batches(delete: Callable[[Transaction, int], Awaitable[int]]) -> int:
            # ``delete(db, size)`` deletes up to ``size`` rows and says how many; run it in one
            # transaction after another until it deletes fewer. ``size`` starts small, doubles
            # while transactions are quick, halves when one is slow, within 1..``batch``.
            size, total = min(batch, 10), 0
            while True:
                took = 0.0

                async def work(db: Transaction, size: int = size) -> int:
                    nonlocal took
                    start = time.perf_counter()
                    deleted = await delete(db, size)
                    took = time.perf_counter() - start
                    return deleted

                deleted = await self._backend.write(work)
                total += deleted
                if deleted < size:
                    return total
                if took > PURGE_TRANSACTION_SECONDS:
                    size = max(1, size // 2)
                elif took < PURGE_TRANSACTION_SECONDS / 2:
                    size = min(batch, size * 2)
                await asyncio.sleep(0)  # the writes that waited meanwhile go first

        purged = await _in_batches(some_games)
        await _in_batches(some_nights)
        return purged

    # -- meta ----------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        """Every meta value whose key starts with ``prefix``."""
        rows = await self._all(
            "SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?", (len(prefix), prefix)
        )
        return {str(row[0]): str(row[1]) for row in rows}

    async def delete_meta(self, key: str) -> None:
        await self._write("DELETE FROM meta WHERE key = ?", (key,))

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def _write(self, sql: str, params: Sequence[Any], *, game_id: int | None = None) -> int:
        """One statement in a transaction of its own; returns the rows it changed. With
        ``game_id``, a write of that game's (fenced, see :meth:`fenced`)."""
        return (await self._write_statements([(sql, params)], game_id=game_id))[0]

    async def _write_statements(
        self, statements: Sequence[tuple[str, Sequence[Any]]], *, game_id: int | None = None
    ) -> list[int]:
        """Statements in one transaction, the backend's quickest way when nothing fences them
        (the hot path: every call stores its draw and then its message); the rows each changed.
        With ``game_id``, a write of that game's."""
        if game_id is None or self._fence is None:
            return await self._backend.write_statements(statements)

        async def work(db: Transaction) -> list[int]:
            return [await db.execute(sql, params) for sql, params in statements]

        return await self._write_game(game_id, work)

    # -- fencing -------------------------------------------------------------------------------

    async def _write_game(self, game_id: int, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """A write of game ``game_id``'s, fenced by its shard's lease when this is a fleet's."""

        async def shard(db: Transaction) -> int | None:
            return await self._shard_of(db, game_id)

        return await self._write_fenced(work, shard)

    async def _write_guild(
        self, guild_id: int | None, work: Callable[[Transaction], Awaitable[T]]
    ) -> T:
        """A write for a server (a new game, a planned night, its settings), fenced by the
        server's shard's lease."""

        async def shard(db: Transaction) -> int | None:
            assert self._fence is not None
            return shard_of(guild_id, self._fence.shard_count)

        return await self._write_fenced(work, shard)

    async def _write_fenced(
        self,
        work: Callable[[Transaction], Awaitable[T]],
        shard: Callable[[Transaction], Awaitable[int | None]],
    ) -> T:
        fence = self._fence
        if fence is None:
            return await self._backend.write(work)

        async def fenced(db: Transaction) -> T:
            found = await shard(db)
            if found is not None:  # (None: no such game; the write changes nothing)
                await hold_lease(db, fence, found)
            return await work(db)

        return await self._backend.write(fenced)

    async def _shard_of(self, db: Transaction, game_id: int) -> int | None:
        assert self._fence is not None
        shard = self._shard_of_game.get(game_id)
        if shard is None:
            rows = await db.fetch("SELECT guild_id FROM games WHERE id = ?", (game_id,))
            if not rows:
                return None
            shard = self._shard_of_game[game_id] = shard_of(rows[0][0], self._fence.shard_count)
        return shard

    async def check_fence(self, game_id: int) -> None:
        """Raise ``LeaseLostError`` if this client may no longer write game ``game_id`` (asked
        before announcing what was stored: a client that lost its shard says nothing more)."""
        if self._fence is None:
            return

        async def nothing(db: Transaction) -> None:
            return None

        await self._write_game(game_id, nothing)

    # -- shard leases (PostgreSQL; bot.fleet.process) --------------------------------------------------

    async def lease_heartbeat(self, request: HeartbeatRequest) -> HeartbeatOutcome:
        """Renew, release, take over and ask for leases, in one transaction (see ``_leases``)."""

        async def work(db: Transaction) -> HeartbeatOutcome:
            return await heartbeat(db, request)

        return await self._backend.write(work)

    async def release_leases(
        self,
        owner: str,
        tokens: Mapping[int, int],
        sessions: Mapping[int, ResumableSession] | None = None,
    ) -> None:
        """Give up these leases now (their games have stopped), saving the shards' gateway
        sessions for the next holder to RESUME."""

        async def work(db: Transaction) -> None:
            await release(db, owner, tokens, sessions or {})

        await self._backend.write(work)

    async def leases(self) -> list[LeaseRow]:
        rows = await self._all("SELECT * FROM shard_leases ORDER BY shard_id")
        return [lease_row(row) for row in rows]

    async def take_identify_slot(self, bucket: int, window: float) -> float:
        """Take the fleet's gateway IDENTIFY slot ``bucket`` for ``window`` seconds if it is
        free (returns 0), else the seconds until it is."""

        async def work(db: Transaction) -> float:
            return await take_identify_slot(db, bucket, window)

        return await self._backend.write(work)
