"""Fixtures shared by the bot's end-to-end tests: the emulator, a real SQLite file and the real
bot (all its cogs) connected over loopback."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from bot.app import GameNightBot
from bot.config import Settings
from bot.database_file import lock_database
from bot.storage import Storage
from emulator import Emulator
from emulator.testing import run_bot
from tests.emulator.fixtures import emulator

__all__ = ["emulator"]

SIGNING_KEY = bytes(range(32))


def make_settings(emu: Emulator, database: Path) -> Settings:
    return Settings(
        token=emu.token,
        database_path=database,
        signing_key=SIGNING_KEY,
        dev_guild_id=None,
        api_base_url=emu.api_base_url,
        gateway_url=emu.gateway_url,
        log_level="INFO",
    )


BotStarter = Callable[..., Awaitable[GameNightBot]]


@pytest.fixture
async def start_bot(emulator: Emulator, tmp_path: Path) -> AsyncIterator[BotStarter]:
    """``await start_bot()`` runs the real bot against the emulator on ``tmp_path/bot.sqlite3``;
    call it again after ``stop`` to restart on the same database."""
    stacks: list[AsyncExitStack] = []

    async def start(
        *,
        time_scale: float = 0.02,
        database: Path | None = None,
        settings_changes: dict[str, Any] | None = None,
        **bot_options: Any,
    ) -> GameNightBot:
        stack = AsyncExitStack()
        stacks.append(stack)
        settings = make_settings(emulator, database or tmp_path / "bot.sqlite3")
        settings = dataclasses.replace(settings, **(settings_changes or {}))
        stack.enter_context(lock_database(settings.database_path))  # as `python -m bot` does
        storage = await stack.enter_async_context(Storage.open(settings.database_path))
        bot = GameNightBot(
            settings, storage, time_scale=time_scale, guild_ready_timeout=0.05, **bot_options
        )
        await stack.enter_async_context(run_bot(emulator, bot))
        bot.stop_for_test = stack.aclose  # type: ignore[attr-defined]
        return bot

    yield start
    for stack in reversed(stacks):
        await stack.aclose()
