"""The caller's character: the cantor's verses (and riddles) and Housie's call names, in the call
messages and pictures. The real bot against the emulator."""

from __future__ import annotations

import asyncio

from bot.call_names import nickname
from cogs.loteria.verses import verse_of
from emulator import Emulator
from engine.fairness import draw_order
from tests.cogs.helpers import button_id, run_calls


async def open_game(emulator: Emulator, start_bot, command: str, seed: bytes, **options):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    lobby = await (await host.slash(command, **options)).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games()
    return bot, game, channel, host


async def test_each_card_comes_with_the_cantors_verse(emulator: Emulator, start_bot):
    seed = bytes(range(32))
    bot, game, channel, _ = await open_game(emulator, start_bot, "loteria start", seed)
    await run_calls(bot.get_cog("Lotería"), game.id, 3)
    order = draw_order(seed, 54)
    for seq, message in enumerate([m for m in channel.messages if " of 54" in m.content], 1):
        sung = verse_of(order[seq - 1])
        for line in sung.lines("es") + sung.lines("en"):
            assert line in message.content  # Spanish, and the English rendering in English
        assert "Verse:" in message.attachments[0].description


async def test_verses_can_be_turned_off(emulator: Emulator, start_bot):
    seed = bytes(range(32))
    bot, game, channel, _ = await open_game(
        emulator, start_bot, "loteria start", seed, verses="off"
    )
    await run_calls(bot.get_cog("Lotería"), game.id, 1)
    call = channel.messages[-1]
    assert verse_of(draw_order(seed, 54)[0]).lines("es")[0] not in call.content
    assert "Verse:" not in call.attachments[0].description


async def test_a_riddle_comes_first_and_claims_wait_for_the_card(emulator: Emulator, start_bot):
    seed = bytes(range(32))
    bot, game, channel, host = await open_game(
        emulator, start_bot, "loteria start", seed, verses="riddle"
    )
    cog = bot.get_cog("Lotería")
    # A riddle pause of 1 s (the game's own caller, waiting on the old scale, stays asleep).
    bot.time_scale = 0.25
    await run_calls(cog, game.id, 1)
    card = cog.state_of(await bot.storage.get_game(game.id)).deck.card(draw_order(seed, 54)[1])
    calling = asyncio.create_task(cog.call_next(game.id))
    riddle = await channel.wait_for_message(lambda m: "guess it" in m.content)
    assert card.spanish not in riddle.content
    assert verse_of(card.number).lines("es")[0] in riddle.content
    assert not riddle.attachments
    # Until the card is revealed, a claim is judged on the calls the channel has seen.
    claim = await (await host.slash("loteria claim")).reply()
    assert "False claim" in claim.content
    assert card.spanish not in claim.content
    (judged,) = await bot.storage.claims(game.id)
    assert judged.step == 1
    assert await calling
    revealed = await channel.wait_for_message(lambda m: "card 2 of 54" in m.content)
    assert revealed.id == riddle.id  # the same message, edited
    assert card.spanish in revealed.content
    assert revealed.attachments
    draws = await bot.storage.draws(game.id)
    assert draws[1].message_id == revealed.id


async def test_housie_calls_have_names_and_a_picture(emulator: Emulator, start_bot):
    seed = bytes(range(32))
    bot, game, channel, _ = await open_game(emulator, start_bot, "housie start", seed)
    await run_calls(bot.get_cog("Housie"), game.id, 10)
    order = draw_order(seed, 90)
    calls = [m for m in channel.messages if " of 90" in m.content]
    assert len(calls) == 10
    for seq, message in enumerate(calls, 1):
        assert nickname(order[seq - 1], "en-US") in message.content
        assert f"number {order[seq - 1]}" in message.attachments[0].description.lower()
    assert len(calls[-1].attachments) == 2  # every tenth call also shows the caller's board


async def test_housie_calls_can_be_plain(emulator: Emulator, start_bot):
    seed = bytes(range(32))
    bot, game, channel, _ = await open_game(
        emulator, start_bot, "housie start", seed, calls="plain"
    )
    await run_calls(bot.get_cog("Housie"), game.id, 1)
    assert nickname(draw_order(seed, 90)[0], "en-US") not in channel.messages[-1].content
