"""Discord's daily session starts (1,000 IDENTIFYs, then the token is reset): the bot reads what
is left before it connects, and when that runs low it says so and waits for the reset, or exits
with one line and code 2 when the reset is far. The real bot against the emulator."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from bot import app
from bot.app import GameNightBot
from bot.storage import Storage
from emulator import Emulator
from emulator.testing import run_bot
from tests.bot.test_startup import bot_environment
from tests.conftest import make_settings


def spend_session_starts(emulator: Emulator, *, total: int, left: int, window: float) -> None:
    """As if the bot had started ``total - left`` sessions today, the count resetting
    ``window`` seconds from now."""
    starts = emulator.gateway.session_starts
    starts.total, starts.window = total, window
    now = time.monotonic()  # the emulator's clock
    for _ in range(total - left):
        starts.take(now)
    assert starts.remaining(now) == left


def session_start_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "bot.app" and "session starts" in record.getMessage()
    ]


async def test_with_few_starts_left_the_bot_says_so_and_waits_for_the_reset(
    emulator: Emulator, tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    emulator.add_guild("Game Night").add_channel("general")
    caplog.set_level(logging.INFO)
    settings = make_settings(emulator, tmp_path / "bot.sqlite3")
    async with Storage.open(settings.database) as storage:
        bot = GameNightBot(settings, storage, guild_ready_timeout=0.05)
        # (The reset is a few seconds away: it comes before the deadline to connect.)
        spend_session_starts(emulator, total=20, left=1, window=8.0)
        async with run_bot(emulator, bot, timeout=60):
            (warning,) = session_start_warnings(caplog)
            assert "only 1 more gateway session starts (of 20 a day)" in warning
            assert "this start needs 1" in warning
            assert re.search(r"waiting \d s for the count to reset", warning), warning
            # It connected after the reset, not with the last start of the day.
            assert emulator.gateway.session_starts.used == 1
            assert emulator.gateway.identify_count == 1
            assert not emulator.take_failures("session_start_limit")
            remaining = bot.metrics.registry.get_sample_value("gamenight_session_starts_remaining")
            assert remaining == 20


async def test_with_plenty_of_starts_left_the_bot_says_nothing(
    emulator: Emulator, start_bot, caplog: pytest.LogCaptureFixture
):
    emulator.add_guild("Game Night").add_channel("general")
    spend_session_starts(emulator, total=1000, left=900, window=3600.0)
    caplog.set_level(logging.INFO)
    bot = await start_bot()

    assert session_start_warnings(caplog) == []
    assert emulator.gateway.identify_count == 1
    # What it read before connecting, for the operator's alerts.
    assert bot.metrics.registry.get_sample_value("gamenight_session_starts_remaining") == 900


def test_what_runs_low():
    # Fewer than the shards to start plus a few to spare...
    assert app.session_starts_low(total=1000, remaining=105, needed=101)
    assert not app.session_starts_low(total=1000, remaining=106, needed=101)
    # ...or under a tenth of the day's.
    assert app.session_starts_low(total=1000, remaining=99, needed=1)
    assert not app.session_starts_low(total=1000, remaining=100, needed=1)


async def run_bot_process(emulator: Emulator, tmp_path: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=bot_environment(tmp_path / "bot.sqlite3", emulator),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_with_few_starts_left_and_the_reset_far_the_bot_exits_with_one_line(
    emulator: Emulator, tmp_path: Path
):
    """A crash loop's restarts would spend the last starts (and get the token reset): the bot
    stops with code 2, which the systemd units do not restart."""
    emulator.add_guild("Game Night").add_channel("general")
    spend_session_starts(emulator, total=1000, left=4, window=20 * 3600.0)
    process = await run_bot_process(emulator, tmp_path)
    try:
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 2
    lines = stderr.decode().splitlines()
    assert "Traceback" not in stderr.decode()
    error = lines[-1]
    assert error.startswith("error: Discord allows only 4 more gateway session starts (of 1000")
    assert "in 20 h;" in error
    assert "start it again after" in error
    assert emulator.gateway.identify_count == 0
    assert emulator.gateway.session_starts.remaining(time.monotonic()) == 4


async def test_a_stop_while_waiting_for_the_reset_exits_at_once_and_spends_none(
    emulator: Emulator, tmp_path: Path
):
    emulator.add_guild("Game Night").add_channel("general")
    spend_session_starts(emulator, total=1000, left=2, window=20 * 60.0)
    process = await run_bot_process(emulator, tmp_path)
    try:
        assert process.stderr is not None
        while True:  # until it says it waits
            line = (await asyncio.wait_for(process.stderr.readline(), 60)).decode()
            assert line, "the bot ended without a word about its session starts"
            if "session starts" in line:
                break
        assert "WARNING" in line
        assert "waiting 20 min for the count to reset" in line
        process.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0
    assert "Traceback" not in rest.decode()
    assert emulator.gateway.identify_count == 0
