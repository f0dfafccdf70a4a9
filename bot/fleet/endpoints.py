"""Point discord.py at another Discord API and gateway: a REST proxy or the local emulator."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def apply_endpoints(api_base_url: str | None, gateway_url: str | None) -> None:
    """Set discord.py's REST base URL and default gateway URL when given (None keeps Discord's).

    These are process-wide class attributes of discord.py: ``discord.http.Route.BASE`` and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``. A non-sharded client connects to the
    default gateway directly; a sharded one asks ``GET /gateway/bot`` on the REST base.
    """
    if api_base_url:
        discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def current_endpoints() -> tuple[str, str]:
    """The REST base URL and default gateway URL discord.py uses now."""
    return discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
