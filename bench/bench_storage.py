"""Storage speed on both backends: the writes a game makes (draws, joins, claims) and the reads
its answers make. Run: python bench/bench_storage.py [POSTGRESQL_URL]

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

from bot.storage import Fence, HeartbeatRequest, Storage

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
                    game.id, index, board_id=None, prize="line", draw_seq=1, valid=False, reason=""
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


def main() -> None:
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        asyncio.run(bench(folder / "bench.sqlite3"))
        if len(sys.argv) > 1:
            url = sys.argv[1]
        else:
            server = PostgresServer.start()
            stack.callback(server.stop)
            url = asyncio.run(server.create_database())
        asyncio.run(bench(url))


if __name__ == "__main__":
    main()
