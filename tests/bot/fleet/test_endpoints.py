"""``bot.fleet.endpoints.apply_endpoints`` points discord.py at another REST base and gateway."""

from __future__ import annotations

import discord.gateway
import discord.http
import pytest
import yarl

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
