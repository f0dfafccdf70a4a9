"""``GAMENIGHT_RETENTION_DAYS`` end to end: games over for longer are deleted at start-up and then
daily; recent and live games stay."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.storage import GameStatus, Storage
from emulator import Emulator
from tests.raw_sql import raw_execute

pytestmark = pytest.mark.backends()

DAY = 86400


def deal(seat: int, first: int) -> list[tuple[str, str]]:
    return [(f"board-{first}", "")]


async def a_game(storage: Storage, status: GameStatus, *, user: int = 7) -> int:
    # A kind no cog plays, so the live one is left alone by the games at start-up.
    game = await storage.create_game(
        kind="bingo", guild_id=1, channel_id=10, host_id=user, seed=bytes(32), options={}
    )
    await storage.add_player(game.id, user, display_name="p", locale="", boards=deal)
    await storage.record_win(game.id, prize="line", user_id=user, board_id=None, step=1)
    if status is not GameStatus.LOBBY:
        await storage.update_game(game.id, status=status)
    return game.id


async def age(database: Path | str, game_id: int, days: float) -> None:
    """Make a game look as if it was created, and (if over) ended, ``days`` ago."""
    then = time.time() - days * DAY
    await raw_execute(database, "UPDATE games SET created_at = ? WHERE id = ?", then, game_id)
    await raw_execute(
        database,
        "UPDATE games SET finished_at = ? WHERE id = ? AND finished_at IS NOT NULL",
        then,
        game_id,
    )


async def test_old_games_are_purged_at_start_up_and_then_daily(
    emulator: Emulator, start_bot, database: Path | str
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    async with Storage.open(database) as storage:
        old_finished = await a_game(storage, GameStatus.FINISHED)
        old_cancelled = await a_game(storage, GameStatus.CANCELLED)
        old_live = await a_game(storage, GameStatus.RUNNING)
        recent = await a_game(storage, GameStatus.FINISHED)
        later = await a_game(storage, GameStatus.FINISHED)
    for game_id in (old_finished, old_cancelled, old_live):
        await age(database, game_id, 31)
    await age(database, recent, 29)
    await age(database, later, 10)

    bot = await start_bot(time_scale=100, settings_changes={"retention_days": 30})
    cog = bot.get_cog("GameNight")
    await emulator.wait_until(lambda: cog.purges >= 1, 5, lambda: "the start-up purge")
    assert await bot.storage.get_game(old_finished) is None
    assert await bot.storage.get_game(old_cancelled) is None
    assert await bot.storage.players(old_finished) == []
    for kept in (old_live, recent, later):
        assert await bot.storage.get_game(kept) is not None
        assert await bot.storage.boards(kept)
    manager = guild.add_member("manager", manage_guild=True)
    shown = await (await manager.slash("gamenight settings")).reply()
    assert "Games are deleted 30 days after they end" in shown.content

    # A day later (sped up here), what has aged past the limit goes too.
    await age(database, recent, 31)
    cog.purge_daily.change_interval(seconds=0.05)
    purges = cog.purges
    await emulator.wait_until(lambda: cog.purges >= purges + 2, 5, lambda: "another purge")
    assert await bot.storage.get_game(recent) is None
    assert await bot.storage.get_game(later) is not None
    live = await bot.storage.get_game(old_live)
    assert live is not None
    assert live.status is GameStatus.RUNNING


async def test_without_the_setting_nothing_is_purged(
    emulator: Emulator, start_bot, database: Path | str
):
    emulator.add_guild("Game Night").add_channel("general")
    async with Storage.open(database) as storage:
        ancient = await a_game(storage, GameStatus.FINISHED)
    await age(database, ancient, 3650)
    bot = await start_bot(time_scale=100)
    assert not bot.get_cog("GameNight").purge_daily.is_running()
    assert await bot.storage.get_game(ancient) is not None
