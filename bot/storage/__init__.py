"""All persistence: one ``Storage`` class with typed async methods, on SQLite (a file, the
default) or PostgreSQL (a ``postgresql://`` URL). Cogs never write SQL."""

from bot.storage._copy import CopyConflictError, CopyReport, copy_database
from bot.storage._migrations import MIGRATIONS, Migration
from bot.storage._postgres import is_postgres_url, redact
from bot.storage._rows import (
    LIVE_SQL,
    BoardRow,
    ChannelBusyError,
    ClaimRow,
    ConflictError,
    DealExhaustedError,
    Delivery,
    DrawRow,
    GameDefaults,
    GameRow,
    GameStatus,
    LeaderboardRow,
    MemberGames,
    PlayerRow,
    ServerLanguage,
    ServerSettings,
    StorageError,
    WinnerRow,
)
from bot.storage._storage import DatabaseTarget, Storage, anonymous_holder, hold_database

__all__ = [
    "LIVE_SQL",
    "MIGRATIONS",
    "BoardRow",
    "ChannelBusyError",
    "ClaimRow",
    "ConflictError",
    "CopyConflictError",
    "CopyReport",
    "DatabaseTarget",
    "DealExhaustedError",
    "Delivery",
    "DrawRow",
    "GameDefaults",
    "GameRow",
    "GameStatus",
    "LeaderboardRow",
    "MemberGames",
    "Migration",
    "PlayerRow",
    "ServerLanguage",
    "ServerSettings",
    "Storage",
    "StorageError",
    "WinnerRow",
    "anonymous_holder",
    "copy_database",
    "hold_database",
    "is_postgres_url",
    "redact",
]
