"""Joins, starts and claims as a real Discord serves them: 50-150 ms each way for every request,
its answer and every gateway event (Discord's 3 s count from when the interaction is created,
so the network takes its share), and Discord's rate limits on. While the crowd presses, the
database is slow too (1.5 s a query or a write: a server over a network, or a busy one): every
press must still be acknowledged within the 3 s, which leaves no room for a read before it.
"""

from __future__ import annotations

import asyncio

from emulator import Emulator
from emulator.interactions import InteractionResult
from tests.cogs.helpers import SlowDatabase, button_id, over_the_network, run_calls

pytestmark = over_the_network

SLOW = 1.5  # seconds per database call while the crowd presses
ACK = 3.0  # Discord's deadline


async def acknowledged(results: list[InteractionResult]) -> None:
    for result in results:
        await result.acknowledgement(ACK)


async def test_a_crowd_joins_and_claims_over_a_slow_network(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    players = [guild.add_member(f"p{n}") for n in range(10)]
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(32)))
    db = SlowDatabase(bot.storage)

    lobby = await (await host.slash("loteria start", prizes="full")).reply()
    joins = await asyncio.gather(
        *(p.click(lobby, button_id(lobby, "join")) for p in players[:5]),
        *(p.slash("loteria join") for p in players[5:]),
    )
    for join in joins:
        reply = await join.reply(timeout=30)
        assert reply.ephemeral
        assert "Check your DMs" in reply.content
    again = await (await players[0].click(lobby, button_id(lobby, "join"))).reply()
    assert "already" in again.content
    assert all(p.dms for p in players)
    started = await (await host.click(lobby, button_id(lobby, "start"))).reply()
    assert started.ephemeral
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(bot.get_cog("Lotería"), game.id, 5)
    call = next(m for m in reversed(channel.messages) if m.custom_ids)

    # Nobody can hold the full tabla after 5 calls: every press is judged, and false.
    with db.slow(SLOW):
        presses = await asyncio.gather(
            *(p.click(call, button_id(call, "claim")) for p in players[:6]),
            players[0].click(call, button_id(call, "claim")),  # a double press
            *(p.slash("loteria claim") for p in players[6:]),
            host.slash("loteria claim"),  # not playing
        )
        await acknowledged(presses)
    answers = [await press.reply(timeout=30) for press in presses]
    verdicts = [a for a in answers if not a.ephemeral]
    refusals = [a for a in answers if a.ephemeral]
    assert len(verdicts) == len(players)
    assert all("False claim" in v.content for v in verdicts)
    assert sorted("judged" in r.content or "not playing" in r.content for r in refusals) == [
        True,
        True,
    ]
    claims = await bot.storage.claims(game.id)
    assert len(claims) == len(players)  # each press judged once


async def test_housie_claims_over_a_slow_network(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Tambola")
    channel = guild.add_channel("housie")
    host = guild.add_member("host")
    players = [guild.add_member(f"p{n}") for n in range(4)]
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(50, 82)))
    db = SlowDatabase(bot.storage)

    lobby = await (await host.slash("housie start", tickets=2)).reply()
    for player in players:
        await (await player.slash("housie join", tickets=2)).reply(timeout=30)
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("housie")
    await run_calls(bot.get_cog("Housie"), game.id, 4)
    call = next(m for m in reversed(channel.messages) if m.custom_ids)

    with db.slow(SLOW):
        choices = await players[0].autocomplete("housie claim", "prize", "", timeout=ACK)
        pickers = await asyncio.gather(*(p.click(call, button_id(call, "claim")) for p in players))
        await acknowledged(pickers)
    assert {c["value"] for c in choices} >= {"E5", "FH"}
    picked = [await picker.reply(timeout=30) for picker in pickers]
    assert all(p.ephemeral for p in picked)
    with db.slow(SLOW):
        claims = await asyncio.gather(
            *(
                player.click(offer, next(c for c in offer.custom_ids if ":prize" in c))
                for player, offer in zip(players[:2], picked, strict=False)
            ),
            *(p.slash("housie claim", prize="FH", ticket=1) for p in players[2:]),
            players[2].slash("housie claim", prize="FH", ticket=5),  # no such ticket
        )
        await acknowledged(claims)
    answers = [await claim.reply(timeout=30) for claim in claims]
    assert all("Bogey" in a.content and not a.ephemeral for a in answers[:-1])
    assert answers[-1].ephemeral
    assert "no number 5" in answers[-1].content


async def test_table_games_over_a_slow_network(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice, bob, carol = (guild.add_member(name) for name in ("alice", "bob", "carol"))
    bot = await start_bot(time_scale=1)
    db = SlowDatabase(bot.storage)

    with db.slow(SLOW):
        challenge = await alice.slash("tictactoe play", opponent=bob)
        busy = await carol.slash("tictactoe play", opponent=alice)
        await acknowledged([challenge])
        await busy.acknowledgement(ACK)
    board = await challenge.reply(timeout=30)
    game = int(board.custom_ids[0].split(":")[3])
    with db.slow(SLOW):
        accepted = await bob.click(board, f"gn:ttt:accept:{game}")
        await acknowledged([accepted])
    await emulator.wait_until(
        lambda: len(board.buttons) == 10, 30, lambda: f"the board: {accepted.followups} {accepted}"
    )
    for player, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4)):
        with db.slow(SLOW):
            moved = await player.click(board, f"gn:ttt:cell:{game}:{cell}")
            await acknowledged([moved])
        await emulator.wait_until(
            lambda c=cell: board.component(f"gn:ttt:cell:{game}:{c}")["label"] in {"X", "O"},
            30,
            lambda: "the move shown",
        )
    with db.slow(SLOW):
        won = await alice.click(board, f"gn:ttt:cell:{game}:2")
        await acknowledged([won])
    result = await channel.wait_for_message(
        lambda m: m.content.startswith(f"🏁 Tic-tac-toe #{game}:"), timeout=30
    )
    with db.slow(SLOW):
        rematch = await bob.click(result, f"gn:ttt:rematch:{game}")
        await acknowledged([rematch])
    offer = await rematch.reply(timeout=30)
    assert not offer.ephemeral
    assert alice.mention in offer.content
