"""``/tictactoe``: tic-tac-toe on buttons, 3x3 to 5x5, against a member or the bot.

The board is the message's buttons, one per cell (``gn:ttt:cell:<game>:<cell>``); the rules
and the bot live in ``engine.tictactoe``, the life cycle (challenge, turns, time, rematch) in
``bot.table.DuelCog``. The result message carries a picture of the final board.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import cogs.tictactoe.words  # noqa: F401  (its words, registered on import)
from bot.attachments import attachment
from bot.components import GameButton
from bot.i18n import LocaleLike, message
from bot.render.tictactoe import render_tictactoe
from bot.replies import UserError
from bot.storage import GameRow
from bot.table import MAX_TURN_SECONDS, MIN_TURN_SECONDS, DuelCog, SandboxPlan, SandboxPress, Shown
from bot.table.options import DuelOptions
from cogs.tictactoe import samples
from engine.errors import quoted
from engine.tictactoe import MAX_SIZE, MIN_SIZE, Level, Player, Rules, TicTacToe, choose_move

if TYPE_CHECKING:
    from bot.app import GameNightBot

PLAYERS = (Player.X, Player.O)
EMPTY_LABEL = "\u200b"  # a button needs a label; a zero-width space keeps empty cells blank
MARK_STYLES = {
    Player.X: discord.ButtonStyle.danger,
    Player.O: discord.ButtonStyle.primary,
    None: discord.ButtonStyle.secondary,
}


def cell_name(cell: int, size: int, locale: LocaleLike = None) -> str:
    row, column = divmod(cell, size)
    return message("ttt_cell", locale, row=row + 1, column=column + 1)


@dataclass(frozen=True, kw_only=True)
class TicTacToeOptions(DuelOptions):
    """A game's options: the duel's, and the board's side."""

    size: int


