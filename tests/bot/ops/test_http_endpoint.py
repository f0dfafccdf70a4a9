"""The operator's HTTP endpoint, scraped during a real game: health, Prometheus metrics, and the
verification page the end-of-game message links to."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import re
import signal
import sys
from pathlib import Path
from urllib.parse import unquote

import aiohttp
import pytest

from bot.ops.http_server import default_limits
from emulator import Emulator, Fault
from tests.bot.flood import (
    Connection,
    as_systemd_would,
    close_all,
    many_descriptors,
    open_idle,
    play_tictactoe,
    raw_request,
    wait_all_closed,
    wait_healthy,
)
from tests.cogs.helpers import button_id, run_calls
from tests.conftest import SIGNING_KEY

__all__ = ["many_descriptors"]  # a fixture

ROOT = Path(__file__).resolve().parents[3]


def sample(text: str, name: str, **labels: str) -> float:
    """The value of metric ``name`` with ``labels`` in Prometheus' text format (0 if absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    pattern = re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)"
    found = re.search(r"^" + pattern + r"$", text, re.MULTILINE)
    return float(found[1]) if found else 0.0


async def test_health_metrics_and_the_page_during_a_game(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    shut = guild.add_member("shut", dms_open=False)
    bot = await start_bot(
        time_scale=100,
        settings_changes={"metrics_port": 0, "public_url": "https://night.example"},
    )
    base = f"http://127.0.0.1:{bot.http_endpoint.port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/healthz") as health:
            assert health.status == 200
            assert await health.json() == {"ok": True, "gateway": True, "database": True}

        lobby = await (await host.slash("loteria start", prizes="full")).reply()
        for member in (host, shut):
            await (await member.click(lobby, button_id(lobby, "join"))).reply()
        emulator.take_failures("dm_closed")
        await (await host.click(lobby, button_id(lobby, "start"))).reply()
        (game,) = await bot.storage.live_games()
        emulator.inject_fault(
            Fault(429, method="POST", route="/channels/{channel_id}/messages", limit=1)
        )
        await run_calls(bot.get_cog("Lotería"), game.id, 3)
        await (await shut.slash("loteria claim")).reply()  # a false claim

        async with http.get(f"{base}/metrics") as scraped:
            assert scraped.status == 200
            text = await scraped.text()
        assert sample(text, "gamenight_calls_total", kind="loteria") == 3
        assert sample(text, "gamenight_claims_total", kind="loteria", verdict="false") == 1
        assert sample(text, "gamenight_live_games", kind="loteria") == 1
        assert sample(text, "gamenight_live_games", kind="housie") == 0
        assert sample(text, "gamenight_dm_fallbacks_total", kind="loteria") == 1
        assert sample(text, "gamenight_rest_errors_total", status="429") == 1
        # Every interaction so far was timed: the slash commands, the clicks, the claim.
        assert sample(text, "gamenight_interaction_ack_seconds_count") >= 5
        assert sample(text, "gamenight_interaction_ack_seconds_bucket", le="3.0") == sample(
            text, "gamenight_interaction_ack_seconds_count"
        )

        await (await host.slash("loteria stop")).reply()
        summary = await channel.wait_for_message(lambda m: "is over" in m.content)
        link = re.search(
            r"\((https://night\.example/verify/verify\.html#[^)\s]+)\)", summary.content
        )
        assert link, summary.content
        fragment = unquote(link[1].split("#", 1)[1])
        assert f"seed={game.seed.hex()}" in fragment
        assert "calls=3" in fragment
        assert "boards=1*2" in fragment
        async with http.get(f"{base}/verify/verify.html") as page:
            assert page.status == 200
            assert "<html" in (await page.text()).lower()
        async with http.get(f"{base}/verify", allow_redirects=False) as moved:
            assert moved.status == 302
        async with http.get(f"{base}/verify/../storage.py") as escape:
            assert escape.status in {403, 404}

        # The database's reading connection gone: unhealthy, and the body says which part.
        await bot.storage._backend._reader.close()  # type: ignore[attr-defined]
        async with http.get(f"{base}/healthz") as down:
            assert down.status == 503
            assert await down.json() == {"ok": False, "gateway": True, "database": False}


