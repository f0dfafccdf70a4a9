"""Claims are fair: one press is one claim, only announced calls count, the button plays the prize
being played now, and a Housie player always knows which ticket is which. The real bot against the
emulator with a real SQLite file."""

from __future__ import annotations

import asyncio
import re

import discord
import pytest

from bot import calling
from emulator import Emulator, Fault, RateLimits
from engine.fairness import draw_order
from engine.housie import Prize, prize_numbers, tickets_at
from engine.loteria import Pattern, check_claim, tablas_at
from tests.cogs.helpers import button_id, grace_over, run_calls

# Whole games at the test clock's speed (a call every few hundredths of a second), about claims
# and summaries rather than Discord's pace: Discord's limits, on, over windows five times as
# short (a game of 90 calls takes 18 s, not 90). tests/cogs/test_housie.py plays at Discord's.
pytestmark = [pytest.mark.backends(), pytest.mark.emulator(rate_limits=RateLimits().faster(5))]

HOUSIE_ORDER_SIZE = 90


def first_completions(seed: bytes, players: int, pattern: Pattern) -> list[int]:
    """For each deal position, the 1-based call at which its tabla first completes ``pattern``."""
    order = draw_order(seed, 54)
    result = []
    for tabla in tablas_at(seed, 0, players):
        for count in range(1, 55):
            if check_claim(tabla, order[:count], pattern).valid:
                result.append(count)
                break
    return result


async def start_loteria(emulator: Emulator, start_bot, seed: bytes, players: int, **options):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    members = [guild.add_member(f"p{i}") for i in range(players)]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    lobby = await (await members[0].slash("loteria start", **options)).reply()
    for member in members:
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await members[0].click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    return bot, bot.get_cog("Lotería"), game, channel, members


async def test_a_double_click_is_one_false_claim(emulator: Emulator, start_bot):
    seed = bytes(range(32))
    bot, cog, game, channel, members = await start_loteria(emulator, start_bot, seed, 3)
    await run_calls(cog, game.id, 2)
    call = channel.messages[-1]
    player = members[1]
    first, second = await asyncio.gather(
        player.click(call, button_id(call, "claim")), player.click(call, button_id(call, "claim"))
    )
    replies = [await first.reply(), await second.reply()]
    public = [r for r in replies if not r.ephemeral]
    private = [r for r in replies if r.ephemeral]
    assert len(public) == 1
    assert "False claim" in public[0].content
    assert "One more false claim" in public[0].content  # the first of two, not the second
    assert len(private) == 1
    assert "already judged" in private[0].content
    stored = await bot.storage.get_player(game.id, player.id)
    assert stored.false_claims == 1
    assert not stored.out
    assert len(await bot.storage.claims(game.id)) == 1

    # Two quick slash commands with no pattern are the same claim as the button.
    again = await (await player.slash("loteria claim")).reply()
    assert again.ephemeral
    assert "already judged" in again.content
    # On the next call the player may claim again.
    await run_calls(cog, game.id, 1)
    third = await (await player.slash("loteria claim")).reply()
    assert not third.ephemeral
    assert "out of the game" in third.content