class TicTacToeCog(DuelCog[TicTacToe, TicTacToeOptions], name="Tic-tac-toe"):
    options_type = TicTacToeOptions
    kind = "tictactoe"
    prefix = "ttt"
    title = "Tic-tac-toe"
    title_es = "Tres en raya"
    levels = tuple(level.value for level in Level)
    default_level = Level.NORMAL.value
    mark_names = ("X", "O")
    mark_names_es = ("X", "O")
    # A sandbox night: a duel between two members on the smallest board.
    sandbox_plan = SandboxPlan(start={"size": MIN_SIZE}, opponent="opponent")

    group = app_commands.Group(
        name="tictactoe", description=_("Play tic-tac-toe on buttons"), guild_only=True
    )

    # -- engine hooks --------------------------------------------------------------------------

    def load(self, game: GameRow) -> TicTacToe:
        return TicTacToe.from_state(game.state)

    def first_state(self, options: TicTacToeOptions) -> str:
        return TicTacToe(Rules.standard(options.size)).to_state()

    def turn_seat(self, engine: TicTacToe) -> int:
        return PLAYERS.index(engine.turn)

    def is_over(self, engine: TicTacToe) -> bool:
        return engine.is_over

    def winner_seat(self, engine: TicTacToe) -> int | None:
        winner = engine.outcome.winner
        return None if winner is None else PLAYERS.index(winner)

    def move_count(self, engine: TicTacToe) -> int:
        return engine.move_count

    def state_of(self, engine: TicTacToe) -> str:
        return engine.to_state()

    def apply(self, engine: TicTacToe, move: str, seat: int, locale: LocaleLike = None) -> str:
        if not move.isdigit():
            raise UserError("ttt_not_a_cell", move=quoted(move))
        cell = int(move)
        engine.play(cell, player=PLAYERS[seat])  # a refusal is worded by its code (bot.reasons)
        return message(
            "ttt_said", locale, mark=PLAYERS[seat].value, cell=cell_name(cell, engine.size, locale)
        )

    def bot_move(
        self, engine: TicTacToe, level: str, rng: random.Random, locale: LocaleLike = None
    ) -> str:
        mover = engine.turn
        cell = choose_move(engine, Level(level), rng)
        engine.play(cell)
        return message(
            "ttt_said", locale, mark=mover.value, cell=cell_name(cell, engine.size, locale)
        )

    def describe_options(self, options: TicTacToeOptions, locale: LocaleLike = None) -> str:
        size = options.size
        rules = Rules.standard(size)
        return message("ttt_settings", locale, size=size, k=rules.k)

    def sandbox_move(
        self, game: GameRow, engine: TicTacToe, user_id: int, rng: random.Random
    ) -> SandboxPress:
        """A simulated member plays as the bot would at its normal level."""
        cell = choose_move(engine, Level.NORMAL, rng)
        said = cell_name(cell, engine.size, self.channel_locale(game))
        return SandboxPress(user_id, self.button_id("cell", game.id, cell), said=said)

    # -- messages ------------------------------------------------------------------------------

    def cells_view(self, game: GameRow, engine: TicTacToe) -> discord.ui.View:
        """The board as buttons: one row per board row; a Resign row when there is room."""
        over = engine.is_over or not game.status.is_live
        winning = set(engine.outcome.line)
        view = discord.ui.View(timeout=None)
        for cell, mark in enumerate(engine.cells):
            view.add_item(
                GameButton.make(
                    self.prefix,
                    "cell",
                    game.id,
                    arg=cell,
                    label=mark.value if mark else EMPTY_LABEL,
                    style=discord.ButtonStyle.success if cell in winning else MARK_STYLES[mark],
                    disabled=over,
                    row=cell // engine.size,
                )
            )
        if not over and engine.size < MAX_SIZE:
            view.add_item(
                GameButton.make(
                    self.prefix,
                    "resign",
                    game.id,
                    label=message("table_resign_button", self.channel_locale(game)),
                    emoji="🏳️",
                    style=discord.ButtonStyle.secondary,
                    row=engine.size,
                )
            )
        return view

    async def board(self, game: GameRow, engine: TicTacToe) -> Shown:
        locale = self.channel_locale(game)
        title = self.title_es if locale.startswith("es") else self.title
        lines = [
            f"## {title} #{game.id} · {self.describe_options(self.options(game), locale)}",
            self.players_line(game, locale),
        ]
        if game.status.is_live:
            turn = self.turn_seat(engine)
            lines.append(
                message(
                    "ttt_to_move",
                    locale,
                    who=self.who(game, turn),
                    mark=engine.turn.value,
                    deadline=int(self.options(game).deadline or 0),
                )
            )
            if engine.size == MAX_SIZE:
                lines.append(message("ttt_resign_hint", locale, kind=self.kind))
        else:
            lines.append(f"**{self.verdict(game, locale=locale)}.**")
        return Shown("\n".join(lines), self.cells_view(game, engine))

    async def result(self, game: GameRow, engine: TicTacToe) -> Shown:
        locale = self.channel_locale(game)
        names = self.names(game)
        # The picture words its own verdict from the board, unless the game ended early.
        told = self.options(game).end
        forfeit = self.verdict(game, plain=True, locale=locale) if told else ""
        picture = await asyncio.to_thread(
            render_tictactoe,
            engine,
            game_id=str(game.id),
            x_name=names[0],
            o_name=names[1],
            forfeit=forfeit,
            locale=locale,
        )
        view = discord.ui.View(timeout=None)
        view.add_item(self.rematch_button(game))
        moves = engine.move_count
        content = self.say(
            "ttt_result",
            locale,
            game=game.id,
            verdict=self.verdict(game, locale=locale),
            count=moves,
        )
        return Shown(content, view, [attachment(picture)])

    # -- commands ------------------------------------------------------------------------------

    @group.command(name="play", description=_("Challenge a member to tic-tac-toe, or play me"))
    @app_commands.describe(
        opponent=_("Who to challenge; leave empty to play the bot"),
        size=_("Board size"),
        level=_("How well the bot plays"),
        turn_time=_("Seconds per move before a loss on time"),
    )
    @app_commands.choices(
        size=[
            app_commands.Choice(name=f"{side}x{side}", value=side)
            for side in range(MIN_SIZE, MAX_SIZE + 1)
        ]
    )
    @app_commands.choices(
        level=[
            app_commands.Choice(name=_("Easy"), value=Level.EASY.value),
            app_commands.Choice(name=_("Normal"), value=Level.NORMAL.value),
            app_commands.Choice(name=_("Perfect"), value=Level.PERFECT.value),
        ],
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        size: int = 3,
        level: str = Level.NORMAL.value,
        turn_time: app_commands.Range[int, MIN_TURN_SECONDS, MAX_TURN_SECONDS] = 120,
    ) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise UserError("ttt_sizes", low=MIN_SIZE, high=MAX_SIZE)
        await self.start(
            interaction,
            opponent=opponent,
            level=level,
            turn_time=turn_time,
            settings={"size": size},
        )

    @group.command(name="resign", description=_("Resign your tic-tac-toe game"))
    async def resign_slash(self, interaction: discord.Interaction[Any]) -> None:
        await self.resign_command(interaction)

    # -- /help ---------------------------------------------------------------------------------

    help_keys = ("help_tictactoe_summary", "help_tictactoe_rules")

    # -- its pictures as samples ---------------------------------------------------------------

    sample_pictures = staticmethod(samples.sample_pictures)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(TicTacToeCog(bot))
