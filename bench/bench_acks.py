"""How long each kind of interaction waits for its acknowledgement when Discord is a network away
and the database is slow. Run by hand; prints a table.

    python bench/bench_acks.py                   # 50-150 ms each way, 40 ms per database call
    python bench/bench_acks.py --db-delay 0.5    # a database in trouble: half a second a call
    python bench/bench_acks.py --rounds 3        # quicker

What it does: the real bot (its cogs, a throw-away SQLite file) in this process, against the
emulator with Discord's latency (``latency=(0.05, 0.15)``: every REST request, its answer and
every gateway event wait that long) and rate limits on. Every query and every write of the
database waits ``--db-delay`` seconds first (a PostgreSQL server over a network, or one that is
busy). Each round plays a Lotería and a Housie game (start, joins by button and command, the
start button, calls, Claim presses and ``/claim`` commands, the prize autocomplete, the host's
pause and resume, the stop) and the table games (a challenge and its acceptance, moves, a
rematch, a puzzle, the Dots line autocomplete). **Acknowledgement**: from Discord creating the
interaction to the bot's first answer reaching it (the emulator's clock), by kind; Discord's
limit is 3 s. The network alone takes 0.1-0.3 s of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import sys
import tempfile
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import GameNightBot
from bot.config import Settings
from bot.storage import Storage, hold_database
from emulator import Emulator, InteractionResult, run_bot

PLAYERS = 4


class SlowDatabase:
    """Every query and write of the bot's database waits ``delay`` seconds first."""

    def __init__(self, storage: Storage, delay: float) -> None:
        self._real = storage._backend
        self.delay = delay
        storage._backend = self  # type: ignore[assignment]

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> Any:
        await asyncio.sleep(self.delay)
        return await self._real.fetch(sql, params)

    async def write(self, work: Any) -> Any:
        await asyncio.sleep(self.delay)
        return await self._real.write(work)

    async def write_statements(self, statements: Any) -> Any:
        await asyncio.sleep(self.delay)
        return await self._real.write_statements(statements)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@contextlib.asynccontextmanager
async def bot_against(emu: Emulator, folder: Path, delay: float) -> AsyncIterator[GameNightBot]:
    settings = Settings(
        token=emu.token,
        database_path=folder / "acks.sqlite3",
        database_url=None,
        signing_key=bytes(range(32)),
        dev_guild_id=None,
        api_base_url=emu.api_base_url,
        gateway_url=emu.gateway_url,
        log_level="WARNING",
    )
    async with hold_database(settings.database), Storage.open(settings.database) as storage:
        bot = GameNightBot(settings, storage, time_scale=100, guild_ready_timeout=0.05)
        async with run_bot(emu, bot):
            SlowDatabase(storage, delay)
            yield bot


class Timings:
    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.by_kind: dict[str, list[float]] = defaultdict(list)
        self.failed = 0

    async def __call__(self, kind: str, started: Any) -> InteractionResult:
        answered = await started
        # (An autocomplete answers with its choices: its interaction is the latest one.)
        result: InteractionResult = (
            self.emu.interactions[-1] if isinstance(answered, list) else answered
        )
        try:
            await result.acknowledgement(timeout=10)
        except Exception:  # a failed interaction is counted, not measured
            self.failed += 1
            return result
        assert result.acknowledged_at is not None
        self.by_kind[kind].append(result.acknowledged_at - result.created_at)
        return result


def game_id(message: Any) -> int:
    found = re.search(r"#(\d+)", message.content)
    assert found, message.content
    return int(found[1])


def custom(message: Any, part: str) -> str:
    return next(cid for cid in message.custom_ids if part in cid)


async def calling_round(
    t: Timings, bot: GameNightBot, members: list[Any], channel: Any, kind: str
) -> None:
    host, *players = members
    cog = bot.get_cog("Lotería" if kind == "loteria" else "Housie")
    lobby = await (
        await t(f"/{kind} start", host.slash(f"{kind} start", in_channel=channel))
    ).reply(timeout=60)
    for index, member in enumerate(players):
        if index % 2:
            await (
                await t(f"/{kind} join", member.slash(f"{kind} join", in_channel=channel))
            ).reply(timeout=60)
        else:
            await (await t("Join button", member.click(lobby, custom(lobby, ":join:")))).reply(
                timeout=60
            )
    await (await t("Start button", host.click(lobby, custom(lobby, ":start:")))).reply(timeout=60)
    (game,) = [g for g in await bot.storage.live_games(kind) if g.channel_id == channel.id]
    for _ in range(4):
        await cog.call_next(game.id)
    call = next(m for m in reversed(channel.messages) if any(":claim:" in c for c in m.custom_ids))
    if kind == "loteria":
        for member in players[:2]:
            await (await t("Claim button", member.click(call, custom(call, ":claim:")))).reply(
                timeout=60
            )
        await (
            await t("/loteria claim", players[2].slash("loteria claim", in_channel=channel))
        ).reply(timeout=60)
    else:
        await t(
            "autocomplete", players[0].autocomplete("housie claim", "prize", "", in_channel=channel)
        )
        picker = await (
            await t("Claim button", players[1].click(call, custom(call, ":claim:")))
        ).reply(timeout=60)
        await (await t("Claim button", players[1].click(picker, custom(picker, ":prize")))).reply(
            timeout=60
        )
        await (
            await t(
                "/housie claim", players[2].slash("housie claim", prize="FH", in_channel=channel)
            )
        ).reply(timeout=60)
    for command in ("pause", "resume"):
        await (
            await t(f"/{kind} {command}", host.slash(f"{kind} {command}", in_channel=channel))
        ).reply(timeout=60)
    await (await t(f"/{kind} stop", host.slash(f"{kind} stop", in_channel=channel))).reply(
        timeout=60
    )
    await channel.wait_for_message(
        lambda m: f"#{game.id}" in m.content and "over" in m.content, timeout=60
    )


