"""What ``Storage`` needs of a database: reads in one step, and writes as a function run in one
transaction. SQL is written once, with ``?`` placeholders, in the dialect both databases speak;
each backend adapts the few things that differ (placeholders, ids of new rows, row locks)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from bot.storage._migrations import Migration
from bot.storage._rows import Row

T = TypeVar("T")


class Transaction(Protocol):
    """The statements of one write. Each raises ``ConflictError`` when the schema refuses it."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; returns how many rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an ``INSERT`` into a table with an ``id`` column; returns the new row's id."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def lock_game(self, game_id: int) -> None:
        """Hold the game's row until the transaction ends, so that changes to its membership
        and deal positions are made one at a time."""
        ...

    async def lock_channel(self, channel_id: int) -> None:
        """Hold the channel until the transaction ends, so that games starting in it are
        checked and created one at a time."""
        ...

    async def lock_server(self, guild_id: int) -> None:
        """Hold the server until the transaction ends, so that nights planned in it are
        counted and added one at a time."""
        ...


class Backend(Protocol):
    """One open database."""

    name: str

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read, in one step (nothing is held open between awaits)."""
        ...

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``work`` in one transaction and commit it before returning its result. If
        ``work`` raises, nothing of it is written. ``work`` may be run more than once (a retry
        after the connection was lost), so it must not have effects outside the database."""
        ...

    async def write_statements(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """``statements`` (SQL and parameters) in one transaction, as :meth:`write` would run
        them, the quickest way the backend has; the rows each changed."""
        ...

    async def schema_version(self) -> int: ...

    async def migrate(self, migrations: Sequence[Migration]) -> int:
        """Apply the migrations past the schema version, each with its new version in one
        transaction; returns the new version."""
        ...
