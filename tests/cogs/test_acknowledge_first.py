"""Showing a player's boards acknowledges the interaction before rendering, so a render that
waits its turn under load (many games calling, a cold start) cannot miss Discord's 3 s."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot import app
from emulator import Emulator
from tests.cogs.helpers import button_id, over_the_network

pytestmark = over_the_network

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


async def test_boards_are_acknowledged_before_they_are_rendered(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot()
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()

    cog = bot.get_cog("Lotería")
    real_render = type(cog).render_boards
    rendering, release = threading.Event(), threading.Event()

    def slow_render(self, game, boards, called, locale=None):
        rendering.set()
        release.wait(10)
        return real_render(self, game, boards, called, locale)

    monkeypatch.setattr(type(cog), "render_boards", slow_render)
    shown = await host.slash("loteria tabla")
    try:
        await emulator.wait_until(rendering.is_set, 5, lambda: "the render to start")
        assert await shown.acknowledgement() == 5  # deferred while the render is still going
        assert shown.ephemeral
    finally:
        release.set()
    reply = await shown.reply()
    assert reply.ephemeral
    assert "your tabla" in reply.content
    assert reply.attachments


async def test_a_join_is_dealt_only_once_the_interactions_before_it_are_acknowledged(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    player = guild.add_member("player")
    bot = await start_bot()
    lobby = await (await host.slash("loteria start")).reply()
    (game,) = await bot.storage.live_games("loteria")
    assert bot.pending_acks.waiting() == 0  # every interaction so far was acknowledged

    # Another interaction of the rush, received and not acknowledged yet.
    bot.pending_acks.arrived(1)
    joined = await player.click(lobby, button_id(lobby, "join"))
    assert await joined.acknowledgement() == 5  # the Join itself is deferred at once
    await asyncio.sleep(0.3)
    assert await bot.storage.get_player(game.id, player.id) is None  # but not dealt yet
    assert not player.dms

    bot.pending_acks.answered(1)
    reply = await joined.reply()
    assert "Check your DMs" in reply.content
    assert await bot.storage.get_player(game.id, player.id) is not None
    assert player.dms
    assert bot.pending_acks.waiting() == 0


async def test_a_rush_is_answered_over_a_few_connections_of_its_own(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    """Answers reuse a small pool of warm connections (discord.py's own pool would open one per
    click in flight, each a TLS handshake on Discord), apart from the DMs and lobby edits."""
    monkeypatch.setattr(app, "ANSWER_CONNECTIONS", 2)
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    players = [guild.add_member(f"player{n}") for n in range(16)]
    await start_bot()
    lobby = await (await host.slash("loteria start")).reply()
    clicks = await asyncio.gather(
        *(player.click(lobby, button_id(lobby, "join")) for player in players)
    )
    for click in clicks:
        assert "Check your DMs" in (await click.reply()).content

    answers = [r for r in emulator.requests if r.route == CALLBACK]
    assert len(answers) == len(players) + 1  # every click and the host's command
    answer_ports = {r.client_port for r in answers}
    assert None not in answer_ports
    assert len(answer_ports) <= 2
    others = {
        r.client_port for r in emulator.requests if r.route and r.route.startswith("/channels")
    }
    assert others  # the DMs and the lobby went over discord.py's own connections
    assert answer_ports.isdisjoint(others)