async def table_round(t: Timings, members: list[Any], channel: Any) -> None:
    alice, bob, *_ = members
    board = await (
        await t("/tictactoe play", alice.slash("tictactoe play", opponent=bob, in_channel=channel))
    ).reply(timeout=60)
    game = game_id(board)
    await (await t("Accept button", bob.click(board, f"gn:ttt:accept:{game}"))).acknowledgement(
        timeout=10
    )
    await channel.wait_for_message(lambda m: m.id == board.id and len(m.buttons) > 2, timeout=60)
    for who, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
        before = board.edits
        await (
            await t("Move button", who.click(board, f"gn:ttt:cell:{game}:{cell}"))
        ).acknowledgement(timeout=10)
        await t.emu.wait_until(lambda b=before: board.edits > b, 60, lambda: "the move shown")
    result = await channel.wait_for_message(
        lambda m: m.content.startswith(f"🏁 Tic-tac-toe #{game}:"), timeout=60
    )
    rematch = await (await t("Rematch button", bob.click(result, f"gn:ttt:rematch:{game}"))).reply(
        timeout=60
    )
    again = game_id(rematch)
    await (
        await t("Decline button", alice.click(rematch, f"gn:ttt:decline:{again}"))
    ).acknowledgement(timeout=10)
    await t.emu.wait_until(lambda: not rematch.custom_ids, 60, lambda: "declined")
    await (await t("/dots play", bob.slash("dots play", in_channel=channel))).reply(timeout=60)
    await t("autocomplete", bob.autocomplete("dots move", "line", "", in_channel=channel))
    await (await t("/dots resign", bob.slash("dots resign", in_channel=channel))).reply(timeout=60)
    puzzle = await (
        await t("/triangle play", alice.slash("triangle play", in_channel=channel))
    ).reply(timeout=60)
    tri = game_id(puzzle)
    await (await t("Puzzle button", alice.click(puzzle, f"gn:tri:hole:{tri}:4"))).acknowledgement(
        timeout=10
    )
    await (await t("/triangle quit", alice.slash("triangle quit", in_channel=channel))).reply(
        timeout=60
    )


async def run(rounds: int, delay: float) -> int:
    async with Emulator(latency=(0.05, 0.15), latency_seed=1, rate_limits=True) as emu:
        guild = emu.add_guild("Acks")
        members = [
            guild.add_member("host", manage_guild=True),
            *(guild.add_member(f"p{n}") for n in range(PLAYERS)),
        ]
        t = Timings(emu)
        with tempfile.TemporaryDirectory() as folder:
            async with bot_against(emu, Path(folder), delay) as bot:
                for number in range(rounds):
                    channels = [guild.add_channel(f"r{number}-{n}") for n in range(3)]
                    try:
                        await calling_round(t, bot, members, channels[0], "loteria")
                        await calling_round(t, bot, members, channels[1], "housie")
                        await table_round(t, members, channels[2])
                    except Exception as error:  # a failed interaction ends its round
                        print(f"round {number + 1} cut short: {type(error).__name__}")
        emu.take_failures()
    everything = [value for values in t.by_kind.values() for value in values]
    print(f"latency 50-150 ms each way, {delay * 1000:.0f} ms per database call, {rounds} rounds")
    print(f"{'interaction':<18} {'n':>4} {'p50 ms':>8} {'max ms':>8}")
    for kind, values in sorted(t.by_kind.items(), key=lambda item: -max(item[1])):
        print(
            f"{kind:<18} {len(values):>4} {statistics.median(values) * 1000:>8.0f} "
            f"{max(values) * 1000:>8.0f}"
        )
    print(
        f"{'all':<18} {len(everything):>4} {statistics.median(everything) * 1000:>8.0f} "
        f"{max(everything) * 1000:>8.0f}"
    )
    print(f"not acknowledged in time: {t.failed}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db-delay", type=float, default=0.04, help="seconds per database call")
    options = parser.parse_args(argv)
    return asyncio.run(run(options.rounds, options.db_delay))


if __name__ == "__main__":
    sys.exit(main())
