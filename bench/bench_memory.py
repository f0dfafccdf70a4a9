"""The bot's memory: idle after start-up, and what each live game adds. Run by hand.

    python bench/bench_memory.py                 # 20 live games of 20 players (about a minute)
    python bench/bench_memory.py --games 20 --trace   # and the largest Python allocation sites

What it does, on loopback: the real bot (``python -m bot``, through ``bench/traced_bot.py`` for
the tracemalloc switch) against the emulator with Discord's rate limits on, on a throw-away
SQLite file. Every figure is the process's resident set (RSS, from /proc) once it is idle (its
CPU time stands still).

1. **Idle after start-up**: commands synced, the background warm-up done, no game yet.
2. **Idle after a game**: one small game of each kind played (dealt by DM, two calls) and
   stopped, so the render caches a first game fills and the allocator's per-thread arenas are in.
3. **Per live game**: ``--games`` new lobbies (Lotería and Housie alternately, ``--players``
   each) are opened, dealt, started, make two calls and are paused (still live); the RSS growth
   over step 2, divided by the number of games. With ``--trace``, tracemalloc is switched on
   before they open: the Python memory they hold and its largest allocation sites.
4. **After they end**: every host stops their game; what the finished games leave behind.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import BotProcess

from bot.storage import GameStatus, Storage
from emulator import Channel, Emulator, Member, Message, RateLimits

INTERVAL = 5  # seconds between calls the host picks (the bot's minimum)
TIME_SCALE = 0.4  # a call every 2 s: inside Discord's 5 messages per 5 s per channel
CHANNELS_PER_GUILD = 10
CALL = {
    "loteria": re.compile(r"card \d+ of 54"),
    "housie": re.compile(r"number \d+ of 90"),
}
MIB = 2**20


@dataclass
class Table:
    kind: str
    channel: Channel
    players: list[Member]
    lobby: Message | None = None
    game_id: int = 0

    @property
    def host(self) -> Member:
        return self.players[0]

    def calls(self) -> int:
        return sum(1 for m in self.channel.messages if CALL[self.kind].search(m.content))


async def open_games(tables: Sequence[Table]) -> None:
    """Open a lobby at every table, deal every player by DM, start, and wait for two calls."""
    calls_before = {t.channel.id: t.calls() for t in tables}
    dms_before = {p.id: len(p.dms) for t in tables for p in t.players}
    for table in tables:
        options: dict[str, object] = {"interval": INTERVAL, "max_players": len(table.players)}
        if table.kind == "loteria":
            options["prizes"] = "full"  # one long prize: the game stays live
        started = await table.host.slash(f"{table.kind} start", in_channel=table.channel, **options)
        table.lobby = await started.reply(timeout=60)
        join = next(c for c in table.lobby.custom_ids if ":join:" in c)
        table.game_id = int(join.rsplit(":", 1)[1])
    for table in tables:
        assert table.lobby is not None
        clicks = [
            await p.click(table.lobby, f"gn:{table.kind}:join:{table.game_id}")
            for p in table.players
        ]
        await asyncio.gather(*(click.reply(timeout=120) for click in clicks))
    players = [p for t in tables for p in t.players]
    await until("every board DM", lambda: all(len(p.dms) > dms_before[p.id] for p in players), 300)
    for table in tables:
        assert table.lobby is not None
        await (await table.host.click(table.lobby, f"gn:{table.kind}:start:{table.game_id}")).reply(
            timeout=60
        )
    await until(
        "two calls in every game",
        lambda: all(t.calls() >= calls_before[t.channel.id] + 2 for t in tables),
        120,
    )


async def command_all(tables: Sequence[Table], action: str) -> None:
    results = [await t.host.slash(f"{t.kind} {action}", in_channel=t.channel) for t in tables]
    await asyncio.gather(*(result.reply(timeout=60) for result in results))


async def until(what: str, check: object, timeout: float) -> None:  # noqa: ASYNC109 - a deadline is the point
    assert callable(check)
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.1)


async def wait_over(storage: Storage, tables: Sequence[Table]) -> None:
    deadline = time.monotonic() + 60
    for table in tables:
        while (game := await storage.get_game(table.game_id)) and game.status.is_live:
            if time.monotonic() > deadline:
                raise TimeoutError("the games did not end")
            await asyncio.sleep(0.1)


async def wait_paused(storage: Storage, tables: Sequence[Table]) -> None:
    deadline = time.monotonic() + 60
    for table in tables:
        while (
            game := await storage.get_game(table.game_id)
        ) and game.status is not GameStatus.PAUSED:
            if time.monotonic() > deadline:
                raise TimeoutError("the games did not pause")
            await asyncio.sleep(0.1)


async def run(games: int, players: int, trace: bool, validate: bool) -> int:
    async with Emulator(rate_limits=RateLimits(), strict=False, validate=validate) as emu:
        tables: list[Table] = []

        def table(guild_name: str, kind: str, name: str) -> Table:
            guild = guilds.get(guild_name) or guilds.setdefault(
                guild_name, emu.add_guild(guild_name)
            )
            channel = guild.add_channel(name)
            members = [
                guild.add_member(f"{name}-p{seat + 1}", manage_guild=seat == 0)
                for seat in range(players)
            ]
            return Table(kind, channel, members)

        guilds: dict[str, object] = {}
        warm_up = [table("Warm-up", kind, f"warm-up-{kind}") for kind in CALL]
        for index in range(games):
            kind = "loteria" if index % 2 == 0 else "housie"
            tables.append(
                table(f"Game Night {index // CHANNELS_PER_GUILD + 1}", kind, f"{kind}-{index + 1}")
            )
        with tempfile.TemporaryDirectory(prefix="gamenight-memory-") as temp:
            folder = Path(temp)
            bot = BotProcess(emu, folder / "bot.sqlite3", TIME_SCALE, folder / "log")
            bot.start()
            try:
                await emu.wait_for_bot(60)
                await until("slash commands", lambda: bool(emu.synced_commands), 60)
                started = time.monotonic()
                await bot.quiet(30)
                rss_idle = bot.rss_bytes()
                print(
                    f"idle after start-up: {rss_idle / MIB:.1f} MiB "
                    f"(quiet {time.monotonic() - started:.1f} s after the commands synced)"
                )
                async with Storage.open(bot.database) as storage:
                    await open_games(warm_up)
                    await command_all(warm_up, "stop")
                    await wait_over(storage, warm_up)
                    await bot.quiet(15)
                    rss_warm = bot.rss_bytes()
                    print(f"idle after a game of each kind: {rss_warm / MIB:.1f} MiB")
                    if trace:
                        bot.start_tracing()
                        await asyncio.sleep(0.2)
                    await open_games(tables)
                    await command_all(tables, "pause")
                    await wait_paused(storage, tables)
                    await bot.quiet(15)
                    traced = await bot.traced_bytes() if trace else 0
                    rss_live = bot.rss_bytes()
                    growth = (rss_live - rss_warm) / games
                    print(
                        f"{games} live games of {players} players (dealt, 2 calls, paused): "
                        f"{rss_live / MIB:.1f} MiB, {growth / 1024:.0f} KiB RSS per game"
                    )
                    if trace:
                        print(
                            f"Python memory per live game (tracemalloc): {traced / games / 1024:.0f} KiB"
                        )
                        print("largest Python allocation sites of the new games:")
                        for line in bot.trace_sites:
                            print("  " + line)
                    await command_all(tables, "stop")
                    await wait_over(storage, tables)
                    await bot.quiet(15)
                    rss_after = bot.rss_bytes()
                    print(
                        f"after every game ended: {rss_after / MIB:.1f} MiB "
                        f"({(rss_after - rss_warm) / games / 1024:.0f} KiB per game left)"
                    )
            finally:
                await bot.stop()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="live games (default 20)")
    parser.add_argument("--players", type=int, default=20, help="players per game (default 20)")
    parser.add_argument("--trace", action="store_true", help="tracemalloc the new games")
    parser.add_argument("--validate", action="store_true", help="check requests against the spec")
    options = parser.parse_args(argv)
    return asyncio.run(run(options.games, options.players, options.trace, options.validate))


if __name__ == "__main__":
    sys.exit(main())
