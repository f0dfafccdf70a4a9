"""A game's own named records in each server (Bingo's custom patterns live there), on both
backends: put once under a name, a cap per server and game counted under the server's lock,
listed, read and deleted, each server's and each game's apart."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.storage import GameStatus, RecordLimitError, Storage

pytestmark = pytest.mark.backends()

GUILD = 1


@pytest.fixture
async def storage(database: Path | str):
    async with Storage.open(database) as opened:
        yield opened


async def test_a_record_is_put_once_read_listed_and_deleted(storage: Storage):
    assert await storage.server_records(GUILD, "game") == {}
    assert await storage.put_server_record(GUILD, "game", "heart", "heart=Heart=0000001")
    assert await storage.put_server_record(GUILD, "game", "arrow", "arrow=Arrow=0000002")
    # A name taken keeps its first value.
    assert not await storage.put_server_record(GUILD, "game", "heart", "other")
    assert await storage.server_record(GUILD, "game", "heart") == "heart=Heart=0000001"
    assert await storage.server_record(GUILD, "game", "nothing") is None
    assert await storage.server_records(GUILD, "game") == {
        "arrow": "arrow=Arrow=0000002",
        "heart": "heart=Heart=0000001",
    }
    assert list(await storage.server_records(GUILD, "game")) == ["arrow", "heart"]

    assert await storage.delete_server_record(GUILD, "game", "heart")
    assert not await storage.delete_server_record(GUILD, "game", "heart")
    assert await storage.server_records(GUILD, "game") == {"arrow": "arrow=Arrow=0000002"}
    # Deleted, the name is free again.
    assert await storage.put_server_record(GUILD, "game", "heart", "new")
    assert await storage.server_record(GUILD, "game", "heart") == "new"


async def test_servers_and_games_keep_their_own_records(storage: Storage):
    await storage.put_server_record(GUILD, "game", "heart", "one")
    await storage.put_server_record(GUILD + 1, "game", "heart", "two")
    await storage.put_server_record(GUILD, "other", "heart", "three")
    assert await storage.server_record(GUILD, "game", "heart") == "one"
    assert await storage.server_record(GUILD + 1, "game", "heart") == "two"
    assert await storage.server_record(GUILD, "other", "heart") == "three"
    assert await storage.all_server_records("game") == {
        GUILD: {"heart": "one"},
        GUILD + 1: {"heart": "two"},
    }
    assert await storage.all_server_records("missing") == {}
    assert await storage.delete_server_record(GUILD + 1, "game", "heart")
    assert await storage.server_record(GUILD, "game", "heart") == "one"
    assert await storage.server_record(GUILD, "other", "heart") == "three"


async def test_the_cap_counts_each_server_and_game_apart(storage: Storage):
    for number in range(3):
        assert await storage.put_server_record(GUILD, "game", f"p{number}", "v", limit=3)
    with pytest.raises(RecordLimitError) as refused:
        await storage.put_server_record(GUILD, "game", "p3", "v", limit=3)
    assert refused.value.limit == 3
    assert await storage.server_record(GUILD, "game", "p3") is None
    # A taken name is answered as taken, full or not.
    assert not await storage.put_server_record(GUILD, "game", "p0", "v", limit=3)
    # Another server, another game: their own counts.
    assert await storage.put_server_record(GUILD + 1, "game", "p3", "v", limit=3)
    assert await storage.put_server_record(GUILD, "other", "p3", "v", limit=3)
    # One deleted, one more fits.
    assert await storage.delete_server_record(GUILD, "game", "p1")
    assert await storage.put_server_record(GUILD, "game", "p3", "v", limit=3)


async def test_a_burst_of_puts_never_passes_the_cap(storage: Storage):
    async def put(number: int) -> bool | None:
        try:
            return await storage.put_server_record(GUILD, "game", f"p{number}", "v", limit=5)
        except RecordLimitError:
            return None

    outcomes = await asyncio.gather(*(put(number) for number in range(12)))
    assert outcomes.count(True) == 5
    assert outcomes.count(None) == 7
    assert len(await storage.server_records(GUILD, "game")) == 5


async def test_records_outlast_a_reopening(database: Path | str):
    async with Storage.open(database) as storage:
        await storage.put_server_record(GUILD, "game", "heart", "kept")
    async with Storage.open(database) as storage:
        assert await storage.server_records(GUILD, "game") == {"heart": "kept"}


async def test_records_name_no_one_so_forget_me_and_the_purge_keep_them(storage: Storage):
    """Like a server's settings, its records hold nothing personal (no member's id): a member's
    forget-me and the retention purge of old games leave them (docs/PRIVACY.md)."""
    await storage.put_server_record(GUILD, "game", "heart", "kept")
    game = await storage.create_game(
        kind="game", guild_id=GUILD, channel_id=10, host_id=7, seed=None, options={}
    )
    await storage.update_game(game.id, status=GameStatus.FINISHED)
    assert await storage.forget_member(7) == 1
    assert await storage.purge_over_games(time.time() + 60) == 1
    assert await storage.server_records(GUILD, "game") == {"heart": "kept"}
