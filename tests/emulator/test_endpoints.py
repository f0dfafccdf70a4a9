"""``emulator.endpoints`` points discord.py at the emulator, and back."""

from __future__ import annotations

import discord.gateway
import discord.http
import pytest
import yarl

from emulator.endpoints import current_endpoints, endpoints, use_endpoints


@pytest.fixture
def restore_endpoints():
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = before


def test_use_endpoints_points_rest_and_gateway(restore_endpoints):
    use_endpoints("http://127.0.0.1:8080/api/v10/", "ws://127.0.0.1:8080/gateway")
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == "http://127.0.0.1:8080/api/v10/users/@me"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert str(gateway) == "ws://127.0.0.1:8080/gateway"
    assert isinstance(gateway, yarl.URL)
    assert current_endpoints() == ("http://127.0.0.1:8080/api/v10", "ws://127.0.0.1:8080/gateway")


def test_the_block_restores_what_was_there(restore_endpoints):
    before = current_endpoints()
    with endpoints("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway"):
        assert current_endpoints() == ("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway")
    assert current_endpoints() == before


def test_the_block_restores_after_an_error(restore_endpoints):
    before = current_endpoints()
    with (
        pytest.raises(RuntimeError),
        endpoints("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway"),
    ):
        raise RuntimeError("boom")
    assert current_endpoints() == before
