"""``/stats`` end to end: each game's leaders are ranked within that game."""

from __future__ import annotations

import pytest

from bot.storage import GameStatus, Storage
from emulator import Emulator

pytestmark = pytest.mark.backends()


async def win_games(storage: Storage, guild_id: int, kind: str, user_id: int, count: int) -> None:
    for _ in range(count):
        game = await storage.create_game(
            kind=kind,
            guild_id=guild_id,
            channel_id=1,
            host_id=user_id,
            seed=None,
            options={},
            status=GameStatus.FINISHED,
        )
        await storage.record_win(game.id, prize="win", user_id=user_id, board_id=None, draw_seq=1)


def section(content: str, title: str) -> list[str]:
    lines = content.splitlines()
    start = lines.index(f"**{title}**") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("**")), len(lines))
    return lines[start:end]


async def test_a_busy_game_does_not_hide_another_games_leaders(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    asker = guild.add_member("asker")
    bot = await start_bot()
    # Sixty Lotería winners with two or three wins each, and two Tic-tac-toe winners with one.
    loteria_winners = [guild.add_member(f"l{i}") for i in range(60)]
    for place, member in enumerate(loteria_winners):
        await win_games(bot.storage, guild.id, "loteria", member.id, 3 if place < 5 else 2)
    tictactoe_winners = [guild.add_member(f"t{i}") for i in range(2)]
    for member in tictactoe_winners:
        await win_games(bot.storage, guild.id, "tictactoe", member.id, 1)
    await win_games(bot.storage, guild.id + 1, "dots", asker.id, 9)  # another server's

    reply = await (await asker.slash("stats")).reply()

    assert section(reply.content, "Lotería") == [
        f"{place}. <@{member.id}>: 3 wins"
        for place, member in enumerate(loteria_winners[:5], start=1)
    ]
    assert section(reply.content, "Tic-tac-toe") == [
        f"{place}. <@{member.id}>: 1 win"
        for place, member in enumerate(sorted(tictactoe_winners, key=lambda m: m.id), start=1)
    ]
    assert "Dots and Boxes" not in reply.content