# -- idle and slow connections -------------------------------------------------------------------


async def test_a_flood_of_idle_connections_is_closed_while_a_member_plays(
    emulator: Emulator, start_bot, many_descriptors: int, caplog: pytest.LogCaptureFixture
):
    """2,000 connections that never send a request, or only the start of one: a member's game
    goes on, /healthz answers, and every one of them is closed after the (short) timeouts,
    with a line or two in the log."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice")
    limits = dataclasses.replace(default_limits(), header_timeout=1.0, idle_timeout=2.0)
    bot = await start_bot(
        time_scale=1,
        extensions=("cogs.tictactoe",),
        settings_changes={"metrics_port": 0},
        endpoint_limits=limits,
    )
    port = bot.http_endpoint.port
    logged_before = len(caplog.records)

    flood = [
        *await open_idle(port, 1900),
        *await open_idle(port, 100, partial=b"GET /healthz HTTP/1.1\r\nHost: x\r\n"),
    ]
    try:
        assert len(flood) == 2000  # nobody turned away at the door
        health = await raw_request(port, "/healthz")
        assert health.startswith(b"HTTP/1.1 200")
        assert b'"ok": true' in health
        result = await play_tictactoe(alice, channel)
        assert f"{alice.mention} wins" not in result
        await wait_all_closed(flood, timeout=60)
    finally:
        close_all(flood)

    metrics = (await raw_request(port, "/metrics")).decode()
    closed = {
        reason: sample(metrics, "gamenight_http_connections_closed_total", reason=reason)
        for reason in ("evicted", "idle_timeout", "header_timeout", "refused")
    }
    assert closed["evicted"] + closed["idle_timeout"] + closed["header_timeout"] >= 2000
    assert closed["refused"] == 0
    assert sample(metrics, "gamenight_http_connections") <= 2  # this scrape (and /healthz's)
    # The log: a summary line (evictions, slow headers) at most every minute, nothing else.
    during = [r for r in caplog.records[logged_before:] if r.levelno >= logging.WARNING]
    assert len(during) <= 2, [r.getMessage() for r in during]


async def test_idle_connections_never_starve_a_bot_under_systemds_file_limit(
    emulator: Emulator, tmp_path: Path, many_descriptors: int, unused_tcp_port: int
):
    """``python -m bot`` with systemd's default 1,024 open files: 2,000 idle connections to
    its endpoint leave it descriptors for Discord; a member plays, /healthz answers, and the
    log gets a line, not one per connection."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice")
    port = unused_tcp_port
    log_path = tmp_path / "bot.log"
    env = {
        **os.environ,
        "DISCORD_TOKEN": emulator.token,
        "GAMENIGHT_SIGNING_KEY": SIGNING_KEY.hex(),
        "GAMENIGHT_DATABASE": str(tmp_path / "bot.sqlite3"),
        "DISCORD_API_BASE_URL": emulator.api_base_url,
        "DISCORD_GATEWAY_URL": emulator.gateway_url,
        "GAMENIGHT_METRICS_PORT": str(port),
        "PYTHONPATH": str(ROOT),
    }
    with log_path.open("wb") as log_file:
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "bot"),
            cwd=tmp_path,
            env=env,
            stdout=log_file,
            stderr=asyncio.subprocess.STDOUT,
            preexec_fn=as_systemd_would,  # systemd's soft limit on open files
        )
    flood: list[Connection] = []
    try:
        await emulator.wait_for_bot(30)
        await wait_healthy(port)
        lines_before = len(log_path.read_bytes().splitlines())

        flood = await open_idle(port, 2000, timeout=5)
        assert len(flood) == 2000
        health = await raw_request(port, "/healthz")
        assert health.startswith(b"HTTP/1.1 200"), health
        result = await play_tictactoe(alice, channel)
        assert f"{alice.mention} wins" not in result
        assert (await raw_request(port, "/healthz")).startswith(b"HTTP/1.1 200")
        logged = log_path.read_bytes().splitlines()[lines_before:]
        assert len(logged) <= 5, b"\n".join(logged[:20]).decode(errors="replace")
        assert any(b"256 connections open (at most 256)" in line for line in logged)
    finally:
        close_all(flood)
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 30)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert process.returncode == 0
