"""``/dots``: Dots and Boxes, 2x2 to 5x5 boxes, against a member or the bot.

The board is a picture re-rendered after each move; lines are picked in selects of the free
lines (25 to a select, so a 5x5 board's 60 lines fit in three) or typed with
``/dots move line:A1-A2`` (autocompleted). Completing a box gives another turn. The rules and
the bot live in ``engine.dots``, the life cycle in ``bot.table.DuelCog``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import cogs.dots.words  # noqa: F401  (its words, registered on import)
from bot.attachments import attachment
from bot.components import GameButton, GameSelect
from bot.i18n import LocaleLike, message
from bot.render.dots import render_dots
from bot.replies import check_range, defer_private
from bot.storage import GameRow
from bot.table import (
    BOT_SEAT_ID,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    DuelCog,
    SandboxPlan,
    SandboxPress,
    Shown,
)
from bot.table.options import DuelOptions
from cogs.dots import samples
from cogs.dots.solution import solved_board
from engine.dots import MAX_SIDE, MIN_SIDE, DotsGame, Level, Line, Orientation, Player, choose_line

if TYPE_CHECKING:
    from bot.app import GameNightBot

PLAYERS = (Player.FIRST, Player.SECOND)
SQUARES = ("🟥", "🟦")
OPTIONS_PER_SELECT = 25  # Discord's limit
AUTOCOMPLETE_LIMIT = 25


def reading_order(line: Line) -> tuple[int, int, int]:
    """Lines by their first dot, row by row, across before down: how a player scans a list."""
    return line.row, line.column, 0 if line.orientation is Orientation.ACROSS else 1


def line_pages(lines: Sequence[Line]) -> list[list[Line]]:
    ordered = sorted(lines, key=reading_order)
    return [
        ordered[start : start + OPTIONS_PER_SELECT]
        for start in range(0, len(ordered), OPTIONS_PER_SELECT)
    ]


def squashed(text: str) -> str:
    """A line name as typed, for matching: upper case, no dash or spaces."""
    return "".join(char for char in text.upper() if char.isalnum())


@dataclass(frozen=True, kw_only=True)
class DotsOptions(DuelOptions):
    """A game's options: the duel's, and the board's size in boxes."""

    rows: int
    columns: int


