"""``/stats``: the server's leaderboard, each game's best players with their wins and the games
they played, over a period, as a picture with the same in text beside it.

The periods are rolling windows ending now: "this week" is the last 7 days (7 x 24 hours) and
"this month" the last 30 days, so a leaderboard never empties at midnight UTC on a Monday or
the 1st, in the middle of some servers' game night. A game counts in a period when it finished
in it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.attachments import attachment
from bot.i18n import LocaleLike, message
from bot.render import Rendered
from bot.render.leaderboard import GameStandings, Standing, render_leaderboard
from bot.replies import UserError, defer_public, fit_message
from bot.storage import LeaderboardRow
from bot.throttle import STATS_RATE, Lane, member_cooldown

if TYPE_CHECKING:
    from bot.app import GameNightBot
    from bot.games import GameKind

log = logging.getLogger(__name__)

# Each game's top players are ranked within that game, so a busy game cannot hide another's.
LEADERS_PER_GAME = 5
DAY = 24 * 60 * 60
# Period choice -> how many days back it reaches (None: all time).
PERIODS: dict[str, int | None] = {"week": 7, "month": 30, "all": None}


def period_start(period: str, now: float) -> float | None:
    """The Unix time a period starts at, ``now`` being its end (None for all time)."""
    days = PERIODS[period]
    return None if days is None else now - days * DAY


class Stats(commands.Cog):
    def __init__(self, bot: GameNightBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="stats", description=_("This server's leaderboard: wins and games played per game")
    )
    @app_commands.describe(period=_("Which finished games count (default: all time)"))
    @app_commands.choices(
        period=[
            app_commands.Choice(name=_("This week (the last 7 days)"), value="week"),
            app_commands.Choice(name=_("This month (the last 30 days)"), value="month"),
            app_commands.Choice(name=_("All time"), value="all"),
        ]
    )
    @app_commands.guild_only()
    @member_cooldown(STATS_RATE)
    async def stats(self, interaction: discord.Interaction[Any], period: str = "all") -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UserError("server_only")
        if period not in PERIODS:  # Discord's copy of the command may be stale
            raise UserError("not_a_valid_value", value=period)
        # The picture takes a moment to draw: acknowledge first, then the leaderboard is read and
        # drawn in the server's line of heavy work (bot.throttle).
        async with self.bot.heavy.turn(
            guild_id, Lane.OTHER, acknowledge=lambda: defer_public(interaction)
        ):
            text, picture = await self.leaderboard(interaction, guild_id, period)
        await self.send(interaction, text, picture)

    async def leaderboard(
        self, interaction: discord.Interaction[Any], guild_id: int, period: str
    ) -> tuple[str, Rendered | None]:
        """The leaderboard of ``period`` in words, and drawn (None when nobody is on it)."""
        settings = await self.bot.storage.server_settings(guild_id)
        locale = settings.public_locale(interaction.guild_locale)  # a public answer
        games = self.bot.games()
        since = period_start(period, time.time())
        rows = await self.bot.storage.leaderboard(guild_id, per_kind=LEADERS_PER_GAME, since=since)
        period_words = message(f"stats_period_{period}", locale)
        if not rows:
            commands_list = message("or", locale).join(f"`{game.start}`" for game in games)
            key = "stats_none" if since is None else "stats_none_period"
            return message(key, locale, commands=commands_list, period=period_words), None
        text = stats_text(games, rows, period_words, locale)
        names = await self.bot.storage.member_names(guild_id, (r.user_id for r in rows))
        server = interaction.guild.name if interaction.guild else ""
        picture = await self.picture(games, rows, names, period_words, server, locale)
        return text, picture

    async def picture(
        self,
        games: list[GameKind],
        rows: list[LeaderboardRow],
        names: dict[int, str],
        period: str,
        server: str,
        locale: LocaleLike,
    ) -> Rendered | None:
        """The leaderboard drawn (in a worker thread); None if it cannot be, the text is enough."""
        standings = [
            GameStandings(
                game.name(locale),
                tuple(
                    Standing(names.get(row.user_id, str(row.user_id)), row.wins, row.played)
                    for row in rows
                    if row.kind == game.kind
                ),
            )
            for game in games
        ]
        try:
            return await asyncio.to_thread(
                render_leaderboard, standings, period=period, server=server, locale=locale
            )
        except Exception:  # the text version stands on its own
            log.exception("could not draw the leaderboard")
            return None

    @staticmethod
    async def send(
        interaction: discord.Interaction[Any], text: str, picture: Rendered | None = None
    ) -> None:
        # Mentions name the players without pinging them.
        files = [attachment(picture)] if picture is not None else []
        await interaction.followup.send(
            fit_message(text), files=files, allowed_mentions=discord.AllowedMentions.none()
        )


def stats_text(
    games: list[GameKind], rows: list[LeaderboardRow], period: str, locale: LocaleLike
) -> str:
    """The leaderboard in words: the message's text, for screen readers and clients that show
    no pictures."""
    lines = [message("stats_header", locale, period=period)]
    for game in games:
        best = [row for row in rows if row.kind == game.kind]
        if best:
            lines.append(f"**{game.name(locale)}**")
            lines += [
                message(
                    "stats_line",
                    locale,
                    place=place,
                    user=row.user_id,
                    wins=message("stats_wins", locale, count=row.wins),
                    games=message("stats_games", locale, count=row.played),
                )
                for place, row in enumerate(best, start=1)
            ]
    return "\n".join(lines)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(Stats(bot))
