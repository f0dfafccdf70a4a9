"""``bot.fleet.endpoints.apply_endpoints`` points discord.py at another REST base and gateway."""

from __future__ import annotations

import asyncio

import aiohttp
import discord.gateway
import discord.http
import pytest
import yarl
from aiohttp import web

from bot.fleet import endpoints
from bot.fleet.endpoints import apply_endpoints, current_endpoints


@pytest.fixture
def restore_endpoints():
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = before


def test_both_urls_are_applied(restore_endpoints):
    apply_endpoints("http://127.0.0.1:8080/api/v10/", "ws://127.0.0.1:8080/gateway")
    assert discord.http.Route.BASE == "http://127.0.0.1:8080/api/v10"
    assert (
        yarl.URL("ws://127.0.0.1:8080/gateway") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == "http://127.0.0.1:8080/api/v10/users/@me"
    assert current_endpoints() == ("http://127.0.0.1:8080/api/v10", "ws://127.0.0.1:8080/gateway")


def test_none_keeps_discords_own(restore_endpoints):
    before = current_endpoints()
    apply_endpoints(None, None)
    assert current_endpoints() == before
    apply_endpoints("http://proxy.example/api/v10", None)
    assert current_endpoints() == ("http://proxy.example/api/v10", before[1])


@pytest.fixture
def discords_ws_connect():
    before = discord.http.HTTPClient.ws_connect
    discord.http.HTTPClient.ws_connect = endpoints._discords_ws_connect  # as discord.py has it
    yield
    discord.http.HTTPClient.ws_connect = before


async def websocket_server():
    """A plain ws:// server on loopback that echoes one message."""

    async def echo(request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        async for message in socket:
            await socket.send_str(f"echo {message.data}")
            break
        return socket

    app = web.Application()
    app.router.add_get("/voice", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    return runner, port


async def test_loopback_endpoints_make_discords_wss_to_loopback_plain(
    restore_endpoints, discords_ws_connect
):
    """discord.py opens voice gateways as wss://; the emulator's is plain ws:// on loopback."""
    runner, port = await websocket_server()
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    session = aiohttp.ClientSession()
    http._HTTPClient__session = session  # what its login makes; no token is needed here
    try:
        # Pointed at Discord itself: nothing changes (wss:// on loopback fails its TLS handshake).
        apply_endpoints("https://discord.com/api/v10", None)
        assert discord.http.HTTPClient.ws_connect is endpoints._discords_ws_connect
        apply_endpoints(f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}/gateway")
        socket = await http.ws_connect(f"wss://127.0.0.1:{port}/voice?v=8")
        await socket.send_str("hello")
        assert (await socket.receive()).data == "echo hello"
        await socket.close()
    finally:
        await session.close()
        await runner.cleanup()
