"""The caller keeps its pace while a crowd looks at its boards. Run by hand; prints a table.

    python bench/bench_call_pace.py            # 1,000 players, 1,000 board views, a call a second
    python bench/bench_call_pace.py --busy     # the same with a CPU-bound process beside the bot
    python bench/bench_call_pace.py --players 200 --views 200   # quicker
    python bench/bench_call_pace.py --claims   # every member presses the call's Claim instead

What it does, on loopback: the real bot (``python -m bot``) against the emulator, one Lotería game
(prize: the full tabla, so it runs long) whose host picks the shortest interval (5 s) and a time
scale of 0.2, so a call is due every second. Every member joins; the game starts; after a few
calls every member sends ``/loteria tabla`` at once. **Call interval**: the time between two call
messages as Discord stamps them (the snowflake of each message), during the burst (from the first
view to the last answer, and the call after it) and before it. The goal is p99 within 1.2x of the
set interval. **View answers**: how long each view took to be acknowledged and answered. With
``--claims`` the crowd presses the sixth call's Claim button at once instead (nobody can have the
full tabla yet: every claim is judged, and false).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import BotProcess, percentile

from emulator import Emulator, InteractionResult, Message
from emulator.model import DISCORD_EPOCH_MS

INTERVAL = 5  # seconds the host picks (the bot's minimum)
CALL = re.compile(r"card (\d+) of 54")
JOIN_BATCH = 50


def stamp(message: Message) -> float:
    """When Discord created ``message``, in seconds (from its snowflake)."""
    return ((message.id >> 22) + DISCORD_EPOCH_MS) / 1000


def calls(messages: Sequence[Message]) -> list[tuple[int, float]]:
    found = []
    for message in messages:
        match = CALL.search(message.content)
        if match:
            found.append((int(match[1]), stamp(message)))
    return sorted(found)


def summary(values: Sequence[float]) -> str:
    if not values:
        return "n/a"
    return (
        f"p50 {statistics.median(values):.2f} · p99 {percentile(values, 0.99):.2f} · "
        f"max {max(values):.2f}"
    )


async def run(players: int, views: int, scale: float, validate: bool, claims: bool) -> int:
    every = INTERVAL * scale
    async with Emulator(validate=validate, ack_timeout=3.0, strict=False) as emu:
        guild = emu.add_guild("Pace")
        channel = guild.add_channel("general")
        members = [guild.add_member(f"m{i}") for i in range(players)]
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "bot.log"
            bot = BotProcess(emu, Path(folder) / "pace.sqlite3", scale, log)
            bot.start()
            try:
                await emu.wait_for_bot(timeout=60)
                return await measure(emu, channel, members, views, every, bot, claims)
            finally:
                await bot.stop()


async def measure(emu, channel, members, views, every, bot, claims) -> int:
    host = members[0]
    lobby = await (await host.slash("loteria start", prizes="full", interval=INTERVAL)).reply(
        timeout=30
    )
    join = next(cid for cid in lobby.custom_ids if ":join:" in cid)
    start = next(cid for cid in lobby.custom_ids if ":start:" in cid)
    began = time.monotonic()
    for first in range(0, len(members), JOIN_BATCH):
        batch = members[first : first + JOIN_BATCH]
        clicks = [await member.click(lobby, join) for member in batch]
        await asyncio.gather(*(click.reply(timeout=120) for click in clicks))
    dealt = time.monotonic() - began
    await (await host.click(lobby, start)).reply(timeout=30)
    sixth = await channel.wait_for_message(lambda m: "card 6 of 54" in m.content, timeout=60)
    claim = next(cid for cid in sixth.custom_ids if ":claim:" in cid)

    cpu_before = bot.cpu_seconds()
    burst_start = time.time()
    sent: list[InteractionResult] = [
        await (m.click(sixth, claim) if claims else m.slash("loteria tabla"))
        for m in members[:views]
    ]
    sending = time.time() - burst_start
    answers = await asyncio.gather(
        *(result.reply(timeout=180) for result in sent), return_exceptions=True
    )
    burst_end = time.time()
    failed = sum(isinstance(answer, BaseException) for answer in answers)
    await asyncio.sleep(every * 1.5)  # the call after the burst
    cpu = bot.cpu_seconds() - cpu_before

    stamped = calls(channel.messages)
    gaps = [(later[1] - earlier[1], later[1]) for earlier, later in itertools.pairwise(stamped)]
    before = [gap for gap, at in gaps if at < burst_start]
    during = [gap for gap, at in gaps if burst_start <= at <= burst_end + every * 1.5]
    acks = [r.acknowledged_at - r.created_at for r in sent if r.acknowledged_at is not None]
    unacknowledged = sum(r.acknowledged_at is None for r in sent)
    numbers = [number for number, _ in stamped]

    print(f"players {len(members)}, views {views}, a call every {every:g} s")
    print(
        f"dealt in {dealt:.1f} s; burst sent in {sending:.2f} s, answered in "
        f"{burst_end - burst_start:.1f} s ({failed} failed, {unacknowledged} unacknowledged)"
    )
    print(f"call interval before the burst (s): {summary(before)}")
    print(f"call interval during the burst (s): {summary(during)} over {len(during)} calls")
    if during:
        print(f"p99 / interval during the burst: {percentile(during, 0.99) / every:.2f}x")
    print(f"{'claim' if claims else 'view'} acknowledgement (s): {summary(acks)}")
    print(f"bot CPU over the burst: {cpu:.1f} s")
    in_order = numbers == list(range(1, len(numbers) + 1))
    print(f"calls announced in order, none twice: {in_order}")
    return 0 if in_order and not failed else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--views", type=int, default=1000)
    parser.add_argument(
        "--scale", type=float, default=0.2, help="time scale (0.2: a call a second)"
    )
    parser.add_argument("--busy", action="store_true", help="a CPU-bound process beside the bot")
    parser.add_argument("--validate", action="store_true", help="check requests against the spec")
    parser.add_argument(
        "--claims", action="store_true", help="the crowd presses Claim instead of viewing"
    )
    options = parser.parse_args(argv)
    views = min(options.views, options.players)
    # A shared host: one more process keeping a core busy for the whole run.
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if options.busy else None
    try:
        return asyncio.run(
            run(options.players, views, options.scale, options.validate, options.claims)
        )
    finally:
        if burner is not None:
            burner.kill()


if __name__ == "__main__":
    sys.exit(main())
