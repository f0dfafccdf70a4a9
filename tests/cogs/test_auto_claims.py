"""Automatic claims (``claims: auto``): after each call the bot finds every board that completes
a prize being played, stores the wins as claims naming the prize would be stored, and announces
them; boards completing on the same call share the prize. The real bot against the emulator,
with chosen seeds, so that the engine computes here who wins when."""

from __future__ import annotations

import re

import discord
import pytest

from bot.storage import GameStatus
from emulator import Emulator, Fault, RateLimits
from engine.bingo import HIGHEST_NUMBER as BINGO_NUMBERS
from engine.bingo import cards_at, pattern_named
from engine.bingo import check_claim as bingo_check
from engine.fairness import draw_order
from engine.housie import Prize, check_prize, tickets_at
from engine.loteria import Pattern, check_claim, tablas_at
from tests.cogs.helpers import button_id, grace_over, run_calls

# Whole games at the test clock's speed, about who wins rather than Discord's pace: Discord's
# limits on, over windows ten times as short.
pytestmark = [pytest.mark.backends(), pytest.mark.emulator(rate_limits=RateLimits().faster(10))]

# Seed 33 with 6 tablas: Line is completed on call 22 by the tablas dealt 1st and 3rd, and the
# 3rd also holds Four Corners on that call (the next prize, won on the same call).
LOTERIA_SEED = (33).to_bytes(32, "big")
# Seed 405 with 12 tickets: Early Five on call 11 by the 5th and 8th, Top and Bottom Line both
# on call 32, Middle Line on call 34.
HOUSIE_SEED = (405).to_bytes(32, "big")
MINUTE = 60.0


def loteria_wins(
    seed: bytes, players: int, plan: tuple[Pattern, ...]
) -> list[tuple[str, int, set[int]]]:
    """What the rules say, by brute force: each prize in order, the first call on which any
    tabla completes it (from the call the one before was won on), and the deal positions that
    complete it then."""
    order, tablas = draw_order(seed, 54), tablas_at(seed, 0, players)
    wins, start = [], 1
    for pattern in plan:
        for call in range(start, 55):
            won = {
                i
                for i, tabla in enumerate(tablas)
                if check_claim(tabla, order[:call], pattern).valid
            }
            if won:
                wins.append((pattern.value, call, won))
                start = call
                break
    return wins


def housie_wins(
    seed: bytes, players: int, prizes: tuple[Prize, ...]
) -> list[tuple[str, int, set[int]]]:
    """Each of ``prizes`` (all played at once), the first call a ticket completes it on, and the
    deal positions that complete it then."""
    order, tickets = draw_order(seed, 90), tickets_at(seed, 0, players)
    wins = []
    for prize in prizes:
        for call in range(1, 91):
            won = {
                i
                for i, ticket in enumerate(tickets)
                if check_prize(ticket, order[:call], prize).valid
            }
            if won:
                wins.append((prize.value, call, won))
                break
    return wins


def won(winners) -> dict[tuple[str, int], set[int]]:
    """Stored winners by (prize, call)."""
    found: dict[tuple[str, int], set[int]] = {}
    for winner in winners:
        found.setdefault((winner.prize, winner.step), set()).add(winner.user_id)
    return found


def mentions(text: str) -> set[int]:
    return {int(user) for user in re.findall(r"<@(\d+)>", text)}


async def open_game(guild, channel, members, command: str, **options):
    """A lobby opened in ``channel`` by the first member, joined by all in order, started."""
    lobby = await (await members[0].slash(command, in_channel=channel, **options)).reply()
    for member in members:
        # (A deadline, not a timing: the first deal draws the first pictures, on a busy machine.)
        await (await member.click(lobby, button_id(lobby, "join"))).reply(timeout=30)
    await (await members[0].click(lobby, button_id(lobby, "start"))).reply()
    return lobby


