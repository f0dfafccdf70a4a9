"""A fleet of real ``python -m bot`` processes sharing a 2-shard bot on PostgreSQL: each runs
the games of its own shards' servers only; a process killed mid-game (SIGKILL) has its games
resumed by a standby, every call announced once and in the seed's order and every claim judged
before the kill kept, and gets its shard back when it starts again; a paused process (SIGSTOP)
is fenced off; a clean stop (SIGTERM) hands its shards over at once; planned game nights are
opened and started by the process of their shard, and by the standby once it took the shard."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.storage import GameRow, ScheduleStatus, Storage
from emulator import Emulator, RateLimits
from emulator.model import Channel, Guild, Member, Message
from engine.fairness import draw_order
from engine.loteria import Pattern, Tabla
from tests.bot.fleet.test_session_starts import spend_session_starts
from tests.cogs.helpers import button_id
from tests.conftest import SIGNING_KEY

pytestmark = [pytest.mark.backends("postgres"), pytest.mark.emulator(shards=2)]

ROOT = Path(__file__).resolve().parents[2]
CALL = r"card (\d+) of 54"
# Deadlines, not speed targets (bench/bench_failover.py measures a takeover): a lease lasts
# 10 s, and a loaded machine may take a while to start a process.
DEADLINE = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def eventually(check: Callable[[], Awaitable[object]], what: str) -> Any:
    """Poll ``check`` until it returns something truthy (returned), or fail after DEADLINE."""
    deadline = time.monotonic() + DEADLINE
    while True:
        outcome = await check()
        if outcome:
            return outcome
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {DEADLINE:g} s waiting for {what}")
        await asyncio.sleep(0.2)


class BotProcess:
    """``python -m bot`` with ``GAMENIGHT_SHARDS=shards``, its HTTP endpoint on a port of its
    own (to read its shards and its own count of calls), its log in a file."""

    def __init__(
        self, emulator: Emulator, database: str, folder: Path, shards: str, **more: str
    ) -> None:
        self.shards = shards
        self.port = free_port()
        self.log = folder / f"bot-{shards.replace('/', '-of-')}-{time.monotonic_ns()}.log"
        env = {
            **os.environ,
            "DISCORD_TOKEN": emulator.token,
            "GAMENIGHT_SIGNING_KEY": SIGNING_KEY.hex(),
            "GAMENIGHT_DATABASE": database,
            "GAMENIGHT_SHARDS": shards,
            "GAMENIGHT_METRICS_PORT": str(self.port),
            "DISCORD_API_BASE_URL": emulator.api_base_url,
            "DISCORD_GATEWAY_URL": emulator.gateway_url,
            "GAMENIGHT_TIME_SCALE": "0.04",
            "PYTHONPATH": str(ROOT),
            **more,
        }
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=folder, env=env, stdout=log, stderr=log
            )

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    async def _get(self, path: str) -> str | None:
        try:
            async with (
                aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as http,
                http.get(f"http://127.0.0.1:{self.port}{path}") as answer,
            ):
                return await answer.text()
        except (aiohttp.ClientError, TimeoutError):
            return None

    async def health(self) -> dict[str, Any] | None:
        body = await self._get("/healthz")
        return None if body is None else dict(json.loads(body))

    async def metric(self, name: str) -> int:
        """One of this process's figures (``/metrics``), for Lotería."""
        body = await self._get("/metrics")
        assert body is not None, f"no /metrics from {self.shards}"
        found = re.search(rf'^{name}\{{kind="loteria"\}} (\S+)$', body, re.M)
        return int(float(found[1])) if found else 0

    async def running(self, shards: list[int]) -> None:
        """Wait until the process holds ``shards`` and every one of them is connected."""

        async def check() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.shards} exited:\n{self.log_text()[-3000:]}")
            health = await self.health()
            return bool(health and health["ok"] and health["shards"] == shards)

        await eventually(check, f"the process {self.shards} to run shards {shards}")

    async def stop(self) -> int:
        """A clean stop (SIGTERM); returns the exit code."""
        self.process.send_signal(signal.SIGTERM)
        return await self.exit()

    async def exit(self) -> int:
        """Wait for the process to end (not blocking the loop: the emulator runs on it)."""
        return await asyncio.to_thread(self.process.wait, 30)


@pytest.fixture
async def fleet(
    emulator: Emulator, database: str, tmp_path: Path
) -> AsyncIterator[Callable[[str], BotProcess]]:
    """``fleet("0/2")`` starts a bot process of the fleet (more settings as keywords); any left
    are killed at the end."""
    started: list[BotProcess] = []

    def start(shards: str, **more: str) -> BotProcess:
        started.append(BotProcess(emulator, database, tmp_path, shards, **more))
        return started[-1]

    yield start
    for bot in started:
        if bot.process.poll() is None:
            bot.process.send_signal(signal.SIGCONT)
            bot.process.kill()
            bot.process.wait(10)


