"""A server's data moved from SQLite to PostgreSQL: games played to the end on SQLite, copied,
and the bot on PostgreSQL verifies them and knows their tickets."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import copy_database
from emulator import Emulator
from engine.fairness import commitment
from tests.cogs.helpers import button_id, run_calls

pytestmark = pytest.mark.backends("postgres")

GAMES = {"loteria": "Lotería", "housie": "Housie"}


async def test_finished_games_still_verify_after_the_copy(
    emulator: Emulator, start_bot, tmp_path: Path, database: str
):
    guild = emulator.add_guild("Game Night")
    host = guild.add_member("host", manage_guild=True)
    players = [host, guild.add_member("ana"), guild.add_member("ben")]
    outsider = guild.add_member("outsider")
    old_database = tmp_path / "old.sqlite3"
    seeds = iter([bytes(range(32)), bytes(range(1, 33))])
    bot = await start_bot(database=old_database, time_scale=100, seed_source=lambda: next(seeds))

    verdicts = {}
    for kind, cog_name in GAMES.items():
        channel = guild.add_channel(kind)
        lobby = await (await host.slash(f"{kind} start", in_channel=channel)).reply()
        for member in players:
            await (await member.slash(f"{kind} join", in_channel=channel)).reply()
        await (await host.click(lobby, button_id(lobby, "start"))).reply()
        (game,) = await bot.storage.live_games(kind)
        await run_calls(bot.get_cog(cog_name), game.id, 12)
        await (await host.slash(f"{kind} stop", in_channel=channel)).reply()
        await channel.wait_for_message(lambda m: "is over" in m.content, timeout=10)
        verified = await (await outsider.slash(f"{kind} verify", game=game.id)).reply()
        assert "verified" in verified.content
        assert commitment(game.seed) in verified.content
        verdicts[kind, game.id] = verified.content
    (housie,) = [game_id for kind, game_id in verdicts if kind == "housie"]
    code = (await bot.storage.boards(housie, players[1].id))[0].code
    await bot.stop_for_test()

    report = await copy_database(old_database, database)
    assert report.copied["games"] == 2

    await start_bot(database=database, time_scale=100)
    for (kind, game_id), before in verdicts.items():
        after = await (await outsider.slash(f"{kind} verify", game=game_id)).reply()
        assert after.content == before
    genuine = await (await outsider.slash("housie check", code=code)).reply()
    assert "Genuine" in genuine.content
    assert f"#{housie}" in genuine.content
