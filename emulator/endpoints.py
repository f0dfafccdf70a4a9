"""Point discord.py at the emulator (or any other Discord API and gateway).

discord.py reads two process-wide class attributes: ``discord.http.Route.BASE`` (the REST base)
and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (where a non-sharded client connects; a
sharded one asks ``GET /gateway/bot`` on the REST base). The emulator sets them itself so that
it depends on nothing but discord.py; a bot pointing at a REST proxy has its own switch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import discord.gateway
import discord.http
import yarl


def current_endpoints() -> tuple[str, str]:
    """The REST base URL and default gateway URL discord.py uses now."""
    return discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


def use_endpoints(api_base_url: str, gateway_url: str) -> None:
    """From now on, discord.py in this process talks to ``api_base_url`` and ``gateway_url``
    (e.g. a bot process started with the emulator's ``DISCORD_API_BASE_URL`` and
    ``DISCORD_GATEWAY_URL``)."""
    discord.http.Route.BASE = api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@contextlib.contextmanager
def endpoints(api_base_url: str, gateway_url: str) -> Iterator[None]:
    """discord.py talks to ``api_base_url`` and ``gateway_url`` inside the block, and to what it
    talked to before after it."""
    previous_api, previous_gateway = current_endpoints()
    use_endpoints(api_base_url, gateway_url)
    try:
        yield
    finally:
        use_endpoints(previous_api, previous_gateway)