def last_call(channel: Channel) -> Message:
    return next(m for m in reversed(channel.messages) if re.search(CALL, m.content))


def announced(channel: Channel) -> list[int]:
    return [int(match[1]) for m in channel.messages if (match := re.search(CALL, m.content))]


async def wait_for_calls(emulator: Emulator, channel: Channel, count: int) -> None:
    await emulator.wait_until(
        lambda: len(announced(channel)) >= count or None,
        DEADLINE,
        lambda: f"{count} calls in #{channel.name} (have {len(announced(channel))})",
    )


async def open_game(
    guild: Guild, players: int, prizes: str = "full"
) -> tuple[Channel, list[Member]]:
    channel = guild.add_channel(f"loteria-{guild.name}")
    host = guild.add_member(f"{guild.name}-host")
    members = [host, *(guild.add_member(f"{guild.name}-p{i}") for i in range(players - 1))]
    lobby = await (await host.slash("loteria start", prizes=prizes, interval=10)).reply(15)
    for member in members:
        await (await member.click(lobby, button_id(lobby, "join"))).reply(15)
    await (await host.click(lobby, button_id(lobby, "start"))).reply(15)
    return channel, members


async def stop_game(channel: Channel, host: Member) -> None:
    await (await host.slash("loteria stop")).reply(15)
    await channel.wait_for_message(lambda m: "is over" in m.content, timeout=15)


async def game_in(storage: Storage, channel: Channel) -> GameRow:
    for game_id in range(1, 100):
        game = await storage.get_game(game_id)
        if game is not None and game.channel_id == channel.id:
            return game
    raise AssertionError(f"no game in #{channel.name}")


async def check_calls(storage: Storage, channel: Channel) -> list[int]:
    """Announced 1..n, each once; n draws stored, all announced, in the seed's order."""
    calls = announced(channel)
    assert calls == list(range(1, len(calls) + 1)), f"a call twice or skipped: {calls}"
    game = await game_in(storage, channel)
    draws = await storage.draws(game.id)
    assert [d.seq for d in draws] == calls
    assert all(d.message_id is not None for d in draws)
    assert game.seed is not None
    assert [d.value for d in draws] == list(draw_order(game.seed, 54)[: len(draws)])
    return calls


@pytest.mark.emulator(shards=2, rate_limits=RateLimits(channel_messages=1000))
async def test_two_processes_each_run_the_games_of_their_own_shards_only(
    emulator: Emulator, database: str, fleet
):
    guilds = [emulator.add_guild(f"zero{i}", shard=(0, 2)) for i in range(2)]
    guilds.append(emulator.add_guild("one", shard=(1, 2)))
    first, second = fleet("0/2", GAMENIGHT_LOG_LEVEL="DEBUG"), fleet("1/2")
    await first.running([0])
    await second.running([1])
    games = [await open_game(guild, 2) for guild in guilds]
    for channel, _ in games:
        await wait_for_calls(emulator, channel, 5)
    assert await first.metric("gamenight_live_games") == 2
    assert await second.metric("gamenight_live_games") == 1
    for channel, members in games:
        await stop_game(channel, members[0])

    async with Storage.open(database) as storage:
        calls = [len(await check_calls(storage, channel)) for channel, _ in games]
        leases = {lease.shard_id: lease.owner for lease in await storage.leases()}
    # Each process announced the calls of its own shard's servers, and none of the other's.
    assert await first.metric("gamenight_calls_total") == calls[0] + calls[1]
    assert await second.metric("gamenight_calls_total") == calls[2]
    assert leases[0] != leases[1]
    assert f"pid {first.process.pid} " in leases[0]
    # Discord's IDENTIFY pacing held across the two processes (the emulator enforces it).
    assert emulator.gateway.identify_refused == 0

    # As one process does, a fleet's froze its start-up heap (full collections paused answers).
    async def frozen_heap() -> re.Match[str] | None:
        return re.search(r"start-up heap frozen: (\d+) objects", first.log_text())

    frozen = await eventually(frozen_heap, "the first process's heap frozen")
    assert int(frozen[1]) > 50_000
    assert await first.stop() == 0
    assert await second.stop() == 0


def line_holder(boards: dict[int, Tabla], called: list[int]) -> int | None:
    """A player whose tabla shows a line among ``called``."""
    for user_id, tabla in boards.items():
        marks = tabla.marks(called)
        if any(marks & mask == mask for mask in Pattern.LINE.masks):
            return user_id
    return None


