"""The calling games' cog, its parts put together, and where its buttons' presses go: every button
of a calling game is a ``bot.components.GameButton``, ``gn:<kind>:<action>:<game>``, its presses
routed to the game's cog by its kind (registered in ``cog_load``) through ``press_button``."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.calling.claims import ClaimsCog
from bot.calling.live import (
    MAX_INTERVAL,
    MIN_INTERVAL,
    CheckT,
    GameT,
    commitment_text,
)
from bot.components import Press, route_presses
from bot.replies import (
    UserError,
    answer,
    defer_private,
    defer_public,
)
from bot.storage import (
    GameRow,
    GameStatus,
)
from bot.throttle import VERIFY_RATE, Lane, member_cooldown
from engine.fairness import draw_order

log = logging.getLogger(__name__)


async def press_button(
    cog: CallingGameCog[Any, Any], interaction: discord.Interaction[Any], press: Press
) -> None:
    """Hands a click to the game's cog; private answers are acknowledged before any work."""
    if cog.answers_privately(press.action):
        # Acknowledge before touching the database: in a rush of Join clicks the database
        # queue, not the bot, decides how long an answer takes. Then let the rest of the rush
        # be acknowledged before dealing (bot.acks).
        await interaction.response.defer(ephemeral=True, thinking=True)
        await cog.bot.pending_acks.settled()
    await cog.on_button(interaction, press.action, press.subject)


class CallingGameCog(ClaimsCog[GameT, CheckT]):
    """A calling game's cog, which each game subclasses: its start-up, its buttons and
    ``verify``, and the commands every calling game has (the host controls and ``verify`` are
    the same in every game and are inherited by each group).

    Each game is a command group (``/loteria``, ``/housie``) and sets ``engine`` (its
    ``engine.calling.CallingGame``) and the hooks of ``CallingBase``.
    """

    async def cog_load(self) -> None:
        """Restarts the timers of running games, re-sends boards never delivered, and plans the
        nights."""
        route_presses(self.bot, self.kind, functools.partial(press_button, self))
        for game in await self.storage.live_games(self.kind):
            if not self.bot.runs_guild(game.guild_id):
                continue  # another shard's: another process runs it
            await self.load_memory(game)
            if game.status is GameStatus.RUNNING:
                self.ensure_timer(game.id)
            # Boards stored but never sent (the bot stopped while dealing) go out again.
            self.redeliver_later(game.id)
        self.start_nights()

    async def cog_unload(self) -> None:
        """Stops the nights, then lets each game's caller finish its call and the near misses
        being told go out."""
        self.stop_nights()
        await super().cog_unload()
        await self.stop_recaps()

    def answers_privately(self, action: str) -> bool:
        """Whether every answer to button ``action`` is private (so it can be deferred at once)."""
        return action in {"join", "leave", "start", "cancel", "replay"}

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, game_id: int
    ) -> None:
        """Answers a lobby or claim button of game ``game_id``. A private answer was
        acknowledged already (``answers_privately``); a claim acknowledges itself."""
        if action == "claim":
            await self.claim(interaction, game_id, None, None)
            return
        if not self.answers_privately(action):
            raise UserError("button_gone")
        game = await self.button_game(interaction, game_id)
        if action == "join":
            await self.join(interaction, game, boards=1)
        elif action == "leave":
            await self.leave(interaction, game)
        elif action == "start":
            await self.start_game(interaction, game)
        elif action == "cancel":
            await self.cancel_game(interaction, game)
        elif action == "replay":
            await self.send_replay(interaction, game)
        else:
            raise UserError("button_gone")

    async def verify(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Checks finished game ``game_id`` of this server against its seed, in public.

        Another server's game the bot holds live is refused at once; one it saw end here is
        acknowledged publicly; any other privately (the database says whether it is this server's, and a
        refusal stays private; the verification then goes to the channel as a follow-up)."""
        known = self.remembered(game_id)
        if known is not None and known.guild_id != interaction.guild_id:
            raise self.refusal("no_such_game", game=game_id)
        # (A game held live may have just ended: the database says.)
        likely = game_id in self.ended and self.ended[game_id] == interaction.guild_id
        locale = interaction.locale
        # Re-dealing a big game is heavy work: in the server's line.
        async with self.bot.heavy.turn(
            interaction.guild_id,
            Lane.OTHER,
            acknowledge=lambda: (defer_public if likely else defer_private)(interaction),
        ):
            game = await self.game_by_id(game_id, interaction.guild_id)
            if game.status.is_live:
                raise self.refusal("still_on", game=game.id)
            assert game.seed is not None
            problems = await self.verify_game(game)
            if problems:
                text = self.say("verify_failed", locale) + "\n"
                text += "\n".join(f"- {problem}" for problem in problems[:10])
            else:
                draws = await self.storage.draws(game.id)
                boards = await self.storage.board_count(game.id)
                text = self.say(
                    "verified",
                    locale,
                    game=game.id,
                    calls=self.say("n_calls", locale, count=len(draws)),
                    boards=self.say("n_boards", locale, count=boards),
                )
            commitment_line = self.say(
                "seed_commitment", locale, seed=game.seed.hex(), commitment=commitment_text(game)
            )
            calls = len(await self.storage.draws(game.id))
            link = await self.verify_line(game, calls, locale)
        lines = [text, commitment_line] if link is None else [text, commitment_line, link]
        await answer(interaction, "\n".join(lines), ephemeral=False)

    async def verify_game(self, game: GameRow) -> list[str]:
        """What does not match the game's seed, calls and boards re-dealt from it (empty: it
        verifies)."""
        assert game.seed is not None
        problems: list[str] = []
        order = draw_order(game.seed, self.total_calls)
        for draw in await self.storage.draws(game.id):
            expected = order[draw.seq - 1]
            if draw.value != expected:
                problems.append(f"call {draw.seq} was {draw.value}, the seed gives {expected}")
        boards = await self.storage.boards(game.id)
        # Re-dealing a big game is CPU work: off the event loop.
        problems += await asyncio.to_thread(self.verify_boards, game, boards)
        return problems

    @app_commands.command(name="pause", description=_("Pause the calls (host or Manage Server)"))
    async def pause_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> pause``."""
        await self.pause_calls(interaction)

    @app_commands.command(name="resume", description=_("Resume the calls (host or Manage Server)"))
    async def resume_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> resume``."""
        await self.resume_calls(interaction)

    @app_commands.command(name="stop", description=_("End the game now (host or Manage Server)"))
    async def stop_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/<game> stop``."""
        await self.stop(interaction)

    @app_commands.command(name="speed", description=_("Change the seconds between calls"))
    @app_commands.describe(seconds=_("Seconds between calls (5-120)"))
    async def speed_command(
        self,
        interaction: discord.Interaction[Any],
        seconds: app_commands.Range[int, MIN_INTERVAL, MAX_INTERVAL],
    ) -> None:
        """``/<game> speed seconds``."""
        await self.set_speed(interaction, seconds)

    @app_commands.command(name="verify", description=_("Check a finished game against its seed"))
    @app_commands.describe(game=_("The game number"))
    @member_cooldown(VERIFY_RATE)
    async def verify_command(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1]
    ) -> None:
        """``/<game> verify game``."""
        await self.verify(interaction, game)
