"""``/stats``: the server's leaderboard of wins per game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.errors import UserError
from bot.i18n import message

if TYPE_CHECKING:
    from bot.app import GameNightBot

# Each game's top players are ranked within that game, so a busy game cannot hide another's.
LEADERS_PER_GAME = 5


class Stats(commands.Cog):
    def __init__(self, bot: GameNightBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description=_("This server's leaderboard of wins per game"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            raise UserError("server_only")
        settings = await self.bot.storage.server_settings(interaction.guild_id)
        locale = settings.public_locale(interaction.guild_locale)  # a public answer
        games = self.bot.games()
        rows = await self.bot.storage.leaderboard(interaction.guild_id, per_kind=LEADERS_PER_GAME)
        if not rows:
            commands_list = message("or", locale).join(f"`{game.start}`" for game in games)
            await interaction.response.send_message(
                message("stats_none", locale, commands=commands_list)
            )
            return
        lines = [message("stats_header", locale)]
        for game in games:
            best = [row for row in rows if row.kind == game.kind]
            if best:
                lines.append(f"**{game.name(locale)}**")
                lines += [
                    message("stats_line", locale, place=place, user=row.user_id, count=row.wins)
                    for place, row in enumerate(best, start=1)
                ]
        await interaction.response.send_message(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(Stats(bot))