async def test_a_killed_process_games_resume_in_a_standby_and_come_back_with_it(
    emulator: Emulator, database: str, fleet
):
    zero = emulator.add_guild("zero", shard=(0, 2))
    one = emulator.add_guild("one", shard=(1, 2))
    first, second, standby = fleet("0/2"), fleet("1/2"), fleet("standby/2")
    await first.running([0])
    await second.running([1])
    await standby.running([])
    channel, members = await open_game(zero, 3, prizes="line, full")
    other_channel, other_members = await open_game(one, 2)

    # Claims judged before the kill: false ones, and a line won.
    await wait_for_calls(emulator, channel, 3)
    judged: dict[int, str] = {}
    for member in members[1:3]:
        call = last_call(channel)
        judged[member.id] = (
            await (await member.click(call, button_id(call, "claim"))).reply(15)
        ).content
    assert all("False claim" in verdict for verdict in judged.values())
    async with Storage.open(database) as storage:
        game = await game_in(storage, channel)
        tablas = {
            board.user_id: Tabla.from_state(board.state) for board in await storage.boards(game.id)
        }

        async def someone_with_a_line() -> int | None:
            seen = [d.value for d in await storage.draws(game.id) if d.message_id is not None]
            return line_holder(tablas, seen)

        winner_id = await eventually(someone_with_a_line, "a line on someone's tabla")
    winner = next(m for m in members if m.id == winner_id)
    call = last_call(channel)
    won = await (await winner.click(call, button_id(call, "claim"))).reply(15)
    assert "wins" in won.content
    judged[winner.id] = won.content

    # SIGKILL mid-game: nothing is released; the standby takes shard 0 when its lease expires,
    # and RESUMEs the session the killed process saved with its last heartbeat (no IDENTIFY,
    # which Discord paces at one per 5 s).
    before = len(announced(channel))
    gateway = emulator.gateway
    identified, resumed = gateway.session_starts.used, gateway.resume_count
    first.process.send_signal(signal.SIGKILL)
    killed_at = time.monotonic()
    await first.exit()
    await standby.running([0])
    await wait_for_calls(emulator, channel, before + 3)
    resumed_after = time.monotonic() - killed_at
    print(f"calls resumed {resumed_after:.1f} s after the SIGKILL")
    assert "took the leases of shards 0 (tokens 2)" in standby.log_text()
    assert "shard 0: resuming the session it was handed" in standby.log_text()
    assert (gateway.session_starts.used, gateway.resume_count) == (identified, resumed + 1)

    # The process starts again (as systemd would): it asks for its shard back and gets it, the
    # standby handing the session over as well.
    again = fleet("0/2")
    await again.running([0])
    await standby.running([])
    reached = len(announced(channel))
    await wait_for_calls(emulator, channel, reached + 3)
    assert "shard 0: resuming the session it was handed" in again.log_text()
    assert (gateway.session_starts.used, gateway.resume_count) == (identified, resumed + 2)
    await stop_game(channel, members[0])
    await stop_game(other_channel, other_members[0])

    async with Storage.open(database) as storage:
        await check_calls(storage, channel)
        claims = await storage.claims(game.id)
        winners = await storage.winners(game.id)
        leases = {lease.shard_id: lease for lease in await storage.leases()}
        await check_calls(storage, other_channel)
    # Every claim judged before the kill is there, the win with its winner row.
    assert {claim.user_id for claim in claims} >= set(judged)
    assert any(w.user_id == winner.id and w.prize == "line" for w in winners)
    assert sum(1 for claim in claims if claim.valid) == len(winners)
    assert leases[0].token == 3  # first, the standby, the first again
    assert f"pid {again.process.pid} " in leases[0].owner
    assert leases[1].token == 1  # the other process was never disturbed
    assert "handing shards 0 back" in standby.log_text()
    for process in (second, standby, again):
        assert await process.stop() == 0


