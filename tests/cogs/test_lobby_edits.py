"""Lobby edits share the bot's global request budget with the DMs that deal boards: with many
lobbies each is edited less often, but starting a game updates its lobby at once."""

from __future__ import annotations

import asyncio

import pytest

from bot import calling
from bot.calling import LOBBY_EDIT_INTERVAL, LOBBY_EDITS_PER_SECOND, lobby_edit_interval
from emulator import Emulator
from tests.cogs.helpers import button_id


def test_many_lobbies_are_edited_less_often_each():
    assert lobby_edit_interval(0) == LOBBY_EDIT_INTERVAL
    assert lobby_edit_interval(1) == LOBBY_EDIT_INTERVAL
    assert lobby_edit_interval(50) == 50 / LOBBY_EDITS_PER_SECOND
    # Together they stay within the budget once it binds.
    for lobbies in (10, 50, 200):
        assert lobbies / lobby_edit_interval(lobbies) <= LOBBY_EDITS_PER_SECOND


async def test_progress_edits_wait_but_a_start_is_shown_at_once(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    # A budget so small that a lone lobby would wait 100 s between progress edits.
    monkeypatch.setattr(calling.live, "LOBBY_EDITS_PER_SECOND", 0.01)
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob")
    await start_bot()

    lobby = await (await host.slash("loteria start")).reply()

    def lobby_edits() -> int:
        return sum(
            1
            for r in emulator.requests
            if r.method == "PATCH" and r.path.endswith(f"/messages/{lobby.id}")
        )

    await (await alice.click(lobby, button_id(lobby, "join"))).reply()
    await emulator.wait_until(
        lambda: "Players: **1**" in channel.get_message(lobby.id).content or None,
        5,
        lambda: "the first edit",
    )
    await (await bob.click(lobby, button_id(lobby, "join"))).reply()
    await asyncio.sleep(LOBBY_EDIT_INTERVAL + 0.5)
    assert lobby_edits() == 1, "bob's join waits for the lobby's next turn"
    assert "Players: **1**" in channel.get_message(lobby.id).content

    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    shown = await emulator.wait_until(
        lambda: (m := channel.get_message(lobby.id)) and "joins are closed" in m.content and m,
        5,
        lambda: "the lobby to show the game started",
    )
    assert "Players: **2**" in shown.content
    assert not shown.custom_ids, "the lobby's buttons are gone"
    assert lobby_edits() == 2
    await (await host.slash("loteria stop")).reply()
