"""The channel permissions the bot uses, listed once: the checks before a game opens read them,
and so does the invite link (``gamenight invite``).

Answers to interactions need no channel permission, so a lobby would open in a channel where the
bot cannot post its calls; the check uses the permissions Discord sends with each interaction
(``app_permissions``), which already include the channel's overwrites.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import LocaleLike, is_spanish
from bot.replies import UserError

# What the games post in a channel: messages (calls, results, summaries) with pictures.
CHANNEL_PERMISSIONS: tuple[str, ...] = ("view_channel", "send_messages", "attach_files")
# In a thread, Discord checks Send Messages in Threads instead of Send Messages.
THREAD_PERMISSIONS: tuple[str, ...] = ("view_channel", "send_messages_in_threads", "attach_files")

# A planned game night is announced as a Discord scheduled event (an external one), which the bot
# creates with Create Events: Discord asks for exactly that, Manage Events alone does not do
# (Guild Scheduled Event, Permissions Requirements). Its own events it then starts, ends or
# deletes with Create Events or Manage Events. Without them the night still happens.
EVENT_PERMISSIONS: tuple[str, ...] = ("create_events",)
OWN_EVENT_PERMISSIONS: tuple[str, ...] = ("create_events", "manage_events")

# A game's calls spoken in a voice channel: the bot joins it (View Channel, Connect) and speaks
# there (Speak: without it Discord drops its audio). Without them the game goes on in text.
VOICE_PERMISSIONS: tuple[str, ...] = ("view_channel", "connect", "speak")

# What the invite link asks for: everything the checks require, wherever a game is played (its
# calls spoken in a voice channel included), and nothing else. The bot needs no other permission:
# it edits only its own messages, reads no messages or history, sends no embeds, reactions or
# custom emoji, and answers interactions (which need none). DMs need no server permission.
INVITE_PERMISSIONS: tuple[str, ...] = tuple(
    dict.fromkeys(CHANNEL_PERMISSIONS + THREAD_PERMISSIONS + EVENT_PERMISSIONS + VOICE_PERMISSIONS)
)

PERMISSION_NAMES: dict[str, tuple[str, str]] = {
    "view_channel": ("View Channel", "Ver canal"),
    "send_messages": ("Send Messages", "Enviar mensajes"),
    "send_messages_in_threads": ("Send Messages in Threads", "Enviar mensajes en hilos"),
    "attach_files": ("Attach Files", "Adjuntar archivos"),
    "create_events": ("Create Events", "Crear eventos"),
    "connect": ("Connect", "Conectar"),
    "speak": ("Speak", "Hablar"),
}


def needed_in(channel: object) -> tuple[str, ...]:
    """The permissions the games need in ``channel`` (a thread needs its own send permission)."""
    return THREAD_PERMISSIONS if isinstance(channel, discord.Thread) else CHANNEL_PERMISSIONS


def invite_permissions() -> discord.Permissions:
    """:data:`INVITE_PERMISSIONS` as Discord's bit set, for the OAuth2 invite link."""
    return discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS, True))


def missing_permissions(granted: discord.Permissions, channel: object = None) -> list[str]:
    """The permissions of :func:`needed_in` that ``granted`` lacks, in a fixed order."""
    return [name for name in needed_in(channel) if not getattr(granted, name)]


def can_create_events(granted: discord.Permissions) -> bool:
    """Whether ``granted`` (the bot's server permissions) lets it announce a game night as a
    Discord scheduled event: Create Events, whatever else it holds (Administrator holds it)."""
    return all(getattr(granted, name) for name in EVENT_PERMISSIONS)


def can_change_own_events(granted: discord.Permissions) -> bool:
    """Whether ``granted`` lets the bot start, end or delete the events it created."""
    return any(getattr(granted, name) for name in OWN_EVENT_PERMISSIONS)


def require_posting(interaction: discord.Interaction[Any]) -> None:
    """Refuse, naming what is missing, if the bot cannot post its game in this channel."""
    missing = missing_permissions(interaction.app_permissions, interaction.channel)
    if missing:
        raise UserError(
            "bot_cannot_post",
            channel=interaction.channel_id,
            permissions=permission_names(missing, interaction.locale),
        )


def permission_names(names: list[str], locale: LocaleLike) -> str:
    """``names`` as Discord shows them in server settings, in the reader's language."""
    index = 1 if is_spanish(locale) else 0
    return ", ".join(f"**{PERMISSION_NAMES[name][index]}**" for name in names)