async def test_a_paused_process_is_fenced_and_a_clean_stop_hands_over_at_once(
    emulator: Emulator, database: str, fleet
):
    zero = emulator.add_guild("zero", shard=(0, 2))
    one = emulator.add_guild("one", shard=(1, 2))
    first, standby = fleet("0-1/2"), fleet("standby/2")
    await first.running([0, 1])
    await standby.running([])
    channel, members = await open_game(zero, 2)
    other_channel, other_members = await open_game(one, 2)
    await wait_for_calls(emulator, channel, 3)

    # Paused (a long GC, a frozen VM): its leases lapse, the standby takes both shards...
    first.process.send_signal(signal.SIGSTOP)
    paused = len(announced(channel))
    await standby.running([0, 1])
    await wait_for_calls(emulator, channel, paused + 3)
    # ... and when it wakes up, its writes are refused: it stops its games, calls nothing
    # twice, and asks for its shards back.
    first.process.send_signal(signal.SIGCONT)
    await first.running([0, 1])
    await standby.running([])
    assert "lost the leases of shards 0-1 to another process" in first.log_text()
    reached = len(announced(channel))
    await wait_for_calls(emulator, channel, reached + 3)

    # SIGTERM: its games stop, its leases are released as it exits (not left to expire for
    # 10 s; the standby may have taken them already) ...
    stopped = len(announced(channel))
    assert await first.stop() == 0
    async with Storage.open(database) as storage:
        (now,) = await storage._all("SELECT extract(epoch FROM clock_timestamp())::float8")
        for lease in await storage.leases():
            mine = f"pid {first.process.pid} " in lease.owner
            assert not mine or lease.expires_at <= float(now[0])
    assert "released the leases of shards 0-1" in first.log_text()
    # ... and the standby takes them at its next heartbeat.
    await standby.running([0, 1])
    await wait_for_calls(emulator, channel, stopped + 3)
    await stop_game(channel, members[0])
    await stop_game(other_channel, other_members[0])
    async with Storage.open(database) as storage:
        await check_calls(storage, channel)
        await check_calls(storage, other_channel)
    assert await standby.stop() == 0


async def plan_night(guild: Guild, seconds: float) -> tuple[Channel, Member, Message]:
    """``/loteria schedule`` a night ``seconds`` from now in a new channel of ``guild`` (its
    lobby due at once), a player joins its lobby; returns the channel, the host and the lobby."""
    channel = guild.add_channel(f"night-{guild.name}")
    host, player = guild.add_member(f"{guild.name}-host"), guild.add_member(f"{guild.name}-p")
    when = f"<t:{int(time.time() + seconds)}>"
    planned = await (
        await host.slash("loteria schedule", in_channel=channel, when=when, lobby=1)
    ).reply(15)
    assert "night #" in planned.content
    lobby = await channel.wait_for_message(
        lambda m: "Planned game night" in m.content, timeout=DEADLINE
    )
    await (await player.click(lobby, button_id(lobby, "join"))).reply(15)
    return channel, host, lobby


@pytest.mark.emulator(shards=2, rate_limits=RateLimits(channel_messages=1000))
async def test_planned_nights_run_in_the_process_of_their_shard_and_move_with_it(
    emulator: Emulator, database: str, fleet
):
    zero = emulator.add_guild("zero", shard=(0, 2))
    one = emulator.add_guild("one", shard=(1, 2))
    first, second, standby = fleet("0/2"), fleet("1/2"), fleet("standby/2")
    await first.running([0])
    await second.running([1])
    await standby.running([])

    # A night on shard 1: opened and started on time by the process that runs shard 1 only.
    one_channel, one_host, _ = await plan_night(one, 15)
    await wait_for_calls(emulator, one_channel, 3)
    assert await first.metric("gamenight_calls_total") == 0
    assert await standby.metric("gamenight_calls_total") == 0

    # Shard 0's process is killed; a night planned there once the standby runs shard 0 is
    # opened and started by the standby.
    first.process.send_signal(signal.SIGKILL)
    await first.exit()
    await standby.running([0])
    zero_channel, zero_host, _ = await plan_night(zero, 15)
    await wait_for_calls(emulator, zero_channel, 3)
    await stop_game(zero_channel, zero_host)
    await stop_game(one_channel, one_host)

    async with Storage.open(database) as storage:
        zero_calls = await check_calls(storage, zero_channel)
        one_calls = await check_calls(storage, one_channel)
        nights = [await storage.get_schedule(night) for night in (1, 2)]
    assert [night.status for night in nights if night] == [ScheduleStatus.DONE] * 2
    assert await second.metric("gamenight_calls_total") == len(one_calls)
    assert await standby.metric("gamenight_calls_total") == len(zero_calls)
    for process in (second, standby):
        assert await process.stop() == 0


async def test_a_process_finding_few_session_starts_left_stops_with_one_line(
    emulator: Emulator, fleet: Callable[[str], BotProcess], database: str
):
    """Every process of the fleet spends the bot's daily session starts: one starting its
    shards when few are left, and their reset hours away, stops (code 2: not restarted) rather
    than spend them, and lets its leases go."""
    emulator.add_guild("zero", shard=(0, 2)).add_channel("general")
    spend_session_starts(emulator, total=1000, left=5, window=20 * 3600.0)
    first = fleet("0/2")
    assert await first.exit() == 2
    last = first.log_text().strip().splitlines()[-1]
    assert last.startswith("error: Discord allows only 5 more gateway session starts"), last
    assert "Traceback" not in first.log_text()
    assert emulator.gateway.identify_count == 0
    async with Storage.open(database) as storage:
        leases = await storage.leases()
    # Released (expired now) rather than left to run out their 10 s.
    assert [lease.shard_id for lease in leases] == [0]
    assert leases[0].expires_at < time.time() + 5
