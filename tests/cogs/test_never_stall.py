"""Games never stall silently: a channel the bot cannot post in, DMs that fail, boards stored but
never sent, a database locked by someone else. The real bot against the emulator."""

from __future__ import annotations

import asyncio
import re

import discord
import pytest

from bot.storage import Delivery
from emulator import Emulator, Fault
from emulator.model import Permission
from engine.loteria import tablas_at
from tests.cogs.helpers import button_id, run_calls
from tests.raw_sql import another_process_writing


async def test_no_lobby_where_the_bot_cannot_post(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    no_files = guild.add_channel("no-files", bot_denied=Permission.ATTACH_FILES)
    read_only = guild.add_channel("read-only", bot_can_send=False)
    host = guild.add_member("host")
    bot = await start_bot()
    for command in ("loteria start", "housie start", "tictactoe play", "dots play"):
        refused = await (await host.slash(command, in_channel=no_files)).reply()
        assert refused.ephemeral
        assert "Attach Files" in refused.content, (command, refused.content)
    refused = await (await host.slash("triangle play", in_channel=read_only)).reply()
    assert refused.ephemeral
    assert "Send Messages" in refused.content
    assert "Attach Files" not in refused.content
    assert await bot.storage.live_games() == []
    # Where it may post, the same command opens a lobby.
    lobby = await (await host.slash("loteria start")).reply()
    assert not lobby.ephemeral
    assert "Lobby open" in lobby.content


async def start_game(emulator: Emulator, start_bot, *, host_dms: bool = True):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host", dms_open=host_dms)
    player = guild.add_member("player")
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(32)))
    lobby = await (await host.slash("loteria start")).reply()
    for member in (host, player):
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    return bot, bot.get_cog("Lotería"), game, guild, channel, host, player, lobby


def hurry(bot, cog, game_id: int) -> None:
    """Make the game's own caller call at once, and every 10 ms from then on."""
    bot.time_scale = 0.001
    cog.ensure_timer(game_id)
    cog.live_game(game_id).wake.set()


async def test_a_permission_taken_mid_game_pauses_it_and_tells_the_host(
    emulator: Emulator, start_bot
):
    bot, cog, game, guild, channel, host, _player, lobby = await start_game(emulator, start_bot)
    await run_calls(cog, game.id, 3)
    guild.set_bot_denied(channel, Permission.SEND_MESSAGES)
    hurry(bot, cog, game.id)  # the caller, not the test, meets the 403 on its next call
    dm = await host.wait_for_dm(lambda m: "is paused" in m.content)
    assert f"#{game.id}" in dm.content
    assert "/loteria resume" in dm.content
    emulator.take_failures("missing_permissions")
    stalled = await bot.storage.get_game(game.id)
    assert stalled.status.value == "paused"
    assert stalled.options["stalled"] == "cannot_post"
    draws = await bot.storage.draws(game.id)
    assert len(draws) == 4  # the fourth was drawn and kept, not lost or retried forever
    assert draws[-1].message_id is None
    await asyncio.sleep(0.3)
    assert len(emulator.faults.injected) == 0
    posts = [
        r
        for r in emulator.requests
        if r.method == "POST"
        and r.status == 403
        and r.path.endswith(f"/channels/{channel.id}/messages")
    ]
    assert len(posts) == 1  # no endless retry
    await emulator.wait_until(
        lambda: "Paused: I can't post" in lobby.content, 5, lambda: "the lobby to say why"
    )

    # Still refused while the permission is missing; accepted once it is back.
    refused = await (await host.slash("loteria resume")).reply()
    assert refused.ephemeral
    assert "Send Messages" in refused.content
    guild.set_bot_denied(channel, 0)
    resumed = await (await host.slash("loteria resume")).reply()
    assert "resumed" in resumed.content
    call = await channel.wait_for_message(lambda m: "card 4 of 54" in m.content, timeout=5)
    assert call.attachments
    await plays_on_past(channel, 10)  # every call once, none lost while stalled


