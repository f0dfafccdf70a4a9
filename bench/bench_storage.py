"""Storage speed on both backends: the writes a game makes (draws, joins, claims) and the reads
its answers make. Run: python bench/bench_storage.py [POSTGRESQL_URL]

``--purge [GAMES]`` measures the retention purge instead: GAMES (default 20,000) finished games,
each with its players, boards, draws, claims and winners, purged in batches (PURGE_BATCH games a
transaction) and then in one transaction (as before batches), reporting how long each
transaction held the write lock and how long a running game's draw waited meanwhile.

Without a URL it starts a throw-away PostgreSQL server as the tests do (tests/postgres_server.py;
its fsync is off, so its writes are faster than a real server's). The SQLite file is in a
temporary folder, as a bot's would be on local disk.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path

from bot.storage import Fence, GameStatus, HeartbeatRequest, Storage
from bot.storage._backend import Transaction
from bot.storage._storage import PURGE_BATCH

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' PostgreSQL server
from tests.postgres_server import PostgresServer

DRAWS = 300
JOINS = 200
CLAIMS = 200
READS = 2000


def deal(seat: int, first: int) -> list[tuple[str, str]]:
    return [(f"board-{first}", f"code-{seat}")]


async def timed(label: str, count: int, run: Callable[[], Awaitable[object]]) -> None:
    start = time.perf_counter()
    await run()
    elapsed = time.perf_counter() - start
    print(f"  {label:44} {elapsed * 1000 / count:7.3f} ms each ({count})")


async def bench(target: Path | str) -> None:
    async with Storage.open(target) as storage:
        print(f"{storage.backend}:")
        game = await storage.create_game(
            kind="loteria", guild_id=1, channel_id=1, host_id=1, seed=bytes(32), options={}
        )

        async def draws() -> None:
            for seq in range(1, DRAWS + 1):
                await storage.record_draw(game.id, seq, seq, state=f"after-{seq}")

        async def joins() -> None:
            await asyncio.gather(
                *(
                    storage.add_player(game.id, user, display_name="", locale="", boards=deal)
                    for user in range(JOINS)
                )
            )

        async def claims() -> None:
            for index in range(CLAIMS):
                await storage.record_claim(
                    game.id, index, board_id=None, prize="line", step=1, valid=False, reason=""
                )

        async def reads() -> None:
            await asyncio.gather(*(storage.get_game(game.id) for _ in range(READS)))

        await timed("record_draw, one after another", DRAWS, draws)
        await timed("add_player, all at once (one game)", JOINS, joins)
        await timed("record_claim, one after another", CLAIMS, claims)
        await timed("get_game, all at once", READS, reads)
        assert len(await storage.players(game.id)) == JOINS
        if storage.backend == "postgres":
            await fenced_draws(storage)


async def fenced_draws(storage: Storage) -> None:
    """A fleet's client: every game write first checks its shard's lease (see _leases)."""
    held = (await storage.lease_heartbeat(HeartbeatRequest("bench", 1, {}, frozenset({0})))).held
    fenced = storage.fenced(Fence("bench", 1, held))
    game = await fenced.create_game(
        kind="loteria", guild_id=1, channel_id=2, host_id=1, seed=bytes(32), options={}
    )

    async def draws() -> None:
        for seq in range(1, DRAWS + 1):
            await fenced.record_draw(game.id, seq, seq, state=f"after-{seq}")

    await timed("record_draw, fenced by a shard lease", DRAWS, draws)


# -- the retention purge --------------------------------------------------------------------

PURGE_GAMES = 20_000
CLONES_PER_TRANSACTION = 500
LONG_AGO = 1_000_000.0  # a Unix time in 1970: every copy ended long before any retention limit


async def template_game(storage: Storage) -> int:
    """A finished game as a night leaves it: 8 players with 1 to 3 boards, 40 draws, 3 false
    claims and 2 winners."""
    game = await storage.create_game(
        kind="housie", guild_id=1, channel_id=3, host_id=1, seed=bytes(32), options={}
    )
    for user in range(1, 9):
        boards = lambda seat, first, n=user % 3 + 1: [  # noqa: E731
            (f"ticket-{first + i}", f"code-{seat}-{i}") for i in range(n)
        ]
        await storage.add_player(
            game.id, user, display_name=f"p{user}", locale="en-US", boards=boards, board_count=3
        )
    for seq in range(1, 41):
        await storage.record_draw(game.id, seq, seq, state=f"after-{seq}")
    for user in (2, 3, 4):
        await storage.record_claim(
            game.id, user, board_id=None, prize="FH", step=40, valid=False, reason="bogey"
        )
    for user, prize in ((5, "E5"), (6, "TL")):
        await storage.record_win(game.id, prize=prize, user_id=user, board_id=None, step=40)
    await storage.update_game(game.id, status=GameStatus.FINISHED)
    return game.id


async def copy_game(storage: Storage, template: int, copies: int) -> None:
    """``copies`` copies of game ``template``, every row of it, ended long ago."""
    backend = storage._backend
    (game,) = [
        dict(row) for row in await backend.fetch("SELECT * FROM games WHERE id = ?", (template,))
    ]
    game.update(id=None, finished_at=LONG_AGO, created_at=LONG_AGO)
    del game["id"]
    children = {}
    for table in ("players", "boards", "draws", "claims", "winners"):
        rows = [
            dict(row)
            for row in await backend.fetch(f"SELECT * FROM {table} WHERE game_id = ?", (template,))
        ]
        for row in rows:
            row.pop("id", None)
            row.pop("rowid", None)
            if "board_id" in row:
                row["board_id"] = None
        children[table] = rows

    async def some(count: int) -> None:
        async def work(db) -> None:  # type: ignore[no-untyped-def]
            ids = [
                await db.insert(
                    f"INSERT INTO games ({', '.join(game)}) VALUES ({', '.join('?' * len(game))})",
                    list(game.values()),
                )
                for _ in range(count)
            ]
            for table, rows in children.items():
                if not rows:
                    continue
                columns = list(rows[0])
                await db.execute_many(
                    f"INSERT INTO {table} ({', '.join(columns)})"
                    f" VALUES ({', '.join('?' * len(columns))})",
                    [
                        [new_id if c == "game_id" else row[c] for c in columns]
                        for new_id in ids
                        for row in rows
                    ],
                )

        await backend.write(work)

    for start in range(0, copies, CLONES_PER_TRANSACTION):
        await some(min(CLONES_PER_TRANSACTION, copies - start))


async def purge_as_before(storage: Storage, finished_before: float) -> int:
    """The purge as it was before batches: every old game in one transaction."""
    over = "status NOT IN ('lobby', 'running', 'paused') AND COALESCE(finished_at, created_at) < ?"

    async def work(db: Transaction) -> int:
        for table in ("winners", "claims", "draws", "boards", "players"):
            await db.execute(
                f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM games WHERE {over})",
                (finished_before,),
            )
        return await db.execute(f"DELETE FROM games WHERE {over}", (finished_before,))

    return await storage._backend.write(work)


async def purge_once(storage: Storage, batched: bool) -> tuple[list[float], list[float], int]:
    """Purge (in batches, or as before) while a running game draws a number every 5 ms;
    returns how long each purge transaction held the write lock, how long each draw took (ms)
    and how many games went."""
    backend = storage._backend
    real_write = backend.write
    held: list[float] = []
    purging = asyncio.current_task()

    async def timed_write(work):  # type: ignore[no-untyped-def]
        if asyncio.current_task() is not purging:
            return await real_write(work)
        taken = 0.0

        async def timed_work(db):  # type: ignore[no-untyped-def]
            nonlocal taken
            taken = time.perf_counter()  # the transaction has begun: the lock is held
            return await work(db)

        try:
            return await real_write(timed_work)
        finally:
            held.append((time.perf_counter() - taken) * 1000)  # committed: released

    live = await storage.create_game(
        kind="loteria", guild_id=1, channel_id=4, host_id=1, seed=bytes(32), options={}
    )
    await storage.update_game(live.id, status=GameStatus.RUNNING)
    waits: list[float] = []
    done = asyncio.Event()

    async def draws() -> None:
        seq = 0
        while not done.is_set() and seq < 54:
            seq += 1
            start = time.perf_counter()
            await storage.record_draw(live.id, seq, seq, state=f"after-{seq}")
            waits.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.005)

    backend.write = timed_write  # type: ignore[method-assign]
    drawing = asyncio.create_task(draws())
    before = time.time() - 86400
    try:
        await asyncio.sleep(0.01)
        if batched:
            purged = await storage.purge_over_games(before)
        else:
            purged = await purge_as_before(storage, before)
    finally:
        done.set()
        backend.write = real_write  # type: ignore[method-assign]
        await drawing
    await storage.update_game(live.id, status=GameStatus.FINISHED)
    return held, waits, purged


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "none"
    median = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {median:7.1f} ms, p99 {p99:7.1f} ms, max {ordered[-1]:7.1f} ms ({len(ordered)})"


async def bench_purge(target: Path | str, games: int) -> None:
    async with Storage.open(target) as storage:
        print(f"{storage.backend}: the retention purge of {games:,} finished games")
        template = await template_game(storage)
        for batched, label in (
            (True, f"in batches of up to {PURGE_BATCH} games"),
            (False, "in one transaction (before batches)"),
        ):
            start = time.perf_counter()
            await copy_game(storage, template, games)
            print(f"  ({games:,} copies made in {time.perf_counter() - start:.1f} s)")
            start = time.perf_counter()
            held, waits, purged = await purge_once(storage, batched)
            elapsed = time.perf_counter() - start
            assert purged == games, purged
            print(f"  {label}: {elapsed:.2f} s in all")
            print(f"    write lock held per transaction: {spread(held)}")
            print(f"    a running game's draw meanwhile: {spread(waits)}")


def main() -> None:
    arguments = sys.argv[1:]
    purge = "--purge" in arguments
    if purge:
        at = arguments.index("--purge")
        arguments.pop(at)
        games = PURGE_GAMES
        if at < len(arguments) and arguments[at].isdigit():
            games = int(arguments.pop(at))
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        run = (lambda target: bench_purge(target, games)) if purge else bench
        asyncio.run(run(folder / "bench.sqlite3"))
        if arguments:
            url = arguments[0]
        else:
            server = PostgresServer.start()
            stack.callback(server.stop)
            url = asyncio.run(server.create_database())
        asyncio.run(run(url))


if __name__ == "__main__":
    main()
