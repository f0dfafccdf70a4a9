"""A calling game that exists only for tests: a few lines of engine (``engine.py``), a tiny
renderer (``render.py``) and this cog, its words registered here. Loaded by the real bot, it
plays end to end through ``bot.calling`` alone (tests/cogs/test_toy_calling.py): nothing
outside these files names it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.calling import (
    DEFAULT_INTERVAL,
    DEFAULT_MAX_PLAYERS,
    CallingGameCog,
    CallingOptions,
    Verdict,
)
from bot.i18n import LocaleLike, Plural, register_messages
from bot.render import Rendered
from bot.storage import BoardRow, GameDefaults, GameRow
from tests.cogs.toy_calling import render
from tests.cogs.toy_calling.engine import PRIZES, ToyCard, ToyCheck, ToyGame

if TYPE_CHECKING:
    from bot.app import GameNightBot

WORDS: dict[str, tuple[str | Plural, str | Plural]] = {
    "toycall_board": (Plural("card", "cards"), Plural("carta", "cartas")),
    "toycall_dealt": ("dealt", "repartidas"),
    "toycall_prize_two": ("Two numbers", "Dos números"),
    "toycall_prize_all": ("All three", "Los tres"),
    "toycall_call": ("Toy call {seq}: **{value}**", "Llamada de juguete {seq}: **{value}**"),
    "toycall_options": (
        "Prizes: {prizes} · a call every {interval} s",
        "Premios: {prizes} · una llamada cada {interval} s",
    ),
    "toycall_numbers_out": ("every number was called", "se cantaron todos los números"),
    "toycall_short": (
        "not enough of its numbers were called (called: {hits})",
        "no se cantaron bastantes de sus números (cantados: {hits})",
    ),
}
COMMANDS = {
    "A toy calling game for the tests": "Un juego de llamadas de prueba",
    "Open a toy lobby in this channel": "Abre una sala de juguete en este canal",
    "Show your card with the called numbers marked": "Muestra tu carta con los números cantados",
    "Claim the prize being played": "Reclama el premio en juego",
}
register_messages(WORDS, COMMANDS, owner=__name__)  # again at each start of the bot: its own


@app_commands.guild_only()
class ToyCalling(
    CallingGameCog[ToyGame, ToyCheck],
    name="Toy calling",
    group_name="toycall",
    group_description=_("A toy calling game for the tests"),
):
    kind = "toycall"
    title = "Toy calling"
    title_es = "Llamadas de juguete"
    engine = ToyGame
    exhausted_reason = "toycall_numbers_out"
    show_command = "card"

    def prize_name(self, prize: str, locale: LocaleLike = None) -> str:
        return self.say(f"toycall_prize_{prize}", locale)

    def render_boards(
        self,
        game: GameRow,
        boards: Sequence[BoardRow],
        called: Sequence[int],
        locale: LocaleLike = None,
    ) -> list[Rendered]:
        return [render.render_card(ToyCard.from_state(board.state), called) for board in boards]

    def render_call(self, game: GameRow, value: int, seq: int) -> tuple[str, list[Rendered]]:
        text = self.say("toycall_call", self.channel_locale(game), seq=seq, value=value)
        return text, [render.render_call(value)]

    def render_win(
        self, game: GameRow, verdict: Verdict[ToyCheck], called: Sequence[int], locale: LocaleLike
    ) -> Rendered:
        card = ToyCard.from_state(verdict.board.state)
        return render.render_card(card, called, verdict.check.hits)

    def describe_options(self, game: GameRow) -> str:
        locale = self.channel_locale(game)
        prizes = " → ".join(self.prize_name(prize, locale) for prize in PRIZES)
        return self.say(
            "toycall_options", locale, prizes=prizes, interval=self.options_of(game).interval
        )

    def scheduled_game(
        self, seed: bytes, defaults: GameDefaults, *, guild_id: int | None = None
    ) -> tuple[str, CallingOptions]:
        options = CallingOptions(
            interval=defaults.interval or DEFAULT_INTERVAL, max_players=DEFAULT_MAX_PLAYERS
        )
        return ToyGame(seed).to_state(), options

    def default_prizes(self, text: str, *, guild_id: int | None = None) -> str:
        return ", ".join(PRIZES)

    def describe_prizes(
        self, stored: str | None, locale: LocaleLike, *, guild_id: int | None = None
    ) -> str:
        return " → ".join(self.prize_name(prize, locale) for prize in PRIZES)

    @app_commands.command(name="start", description=_("Open a toy lobby in this channel"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        settings = await self.host_settings(interaction)
        seed = self.bot.new_seed()
        state, options = self.scheduled_game(seed, settings.defaults(self.kind))
        await self.open_lobby(
            interaction, seed=seed, state=state, options=options, settings=settings
        )

    @app_commands.command(
        name="card", description=_("Show your card with the called numbers marked")
    )
    async def card(self, interaction: discord.Interaction[Any]) -> None:
        await self.show_boards(interaction)

    @app_commands.command(name="claim", description=_("Claim the prize being played"))
    async def claim_command(self, interaction: discord.Interaction[Any]) -> None:
        await self.claim(interaction, None, None, None)


async def setup(bot: GameNightBot) -> None:
    await bot.add_cog(ToyCalling(bot))
