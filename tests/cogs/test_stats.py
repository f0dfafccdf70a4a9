"""``/stats`` end to end: each game's leaders are ranked within that game, over a period, as a
picture with the same in text beside it, in the server's language."""

from __future__ import annotations

import io
import sys
import time

import pytest
from PIL import Image

from bot.app import GameNightBot
from bot.storage import GameStatus
from emulator import Emulator
from tests.raw_sql import raw_execute

pytestmark = pytest.mark.backends()

DAY = 24 * 60 * 60


async def play_game(
    bot: GameNightBot,
    guild_id: int,
    kind: str,
    players: list,
    winners: list,
    *,
    finished_days_ago: float | None = None,
    status: GameStatus = GameStatus.FINISHED,
) -> None:
    """A game of ``players`` (members) that ``winners`` won, over; with ``finished_days_ago``,
    moved back to have finished that long ago."""
    storage = bot.storage
    game = await storage.create_game(
        kind=kind,
        guild_id=guild_id,
        channel_id=1,
        host_id=players[0].id,
        seed=None,
        options={},
    )
    for member in players:
        await storage.add_player(
            game.id,
            member.id,
            display_name=member.name,
            locale="",
            boards=lambda _seat, _first: [],
        )
    for member in winners:
        await storage.record_win(game.id, prize="win", user_id=member.id, board_id=None, step=1)
    await storage.update_game(game.id, status=status)
    if finished_days_ago is not None:
        await raw_execute(
            bot.settings.database,
            "UPDATE games SET finished_at = ? WHERE id = ?",
            time.time() - finished_days_ago * DAY,
            game.id,
        )


def section(content: str, title: str) -> list[str]:
    lines = content.splitlines()
    start = lines.index(f"**{title}**") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("**")), len(lines))
    return lines[start:end]


def picture_of(reply) -> Image.Image:
    (attachment,) = reply.attachments
    assert attachment.filename == "leaderboard.png"
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"
    return image


