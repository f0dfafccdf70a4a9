"""``python -m bot.ops.healthcheck``, the containers' health check (deploy/), run as the container
engine runs it: a process of its own, its exit code and its one line."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.fleet.rest_proxy import ProxyOptions, RestProxy
from bot.ops.healthcheck import own_endpoint
from emulator import Emulator

ROOT = Path(__file__).resolve().parents[3]


async def healthcheck(folder: Path, *arguments: str, **settings: str) -> tuple[int, str, str]:
    """Runs the check in ``folder`` (no .env there) with ``settings`` as its environment."""
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("GAMENIGHT_")
    }
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot.ops.healthcheck", *arguments),
        cwd=folder,
        env={**environment, "PYTHONPATH": str(ROOT), **settings},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_bot_is_healthy_then_not(emulator: Emulator, start_bot, tmp_path: Path):
    emulator.add_guild("Game Night").add_channel("general")
    bot = await start_bot(settings_changes={"metrics_port": 0})
    port = str(bot.http_endpoint.port)

    code, out, err = await healthcheck(tmp_path, GAMENIGHT_METRICS_PORT=port)
    assert (code, err) == (0, "")
    assert out.startswith('healthy: 200 {"ok": true, "gateway": true, "database": true}')

    # Listening on every address: checked on this machine's own.
    code, _, _ = await healthcheck(
        tmp_path, GAMENIGHT_METRICS_PORT=port, GAMENIGHT_METRICS_HOST="0.0.0.0"
    )
    assert code == 0

    await bot.storage._backend._reader.close()  # type: ignore[attr-defined]
    code, out, err = await healthcheck(tmp_path, GAMENIGHT_METRICS_PORT=port)
    assert (code, out) == (1, "")
    assert err == 'unhealthy: 503 {"ok": false, "gateway": true, "database": false}\n'

    await bot.stop_for_test()
    code, out, err = await healthcheck(tmp_path, GAMENIGHT_METRICS_PORT=port)
    assert (code, out) == (1, "")
    assert err.startswith(f"unhealthy: cannot reach http://127.0.0.1:{port}/healthz")
    assert err.count("\n") == 1


async def test_without_an_endpoint_the_check_says_which_setting(tmp_path: Path):
    for settings in ({}, {"GAMENIGHT_METRICS_PORT": ""}):
        code, out, err = await healthcheck(tmp_path, **settings)
        assert (code, out) == (1, "")
        assert err.startswith("unhealthy: GAMENIGHT_METRICS_PORT is not set")
        assert err.count("\n") == 1


async def test_the_rest_proxy_is_checked_by_its_url(emulator: Emulator, tmp_path: Path):
    options = ProxyOptions(token=emulator.token, upstream=emulator.api_base_url, port=0)
    async with RestProxy(options) as proxy:
        code, out, _ = await healthcheck(tmp_path, f"{proxy.base_url}/healthz")
    assert code == 0
    assert out.startswith('healthy: 200 {"ok": true')


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("", "http://127.0.0.1:8081/healthz"),
        ("0.0.0.0", "http://127.0.0.1:8081/healthz"),
        ("::", "http://[::1]:8081/healthz"),
        ("10.0.0.5", "http://10.0.0.5:8081/healthz"),
        ("fd00::5", "http://[fd00::5]:8081/healthz"),
    ],
)
def test_the_bots_endpoint_is_found_as_the_bot_listens(host: str, url: str):
    settings = {"GAMENIGHT_METRICS_PORT": "8081", "GAMENIGHT_METRICS_HOST": host}
    assert own_endpoint(settings) == url


def test_a_bad_port_is_named():
    with pytest.raises(ValueError, match="GAMENIGHT_METRICS_PORT must be a port"):
        own_endpoint({"GAMENIGHT_METRICS_PORT": "80a"})
