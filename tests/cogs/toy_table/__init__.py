"""Race to ten: a table game that exists only for the tests, the proof that a game is its own
files. Its rules (``engine``), its picture (``render``), its words (``words``) and this cog sit
here, nothing of it in ``bot/`` or ``cogs/``; loaded by the real bot as an extension
(``tests.cogs.toy_table``), it plays, routes its buttons, ranks in /stats and shows in /help."""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import tests.cogs.toy_table.words  # noqa: F401  (its words, registered on import)
from bot.attachments import attachment
from bot.components import GameButton
from bot.i18n import LocaleLike, message
from bot.render import Rendered
from bot.replies import UserError
from bot.storage import GameRow
from bot.table import MAX_TURN_SECONDS, MIN_TURN_SECONDS, DuelCog, Shown
from bot.table.options import DuelOptions
from tests.cogs.toy_table.engine import STEPS, TARGET, Race, RaceError
from tests.cogs.toy_table.render import render_race

if TYPE_CHECKING:
    from bot.app import GameNightBot


class RaceCog(DuelCog[Race, DuelOptions], name="Race"):
    options_type = DuelOptions  # no settings of its own
    kind = "race"
    prefix = "race"
    title = "Race to ten"
    title_es = "Carrera a diez"
    levels = ("normal",)
    default_level = "normal"
    mark_names = ("first", "second")
    mark_names_es = ("primero", "segundo")
    help_keys = ("race_help_summary", "race_help_rules")

    group = app_commands.Group(
        name="race", description=_("Race to ten, against a member or the bot"), guild_only=True
    )

    def load(self, game: GameRow) -> Race:
        return Race.from_state(game.state)

    def first_state(self, options: DuelOptions) -> str:
        return Race().to_state()

    def turn_seat(self, engine: Race) -> int:
        return engine.turn

    def is_over(self, engine: Race) -> bool:
        return engine.is_over

    def winner_seat(self, engine: Race) -> int | None:
        return engine.winner

    def move_count(self, engine: Race) -> int:
        return engine.moves

    def state_of(self, engine: Race) -> str:
        return engine.to_state()

    def apply(self, engine: Race, move: str, seat: int, locale: LocaleLike = None) -> str:
        if not move.isdigit():
            raise UserError("race_not_a_step", move=move)
        try:
            engine.play(int(move))
        except RaceError:
            raise UserError("race_refused", move=move, total=engine.total) from None
        return message("race_said", locale, step=move, total=engine.total)

    def bot_move(
        self, engine: Race, level: str, rng: random.Random, locale: LocaleLike = None
    ) -> str:
        step = engine.best_step(rng)
        engine.play(step)
        return message("race_said", locale, step=step, total=engine.total)

    def describe_options(self, options: DuelOptions, locale: LocaleLike = None) -> str:
        return message("race_settings", locale, target=TARGET)

    async def board(self, game: GameRow, engine: Race) -> Shown:
        locale = self.channel_locale(game)
        lines = [f"## {self.title} #{game.id}", self.players_line(game, locale)]
        over = engine.is_over or not game.status.is_live
        if over:
            lines.append(f"**{self.verdict(game, locale=locale)}.**")
        else:
            deadline = int(self.options(game).deadline or 0)
            who = self.who(game, engine.turn)
            lines.append(
                message("race_to_move", locale, total=engine.total, who=who, deadline=deadline)
            )
        view = discord.ui.View(timeout=None)
        for step in STEPS:
            view.add_item(
                GameButton.make(
                    self.prefix,
                    "cell",
                    game.id,
                    f"+{step}",
                    arg=step,
                    disabled=over or engine.total + step > TARGET,
                )
            )
        return Shown("\n".join(lines), view)

    async def result(self, game: GameRow, engine: Race) -> Shown:
        locale = self.channel_locale(game)
        picture = await asyncio.to_thread(render_race, engine, game.id)
        view = discord.ui.View(timeout=None)
        view.add_item(self.rematch_button(game))
        verdict = self.verdict(game, locale=locale)
        content = self.say("race_result", locale, game=game.id, verdict=verdict)
        return Shown(content, view, [attachment(picture)])

    @group.command(name="play", description=_("Challenge a member, or play the bot"))
    @app_commands.describe(
        opponent=_("Who to challenge; leave empty to play the bot"),
        turn_time=_("Seconds per move before a loss on time"),
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        turn_time: app_commands.Range[int, MIN_TURN_SECONDS, MAX_TURN_SECONDS] = 120,
    ) -> None:
        await self.start(
            interaction, opponent=opponent, level="normal", turn_time=turn_time, settings={}
        )

    @group.command(name="resign", description=_("Resign your race"))
    async def resign_slash(self, interaction: discord.Interaction[Any]) -> None:
        await self.resign_command(interaction)

    @staticmethod
    def sample_pictures() -> list[tuple[str, Rendered]]:
        return [("race.png", render_race(Race(total=7, moves=5), 1))]


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(RaceCog(bot))
