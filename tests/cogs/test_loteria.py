"""Lotería end to end: the real bot and cogs against the emulator and a real SQLite file."""

from __future__ import annotations

import asyncio

from emulator import Emulator
from engine.fairness import commitment, draw_order
from engine.loteria import Tabla


async def test_a_small_loteria_night(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob", dms_open=False)
    bot = await start_bot()

    started = await host.slash("loteria start", prizes="line", interval=5)
    lobby = await started.reply()
    assert "Lotería" in lobby.content
    assert "commitment" in lobby.content

    for member in (host, alice, bob):
        joined = await member.click(lobby, next(i for i in lobby.custom_ids if ":join:" in i))
        reply = await joined.reply()
        assert reply.ephemeral
    assert len(alice.dms) == 1
    assert alice.dms[0].attachments[0].data.startswith(b"\x89PNG")
    assert (
        "Tabla" in alice.dms[0].attachments[0].description
        or alice.dms[0].attachments[0].description
    )
    bob_reply = await joined.reply()
    assert bob_reply.attachments, "a member with closed DMs gets the tabla in the reply"
    assert "DM" in bob_reply.content

    game = (await bot.storage.live_games("loteria"))[0]
    start_click = await host.click(lobby, next(i for i in lobby.custom_ids if ":start:" in i))
    await start_click.reply()

    # Wait for a few calls and compare with the seed's order.
    def calls():
        return [m for m in channel.messages if "card" in m.content and " of 54" in m.content]

    await emulator.wait_until(lambda: len(calls()) >= 6 or None, 20, lambda: "six calls")
    game = await bot.storage.get_game(game.id)
    assert game is not None
    order = draw_order(game.seed, 54)
    draws = await bot.storage.draws(game.id)
    assert [d.value for d in draws][: len(draws)] == list(order[: len(draws)])
    assert lobby.content.count(commitment(game.seed)) == 1
    await asyncio.sleep(0)
    tabla = Tabla.from_state((await bot.storage.boards(game.id, alice.id))[0].state)
    assert len(tabla.numbers) == 16
    # Bob's DMs are closed: the bot tried once, was refused, and fell back to the reply.
    assert [f.kind for f in emulator.take_failures("dm_closed")] == ["dm_closed"]
