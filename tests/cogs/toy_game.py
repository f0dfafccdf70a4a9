"""A game cog that exists only for tests: no help texts, no pictures, two commands. /help must
show it all the same, from the loaded cogs and the command tree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.games import GameCog

if TYPE_CHECKING:
    from bot.app import GameNightBot


class ToyCog(GameCog[Any], name="Toy"):
    kind = "toy"
    title = "Toy"
    title_es = "Juguete"
    start_subcommand = "go"

    group = app_commands.Group(name="toy", description="A toy game for the tests", guild_only=True)

    @group.command(name="again", description="Play the toy again")
    async def again(self, interaction: discord.Interaction[Any], rounds: int) -> None:
        await interaction.response.send_message("again", ephemeral=True)

    @group.command(name="go", description="Start a toy game")
    async def go(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("go", ephemeral=True)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(ToyCog(bot))
