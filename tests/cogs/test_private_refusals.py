"""Refusals reach the member privately, by Discord's documented paths only.

A refusal used to be sent, after a public "thinking..." placeholder, by deleting the placeholder
and following up privately: what Discord does with a follow-up once its deferred response is
gone is not documented (it answered 10008 until 2021), and the emulator now refuses it
(``followup_after_deleted_placeholder``). Each refusal here is one that came after a public
acknowledgement before: it must now be a private first answer (decided from what the bot holds
in memory) or fill a private placeholder, and the bot must never delete a placeholder.
"""

from __future__ import annotations

from emulator import CallbackType, Emulator
from emulator.interactions import InteractionResult
from tests.cogs.helpers import button_id, over_the_network, run_calls

pytestmark = over_the_network

ORIGINAL = "/messages/@original"


def deleted_placeholders(emulator: Emulator) -> list[str]:
    return [r.path for r in emulator.requests if r.method == "DELETE" and r.path.endswith(ORIGINAL)]


async def refused(result: InteractionResult, words: str) -> None:
    reply = await result.reply()
    assert reply.ephemeral, reply.content
    assert words in reply.content, reply.content


async def test_calling_game_refusals_are_private(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    guild.add_channel("quiet")
    host = guild.add_member("host")
    player, stranger = guild.add_member("player"), guild.add_member("stranger")
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(32)))

    lobby = await (await host.slash("loteria start", prizes="line")).reply()
    # One calling game per channel.
    await refused(await host.slash("housie start"), "is already on in this channel")
    for member in (host, player):
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await refused(await player.slash("loteria claim"), "has not started")
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(bot.get_cog("Lotería"), game.id, 3)

    await refused(await stranger.slash("loteria claim"), "not playing")
    await refused(await player.slash("loteria claim", pattern="corners"), "not being played")
    await refused(await player.slash("housie board"), "no Housie game in this channel")
    await refused(await host.slash("loteria resume"), "is not paused")
    await (await host.slash("loteria pause")).reply()
    await refused(await host.slash("loteria pause"), "is not running")
    await refused(await player.slash("loteria speed", seconds=20), "Only the host")
    await refused(await host.slash("loteria stop", in_channel=guild.channels[1]), "no Lotería game")
    await (await host.slash("loteria resume")).reply()
    await refused(await host.slash("loteria verify", game=game.id), "still on")

    await (await host.slash("loteria stop")).reply()
    await general.wait_for_message(lambda m: "is over" in m.content)
    call = next(m for m in reversed(general.messages) if m.custom_ids)
    await refused(await player.click(call, button_id(call, "claim")), "is over")
    await refused(await player.slash("loteria claim"), "no Lotería game")
    await refused(await host.slash("loteria verify", game=game.id + 7), "no Lotería game")

    assert deleted_placeholders(emulator) == []


async def test_table_game_refusals_are_private(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    alice, bob, carol = (guild.add_member(name) for name in ("alice", "bob", "carol"))
    await start_bot(time_scale=1)

    await (await alice.slash("tictactoe play", opponent=bob)).reply()
    await refused(await alice.slash("tictactoe play"), "already in Tic-tac-toe")
    await refused(await carol.slash("tictactoe play", opponent=alice), "already in Tic-tac-toe")
    await (await alice.slash("triangle play")).reply()
    await refused(await alice.slash("triangle play"), "already in Tricky Triangle")

    board = await (await bob.slash("tictactoe play")).reply()  # against the bot
    game = int(board.custom_ids[0].split(":")[3])
    await refused(await carol.click(board, f"gn:ttt:cell:{game}:4"), "Start your own")
    await (await bob.click(board, f"gn:ttt:resign:{game}")).reply()
    result = await general.wait_for_message(
        lambda m: m.content.startswith(f"🏁 Tic-tac-toe #{game}:")
    )
    await refused(await carol.click(result, f"gn:ttt:rematch:{game}"), "Only the players")
    rematch = await (await bob.click(result, f"gn:ttt:rematch:{game}")).reply()
    assert not rematch.ephemeral
    await refused(await bob.click(result, f"gn:ttt:rematch:{game}"), "rematch is already on")

    assert deleted_placeholders(emulator) == []


async def test_a_refusal_found_after_a_public_acknowledgement_fills_the_placeholder(
    emulator: Emulator, start_bot
):
    """A game the bot's memory does not hold (stored behind its back, as a race would): the
    start is acknowledged publicly, and the database then refuses it. The refusal fills the
    placeholder (public, then: a race), which is never deleted for a private follow-up."""
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot()
    await bot.storage.create_game(
        kind="loteria",
        guild_id=guild.id,
        channel_id=general.id,
        host_id=host.id,
        seed=bytes(32),
        options={},
    )
    start = await host.slash("housie start")
    busy = await start.reply()
    assert start.response_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    assert "is already on in this channel" in busy.content
    assert busy in general.messages  # the public placeholder, filled
    assert deleted_placeholders(emulator) == []
