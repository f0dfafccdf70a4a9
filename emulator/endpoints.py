"""Point discord.py at the emulator (or any other Discord API and gateway).

discord.py reads two process-wide class attributes: ``discord.http.Route.BASE`` (the REST base)
and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (where a non-sharded client connects; a
sharded one asks ``GET /gateway/bot`` on the REST base). The emulator sets them itself so that
it depends on nothing but discord.py; a bot pointing at a REST proxy has its own switch.

Voice: discord.py opens ``wss://{endpoint}/?v=8`` with the endpoint of VOICE_SERVER_UPDATE and
has no switch for it; the emulator's voice gateway is plain ``ws://`` on loopback, so
:func:`use_plain_voice_websockets` (called by :func:`use_endpoints`) makes discord.py's websocket
connections to loopback hosts plain. No Discord voice server is ever on loopback.
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord.gateway
import discord.http
import yarl

_original_ws_connect = discord.http.HTTPClient.ws_connect


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def _ws_connect(
    self: discord.http.HTTPClient, url: str, *, compress: int = 0
) -> aiohttp.ClientWebSocketResponse:
    parsed = yarl.URL(url)
    if parsed.scheme == "wss" and parsed.host is not None and is_loopback(parsed.host):
        url = str(parsed.with_scheme("ws"))
    return await _original_ws_connect(self, url, compress=compress)


def use_plain_voice_websockets() -> None:
    """From now on, discord.py's websockets to loopback hosts (``wss://127.0.0.1:...``, as it
    builds the voice gateway's URL from the emulator's endpoint) connect without TLS."""
    patched: Any = _ws_connect
    discord.http.HTTPClient.ws_connect = patched  # type: ignore[method-assign]


def current_endpoints() -> tuple[str, str]:
    """The REST base URL and default gateway URL discord.py uses now."""
    return discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


def use_endpoints(api_base_url: str, gateway_url: str) -> None:
    """From now on, discord.py in this process talks to ``api_base_url`` and ``gateway_url``
    (e.g. a bot process started with the emulator's ``DISCORD_API_BASE_URL`` and
    ``DISCORD_GATEWAY_URL``)."""
    discord.http.Route.BASE = api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    use_plain_voice_websockets()


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
