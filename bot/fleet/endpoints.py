"""Point discord.py at another Discord API and gateway: a REST proxy or the local emulator."""

from __future__ import annotations

import ipaddress
from typing import Any

import aiohttp
import discord.gateway
import discord.http
import yarl

_discords_ws_connect = discord.http.HTTPClient.ws_connect


def apply_endpoints(api_base_url: str | None, gateway_url: str | None) -> None:
    """Set discord.py's REST base URL and default gateway URL when given (None keeps Discord's).

    These are process-wide class attributes of discord.py: ``discord.http.Route.BASE`` and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``. A non-sharded client connects to the
    default gateway directly; a sharded one asks ``GET /gateway/bot`` on the REST base.

    Endpoints on loopback (the emulator, for tests and the sandbox) also make discord.py's
    websockets to loopback hosts plain ``ws://``: it opens voice gateways as ``wss://`` with no
    setting, and the emulator's is plain on loopback (no Discord server is ever there).
    """
    if api_base_url:
        discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    if any(url and is_loopback(yarl.URL(url).host) for url in (api_base_url, gateway_url)):
        use_plain_loopback_websockets()


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` is this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host is None:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def _plain_on_loopback(
    self: discord.http.HTTPClient, url: str, *, compress: int = 0
) -> aiohttp.ClientWebSocketResponse:
    parsed = yarl.URL(url)
    if parsed.scheme == "wss" and is_loopback(parsed.host):
        url = str(parsed.with_scheme("ws"))
    return await _discords_ws_connect(self, url, compress=compress)


def use_plain_loopback_websockets() -> None:
    """From now on, discord.py's websockets to loopback hosts connect without TLS."""
    patched: Any = _plain_on_loopback
    discord.http.HTTPClient.ws_connect = patched  # type: ignore[method-assign]


def current_endpoints() -> tuple[str, str]:
    """The REST base URL and default gateway URL discord.py uses now."""
    return discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