async def test_a_host_with_closed_dms_hears_at_their_next_interaction(
    emulator: Emulator, start_bot
):
    bot, cog, game, guild, channel, host, _player, _lobby = await start_game(
        emulator, start_bot, host_dms=False
    )
    emulator.take_failures("dm_closed")
    guild.set_bot_denied(channel, Permission.SEND_MESSAGES)
    hurry(bot, cog, game.id)
    await emulator.wait_until(
        lambda: host.user.id in bot.notices_waiting, 10, lambda: "a notice to wait for the host"
    )
    emulator.take_failures("missing_permissions", "dm_closed")
    answered = await host.slash("loteria tabla")
    assert (await answered.reply()).attachments  # the answer first, in its own place
    notice = await answered.followup(0)
    assert notice.ephemeral
    assert "is paused" in notice.content
    assert host.user.id not in bot.notices_waiting
    again = await host.slash("loteria tabla")
    await again.reply()
    await asyncio.sleep(0.3)
    assert again.followups == []  # told once


async def test_a_deleted_channel_ends_the_game_and_tells_the_host(emulator: Emulator, start_bot):
    bot, cog, game, guild, channel, host, _player, _lobby = await start_game(emulator, start_bot)
    await run_calls(cog, game.id, 2)
    guild.delete_channel(channel)
    hurry(bot, cog, game.id)
    dm = await host.wait_for_dm(lambda m: "its channel was deleted" in m.content)
    assert f"/loteria verify game:{game.id}" in dm.content
    ended = await bot.storage.get_game(game.id)
    assert ended.status.value == "finished"
    await emulator.wait_until(lambda: game.id not in cog.live, 10, lambda: "the game to be let go")