async def test_a_busy_game_does_not_hide_another_games_leaders(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    asker = guild.add_member("asker")
    bot = await start_bot()
    # Sixty Lotería winners with two or three wins each, and two Tic-tac-toe winners with one.
    loteria_winners = [guild.add_member(f"l{i}") for i in range(60)]
    for place, member in enumerate(loteria_winners):
        for _ in range(3 if place < 5 else 2):
            await play_game(bot, guild.id, "loteria", [member], [member])
    tictactoe_winners = [guild.add_member(f"t{i}") for i in range(2)]
    for member in tictactoe_winners:
        await play_game(bot, guild.id, "tictactoe", [member, asker], [member])
    for _ in range(9):  # another server's
        await play_game(bot, guild.id + 1, "dots", [asker], [asker])

    reply = await (await asker.slash("stats")).reply()

    assert not reply.ephemeral
    assert reply.content.startswith("## Leaderboard of all time")
    assert section(reply.content, "Lotería") == [
        f"{place}. <@{member.id}>: 3 wins in 3 games"
        for place, member in enumerate(loteria_winners[:5], start=1)
    ]
    assert section(reply.content, "Tic-tac-toe") == [
        *(
            f"{place}. <@{member.id}>: 1 win in 1 game"
            for place, member in enumerate(sorted(tictactoe_winners, key=lambda m: m.id), start=1)
        ),
        f"3. <@{asker.id}>: 0 wins in 2 games",
    ]
    assert "Dots and Boxes" not in reply.content
    picture_of(reply)
    alt = reply.attachments[0].description
    assert alt.startswith("Leaderboard of Game Night, all time")
    assert f"Tic-tac-toe: 1. {tictactoe_winners[0].name}" in alt or (
        f"Tic-tac-toe: 1. {tictactoe_winners[1].name}" in alt
    )
    assert "asker, 0 wins in 2 games" in alt


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "en-US",
            {
                "week": (
                    "## Leaderboard of the last 7 days",
                    ["1. <@{ann}>: 1 win in 1 game", "2. <@{bea}>: 0 wins in 1 game"],
                    "Leaderboard of Club, the last 7 days",
                ),
                "month": (
                    "## Leaderboard of the last 30 days",
                    ["1. <@{ann}>: 1 win in 2 games", "2. <@{bea}>: 1 win in 2 games"],
                    "Leaderboard of Club, the last 30 days",
                ),
                "all": (
                    "## Leaderboard of all time",
                    ["1. <@{bea}>: 2 wins in 3 games", "2. <@{ann}>: 1 win in 3 games"],
                    "Leaderboard of Club, all time",
                ),
            },
        ),
        (
            "es-ES",
            {
                "week": (
                    "## Clasificación de los últimos 7 días",
                    [
                        "1. <@{ann}>: 1 victoria en 1 partida",
                        "2. <@{bea}>: 0 victorias en 1 partida",
                    ],
                    "Clasificación de Club, los últimos 7 días",
                ),
                "month": (
                    "## Clasificación de los últimos 30 días",
                    [
                        "1. <@{ann}>: 1 victoria en 2 partidas",
                        "2. <@{bea}>: 1 victoria en 2 partidas",
                    ],
                    "Clasificación de Club, los últimos 30 días",
                ),
                "all": (
                    "## Clasificación de todos los tiempos",
                    [
                        "1. <@{bea}>: 2 victorias en 3 partidas",
                        "2. <@{ann}>: 1 victoria en 3 partidas",
                    ],
                    "Clasificación de Club, todos los tiempos",
                ),
            },
        ),
    ],
)
async def test_each_period_counts_the_games_that_finished_in_it(
    emulator: Emulator, start_bot, locale, expected
):
    guild = emulator.add_guild("Club", locale=locale)
    guild.add_channel("general")
    ann = guild.add_member("ann")
    bea = guild.add_member("bea")
    asker = guild.add_member("asker", locale="en-US")  # the server's language, not the asker's
    bot = await start_bot()
    # Ann < Bea by id: ties put Ann first (the last 30 days), so Bea's first place of all time
    # is her record's.
    assert ann.id < bea.id
    await play_game(bot, guild.id, "loteria", [ann, bea], [ann], finished_days_ago=2)
    await play_game(bot, guild.id, "loteria", [ann, bea], [bea], finished_days_ago=12)
    await play_game(bot, guild.id, "loteria", [ann, bea], [bea], finished_days_ago=45)
    # Never counted: a game called off, one still running, and another server's.
    await play_game(
        bot, guild.id, "loteria", [ann], [], status=GameStatus.CANCELLED, finished_days_ago=1
    )
    await play_game(bot, guild.id, "loteria", [ann], [ann], status=GameStatus.RUNNING)
    await play_game(bot, guild.id + 1, "loteria", [bea], [bea], finished_days_ago=1)

    title = "Lotería"
    for period, (header, lines, alt_head) in expected.items():
        reply = await (await asker.slash("stats", period=period)).reply()
        assert reply.content.startswith(header), reply.content
        assert section(reply.content, title) == [
            line.format(ann=ann.id, bea=bea.id) for line in lines
        ]
        picture = picture_of(reply)
        assert picture.width >= 300
        alt = reply.attachments[0].description
        assert alt.startswith(alt_head), alt
        assert "ann" in alt
        assert "bea" in alt

    # Nothing in the last 7 days of another game's server: said so, no picture.
    quiet = emulator.add_guild("Quiet", locale=locale)
    quiet.add_channel("general")
    nobody = quiet.add_member("nobody")
    await play_game(bot, quiet.id, "housie", [nobody], [nobody], finished_days_ago=9)
    empty = await (await nobody.slash("stats", period="week")).reply()
    assert not empty.attachments
    word = "No games finished" if locale == "en-US" else "No terminó ninguna partida"
    assert word in empty.content
    monthly = await (await nobody.slash("stats", period="month")).reply()
    assert len(monthly.attachments) == 1


async def test_a_leaderboard_that_cannot_be_drawn_is_still_told(
    emulator: Emulator, start_bot, monkeypatch
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    ann = guild.add_member("ann")
    bot = await start_bot()
    await play_game(bot, guild.id, "dots", [ann], [ann])

    def broken(*args, **kwargs):
        raise OSError("no fonts today")

    # The bot's own copy of the cog's module (discord.py loads extensions by itself).
    monkeypatch.setattr(sys.modules["cogs.stats"], "render_leaderboard", broken)
    reply = await (await ann.slash("stats")).reply()
    assert not reply.attachments
    assert section(reply.content, "Dots and Boxes") == [f"1. <@{ann.id}>: 1 win in 1 game"]
