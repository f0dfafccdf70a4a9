"""The link that adds the bot to a server: Discord's OAuth2 authorisation URL with the scopes and
exactly the permissions the bot uses (``bot.permissions.INVITE_PERMISSIONS``)."""

from __future__ import annotations

import base64
import binascii

import discord

from bot.permissions import invite_permissions

# ``bot`` adds the bot user to the server; ``applications.commands`` lets it create slash commands
# there.
SCOPES: tuple[str, ...] = ("bot", "applications.commands")


class NoClientIdError(ValueError):
    """The application id could not be found; the message says where to find it."""


def client_id_from_token(token: str) -> int:
    """The bot user's id, which a bot token carries in its first segment (base64 of the id in
    decimal). For every bot created today that id is also its application's id, the OAuth2
    client id; for a few very old bots the two differ (then pass the application id yourself).
    The rest of the token, the secret part, is not read."""
    head = token.strip().removeprefix("Bot ").split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        decoded = ""
    if not decoded.isdigit() or not 1 <= len(decoded) <= 20:
        raise NoClientIdError(
            "DISCORD_TOKEN does not look like a bot token (its first part should be the bot's id "
            "in base64), so the client id cannot be read from it; pass --client-id with the "
            "Application ID from the Developer Portal (your application > General Information)"
        )
    return int(decoded)


def invite_url(client_id: int, *, guild_id: int | None = None) -> str:
    """The OAuth2 URL that adds the bot, with its slash commands, to a server (``guild_id``
    pre-selects one), asking for :func:`bot.permissions.invite_permissions`."""
    return discord.utils.oauth_url(
        client_id,
        permissions=invite_permissions(),
        scopes=SCOPES,
        guild=discord.Object(guild_id) if guild_id is not None else discord.utils.MISSING,
    )