async def test_a_failed_dm_falls_back_to_a_private_reply_and_says_so(emulator: Emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot()
    lobby = await (await host.slash("loteria start")).reply()
    emulator.inject_fault(Fault(503, method="POST", route="/channels/{channel_id}/messages"))
    joined = await (await host.click(lobby, button_id(lobby, "join"))).reply()
    assert joined.ephemeral
    assert "would not deliver my DM" in joined.content
    assert joined.attachments, "the tabla is in the reply"
    assert "Check your DMs" not in joined.content
    (game,) = await bot.storage.live_games()
    await emulator.wait_until(
        lambda: "dealt 1 of 1" in lobby.content, 5, lambda: "the lobby's progress to finish"
    )
    assert (await bot.storage.get_player(game.id, host.id)).delivery is Delivery.REPLY
    again = await (await host.click(lobby, button_id(lobby, "join"))).reply()
    assert "shown to you privately" in again.content
    assert "in your DMs" not in again.content


async def test_boards_stored_but_never_sent_go_out_after_a_restart(
    emulator: Emulator, start_bot, tmp_path
):
    """A bot killed between storing a deal and DMing it: the next start sends it."""
    seed = bytes(range(32))
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    host = guild.add_member("host")
    dropped = guild.add_member("dropped")
    closed = guild.add_member("closed", dms_open=False)
    bot = await start_bot(seed_source=lambda: seed)
    lobby = await (await host.slash("loteria start")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    (game,) = await bot.storage.live_games()
    cog = bot.get_cog("Lotería")
    for member in (dropped, closed):
        # What join stores before it sends: the player seated and dealt, the boards not sent.
        await bot.storage.add_player(
            game.id,
            member.id,
            display_name=member.name,
            locale="en-US",
            boards=lambda _seat, first: cog.deal(game, first, 1),
            board_count=1,
        )
    await bot.stop_for_test()

    restarted = await start_bot(seed_source=lambda: seed)
    dm = await dropped.wait_for_dm(lambda m: bool(m.attachments))
    assert "Here is your tabla" in dm.content
    await emulator.wait_until(
        lambda: "1 not delivered yet" in lobby.content, 10, lambda: "the lobby to say so"
    )
    assert (await restarted.storage.get_player(game.id, dropped.id)).delivery is Delivery.DM
    emulator.take_failures("dm_closed")
    assert (await restarted.storage.get_player(game.id, closed.id)).delivery is Delivery.UNDELIVERED
    # The member whose DMs are shut gets theirs at their next interaction, truthfully worded.
    shown = await (await closed.click(lobby, button_id(lobby, "join"))).reply()
    assert shown.attachments
    assert "couldn't DM you" in shown.content
    expected = tablas_at(seed, 2, 1)[0]
    stored = (await restarted.storage.boards(game.id, closed.id))[0]
    assert stored.state == expected.to_state()
    await emulator.wait_until(
        lambda: "dealt 3 of 3" in lobby.content, 10, lambda: "every board delivered"
    )
    assert len(emulator.take_failures("dm_closed")) == 1  # tried once more, then the reply


async def test_a_locked_database_slows_answers_but_never_fails_them(emulator: Emulator, start_bot):
    """Another connection holds SQLite's write lock for longer than one busy timeout: every
    interaction is still acknowledged within Discord's 3 s (the emulator fails the test if not),
    answered once the lock is free, and nothing is lost."""
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    other = guild.add_channel("other")
    members = [guild.add_member(f"m{i}") for i in range(4)]
    bot = await start_bot()
    lobby = await (await members[0].slash("loteria start")).reply()

    async with another_process_writing(bot.settings.database_path):
        started = [
            await members[1].click(lobby, button_id(lobby, "join")),
            await members[2].click(lobby, button_id(lobby, "join")),
            await members[3].slash("loteria start", in_channel=other),
            await members[0].slash("tictactoe play"),
            await members[1].slash("housie start", in_channel=other),
        ]
        for result in started:
            await result.acknowledgement(timeout=3)
        await asyncio.sleep(6)  # past one busy timeout of the bot's writer
    replies = [await result.reply(timeout=15) for result in started]
    assert "You're in" in replies[0].content
    assert "You're in" in replies[1].content
    assert "Lobby open" in replies[2].content
    assert "Tic-tac-toe" in replies[3].content
    assert "already on in this channel" in replies[4].content  # one calling game per channel
    assert replies[4].ephemeral
    (game,) = [g for g in await bot.storage.live_games("loteria") if g.channel_id == general.id]
    assert {p.user_id for p in await bot.storage.players(game.id)} == {
        members[1].id,
        members[2].id,
    }


async def test_a_table_game_that_cannot_post_its_end_tells_its_players(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob")
    bot = await start_bot(time_scale=0.01)
    challenge = await (await alice.slash("tictactoe play", opponent=bob, turn_time=15)).reply()
    accept = next(c for c in challenge.custom_ids if ":accept:" in c)
    await (await bob.click(challenge, accept)).reply()
    guild.set_bot_denied(channel, Permission.SEND_MESSAGES)
    # Nobody moves: the move clock runs out and the game ends; its result cannot be posted.
    for member in (alice, bob):
        told = await member.wait_for_dm(lambda m: "here is how" in m.content, timeout=10)
        assert "ran out of time" in told.content
    emulator.take_failures("missing_permissions")
    assert await bot.storage.live_games() == []


def announced_calls(channel) -> list[int]:
    return [
        int(match[1])
        for m in channel.messages
        if (match := re.search(r"card (\d+) of 54", m.content))
    ]


async def plays_on_past(channel, call: int) -> None:
    """Wait until call ``call`` is posted, every call before it once: none lost or repeated.
    (Not to the end of the deck: at Discord's 5 posts per 5 s a whole game takes a minute.)"""
    await channel.wait_for_message(lambda m: f"card {call} of 54" in m.content, timeout=30)
    announced = announced_calls(channel)
    assert announced == list(range(1, len(announced) + 1))


async def caller_stopped(emulator: Emulator, cog, game_id: int) -> None:
    """Wait until the game's caller has given up (no endless retry behind the test's back)."""
    task = cog.live_game(game_id).task
    await emulator.wait_until(task.done, 10, lambda: "the caller to stop")


async def test_calls_automod_blocks_pause_the_game_and_tell_the_host(emulator: Emulator, start_bot):
    bot, cog, game, _guild, channel, host, _player, lobby = await start_game(emulator, start_bot)
    await run_calls(cog, game.id, 2)
    block = emulator.block_messages("of 54", channel=channel)  # the calls, not the lobby
    hurry(bot, cog, game.id)
    dm = await host.wait_for_dm(lambda m: "is paused" in m.content)
    assert "AutoMod blocked my message" in dm.content
    assert f"#{game.id}" in dm.content
    assert "/loteria resume" in dm.content
    await caller_stopped(emulator, cog, game.id)
    paused = await bot.storage.get_game(game.id)
    assert paused.status.value == "paused"
    assert paused.options["stalled"] == "automod"
    draws = await bot.storage.draws(game.id)
    assert len(draws) == 3  # the third was drawn and kept, neither lost nor retried forever
    assert draws[-1].message_id is None
    assert emulator.rest.automod_blocked == 1
    await emulator.wait_until(
        lambda: "AutoMod blocked my message" in lobby.content, 5, lambda: "the lobby to say why"
    )

    # Once the moderators let the calls through, the host resumes and nothing is lost.
    emulator.unblock_messages(block)
    resumed = await (await host.slash("loteria resume")).reply()
    assert "resumed" in resumed.content
    await channel.wait_for_message(lambda m: "card 3 of 54" in m.content, timeout=5)
    await plays_on_past(channel, 10)


@pytest.mark.parametrize("archived", [True, False], ids=["archived-and-locked", "locked"])
async def test_a_game_whose_thread_is_closed_pauses_and_tells_the_host(
    emulator: Emulator, start_bot, archived: bool
):
    """A game hosted in a thread: a moderator archives and locks it (or only locks it) in the
    middle of the game. The game pauses, the host hears why, and it goes on once the thread is
    open again."""
    guild = emulator.add_guild("Game Night")
    parent = guild.add_channel("general")
    thread = guild.add_thread(parent, "Lotería night")
    host = guild.add_member("host")
    player = guild.add_member("player")
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(32)))
    cog = bot.get_cog("Lotería")
    lobby = await (await host.slash("loteria start", in_channel=thread)).reply()
    assert lobby.channel is thread
    for member in (host, player):
        await (await member.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    assert game.channel_id == thread.id
    await run_calls(cog, game.id, 2)
    assert announced_calls(thread) == [1, 2]

    guild.set_thread_state(thread, archived=archived, locked=True)
    hurry(bot, cog, game.id)
    dm = await host.wait_for_dm(lambda m: "is paused" in m.content)
    assert "thread was archived or locked" in dm.content
    assert "/loteria resume" in dm.content
    await caller_stopped(emulator, cog, game.id)
    emulator.take_failures("thread_archived" if archived else "missing_permissions")
    paused = await bot.storage.get_game(game.id)
    assert paused.status.value == "paused"
    assert paused.options["stalled"] == "thread_closed"

    guild.set_thread_state(thread, archived=False, locked=False)
    resumed = await (await host.slash("loteria resume", in_channel=thread)).reply()
    assert "resumed" in resumed.content
    await plays_on_past(thread, 10)
    assert parent.messages == []


async def test_a_call_deleted_before_it_was_stored_is_posted_again(emulator: Emulator, start_bot):
    """The call was posted but its answer lost (a 503 after Discord made the message), and a
    moderator deleted it before the caller's retry: Discord answers the retry's nonce with
    404 / Unknown Message. That is not the channel gone: the call goes out again and the game
    plays on."""
    bot, cog, game, guild, channel, host, _player, _lobby = await start_game(emulator, start_bot)
    await run_calls(cog, game.id, 2)
    emulator.inject_fault(
        Fault(
            503,
            method="POST",
            route="/channels/{channel_id}/messages",
            limit=1,
            after_handling=True,
        )
    )
    with pytest.raises(discord.DiscordServerError):
        await cog.call_next(game.id)
    posted = channel.messages[-1]
    assert "card 3 of 54" in posted.content
    guild.delete_message(posted)

    hurry(bot, cog, game.id)  # the caller posts the call it has not stored first
    await channel.wait_for_message(lambda m: "card 3 of 54" in m.content, timeout=5)
    await plays_on_past(channel, 10)
    unknown = [r for r in emulator.requests if r.status == 404]
    assert len(unknown) == 1
    assert unknown[0].response["code"] == 10008  # Unknown Message, not Unknown Channel
    assert [m.content for m in host.dms if "deleted" in m.content] == []
    playing = await bot.storage.get_game(game.id)
    assert playing.status.value == "running"  # not ended as if the channel were gone


@pytest.mark.emulator(rate_limits=True)
async def test_a_deleted_channel_is_not_posted_to_again(emulator: Emulator, start_bot):
    """Once Discord has said the channel is gone (404 / Unknown Channel), the end of the game
    posts nothing more there (no summary, no lobby edit, nothing waiting for the channel's
    rate limit): the host's DM is the next thing the bot sends."""
    bot, cog, game, guild, channel, host, _player, _lobby = await start_game(emulator, start_bot)
    await run_calls(cog, game.id, 4)  # the channel's bucket nearly spent
    lobby_edits = cog.live_game(game.id).lobby_task  # (the joins' and the start's)
    await emulator.wait_until(lobby_edits.done, 10, lambda: "the lobby's edits to be done")
    guild.delete_channel(channel)
    hurry(bot, cog, game.id)
    # The next call may first wait out the channel's 5 s bucket (four posts already in it).
    await host.wait_for_dm(lambda m: "its channel was deleted" in m.content, timeout=15)
    await emulator.wait_until(lambda: game.id not in cog.live, 10, lambda: "the game let go")
    refused = [
        r for r in emulator.requests if f"/channels/{channel.id}/" in r.path and r.status == 404
    ]
    assert len(refused) == 1
    assert refused[0].response["code"] == 10003
    ended = await bot.storage.get_game(game.id)
    assert ended.status.value == "finished"


async def test_a_table_game_whose_end_automod_blocks_tells_its_players(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob")
    bot = await start_bot(time_scale=0.01)
    challenge = await (await alice.slash("tictactoe play", opponent=bob, turn_time=15)).reply()
    accept = next(c for c in challenge.custom_ids if ":accept:" in c)
    await (await bob.click(challenge, accept)).reply()
    emulator.block_messages(channel=channel)
    # Nobody moves: the move clock runs out and the game ends; AutoMod blocks its result.
    for member in (alice, bob):
        told = await member.wait_for_dm(lambda m: "here is how" in m.content, timeout=10)
        assert "ran out of time" in told.content
    assert emulator.rest.automod_blocked >= 1
    assert await bot.storage.live_games() == []


async def test_a_riddle_deleted_before_its_card_is_revealed_is_posted_again(
    emulator: Emulator, start_bot, monkeypatch: pytest.MonkeyPatch
):
    """A moderator deletes the cantor's riddle before the card is revealed in it: the edit
    meets 404 / Unknown Message, which is not the channel gone. The call is posted again."""
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    host = guild.add_member("host")
    bot = await start_bot(time_scale=100, seed_source=lambda: bytes(range(32)))
    lobby = await (await host.slash("loteria start", verses="riddle")).reply()
    await (await host.click(lobby, button_id(lobby, "join"))).reply()
    await (await host.click(lobby, button_id(lobby, "start"))).reply()
    (game,) = await bot.storage.live_games("loteria")
    cog = bot.get_cog("Lotería")
    monkeypatch.setattr(cog, "riddle_pause", lambda _game: 1.0)  # (the caller stays asleep)
    calling = asyncio.create_task(cog.call_next(game.id))
    riddle = await channel.wait_for_message(lambda m: "guess it" in m.content)
    guild.delete_message(riddle)
    assert await calling
    revealed = await channel.wait_for_message(lambda m: "card 1 of 54" in m.content)
    assert revealed.id != riddle.id
    (draw,) = await bot.storage.draws(game.id)
    assert draw.message_id == revealed.id
    assert (await bot.storage.get_game(game.id)).status.value == "running"


async def test_a_summary_automod_blocks_is_told_to_the_host(emulator: Emulator, start_bot):
    """The game is over but AutoMod refuses its summary (seed reveal included): the host hears
    it and how the game can still be verified, not only the log."""
    bot, cog, game, _guild, channel, host, _player, _lobby = await start_game(emulator, start_bot)
    await run_calls(cog, game.id, 3)
    emulator.block_messages("is over", channel=channel)
    await (await host.slash("loteria stop")).reply()
    # (behind the near misses, which go out by DM at the same end)
    dm = await host.wait_for_dm(lambda m: "refused its results" in m.content, timeout=30)
    assert f"#{game.id}" in dm.content
    assert f"/loteria verify game:{game.id}" in dm.content
    assert "200000" in dm.content  # AutoMod's error code
    assert emulator.rest.automod_blocked >= 1
    assert [m for m in channel.messages if "is over" in m.content] == []
    assert (await bot.storage.get_game(game.id)).status.value == "finished"