async def test_claims_are_judged_on_the_calls_the_channel_has_seen(emulator: Emulator, start_bot):
    """A call stored but not posted (a failed post) is invisible to claims, verdicts and
    pictures: with the slept rule, a claim on the last announced call still wins."""
    players = 6
    seed = next(
        counter.to_bytes(32, "big")
        for counter in range(2000)
        if min(first_completions(counter.to_bytes(32, "big"), players, Pattern.LINE)) >= 4
    )
    completions = first_completions(seed, players, Pattern.LINE)
    target = min(completions)
    winner_index = completions.index(target)
    bot, cog, game, _channel, members = await start_loteria(
        emulator, start_bot, seed, players, prizes="line", slept_rule=True
    )
    await run_calls(cog, game.id, target)  # the winner's line is completed by the last call
    hidden_fault = emulator.inject_fault(
        Fault(503, method="POST", route="/channels/{channel_id}/messages", limit=1)
    )
    with pytest.raises(discord.DiscordServerError):
        await cog.call_next(game.id)  # call target + 1 is stored, its post fails
    assert emulator.faults.hits(hidden_fault)
    draws = await bot.storage.draws(game.id)
    assert len(draws) == target + 1
    assert draws[-1].message_id is None
    hidden = (
        bot.get_cog("Lotería")
        .state_of(await bot.storage.get_game(game.id))
        .deck.card(draws[-1].value)
    )

    winner = members[winner_index]
    shown = await (await winner.slash("loteria tabla")).reply()
    assert f"{target} calls so far" in shown.content
    assert "Marked" in shown.attachments[0].description
    assert hidden.spanish not in shown.attachments[0].description

    result = await (await winner.slash("loteria claim")).reply()
    assert "wins on call" in result.content, result.content
    assert f"call {target}" in result.content
    assert hidden.spanish not in result.content
    assert hidden.spanish not in result.attachments[0].description
    (win,) = await bot.storage.winners(game.id)
    assert win.step == target


def waiting_for_the_lock(cog, game_id: int) -> int:
    """How many tasks wait for the game's lock (claims to judge, the caller's tick), in the
    order asyncio.Lock hands it on: a test queues them in the order it wants, then lets go."""
    return len(cog.live_game(game_id).lock._waiters or ())


async def queue_for_the_lock(emulator: Emulator, cog, game_id: int, start) -> object:
    """``start()`` (a press, or the caller's tick) and wait until it waits for the lock."""
    before = waiting_for_the_lock(cog, game_id)
    started = await start()
    await emulator.wait_until(
        lambda: waiting_for_the_lock(cog, game_id) == before + 1,
        10,
        lambda: "the claim or the tick to wait for the game's lock",
    )
    return started


async def the_callers_tick(cog, game_id: int) -> asyncio.Task[bool]:
    return asyncio.create_task(cog.call_next(game_id))


def shared_line_seed(players: int) -> tuple[bytes, int]:
    """A seed whose first line is completed by two players at once, on call ``k`` >= 2."""
    for counter in range(5000):
        seed = counter.to_bytes(32, "big")
        lines = first_completions(seed, players, Pattern.LINE)
        k = min(lines)
        if lines.count(k) == 2 and k >= 2:
            return seed, k
    raise AssertionError("no seed found")


