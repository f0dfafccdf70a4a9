"""Turning errors into replies: domain errors become friendly ephemeral messages, the rest an
apology plus a log line with the game id. Shared by slash commands and buttons."""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.i18n import MESSAGES, message
from bot.reasons import error_text
from bot.storage import LeaseLostError
from engine.errors import GameError, quoted

log = logging.getLogger(__name__)

# Discord refuses message content over 2,000 characters; a reply is cut to fit, never lost.
MESSAGE_LIMIT = 2000
# Set in ``Interaction.extras`` while a public "thinking..." placeholder waits for its answer.
PUBLIC_PLACEHOLDER = "public_placeholder"


class UserError(Exception):
    """A refusal meant for the user who asked: not a player, not the host, wrong channel...

    Raised with a message key of ``bot.i18n.MESSAGES`` and its values, shown in the language of
    whoever is refused (a value that is an engine's ``GameError`` too). A key that does not
    exist is a bug, caught here rather than shown (tests/bot/test_i18n.py checks every key the
    code uses).
    """

    def __init__(self, key: str, /, **values: Any) -> None:
        if key not in MESSAGES:
            raise KeyError(f"no message {key!r} in bot.i18n.MESSAGES")
        super().__init__(key)
        self.key = key
        self.values = values

    def text(self, locale: discord.Locale | str | None = None) -> str:
        """The refusal in ``locale``'s language (engine errors among the values too)."""
        values = {
            name: error_text(value, locale) if isinstance(value, GameError) else value
            for name, value in self.values.items()
        }
        return message(self.key, locale, **values)

    def __str__(self) -> str:
        return self.text()


def check_range(option: str, value: int, low: int, high: int) -> None:
    """Refuse an option outside ``low..high``: Discord checks ranges against the command
    definitions it holds, which may be stale (an older version of the bot's commands)."""
    if not low <= value <= high:
        raise UserError("out_of_range", option=option, low=low, high=high)


def friendly_message(
    error: BaseException, locale: discord.Locale | str | None = None
) -> str | None:
    """The text to show for an expected error, or ``None`` for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return error.text(locale)
    if isinstance(error, GameError):  # in the reader's words when the engine gave a code
        return error_text(error, locale)
    if isinstance(error, LeaseLostError):  # a fleet's process that just lost the server's shard
        return message("shard_moving", locale)
    if isinstance(error, app_commands.MissingPermissions):
        return message("need_manage_server", locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return message("server_only", locale)
    if isinstance(error, app_commands.CommandOnCooldown):
        return message("slow_down", locale, at=retry_time(error.retry_after))
    if isinstance(error, app_commands.TransformerError):
        return message("not_a_valid_value", locale, value=quoted(error.value))
    if isinstance(error, app_commands.CheckFailure):
        return message("not_here", locale)
    return None


def retry_time(retry_after: float) -> int:
    """When a member on cooldown may try again, ``retry_after`` seconds from now: a Unix time
    rounded up, for a Discord timestamp (``<t:...:R>`` shows "in 12 seconds" in their language)."""
    return math.ceil(time.time() + retry_after)


def fit_message(text: str) -> str:
    """``text`` cut to Discord's message limit (with "…") so that it can always be sent."""
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


async def defer_public(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge at once with a public "thinking..." placeholder, for an answer the channel
    will see; a refusal sent afterwards (``answer(..., ephemeral=True)``) still stays private."""
    interaction.extras[PUBLIC_PLACEHOLDER] = True
    await interaction.response.defer(thinking=True)


async def answer(
    interaction: discord.Interaction[Any],
    content: str,
    *,
    ephemeral: bool,
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
) -> None:
    """Answer ``interaction`` whether or not it was acknowledged already.

    After :func:`defer_public`, Discord fills the public placeholder with the first follow-up,
    whatever its flags say; a private answer then removes the placeholder and follows up
    privately instead, so a refusal never shows in the channel.
    """
    extra: dict[str, Any] = {"files": list(files)} if files else {}
    if view is not None:
        extra["view"] = view
    content = fit_message(content)
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=ephemeral, **extra)
        return
    placeholder = interaction.extras.pop(PUBLIC_PLACEHOLDER, False)
    if placeholder and ephemeral:
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(content, ephemeral=ephemeral, **extra)


async def send_ephemeral(
    interaction: discord.Interaction[Any],
    content: str,
    *,
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """Reply privately whether or not the interaction was acknowledged already."""
    await answer(interaction, content, ephemeral=True, view=view, files=files)


async def report_error(
    interaction: discord.Interaction[Any], error: BaseException, *, context: str = ""
) -> None:
    """Answer the user for ``error`` and log it if it is a bug. Never raises."""
    text = friendly_message(error, interaction.locale)
    if text is None:
        original = getattr(error, "original", error)
        command = interaction.command.qualified_name if interaction.command else None
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = data.get("custom_id")
        log.error(
            "error in %s (%s) for user %s in channel %s of server %s",
            command or custom_id or "interaction",
            context or "no game",
            interaction.user.id,
            interaction.channel_id,
            interaction.guild_id,
            exc_info=original,
        )
        text = message("apology", interaction.locale)
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id)


async def after_answer(interaction: discord.Interaction[Any]) -> None:
    """An interaction's handling is over: let the bot add what waits for its member (notices)."""
    deliver = getattr(interaction.client, "deliver_notices", None)
    if deliver is not None:
        try:
            await deliver(interaction)
        except Exception:  # a notice must never turn an answer into an error
            log.exception("could not deliver notices to %s", interaction.user.id)


class GameNightTree(app_commands.CommandTree[Any]):
    """The one command tree: maps every command error to an ephemeral reply."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Answer a failed command (:func:`report_error`), then deliver waiting notices."""
        # The game's context is for the log of a bug only: a refusal (a flood's included) is
        # answered without asking the database.
        expected = friendly_message(error, interaction.locale) is not None
        context = "" if expected else await self._game_context(interaction)
        await report_error(interaction, error, context=context)
        await after_answer(interaction)

    async def _game_context(self, interaction: discord.Interaction[Any]) -> str:
        """Which game the failed command was about, for the log: named, or the channel's."""
        named = getattr(getattr(interaction, "namespace", None), "game", None)
        if named is not None:
            return f"game {named}"
        storage = getattr(self.client, "storage", None)
        games = getattr(self.client, "games", None)
        if storage is None or games is None or interaction.channel_id is None:
            return ""
        try:
            kinds = [game.kind for game in games()]
            game = await storage.live_game_in_channel(interaction.channel_id, kinds)
        except Exception:  # the log line matters more than its context
            return ""
        return f"game {game.id}" if game else ""
