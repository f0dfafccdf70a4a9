"""``/stats``: the server's leaderboard of wins per game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.errors import UserError

if TYPE_CHECKING:
    from bot.app import GameNightBot

GAME_TITLES = {
    "loteria": "Lotería",
    "housie": "Housie",
    "tictactoe": "Tic-tac-toe",
    "dots": "Dots and Boxes",
    "triangle": "Tricky Triangle",
}
# Each game's top players are ranked within that game, so a busy game cannot hide another's.
LEADERS_PER_GAME = 5


class Stats(commands.Cog):
    def __init__(self, bot: GameNightBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description=_("This server's leaderboard of wins per game"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            raise UserError("Use /stats in a server.")
        rows = await self.bot.storage.leaderboard(interaction.guild_id, per_kind=LEADERS_PER_GAME)
        if not rows:
            await interaction.response.send_message(
                "No wins recorded in this server yet. Start a game with `/loteria start`, "
                "`/housie start`, `/tictactoe play`, `/dots play` or `/triangle play`!"
            )
            return
        lines = ["## Leaderboard"]
        for kind, title in GAME_TITLES.items():
            best = [row for row in rows if row.kind == kind]
            if best:
                lines.append(f"**{title}**")
                lines += [
                    f"{place}. <@{row.user_id}>: {row.wins} win{'s' if row.wins != 1 else ''}"
                    for place, row in enumerate(best, start=1)
                ]
        await interaction.response.send_message(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(Stats(bot))
