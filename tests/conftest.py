"""Fixtures shared by the bot's end-to-end tests: the emulator, a real database (a SQLite file,
or a database on a throw-away PostgreSQL server) and the real bot (all its cogs) connected over
loopback.

Tests get SQLite; ``@pytest.mark.backends("sqlite", "postgres")`` runs a test (or a module, as
``pytestmark``) on each backend, through the ``backend`` and ``database`` fixtures."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from bot.app import GameNightBot, import_cogs
from bot.config import Settings
from bot.storage import Storage, hold_database
from emulator import Emulator
from emulator.testing import run_bot
from tests.emulator.fixtures import emulator
from tests.postgres_server import PostgresServer, PostgresUnavailableError

__all__ = ["emulator"]

# Every game's words, found as the bot finds its cogs: tests word a game's messages (and check
# every key) with no bot running, or with a bot that loads only some cogs.
import_cogs()

SIGNING_KEY = bytes(range(32))
BOTH_BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("backends")
    if marker is not None and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", marker.args or BOTH_BACKENDS)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the tests' own, started at the first test that needs it."""
    try:
        server = PostgresServer.start()
    except PostgresUnavailableError as error:
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def backend() -> str:
    """The storage backend a test runs on (see ``@pytest.mark.backends``)."""
    return "sqlite"


@pytest.fixture
async def database(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Path | str]:
    """A new database of the test's backend: ``tmp_path/bot.sqlite3``, or the URL of a new
    database on the test server (dropped afterwards)."""
    if backend == "sqlite":
        yield tmp_path / "bot.sqlite3"
        return
    assert backend == "postgres", backend
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = await server.create_database()
    yield url
    await server.drop_database(url)


def make_settings(emu: Emulator, database: Path | str) -> Settings:
    return Settings(
        token=emu.token,
        database_path=database if isinstance(database, Path) else Path("unused.sqlite3"),
        database_url=database if isinstance(database, str) else None,
        signing_key=SIGNING_KEY,
        dev_guild_id=None,
        api_base_url=emu.api_base_url,
        gateway_url=emu.gateway_url,
        log_level="INFO",
    )


BotStarter = Callable[..., Awaitable[GameNightBot]]


@pytest.fixture
async def start_bot(emulator: Emulator, database: Path | str) -> AsyncIterator[BotStarter]:
    """``await start_bot()`` runs the real bot against the emulator on the test's ``database``
    (``tmp_path/bot.sqlite3`` unless the test runs on PostgreSQL); call it again after ``stop``
    to restart on the same database."""
    stacks: list[AsyncExitStack] = []

    async def start(
        *,
        time_scale: float = 0.02,
        database: Path | str = database,
        settings_changes: dict[str, Any] | None = None,
        **bot_options: Any,
    ) -> GameNightBot:
        stack = AsyncExitStack()
        stacks.append(stack)
        settings = make_settings(emulator, database)
        settings = dataclasses.replace(settings, **(settings_changes or {}))
        await stack.enter_async_context(hold_database(settings.database))  # as `python -m bot`
        storage = await stack.enter_async_context(Storage.open(settings.database))
        bot = GameNightBot(
            settings, storage, time_scale=time_scale, guild_ready_timeout=0.05, **bot_options
        )
        await stack.enter_async_context(run_bot(emulator, bot))
        bot.stop_for_test = stack.aclose  # type: ignore[attr-defined]
        return bot

    yield start
    for stack in reversed(stacks):
        await stack.aclose()
