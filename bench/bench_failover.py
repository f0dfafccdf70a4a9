"""How long a fleet's games stop when a process goes: run by hand,
``python bench/bench_failover.py [--rounds N]``.

Three real bot processes (``python -m bot``) share a 2-shard bot on a throw-away PostgreSQL
server (the tests' own, tests/postgres_server.py) against the local Discord emulator: one runs
shard 0 (``0/2``), one shard 1 (``1/2``), one is a standby (``standby/2``). Each round plays a
Housie game (a call every 0.1 s) on a server of shard 0, then stops the process running it,
SIGKILL and SIGTERM alternately, and measures the gap in the game's calls (the last call before,
the first after, as Discord stamps them) and when the standby held the shard; then starts the
process again and measures how long until it runs its shard again and the calls go on (the
handback). Every round checks that the calls were announced once each, in order.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' PostgreSQL server

from bot.storage import Storage  # noqa: E402
from emulator import Emulator  # noqa: E402
from emulator.model import Channel, Guild, Member, Message  # noqa: E402
from tests.postgres_server import PostgresServer  # noqa: E402

CALL = re.compile(r"number (\d+) of 90")
SIGNING_KEY = bytes(range(32)).hex()


def stamp(message: Message) -> float:
    """When Discord made the message: its snowflake's milliseconds, in seconds."""
    return ((message.id >> 22) + 1_420_070_400_000) / 1000


def calls(channel: Channel) -> list[Message]:
    return [m for m in channel.messages if CALL.search(m.content)]


class Fleet:
    def __init__(self, emu: Emulator, url: str, folder: Path) -> None:
        self.emu, self.url, self.folder = emu, url, folder
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, shards: str) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.emu.token,
            "GAMENIGHT_SIGNING_KEY": SIGNING_KEY,
            "GAMENIGHT_DATABASE": self.url,
            "GAMENIGHT_SHARDS": shards,
            "DISCORD_API_BASE_URL": self.emu.api_base_url,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "GAMENIGHT_TIME_SCALE": "0.02",
            "PYTHONPATH": str(ROOT),
        }
        log = (self.folder / f"{shards.replace('/', '-')}.log").open("ab")
        self.processes[shards] = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=self.folder, env=env, stdout=log, stderr=log
        )

    async def owner_of(self, shard: int) -> str | None:
        async with Storage.open(self.url) as storage:
            (now,) = await storage._all("SELECT extract(epoch FROM clock_timestamp())::float8")
            for lease in await storage.leases():
                if lease.shard_id == shard and lease.expires_at > float(now[0]):
                    return lease.owner
        return None

    async def wait_owner(self, shard: int, pid: int) -> float:
        while True:
            owner = await self.owner_of(shard)
            if owner is not None and f"pid {pid} " in owner:
                return time.monotonic()
            await asyncio.sleep(0.05)

    def stop_all(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()


async def wait_calls(emu: Emulator, channel: Channel, count: int) -> None:
    await emu.wait_until(lambda: len(calls(channel)) >= count or None, 60, lambda: f"{count} calls")


async def play(host: Member, channel: Channel) -> None:
    lobby = await (await host.slash("housie start", in_channel=channel, interval=5)).reply(15)
    await (await host.slash("housie join", in_channel=channel)).reply(15)
    start = next(cid for cid in lobby.custom_ids if ":start:" in cid)
    await (await host.click(lobby, start)).reply(15)


async def bench(rounds: int) -> None:
    server = PostgresServer.start()
    try:
        url = await server.create_database()
        with tempfile.TemporaryDirectory() as temp:
            async with Emulator(shards=2, max_concurrency=16) as emu:
                guild = emu.add_guild("zero", shard=(0, 2))
                emu.add_guild("one", shard=(1, 2))
                host = guild.add_member("host")
                fleet = Fleet(emu, url, Path(temp))
                try:
                    await run_rounds(emu, fleet, guild, host, rounds)
                finally:
                    fleet.stop_all()
    finally:
        server.stop()


async def run_rounds(emu: Emulator, fleet: Fleet, guild: Guild, host: Member, rounds: int) -> None:
    for shards in ("0/2", "1/2", "standby/2"):
        fleet.start(shards)
    await fleet.wait_owner(0, fleet.processes["0/2"].pid)
    await emu.wait_until(lambda: emu.synced_commands or None, 60, lambda: "commands synced")
    results: dict[str, list[tuple[float, float, float]]] = {"SIGKILL": [], "SIGTERM": []}
    for number in range(rounds):
        how = signal.SIGKILL if number % 2 == 0 else signal.SIGTERM
        channel = guild.add_channel(f"round-{number}")
        await play(host, channel)
        await wait_calls(emu, channel, 10)
        before = len(calls(channel))
        stopped_at = time.monotonic()
        fleet.processes["0/2"].send_signal(how)
        taken_at = await fleet.wait_owner(0, fleet.processes["standby/2"].pid)
        await wait_calls(emu, channel, before + 3)
        posted = calls(channel)
        gap = max(stamp(b) - stamp(a) for a, b in itertools.pairwise(posted))
        await asyncio.to_thread(fleet.processes["0/2"].wait)
        # Started again (systemd would), it asks for its shard back.
        restarted_at = time.monotonic()
        fleet.start("0/2")
        back_at = await fleet.wait_owner(0, fleet.processes["0/2"].pid)
        reached = len(calls(channel))
        await wait_calls(emu, channel, reached + 3)
        posted = calls(channel)
        handback_gap = max(
            stamp(b) - stamp(a)
            for a, b in zip(posted[reached - 1 :], posted[reached:], strict=False)
        )
        numbers = [int(CALL.search(m.content)[1]) for m in posted]  # type: ignore[index]
        assert numbers == list(range(1, len(numbers) + 1)), f"a call twice or skipped: {numbers}"
        await (await host.slash("housie stop", in_channel=channel)).reply(15)
        results[how.name].append((taken_at - stopped_at, gap, handback_gap))
        print(
            f"round {number + 1} ({how.name}): standby held the shard after"
            f" {taken_at - stopped_at:.1f} s; calls stopped for {gap:.1f} s; restarted, the"
            f" process had it back after {back_at - restarted_at:.1f} s, calls stopped for"
            f" {handback_gap:.1f} s",
            flush=True,
        )
    for how, figures in results.items():
        if figures:
            taken, gap, handback = (
                statistics.median(column) for column in zip(*figures, strict=True)
            )
            print(
                f"{how}, median of {len(figures)}: taken over after {taken:.1f} s, calls stopped"
                f" for {gap:.1f} s; handback: calls stopped for {handback:.1f} s"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="kills and stops, alternately")
    asyncio.run(bench(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