async def test_a_press_queued_behind_the_callers_tick_shares_the_last_prize(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    """The caller's tick was already waiting for the game's lock when the last prize was won:
    it does not end the game while a claim made before is still to be judged (with no grace
    at all here), and that claim, on the same line, shares the prize."""
    grace_over(monkeypatch)  # (what keeps the game open here is the claim to judge)
    players = 8
    seed, k = shared_line_seed(players)
    bot, cog, game, channel, members = await start_loteria(
        emulator, start_bot, seed, players, prizes="line"
    )
    lines = first_completions(seed, players, Pattern.LINE)
    first, second = (members[i] for i, call in enumerate(lines) if call == k)
    await run_calls(cog, game.id, k)
    call = channel.messages[-1]
    claim = button_id(call, "claim")
    async with cog.live_game(game.id).lock:  # (as a claim being judged holds it)
        first_press = await queue_for_the_lock(
            emulator, cog, game.id, lambda: first.click(call, claim)
        )
        tick = await queue_for_the_lock(
            emulator, cog, game.id, lambda: the_callers_tick(cog, game.id)
        )
        second_press = await queue_for_the_lock(
            emulator, cog, game.id, lambda: second.click(call, claim)
        )
    won, shared = await first_press.reply(), await second_press.reply()
    assert "wins on call" in won.content, won.content
    assert "sharing the prize" in shared.content, shared.content
    assert await tick, "the tick did not end the game"
    assert sorted(w.user_id for w in await bot.storage.winners(game.id)) == sorted(
        (first.id, second.id)
    )
    # Once the claim is judged, the game ends on its own (its caller was woken).
    summary = await channel.wait_for_message(lambda m: "is over" in m.content)
    assert "every prize has been won" in summary.content


def last_card_seed(players: int) -> bytes:
    """A seed whose last card is on every tabla: nobody completes Full before card 54."""
    for counter in range(5000):
        seed = counter.to_bytes(32, "big")
        last = draw_order(seed, 54)[-1]
        if all(last in tabla.numbers for tabla in tablas_at(seed, 0, players)):
            return seed
    raise AssertionError("no seed found")


async def test_the_last_card_of_the_deck_is_shared_and_its_next_prize_still_claimed(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    """Everyone completes Full on card 54, the deck is out: the caller's tick waiting for the
    lock while Full is won neither ends the game nor keeps a press behind it from sharing
    Full, and within the grace the tablas that hold a line win Line too."""
    monkeypatch.setattr(calling.live, "PRIZE_SHARING_GRACE", 60.0)  # (ample: this test's grace)
    players = 2
    seed = last_card_seed(players)
    bot, cog, game, channel, members = await start_loteria(
        emulator, start_bot, seed, players, prizes="full, line"
    )
    first, second = members
    await run_calls(cog, game.id, 54)
    call = channel.messages[-1]
    assert "card 54 of 54" in call.content
    claim = button_id(call, "claim")
    async with cog.live_game(game.id).lock:
        first_press = await queue_for_the_lock(
            emulator, cog, game.id, lambda: first.click(call, claim)
        )
        tick = await queue_for_the_lock(
            emulator, cog, game.id, lambda: the_callers_tick(cog, game.id)
        )
        second_press = await queue_for_the_lock(
            emulator, cog, game.id, lambda: second.click(call, claim)
        )
    won, shared = await first_press.reply(), await second_press.reply()
    assert "**Full" in won.content, won.content
    assert "wins on call 54." in won.content
    assert "**Full" in shared.content, shared.content
    assert "sharing the prize" in shared.content
    assert await tick
    # The deck is out, Line is left: the next tick waits out the grace, and Line is won.
    assert await cog.call_next(game.id)
    line = await (await first.click(call, claim)).reply()
    assert "**Line" in line.content, line.content
    assert "wins on call 54." in line.content
    line_shared = await (await second.slash("loteria claim", pattern="line")).reply()
    assert "sharing the prize" in line_shared.content, line_shared.content
    assert [(w.prize, w.step) for w in await bot.storage.winners(game.id)] == [
        ("full", 54),
        ("full", 54),
        ("line", 54),
        ("line", 54),
    ]
    grace_over(monkeypatch)  # once the grace is over, the game ends
    assert not await cog.call_next(game.id)
    assert "is over" in channel.messages[-1].content


def unique_line_seed(players: int) -> tuple[bytes, int]:
    """A seed whose first line is completed by one player alone, on call ``k`` >= 2."""
    for counter in range(5000):
        seed = counter.to_bytes(32, "big")
        lines = first_completions(seed, players, Pattern.LINE)
        k = min(lines)
        if lines.count(k) == 1 and k >= 2:
            return seed, k
    raise AssertionError("no seed found")


@pytest.mark.parametrize(
    ("prizes", "says"),
    [("line, full", "playing for **Full"), ("line", "every prize is won: the game is ending")],
)
async def test_a_riddle_revealed_after_a_win_says_what_is_played_then(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch, prizes: str, says: str
):
    """Line is won while the next card's riddle is up: the card revealed says the prize played
    next (or, once every prize is won, that the game is ending), not the one just won."""
    monkeypatch.setattr(calling.live, "RIDDLE_PAUSE", 0.0)  # (the card follows its riddle at once)
    players = 6
    seed, k = unique_line_seed(players)
    winner = first_completions(seed, players, Pattern.LINE).index(k)
    _bot, cog, game, channel, members = await start_loteria(
        emulator, start_bot, seed, players, prizes=prizes, verses="riddle"
    )
    await run_calls(cog, game.id, k)
    assert "playing for **Line" in channel.messages[-1].content
    # The tick draws card k + 1 first, then Line (complete on card k) is judged.
    async with cog.live_game(game.id).lock:
        tick = await queue_for_the_lock(
            emulator, cog, game.id, lambda: the_callers_tick(cog, game.id)
        )
        claim = await queue_for_the_lock(
            emulator, cog, game.id, lambda: members[winner].slash("loteria claim")
        )
    assert await tick
    won = await claim.reply()
    assert f"wins on call {k}." in won.content, won.content
    revealed = await channel.wait_for_message(lambda m: f"card {k + 1} of 54" in m.content)
    assert "guess it" not in revealed.content  # the riddle, edited into the card
    assert says in revealed.content, revealed.content
    assert "Line" not in revealed.content


def line_then_corners_seed(players: int) -> tuple[bytes, int, int]:
    """A seed where the first line is completed by one player, on call ``k``, whose tabla holds
    the four corners by then too; returns (seed, player, k)."""
    for counter in range(5000):
        seed = counter.to_bytes(32, "big")
        lines = first_completions(seed, players, Pattern.LINE)
        k = min(lines)
        if lines.count(k) != 1:
            continue
        who = lines.index(k)
        corners = first_completions(seed, players, Pattern.CORNERS)
        if corners[who] <= k:
            return seed, who, k
    raise AssertionError("no seed found")


async def test_the_button_plays_the_prize_now_after_a_win_on_the_same_call(
    emulator: Emulator, start_bot
):
    players = 8
    seed, who, k = line_then_corners_seed(players)
    bot, cog, game, channel, members = await start_loteria(
        emulator, start_bot, seed, players, prizes="line, corners, full"
    )
    await run_calls(cog, game.id, k)
    call = channel.messages[-1]
    winner = members[who]
    line = await (await winner.click(call, button_id(call, "claim"))).reply()
    assert "Line" in line.content
    assert "wins on call" in line.content
    corners = await (await winner.click(call, button_id(call, "claim"))).reply()
    assert "corners" in corners.content, corners.content
    assert "wins on call" in corners.content
    assert [(w.prize, w.user_id, w.step) for w in await bot.storage.winners(game.id)] == [
        ("line", winner.id, k),
        ("corners", winner.id, k),
    ]


async def test_a_double_click_on_a_winning_press_is_never_a_false_claim(
    emulator: Emulator, start_bot
):
    """The winner presses twice; the second press may not turn into a false claim of the prize
    played next, which their tabla does not hold."""
    players = 8
    for counter in range(5000):
        seed = counter.to_bytes(32, "big")
        lines = first_completions(seed, players, Pattern.LINE)
        k = min(lines)
        who = lines.index(k)
        if lines.count(k) == 1 and first_completions(seed, players, Pattern.CORNERS)[who] > k:
            break
    bot, cog, game, channel, members = await start_loteria(
        emulator, start_bot, seed, players, prizes="line, corners"
    )
    await run_calls(cog, game.id, k)
    call = channel.messages[-1]
    winner = members[who]
    first, second = await asyncio.gather(
        winner.click(call, button_id(call, "claim")), winner.click(call, button_id(call, "claim"))
    )
    replies = [await first.reply(), await second.reply()]
    assert sum("wins on call" in r.content for r in replies) == 1
    assert not any("False claim" in r.content for r in replies)
    later = await (await winner.click(call, button_id(call, "claim"))).reply()
    assert later.ephemeral
    assert "Nothing more for you to claim" in later.content
    claims = await bot.storage.claims(game.id)
    assert [(c.prize, c.valid) for c in claims] == [("line", True)]
    player = await bot.storage.get_player(game.id, winner.id)
    assert player.false_claims == 0


async def test_full_first_then_line_on_the_same_call(emulator: Emulator, start_bot):
    players = 4
    seed = bytes(range(1, 33))
    completions = first_completions(seed, players, Pattern.FULL)
    k = min(completions)
    who = completions.index(k)
    _bot, cog, game, channel, members = await start_loteria(
        emulator, start_bot, seed, players, prizes="full, line"
    )
    await run_calls(cog, game.id, k)
    call = channel.messages[-1]
    full = await (await members[who].click(call, button_id(call, "claim"))).reply()
    assert "Full" in full.content
    assert "wins on call" in full.content
    line = await (await members[who].click(call, button_id(call, "claim"))).reply()
    assert "Line" in line.content, line.content
    assert "wins on call" in line.content


async def start_housie(emulator: Emulator, start_bot, seed: bytes, tickets: list[int], **options):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("housie")
    members = [guild.add_member(f"p{i}") for i in range(len(tickets))]
    bot = await start_bot(time_scale=100, seed_source=lambda: seed)
    lobby = await (await members[0].slash("housie start", tickets=max(tickets), **options)).reply()
    for member, count in zip(members, tickets, strict=True):
        await (await member.slash("housie join", tickets=count)).reply()
    await (await members[0].click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("housie")
    return bot, bot.get_cog("Housie"), game, channel, members


def missing(ticket, prize: Prize, called) -> int:
    return len(prize_numbers(ticket, prize) - set(called))


async def test_housie_claim_without_a_ticket_costs_the_closest_one_once(
    emulator: Emulator, start_bot
):
    """A double click with no ticket named is one bogey, and it costs one ticket: the one that
    came closest to the prize, named in the verdict."""
    order = None
    for counter in range(3000):
        seed = counter.to_bytes(32, "big")
        mine = tickets_at(seed, 0, 3)
        order = draw_order(seed, HOUSIE_ORDER_SIZE)
        # A few calls in, the second or third ticket is strictly closest to the top line.
        for calls in range(3, 12):
            gaps = [missing(t, Prize.TOP_LINE, order[:calls]) for t in mine]
            if min(gaps) > 0 and gaps.index(min(gaps)) > 0 and gaps.count(min(gaps)) == 1:
                break
        else:
            continue
        break
    closest = gaps.index(min(gaps)) + 1
    bot, cog, game, _channel, members = await start_housie(emulator, start_bot, seed, [3, 1])
    player = members[0]
    assert "Here are your 3 tickets" in player.dms[-1].content
    await run_calls(cog, game.id, calls)
    first, second = await asyncio.gather(
        player.slash("housie claim", prize="TL"), player.slash("housie claim", prize="TL")
    )
    replies = [await first.reply(), await second.reply()]
    bogeys = [r for r in replies if not r.ephemeral]
    assert len(bogeys) == 1
    assert f"Ticket {closest} is out" in bogeys[0].content
    assert any("already judged" in r.content for r in replies if r.ephemeral)
    out = [b.board_index + 1 for b in await bot.storage.boards(game.id, player.id) if b.out]
    assert out == [closest]

    # The tickets carry their numbers, in the picture's alt text too, and the out one says so.
    shown = await (await player.slash("housie ticket")).reply()
    assert shown.content.startswith("Housie")
    descriptions = [a.description for a in shown.attachments]
    for number, description in enumerate(descriptions, start=1):
        assert f"Housie ticket {number} " in description
    assert "Out of the game" in descriptions[closest - 1]

    # Naming a ticket that is out, or one the player does not hold, is answered privately.
    named_out = await (await player.slash("housie claim", prize="FH", ticket=closest)).reply()
    assert named_out.ephemeral
    assert f"ticket {closest} is out" in named_out.content
    not_held = await (await members[1].slash("housie claim", prize="FH", ticket=6)).reply()
    assert not_held.ephemeral
    assert "You have 1 ticket, so there is no number 6" in not_held.content
    assert len(await bot.storage.claims(game.id)) == 1


async def test_housie_claim_without_a_ticket_wins_on_any_ticket(emulator: Emulator, start_bot):
    for counter in range(3000):
        seed = counter.to_bytes(32, "big")
        mine = tickets_at(seed, 0, 4)
        order = draw_order(seed, HOUSIE_ORDER_SIZE)
        done = [
            next(n for n in range(1, 91) if missing(t, Prize.MIDDLE_LINE, order[:n]) == 0)
            for t in mine
        ]
        if min(done) == done[3] and done.count(done[3]) == 1:
            break
    bot, cog, game, _channel, members = await start_housie(emulator, start_bot, seed, [4, 1])
    await run_calls(cog, game.id, done[3])
    won = await (await members[0].slash("housie claim", prize="Middle Line")).reply()
    assert "wins on call" in won.content, won.content
    assert "Housie ticket 4 " in won.attachments[0].description
    (winner,) = await bot.storage.winners(game.id)
    boards = {b.id: b.board_index for b in await bot.storage.boards(game.id)}
    assert boards[winner.board_id] == 3


async def test_housie_slept_rule_can_be_turned_on(emulator: Emulator, start_bot):
    seed = bytes(range(5, 37))
    _bot, cog, game, _channel, members = await start_housie(
        emulator, start_bot, seed, [1, 1], slept_rule=True
    )
    assert game.options["require_last"] is True
    (ticket,) = tickets_at(seed, 0, 1)
    order = draw_order(seed, HOUSIE_ORDER_SIZE)
    five = next(n for n in range(5, 91) if len(ticket.numbers & set(order[:n])) >= 5)
    # Make the call after the fifth number, then claim: too late under the slept rule.
    later = next(n for n in range(five + 1, 91) if order[n - 1] not in ticket.numbers)
    await run_calls(cog, game.id, later)
    late = await (await members[0].slash("housie claim", prize="E5")).reply()
    assert "Bogey" in late.content
    assert re.search(r"last number called \(\d+\) is not on this ticket", late.content)


async def test_housie_on_the_last_number_the_claim_button_still_offers_the_house_won(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    """Full House alone, both tickets complete on number 90: the caller's tick waiting for the
    lock while it is won does not end the game, and the Claim button, pressed after the win
    within the grace, offers the house won on that call, so the other ticket shares it."""
    monkeypatch.setattr(calling.live, "PRIZE_SHARING_GRACE", 60.0)  # (ample: this test's grace)
    for counter in range(5000):
        seed = counter.to_bytes(32, "big")
        last = draw_order(seed, HOUSIE_ORDER_SIZE)[-1]
        if all(last in ticket.numbers for ticket in tickets_at(seed, 0, 2)):
            break
    bot, cog, game, channel, members = await start_housie(
        emulator, start_bot, seed, [1, 1], early_five=False, lines=False, corners=False
    )
    first, second = members
    await run_calls(cog, game.id, HOUSIE_ORDER_SIZE)
    call = channel.messages[-1]
    assert "number 90 of 90" in call.content
    async with cog.live_game(game.id).lock:
        claimed = await queue_for_the_lock(
            emulator, cog, game.id, lambda: first.slash("housie claim", prize="FH")
        )
        tick = await queue_for_the_lock(
            emulator, cog, game.id, lambda: the_callers_tick(cog, game.id)
        )
    won = await claimed.reply()
    assert "wins on call 90." in won.content, won.content
    assert await tick, "the tick did not end the game"
    offer = await (await second.click(call, button_id(call, "claim"))).reply()
    assert offer.ephemeral
    (house,) = [cid for cid in offer.custom_ids if ":prize" in cid]
    shared = await (await second.click(offer, house)).reply()
    assert "sharing the prize" in shared.content, shared.content
    assert [(w.prize, w.step) for w in await bot.storage.winners(game.id)] == [
        ("FH", 90),
        ("FH", 90),
    ]
    grace_over(monkeypatch)
    assert not await cog.call_next(game.id)
    assert "is over" in channel.messages[-1].content