class DotsCog(DuelCog[DotsGame, DotsOptions], name="Dots and Boxes"):
    options_type = DotsOptions
    kind = "dots"
    prefix = "dots"
    title = "Dots and Boxes"
    title_es = "Timbiriche"
    levels = tuple(level.value for level in Level)
    default_level = Level.NORMAL.value
    mark_names = ("red", "blue")
    mark_names_es = ("rojo", "azul")
    # A sandbox night: a member against the bot, on the smallest board.
    sandbox_plan = SandboxPlan(
        start={"rows": MIN_SIDE, "columns": MIN_SIDE, "level": Level.EASY.value}
    )

    group = app_commands.Group(name="dots", description=_("Play Dots and Boxes"), guild_only=True)

    # -- engine hooks --------------------------------------------------------------------------

    def load(self, game: GameRow) -> DotsGame:
        return DotsGame.from_state(game.state)

    def first_state(self, options: DotsOptions) -> str:
        return DotsGame(options.rows, options.columns).to_state()

    def turn_seat(self, engine: DotsGame) -> int:
        return PLAYERS.index(engine.turn)

    def is_over(self, engine: DotsGame) -> bool:
        return engine.is_over

    def winner_seat(self, engine: DotsGame) -> int | None:
        winner = engine.winner
        return None if winner is None else PLAYERS.index(winner)

    def move_count(self, engine: DotsGame) -> int:
        return len(engine.drawn_lines())

    def state_of(self, engine: DotsGame) -> str:
        return engine.to_state()

    def apply(self, engine: DotsGame, move: str, seat: int, locale: LocaleLike = None) -> str:
        result = engine.play(move, player=PLAYERS[seat])
        return self._said(seat, result.line, len(result.completed), locale)

    def bot_move(
        self, engine: DotsGame, level: str, rng: random.Random, locale: LocaleLike = None
    ) -> str:
        seat = self.turn_seat(engine)
        strength = Level(level)
        # The hard bot plays perfectly where a solved table ships (3x3); read on first use.
        solution = solved_board(engine.rows, engine.columns) if strength is Level.HARD else None
        result = engine.play(choose_line(engine, strength, rng, solution))
        return self._said(seat, result.line, len(result.completed), locale)

    @staticmethod
    def _said(seat: int, line: Line, boxes: int, locale: LocaleLike) -> str:
        gain = message("dots_gain", locale, count=boxes)
        return f"{SQUARES[seat]} {line.id}{gain if boxes else ''}"

    def describe_options(self, options: DotsOptions, locale: LocaleLike = None) -> str:
        return message("dots_settings", locale, rows=options.rows, columns=options.columns)

    def sandbox_move(
        self, game: GameRow, engine: DotsGame, user_id: int, rng: random.Random
    ) -> SandboxPress:
        """A simulated member picks a line as the bot would at its normal level, in the select
        of the page that lists it."""
        line = choose_line(engine, Level.NORMAL, rng)
        page = next(
            number
            for number, lines in enumerate(line_pages(engine.free_lines()))
            if line.id in {free.id for free in lines}
        )
        return SandboxPress(
            user_id, self.select_id("line", game.id, page), values=(line.id,), said=line.id
        )

    # -- messages ------------------------------------------------------------------------------

    def lines_view(self, game: GameRow, engine: DotsGame) -> discord.ui.View:
        locale = self.channel_locale(game)
        view = discord.ui.View(timeout=None)
        if engine.is_over or not game.status.is_live:
            return view
        for page, lines in enumerate(line_pages(engine.free_lines())):
            options = [
                discord.SelectOption(
                    label=line.id,
                    value=line.id,
                    description=message(f"dots_{line.orientation.value}", locale),
                )
                for line in lines
            ]
            view.add_item(
                GameSelect.make(
                    self.prefix,
                    "line",
                    game.id,
                    arg=page,
                    options=options,
                    placeholder=message(
                        "dots_pick_line", locale, first=lines[0].id, last=lines[-1].id
                    ),
                    row=page,
                )
            )
        view.add_item(
            GameButton.make(
                self.prefix,
                "resign",
                game.id,
                label=message("table_resign_button", locale),
                emoji="🏳️",
                style=discord.ButtonStyle.secondary,
                row=4,
            )
        )
        return view

    def score_line(self, game: GameRow, engine: DotsGame, locale: LocaleLike = None) -> str:
        scores = engine.scores
        bot = message("dots_bot", locale, level=self.level_name(game, locale))
        return " · ".join(
            f"{SQUARES[seat]} {self.who(game, seat)}"
            + (bot if self.seats(game)[seat] == BOT_SEAT_ID else "")
            + f" **{scores[player]}**"
            for seat, player in enumerate(PLAYERS)
        )

    async def board(self, game: GameRow, engine: DotsGame) -> Shown:
        locale = self.channel_locale(game)
        title = self.title_es if locale.startswith("es") else self.title
        lines = [
            f"## {title} #{game.id} · {self.describe_options(self.options(game), locale)}",
            self.score_line(game, engine, locale),
        ]
        last = self.options(game).last
        if last:
            lines.append(message("dots_last", locale, moves=", ".join(last)))
        if game.status.is_live:
            turn = self.turn_seat(engine)
            lines.append(
                message(
                    "dots_to_move",
                    locale,
                    square=SQUARES[turn],
                    who=self.who(game, turn),
                    deadline=int(self.options(game).deadline or 0),
                    kind=self.kind,
                )
            )
            verdict = ""
        else:
            lines.append(f"**{self.verdict(game, locale=locale)}.**")
            verdict = self.verdict(game, plain=True, locale=locale)
        picture = await asyncio.to_thread(
            render_dots,
            engine,
            game_id=str(game.id),
            names=self.names(game),
            verdict=verdict,
            locale=locale,
        )
        return Shown("\n".join(lines), self.lines_view(game, engine), [attachment(picture)])

    async def result(self, game: GameRow, engine: DotsGame) -> Shown:
        view = discord.ui.View(timeout=None)
        view.add_item(self.rematch_button(game))
        scores = engine.scores
        content = self.say(
            "dots_result",
            self.channel_locale(game),
            game=game.id,
            verdict=self.verdict(game, locale=self.channel_locale(game)),
            first=scores[Player.FIRST],
            second=scores[Player.SECOND],
        )
        return Shown(content, view)

    # -- commands ------------------------------------------------------------------------------

    @group.command(name="play", description=_("Challenge a member to Dots and Boxes, or play me"))
    @app_commands.describe(
        opponent=_("Who to challenge; leave empty to play the bot"),
        rows=_("Rows of boxes (2-5)"),
        columns=_("Columns of boxes (2-5)"),
        level=_("How well the bot plays"),
        turn_time=_("Seconds per move before a loss on time"),
    )
    @app_commands.choices(
        level=[
            app_commands.Choice(name=_("Easy"), value=Level.EASY.value),
            app_commands.Choice(name=_("Normal"), value=Level.NORMAL.value),
            app_commands.Choice(name=_("Hard"), value=Level.HARD.value),
        ],
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        rows: app_commands.Range[int, MIN_SIDE, MAX_SIDE] = 3,
        columns: app_commands.Range[int, MIN_SIDE, MAX_SIDE] = 3,
        level: str = Level.NORMAL.value,
        turn_time: app_commands.Range[int, MIN_TURN_SECONDS, MAX_TURN_SECONDS] = 180,
    ) -> None:
        check_range("rows", rows, MIN_SIDE, MAX_SIDE)
        check_range("columns", columns, MIN_SIDE, MAX_SIDE)
        await self.start(
            interaction,
            opponent=opponent,
            level=level,
            turn_time=turn_time,
            settings={"rows": rows, "columns": columns},
        )

    async def current_game(self, user_id: int) -> GameRow:
        games = await self.storage.live_games_of_player(user_id, self.kind)
        if not games:
            raise self.refusal("dots_not_in_game")
        return games[0]

    @group.command(name="move", description=_("Draw a line, e.g. A1-A2"))
    @app_commands.describe(line=_("Two neighbouring dots, e.g. A1-A2 or B2-C2"))
    async def move_slash(self, interaction: discord.Interaction[Any], line: str) -> None:
        # A private answer (the board shows the move): acknowledged before the database is asked.
        await defer_private(interaction)
        await self.move(interaction, await self.current_game(interaction.user.id), line)

    @move_slash.autocomplete("line")
    async def line_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # From memory only: an autocomplete is answered without asking the database.
        games = self.remembered_of_player(interaction.user.id)
        if not games:
            return []
        engine = self.load(games[0])
        typed = squashed(current)
        free = sorted(engine.free_lines(), key=reading_order)
        matching = [line for line in free if squashed(line.id).startswith(typed)]
        return [
            app_commands.Choice(
                name=f"{line.id} ({message(f'dots_{line.orientation.value}', interaction.locale)})",
                value=line.id,
            )
            for line in matching[:AUTOCOMPLETE_LIMIT]
        ]

    @group.command(name="resign", description=_("Resign your Dots and Boxes game"))
    async def resign_slash(self, interaction: discord.Interaction[Any]) -> None:
        await self.resign_command(interaction)

    # -- /help ---------------------------------------------------------------------------------

    help_keys = ("help_dots_summary", "help_dots_rules")

    # -- its pictures as samples ---------------------------------------------------------------

    sample_pictures = staticmethod(samples.sample_pictures)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(DotsCog(bot))