async def test_loteria_winners_are_found_on_their_call_and_share(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    members = [guild.add_member(f"p{i}") for i in range(6)]
    plan = (Pattern.LINE, Pattern.CORNERS)
    expected = loteria_wins(LOTERIA_SEED, 6, plan)
    assert expected == [("line", 22, {0, 2}), ("corners", 22, {2})]  # (the seed's promise)
    bot = await start_bot(time_scale=100, seed_source=lambda: LOTERIA_SEED)
    cog = bot.get_cog("Lotería")

    lobby = await open_game(
        guild, channel, members, "loteria start", prizes="line, corners", claims="auto"
    )
    assert "Automatic claims" in lobby.content
    (game,) = await bot.storage.live_games("loteria")
    assert game.options["claims"] == "auto"

    await run_calls(cog, game.id, 21)
    assert await bot.storage.winners(game.id) == []
    assert not [m for m in channel.messages if "🎉" in m.content]
    call = channel.messages[-1]
    assert "card 21 of 54" in call.content
    assert call.custom_ids == []  # no Claim button: there is nothing to claim
    refused = await (await members[1].slash("loteria claim")).reply()
    assert refused.ephemeral
    assert "nothing to claim" in refused.content

    await run_calls(cog, game.id, 1)
    assert won(await bot.storage.winners(game.id)) == {
        (prize, call): {members[i].id for i in seats} for prize, call, seats in expected
    }
    line, corners = [m for m in channel.messages if "🎉" in m.content]
    assert "Line" in line.content
    assert "on call 22, sharing the prize" in line.content
    assert mentions(line.content) == {members[0].id, members[2].id}
    assert len(line.attachments) == 2  # each winning tabla, drawn
    assert "Four corners" in corners.content
    assert "wins on call 22" in corners.content
    assert mentions(corners.content) == {members[2].id}
    assert len(corners.attachments) == 1
    assert channel.messages.index(line) > channel.messages.index(
        next(m for m in channel.messages if "card 22 of 54" in m.content)
    )  # announced after the call they were won on

    assert not await cog.call_next(game.id)  # every prize won: the game ends at once
    summary = channel.messages[-1]
    assert "is over" in summary.content
    assert "The bot found the winners" in summary.content
    assert (await bot.storage.get_game(game.id)).status is GameStatus.FINISHED


async def test_housie_winners_are_found_on_their_call_and_share(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Tambola Club")
    channel = guild.add_channel("housie")
    members = [guild.add_member(f"p{i}", manage_guild=i == 0) for i in range(12)]
    prizes = (Prize.EARLY_FIVE, Prize.TOP_LINE, Prize.MIDDLE_LINE, Prize.BOTTOM_LINE)
    expected = housie_wins(HOUSIE_SEED, 12, prizes)
    assert expected == [
        ("E5", 11, {4, 7}),
        ("TL", 32, {5}),
        ("ML", 34, {4}),
        ("BL", 32, {9}),
    ]  # (the seed's promise)
    bot = await start_bot(time_scale=100, seed_source=lambda: HOUSIE_SEED)
    cog = bot.get_cog("Housie")
    lobby = await open_game(
        guild, channel, members, "housie start",
        early_five=True, lines=True, corners=False, claims="auto",
    )  # fmt: skip
    assert "Automatic claims" in lobby.content
    (game,) = await bot.storage.live_games("housie")

    await run_calls(cog, game.id, 10)
    assert await bot.storage.winners(game.id) == []
    await run_calls(cog, game.id, 1)
    (early_five,) = [m for m in channel.messages if "🎉" in m.content]
    assert "on call 11, sharing the prize" in early_five.content
    assert mentions(early_five.content) == {members[4].id, members[7].id}
    await run_calls(cog, game.id, 23)

    assert won(await bot.storage.winners(game.id)) == {
        (prize, call): {members[i].id for i in seats} for prize, call, seats in expected
    }
    wins = [m for m in channel.messages if "🎉" in m.content]
    assert len(wins) == 4  # one message a prize, Top and Bottom Line both on call 32
    assert sum("on call 32" in m.content for m in wins) == 2
    refused = await (await members[3].slash("housie claim", prize="FH")).reply()
    assert refused.ephemeral
    assert "nothing to claim" in refused.content

    await (await members[0].slash("housie stop")).reply()
    summary = await channel.wait_for_message(lambda m: "is over" in m.content)
    assert "The bot found the winners" in summary.content


async def test_a_restart_mid_game_keeps_automatic_claims(emulator: Emulator, start_bot):
    """The bot stops after storing the winning call and before posting it: started again, it
    posts the call, then finds and announces its winners; the game is still an automatic one."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    members = [guild.add_member(f"p{i}") for i in range(6)]
    bot = await start_bot(time_scale=100, seed_source=lambda: LOTERIA_SEED)
    await open_game(guild, channel, members, "loteria start", prizes="line", claims="auto")
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(bot.get_cog("Lotería"), game.id, 21)
    emulator.inject_fault(
        Fault(503, method="POST", route="/channels/{channel_id}/messages", limit=1)
    )
    with pytest.raises(discord.DiscordServerError):
        await bot.get_cog("Lotería").call_next(game.id)  # call 22 is stored, its post fails
    assert await bot.storage.winners(game.id) == []
    await bot.stop_for_test()

    bot = await start_bot(time_scale=100, seed_source=lambda: LOTERIA_SEED)
    win = await channel.wait_for_message(lambda m: "🎉" in m.content)
    assert "on call 22, sharing the prize" in win.content
    assert mentions(win.content) == {members[0].id, members[2].id}
    assert channel.messages.index(win) > channel.messages.index(
        next(m for m in channel.messages if "card 22 of 54" in m.content)
    )
    winners = await bot.storage.winners(game.id)
    assert sorted((w.prize, w.step, w.user_id) for w in winners) == sorted(
        ("line", 22, members[i].id) for i in (0, 2)
    )
    refused = await (await members[1].slash("loteria claim")).reply()
    assert "nothing to claim" in refused.content
    assert not await bot.get_cog("Lotería").call_next(game.id)
    assert "The bot found the winners" in channel.messages[-1].content
    assert sum("🎉" in m.content for m in channel.messages) == 1  # announced once


async def test_automatic_claims_store_what_claims_store(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    """The same seed and players twice, one game claimed by its players on the right call, one
    whose winners the bot finds: the same claims (board, prize, call, verdict) and winners."""
    grace_over(monkeypatch)
    guild = emulator.add_guild("Game Night")
    manual_channel, auto_channel = guild.add_channel("claimed"), guild.add_channel("found")
    members = [guild.add_member(f"p{i}") for i in range(6)]
    bot = await start_bot(time_scale=100, seed_source=lambda: LOTERIA_SEED)
    cog = bot.get_cog("Lotería")
    await open_game(guild, manual_channel, members, "loteria start", prizes="line, corners")
    await open_game(
        guild, auto_channel, members, "loteria start", prizes="line, corners", claims="auto"
    )
    manual, auto = sorted(await bot.storage.live_games("loteria"), key=lambda g: g.id)
    assert manual.channel_id == manual_channel.id
    assert manual.options["claims"] == "manual"
    await run_calls(cog, manual.id, 22)
    await run_calls(cog, auto.id, 22)
    for member, pattern in ((members[2], "line"), (members[0], "line"), (members[2], "corners")):
        claimed = await (
            await member.slash("loteria claim", in_channel=manual_channel, pattern=pattern)
        ).reply()
        assert "🎉" in claimed.content

    async def stored(game_id: int):
        deals = {board.id: board.deal_index for board in await bot.storage.boards(game_id)}
        claims = sorted(
            (c.user_id, deals[c.board_id], c.prize, c.step, c.valid, c.reason)
            for c in await bot.storage.claims(game_id)
        )
        winners = sorted(
            (w.prize, w.user_id, deals[w.board_id], w.step)
            for w in await bot.storage.winners(game_id)
        )
        return claims, winners

    claimed, found = await stored(manual.id), await stored(auto.id)
    assert len(claimed[0]) == 3
    assert found == claimed
    assert (await bot.storage.get_game(auto.id)).state == (
        await bot.storage.get_game(manual.id)
    ).state  # both prizes awarded, the same calls made
    assert not await cog.call_next(manual.id)
    assert not await cog.call_next(auto.id)
    board = await (await members[0].slash("stats", in_channel=manual_channel)).reply()
    for winner in (members[0], members[2]):  # one win a game won, in each of the two
        assert f"<@{winner.id}>: 2 wins in 2 games" in board.content


async def test_a_servers_default_and_planned_nights(emulator: Emulator, start_bot):
    """``/gamenight settings game claims`` sets a game's default; the host's ``claims`` wins
    over it; a planned night's game plays as it was planned, else as the server's default."""
    guild = emulator.add_guild("Game Night")
    channels = [guild.add_channel(f"room{i}") for i in range(4)]
    manager = guild.add_member("manager", manage_guild=True)
    bot = await start_bot(time_scale=100)

    saved = await (await manager.slash("gamenight settings", game="loteria", claims="auto")).reply()
    assert "**Lotería:** a call every 10 s (default)" in saved.content
    assert "claims automatic\n" in saved.content
    assert "**Housie:**" in saved.content
    assert "claims manual (default)" in saved.content
    gerente = guild.add_member("gerente", manage_guild=True, locale="es-ES")
    spanish = await (await gerente.slash("gamenight settings")).reply()
    assert "reclamos automáticos" in spanish.content

    by_default = await (await manager.slash("loteria start", in_channel=channels[0])).reply()
    assert "Automatic claims" in by_default.content
    chosen = await (
        await manager.slash("loteria start", in_channel=channels[1], claims="manual")
    ).reply()
    assert "Automatic claims" not in chosen.content
    housie = await (await manager.slash("housie start", in_channel=channels[2])).reply()
    assert "Automatic claims" not in housie.content
    games = {g.channel_id: g for g in await bot.storage.live_games()}
    assert games[channels[0].id].options["claims"] == "auto"
    assert games[channels[1].id].options["claims"] == "manual"
    assert games[channels[2].id].options["claims"] == "manual"

    # A Housie night planned with automatic claims opens its lobby with them.
    cog = bot.get_cog("Housie")
    await (
        await manager.slash(
            "housie schedule", in_channel=channels[3], when="in 30 minutes", lobby=10, claims="auto"
        )
    ).reply()
    emulator.advance_clock(21 * MINUTE)
    bot.clock_offset += 21 * MINUTE
    cog.nights_wake.set()
    lobby = await channels[3].wait_for_message(lambda m: "Planned game night" in m.content)
    assert "Automatic claims" in lobby.content
    night = next(
        g for g in await bot.storage.live_games("housie") if g.channel_id == channels[3].id
    )
    assert night.options["claims"] == "auto"
    assert night.options["require_last"] is False


async def test_bingo_has_automatic_claims_from_the_base(emulator: Emulator, start_bot):
    """Bingo's files say nothing of automatic claims: the base gives its start command the
    option, and its winners are found on the call their card completes the pattern."""
    seed = bytes(range(32))
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    members = [guild.add_member(f"p{i}") for i in range(6)]
    order = draw_order(seed, BINGO_NUMBERS)
    line = pattern_named("line")
    completions = [
        next(n for n in range(1, BINGO_NUMBERS + 1) if bingo_check(card, order[:n], line).valid)
        for card in cards_at(seed, 0, len(members))
    ]
    first = min(completions)
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    cog = bot.get_cog("Bingo")
    lobby = await open_game(guild, channel, members, "bingo start", patterns="line", claims="auto")
    assert "Automatic claims" in lobby.content
    (game,) = await bot.storage.live_games("bingo")

    await run_calls(cog, game.id, first - 1)
    assert await bot.storage.winners(game.id) == []
    await run_calls(cog, game.id, 1)
    expected = {members[i].id for i, call in enumerate(completions) if call == first}
    assert won(await bot.storage.winners(game.id)) == {("line", first): expected}
    (win,) = [m for m in channel.messages if "🎉" in m.content]
    assert f"on call {first}" in win.content
    assert mentions(win.content) == expected
    assert not await cog.call_next(game.id)
    summary = next(m for m in channel.messages if "is over" in m.content)
    assert "The bot found the winners" in summary.content
