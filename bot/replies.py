"""Turning errors into replies: domain errors become friendly ephemeral messages, the rest an
apology plus a log line with the game id. Shared by slash commands and buttons."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
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
# Set in ``Interaction.extras`` while a deferred "thinking..." placeholder waits for its answer:
# a public one (the channel sees what fills it), or a private one (only the member does).
PUBLIC_PLACEHOLDER = "public_placeholder"
PRIVATE_PLACEHOLDER = "private_placeholder"


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
    will see. Whatever fills it is public: decide refusals before (from what the bot holds in
    memory), or use :func:`defer_private` when they cannot be known without the database."""
    interaction.extras[PUBLIC_PLACEHOLDER] = True
    await interaction.response.defer(thinking=True)


async def defer_private(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge at once with a private "thinking..." placeholder: the member alone sees what
    fills it. A public answer after it (:func:`answer` with ``ephemeral=False``) fills it with a
    private copy and posts the answer for the channel as a follow-up."""
    interaction.extras[PRIVATE_PLACEHOLDER] = True
    await interaction.response.defer(ephemeral=True, thinking=True)


async def answer(
    interaction: discord.Interaction[Any],
    content: str,
    *,
    ephemeral: bool,
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
) -> discord.Message | None:
    """Answer ``interaction`` whether or not it was acknowledged already, by Discord's
    documented paths only (Interactions: Receiving and Responding); returns the public message
    for a public answer made after the acknowledgement.

    * Not acknowledged yet: the answer is the interaction's response.
    * A "thinking..." placeholder waits (:func:`defer_public`, :func:`defer_private`): the
      answer fills it by editing it (the original response). A private answer in a public
      placeholder is seen by the channel (the placeholder's visibility cannot change): callers
      refuse privately before a public defer, so this is left to races. A public answer in a
      private placeholder fills it privately, then goes to the channel as a follow-up.
    * Otherwise (the placeholder was filled, or a component was acknowledged silently): a
      follow-up message, private or public as asked.

    A placeholder is never deleted to be replaced by a follow-up: what Discord does with a
    follow-up after its deferred response was deleted is not documented.
    """
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    content = fit_message(content)
    if not interaction.response.is_done():
        if files:
            extra["files"] = list(files)
        await interaction.response.send_message(content, ephemeral=ephemeral, **extra)
        return None
    public = interaction.extras.pop(PUBLIC_PLACEHOLDER, False)
    private = interaction.extras.pop(PRIVATE_PLACEHOLDER, False)
    if public or (private and ephemeral):
        if public and ephemeral:
            log.info("a private answer to %s fills its public placeholder", interaction.id)
        edited = await interaction.edit_original_response(
            content=content, attachments=list(files), **extra
        )
        return None if ephemeral else edited
    if private:  # a public answer after a private acknowledgement: the member's copy first
        await interaction.edit_original_response(content=content)
    if files:
        extra["files"] = list(files)
    sent = await interaction.followup.send(content, ephemeral=ephemeral, wait=True, **extra)
    return None if ephemeral else sent


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
    interaction: discord.Interaction[Any],
    error: BaseException,
    *,
    context: str | Callable[[], Awaitable[str]] = "",
) -> None:
    """Answer the member for ``error`` (privately), then log it if it is a bug, with its
    ``context`` (which game; or a coroutine that finds it, asked only for a bug, once the member
    has the answer). Never raises."""
    text = friendly_message(error, interaction.locale)
    try:
        await send_ephemeral(interaction, text or message("apology", interaction.locale))
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id)
    if text is None:
        original = getattr(error, "original", error)
        command = interaction.command.qualified_name if interaction.command else None
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = data.get("custom_id")
        where = context if isinstance(context, str) else await context()
        log.error(
            "error in %s (%s) for user %s in channel %s of server %s",
            command or custom_id or "interaction",
            where or "no game",
            interaction.user.id,
            interaction.channel_id,
            interaction.guild_id,
            exc_info=original,
        )


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
        # The game's context is for the log of a bug only, and asks the database: after the
        # answer.
        await report_error(interaction, error, context=lambda: self._game_context(interaction))
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
