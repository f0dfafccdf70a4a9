"""One server floods the bot; the others keep playing. Run by hand; prints a table of figures.

    python bench/bench_flood.py            # 400 /stats, 30 /triangle solve, 400 /loteria tabla
    python bench/bench_flood.py --busy     # the same with a CPU-bound process beside the bot
    python bench/bench_flood.py --stats 100 --solves 10 --views 100 --others 3   # quicker

What it does, on loopback: the real bot (``python -m bot``) against the emulator (rate limits
off, as bench_call_pace.py), with a time scale that makes a call due every 2 s. The flooding
server has finished games on record (so ``/stats`` draws its leaderboard) and a Lotería game
with one player per flooding member; each of the other servers plays a Lotería game of its own,
whose players look at their tabla now and then (each every few seconds, staggered, under the
per-member cooldown). After a quiet spell (the baseline), every flooding member sends its
commands at once, as fast as the emulator takes them: ``/stats``, ``/triangle solve`` (the first
``--solves`` members) and ``/loteria tabla``, interleaved. Each flooding member sends each
command once, so a per-member cooldown never stops them: what the figures show is what the bot
does with a whole server flooding.

**Views elsewhere**: the other servers' ``/loteria tabla``, from the emulator sending the
interaction to its acknowledgement, and to the answer the member sees (the tabla), before the
flood and during it (from its first command to its last answer). **Call lateness**: how much
later than the set interval each call came (Discord's stamps: the snowflake of each message),
during the flood, in the flooding server's game and in the others'. **Flood**: how the flooding
commands were answered: with their picture, refused (a private answer without one), or not at
all.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_call_pace import calls
from bench_load import BotProcess, percentile

from bot.storage import GameStatus, Storage
from emulator import Channel, Emulator, Guild, InteractionResult, Member, Message

INTERVAL = 5  # seconds the hosts pick (the bot's minimum)
JOIN_BATCH = 50
KINDS = ("loteria", "housie", "tictactoe", "dots", "triangle")
FINISHED_GAMES = 40  # finished games on record in the flooding server, for /stats
BASELINE = 8.0  # seconds of views before the flood
AFTER = 3.0  # seconds of views after the flood's last answer
POLL = 0.1


@dataclass
class View:
    """One board view in another server: when Discord sent it, acknowledged and answered."""

    result: InteractionResult
    answered_at: float | None = None


@dataclass
class Table:
    """A server with one Lotería game."""

    guild: Guild
    channel: Channel
    members: list[Member]
    views: list[View] = field(default_factory=list)


def summary(values: Sequence[float]) -> str:
    if not values:
        return "n/a"
    return (
        f"p50 {statistics.median(values):.2f} · p99 {percentile(values, 0.99):.2f} · "
        f"max {max(values):.2f}"
    )


async def record_finished_games(database: Path, guild_id: int, members: Sequence[Member]) -> None:
    """Finished games of every kind in the flooding server, each with a winner: the leaderboard
    has something to draw for every game."""
    async with Storage.open(database) as storage:
        for number in range(FINISHED_GAMES):
            kind = KINDS[number % len(KINDS)]
            players = [members[(number * 7 + seat) % len(members)] for seat in range(4)]
            game = await storage.create_game(
                kind=kind,
                guild_id=guild_id,
                channel_id=1,
                host_id=players[0].id,
                seed=None,
                options={},
            )
            for member in players:
                await storage.add_player(
                    game.id,
                    member.id,
                    display_name=member.name,
                    locale="",
                    boards=lambda _seat, _first: [],
                )
            await storage.record_win(
                game.id, prize="win", user_id=players[0].id, board_id=None, step=1
            )
            await storage.update_game(game.id, status=GameStatus.FINISHED)


async def open_game(host: Member, channel: Channel, members: Sequence[Member]) -> None:
    """A Lotería game in ``channel`` that ``members`` join (in batches), started."""
    lobby = await (
        await host.slash(
            "loteria start",
            in_channel=channel,
            prizes="full",
            interval=INTERVAL,
            max_players=max(len(members), 2),
        )
    ).reply(timeout=60)
    join = next(cid for cid in lobby.custom_ids if ":join:" in cid)
    start = next(cid for cid in lobby.custom_ids if ":start:" in cid)
    for first in range(0, len(members), JOIN_BATCH):
        clicks = [await m.click(lobby, join) for m in members[first : first + JOIN_BATCH]]
        await asyncio.gather(*(click.reply(timeout=180) for click in clicks))
    await (await host.click(lobby, start)).reply(timeout=60)


async def view(table: Table, member: Member) -> None:
    result = await member.slash("loteria tabla", in_channel=table.channel)
    seen = View(result)
    table.views.append(seen)
    with contextlib.suppress(Exception):  # counted as unanswered
        await result.reply(timeout=60)
        seen.answered_at = asyncio.get_running_loop().time()


async def keep_viewing(
    table: Table, every: float, phase: float, tasks: set[asyncio.Task[None]]
) -> None:
    """Each member of ``table`` looks at their tabla every ``every`` seconds, staggered; the
    first after ``phase`` of the gap between two (servers do not look in step)."""
    gap = every / len(table.members)
    await asyncio.sleep(gap * phase)
    for member in itertools.cycle(table.members):
        task = asyncio.create_task(view(table, member))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        await asyncio.sleep(gap)


def view_figures(views: Sequence[View], start: float, end: float) -> tuple[list[float], ...]:
    chosen = [v for v in views if start <= v.result.created_at <= end]
    acks = [
        v.result.acknowledged_at - v.result.created_at
        for v in chosen
        if v.result.acknowledged_at is not None
    ]
    answers = [v.answered_at - v.result.created_at for v in chosen if v.answered_at is not None]
    missed = [float(sum(v.answered_at is None for v in chosen))]
    return acks, answers, missed


def lateness(channel: Channel, every: float, start: float, end: float) -> list[float]:
    """How late each call made between ``start`` and ``end`` (wall clock) was."""
    stamped = calls(channel.messages)
    return [
        max(0.0, later - earlier - every)
        for (_, earlier), (_, later) in itertools.pairwise(stamped)
        if start <= later <= end
    ]


def shown_to(result: InteractionResult) -> Message | None:
    """What the member sees in answer (None for nothing yet)."""
    if result.failure or not result.acknowledged:
        return None
    shown = result.message
    if shown is not None and shown.deleted and result.followups:
        shown = result.followups[0]
    if shown is None or shown.loading:
        return None
    return shown


def kind_of(result: InteractionResult) -> str:
    """How a flooding command was answered: with its picture, refused privately, or not."""
    shown = shown_to(result)
    if shown is None:
        return "unanswered"
    return "picture" if shown.attachments else "refused"


async def run(options: argparse.Namespace) -> int:
    every = INTERVAL * options.scale
    async with Emulator(validate=False, ack_timeout=3.0, strict=False) as emu:
        flood_guild = emu.add_guild("Flood")
        flood_channel = flood_guild.add_channel("general")
        crowd_size = max(options.stats, options.solves, options.views)
        crowd = [flood_guild.add_member(f"f{i}") for i in range(crowd_size)]
        tables = []
        for number in range(options.others):
            guild = emu.add_guild(f"Other {number}")
            channel = guild.add_channel("general")
            members = [guild.add_member(f"o{number}m{i}") for i in range(options.players)]
            tables.append(Table(guild, channel, members))
        with tempfile.TemporaryDirectory() as folder:
            database = Path(folder) / "flood.sqlite3"
            await record_finished_games(database, flood_guild.id, crowd)
            bot = BotProcess(emu, database, options.scale, Path(folder) / "bot.log")
            bot.start()
            try:
                await emu.wait_for_bot(timeout=60)
                return await measure(options, every, bot, flood_channel, crowd, tables)
            finally:
                await bot.stop()
                if options.log is not None:
                    options.log.write_bytes((Path(folder) / "bot.log").read_bytes())


async def measure(
    options: argparse.Namespace,
    every: float,
    bot: BotProcess,
    flood_channel: Channel,
    crowd: list[Member],
    tables: list[Table],
) -> int:
    loop = asyncio.get_running_loop()
    began = time.monotonic()
    players = crowd[: options.views]
    await open_game(players[0], flood_channel, players)
    for table in tables:
        await open_game(table.members[0], table.channel, table.members)
    dealt = time.monotonic() - began
    await asyncio.gather(
        *(
            channel.wait_for_message(lambda m: "card 2 of 54" in m.content, timeout=60)
            for channel in [flood_channel, *(table.channel for table in tables)]
        )
    )
    tasks: set[asyncio.Task[None]] = set()
    viewers = [
        asyncio.create_task(keep_viewing(table, options.view_every, number / len(tables), tasks))
        for number, table in enumerate(tables)
    ]
    await asyncio.sleep(BASELINE)

    cpu_before, own_cpu_before = bot.cpu_seconds(), time.process_time()
    flood_start, wall_start = loop.time(), time.time()
    commands: list[tuple[str, Member, dict[str, object]]] = []
    for index in range(len(crowd)):
        if index < options.stats:
            commands.append(("stats", crowd[index], {}))
        if index < options.solves:
            commands.append(("triangle solve", crowd[index], {"start": index % 15}))
        if index < options.views:
            commands.append(("loteria tabla", crowd[index], {}))
    sent = [
        (name, await member.slash(name, in_channel=flood_channel, **values))
        for name, member, values in commands
    ]
    sending = loop.time() - flood_start
    deadline = loop.time() + options.timeout
    answered_at: dict[int, float] = {}
    while loop.time() < deadline:
        for _, result in sent:
            if result.id not in answered_at and kind_of(result) != "unanswered":
                answered_at[result.id] = loop.time()
        if len(answered_at) == len(sent):
            break
        await asyncio.sleep(POLL)
    flood_end, wall_end = loop.time(), time.time()
    cpu, own_cpu = bot.cpu_seconds() - cpu_before, time.process_time() - own_cpu_before
    await asyncio.sleep(AFTER)
    for viewer in viewers:
        viewer.cancel()
    await asyncio.gather(*viewers, return_exceptions=True)
    await asyncio.gather(*list(tasks), return_exceptions=True)

    outcomes: dict[str, dict[str, int]] = {}
    refusals: Counter[str] = Counter()
    for name, result in sent:
        counts = outcomes.setdefault(name, {"picture": 0, "refused": 0, "unanswered": 0})
        kind = kind_of(result)
        counts[kind] += 1
        shown = shown_to(result)
        if kind == "refused" and shown is not None:
            refusals[shown.content[:60]] += 1
    all_views = [v for table in tables for v in table.views]
    quiet = view_figures(all_views, flood_start - BASELINE, flood_start)
    busy = view_figures(all_views, flood_start, flood_end)
    late_here = lateness(flood_channel, every, wall_start, wall_end + every)
    late_elsewhere = [
        gap for t in tables for gap in lateness(t.channel, every, wall_start, wall_end + every)
    ]
    quiet_late = [
        gap
        for channel in [flood_channel, *(t.channel for t in tables)]
        for gap in lateness(channel, every, wall_start - BASELINE, wall_start)
    ]

    print(
        f"flooding server: {len(players)} players; {options.others} other servers of "
        f"{options.players} players, each viewing every {options.view_every:g} s; "
        f"a call every {every:g} s"
    )
    print(
        f"dealt in {dealt:.1f} s; flood of {len(sent)} commands sent in {sending:.2f} s, "
        f"all answered in {flood_end - flood_start:.1f} s"
    )
    for name, counts in outcomes.items():
        print(f"  /{name}: " + ", ".join(f"{count} {what}" for what, count in counts.items()))
    for text, count in refusals.most_common(3):
        print(f"  refused {count} times: {text}...")
    print(
        f"views elsewhere before the flood ({len(quiet[1])}), acknowledged (s): {summary(quiet[0])}"
    )
    print(f"                                   answered (s):     {summary(quiet[1])}")
    print(
        f"views elsewhere during the flood ({len(busy[1])}), acknowledged (s): {summary(busy[0])}"
    )
    print(f"                                   answered (s):     {summary(busy[1])}")
    print(f"views elsewhere unanswered: before {quiet[2][0]:.0f}, during {busy[2][0]:.0f}")
    print(f"call lateness before the flood (s): {summary(quiet_late)}")
    print(f"call lateness during the flood, flooding server (s): {summary(late_here)}")
    print(f"call lateness during the flood, other servers (s): {summary(late_elsewhere)}")
    print(f"CPU over the flood: the bot {cpu:.1f} s, the emulator and members {own_cpu:.1f} s")
    in_order = all(
        [n for n, _ in calls(c.messages)] == list(range(1, len(calls(c.messages)) + 1))
        for c in [flood_channel, *(t.channel for t in tables)]
    )
    print(f"calls announced in order, none twice: {in_order}")
    if options.timeline:
        print("views elsewhere during the flood: seconds from its start, acknowledged, answered")
        for seen in sorted(all_views, key=lambda v: v.result.created_at):
            result = seen.result
            if flood_start <= result.created_at <= flood_end:
                ack = (result.acknowledged_at or float("nan")) - result.created_at
                answer = (seen.answered_at or float("nan")) - result.created_at
                print(f"  {result.created_at - flood_start:6.2f} {ack:6.2f} {answer:6.2f}")
    unanswered = sum(counts["unanswered"] for counts in outcomes.values()) + busy[2][0]
    return 0 if in_order and not unanswered else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stats", type=int, default=400, help="/stats in the flood")
    parser.add_argument("--solves", type=int, default=30, help="/triangle solve in the flood")
    parser.add_argument("--views", type=int, default=400, help="/loteria tabla in the flood")
    parser.add_argument("--others", type=int, default=6, help="other servers playing")
    parser.add_argument("--players", type=int, default=8, help="players in each other server")
    parser.add_argument(
        "--view-every", type=float, default=5.0, help="seconds between a player's views"
    )
    parser.add_argument("--scale", type=float, default=0.4, help="time scale (0.4: a call in 2 s)")
    parser.add_argument("--timeout", type=float, default=120.0, help="most seconds for the flood")
    parser.add_argument("--busy", action="store_true", help="a CPU-bound process beside the bot")
    parser.add_argument("--log", type=Path, help="save the bot's log here")
    parser.add_argument(
        "--timeline", action="store_true", help="list every view elsewhere during the flood"
    )
    options = parser.parse_args(argv)
    if options.views < 1:
        parser.error("--views must be at least 1 (the flooding server's game needs players)")
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if options.busy else None
    try:
        return asyncio.run(run(options))
    finally:
        if burner is not None:
            burner.kill()


if __name__ == "__main__":
    sys.exit(main())
