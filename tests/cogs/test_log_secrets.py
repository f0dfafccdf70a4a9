"""No log level holds a secret: a real ``python -m bot`` at ``GAMENIGHT_LOG_LEVEL=DEBUG``, its
log in a file, plays a Lotería and a Housie game (boards by DM, a claim, a stop), and the log
has neither game's seed (in any spelling it is stored or printed in), nor the bot token, nor an
interaction token, nor the signing key; and it does have DEBUG lines of the bot's own."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.storage import Storage
from emulator import Emulator
from emulator.model import Channel, Member
from tests.cogs.helpers import button_id
from tests.conftest import SIGNING_KEY

pytestmark = pytest.mark.backends("sqlite", "postgres")

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0  # a deadline, not a speed target: a loaded machine starts a process slowly
CALL = re.compile(r"(card|number) \d+ of (54|90)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def spellings(secret: bytes) -> list[str]:
    """How bytes can show up in a log: hex (both cases), inside a ``b'...'`` repr, base64."""
    return [
        secret.hex(),
        secret.hex().upper(),
        repr(secret)[2:-1],
        base64.b64encode(secret).decode(),
        base64.urlsafe_b64encode(secret).decode(),
    ]


class DebugBot:
    """``python -m bot`` at DEBUG against the emulator, stdout and stderr in ``log``."""

    def __init__(self, emulator: Emulator, database: Path | str, folder: Path) -> None:
        self.port = free_port()
        self.log = folder / "bot.log"
        env = {
            **os.environ,
            "DISCORD_TOKEN": emulator.token,
            "GAMENIGHT_SIGNING_KEY": SIGNING_KEY.hex(),
            "GAMENIGHT_DATABASE": str(database),
            "GAMENIGHT_LOG_LEVEL": "DEBUG",
            "GAMENIGHT_METRICS_PORT": str(self.port),
            "GAMENIGHT_TIME_SCALE": "0.1",
            "DISCORD_API_BASE_URL": emulator.api_base_url,
            "DISCORD_GATEWAY_URL": emulator.gateway_url,
            "PYTHONPATH": str(ROOT),
        }
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=folder, env=env, stdout=out, stderr=out
            )

    async def healthy(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"the bot exited:\n{self.log.read_text(errors='replace')}")
        try:
            async with (
                aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as http,
                http.get(f"http://127.0.0.1:{self.port}/healthz") as answer,
            ):
                return bool(json.loads(await answer.text()).get("ok"))
        except (aiohttp.ClientError, TimeoutError, ValueError):
            return False

    async def running(self) -> None:
        deadline = asyncio.get_running_loop().time() + DEADLINE
        while not await self.healthy():
            assert asyncio.get_running_loop().time() < deadline, "the bot did not come up"
            await asyncio.sleep(0.2)

    async def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return await asyncio.to_thread(self.process.wait, 30)


@pytest.fixture
async def debug_bot(
    emulator: Emulator, database: Path | str, tmp_path: Path
) -> AsyncIterator[DebugBot]:
    bot = DebugBot(emulator, database, tmp_path)
    yield bot
    if bot.process.poll() is None:
        bot.process.kill()
        bot.process.wait(10)


async def play(
    emulator: Emulator,
    channel: Channel,
    host: Member,
    player: Member,
    game: str,
    claim: dict[str, object],
) -> None:
    """A game of ``game`` in ``channel``: both join (boards by DM), three calls, ``player``
    claims, the host stops it (the seed is revealed)."""
    lobby = await (await host.slash(f"{game} start", in_channel=channel, interval=5)).reply(
        DEADLINE
    )
    assert not lobby.ephemeral
    for member in (host, player):
        dms = len(member.dms)
        await (await member.slash(f"{game} join", in_channel=channel)).reply(DEADLINE)
        assert len(member.dms) > dms, "the board goes by DM"
    await (await host.click(lobby, button_id(lobby, "start"))).reply(DEADLINE)
    await emulator.wait_until(
        lambda: sum(bool(CALL.search(m.content)) for m in channel.messages) >= 3 or None,
        DEADLINE,
        lambda: f"three calls of {game}: {[m.content[:80] for m in channel.messages]}",
    )
    verdict = await (await player.slash(f"{game} claim", in_channel=channel, **claim)).reply(
        DEADLINE
    )
    assert "claim" in verdict.content.lower() or "bogey" in verdict.content.lower()
    await (await host.slash(f"{game} stop", in_channel=channel)).reply(DEADLINE)
    await channel.wait_for_message(lambda m: "is over" in m.content, timeout=DEADLINE)


async def test_a_debug_log_of_whole_games_holds_no_secret(
    emulator: Emulator, database: Path | str, debug_bot: DebugBot
) -> None:
    guild = emulator.add_guild("Game Night")
    loteria = guild.add_channel("loteria")
    housie = guild.add_channel("housie")
    host = guild.add_member("host", manage_guild=True)
    player = guild.add_member("player")
    await debug_bot.running()

    await play(emulator, loteria, host, player, "loteria", {})
    await play(emulator, housie, host, player, "housie", {"prize": "FH", "ticket": 1})
    assert await debug_bot.stop() == 0

    async with Storage.open(database) as storage:
        games = [await storage.get_game(game_id) for game_id in (1, 2)]
    seeds = [game.seed for game in games if game is not None and game.seed is not None]
    assert len(seeds) == 2
    tokens = list(emulator.interactions_by_token)
    assert len(tokens) >= 10  # start, joins, start, claim and stop, twice

    log = debug_bot.log.read_text(errors="replace")
    secrets = {
        "the bot token": [emulator.token],
        "the signing key": spellings(SIGNING_KEY),
        **{f"game {n}'s seed": spellings(seed) for n, seed in enumerate(seeds, 1)},
        **{f"interaction token {token[:20]}...": [token] for token in tokens},
    }
    found = [what for what, texts in secrets.items() if any(text in log for text in texts)]
    assert not found, f"in the DEBUG log: {found}"
    # Not passing by logging nothing: the bot's own DEBUG lines are there, and the games'.
    plain = re.sub(r"\x1b\[[\d;]*m", "", log)  # discord.py's colours, in a container too
    own_debug = re.findall(r"DEBUG\W+bot\.app\W+/(\w+ \w+) by", plain)
    assert {"loteria claim", "housie claim", "loteria stop"} <= set(own_debug), plain[-3000:]
