"""The calling games with voice: the real bot speaks each call in a voice channel of the
emulator's (which decodes what it hears) before it posts it, announces wins aloud, leaves at the
end; goes on in text when the voice connection drops or it may not join, telling the host."""

from __future__ import annotations

import asyncio

import pytest

from bot.calling.spoken import speakable
from bot.storage import GameStatus
from bot.voice.pcm import loudness, seconds_of
from emulator import DriverError, Emulator, RateLimits
from emulator.model import Permission
from emulator.voice import FRAME_SECONDS
from tests.cogs.helpers import button_id, run_calls

pytestmark = [pytest.mark.emulator(rate_limits=RateLimits().faster(10))]


async def open_game(channel, members, command: str, **options):
    """A lobby opened in ``channel`` by the first member, joined by all, started: the lobby, and
    the Start press (its answers)."""
    lobby = await (await members[0].slash(command, in_channel=channel, **options)).reply()
    for member in members:
        await (await member.click(lobby, button_id(lobby, "join"))).reply(timeout=30)
    start = await members[0].click(lobby, button_id(lobby, "start"))
    await start.reply()
    return lobby, start


async def voice_night(
    emulator,
    start_bot,
    cog_name: str,
    *,
    locale: str = "en-US",
    seed: bytes | None = None,
    time_scale: float = 100,
):
    """A server with a text channel, a voice channel both members are in, and the bot: the
    guild, the channel, the voice channel, the members, the bot and the game's cog."""
    guild = emulator.add_guild("Game Night", locale=locale)
    channel = guild.add_channel("general")
    stage = guild.add_voice_channel(cog_name)
    members = [guild.add_member(name) for name in ("ana", "beto")]
    for member in members:
        member.join_voice(stage)
    chosen = {} if seed is None else {"seed_source": lambda: seed}
    bot = await start_bot(time_scale=time_scale, **chosen)
    return guild, channel, stage, members, bot, bot.get_cog(cog_name)


async def joined_and_ready(emulator, bot, cog, guild, stage):
    """The game's voice: the bot in ``stage``, every phrase of the game made ahead."""
    (game,) = await bot.storage.live_games(cog.kind)
    call = emulator.voice(guild)
    await emulator.wait_until(lambda: call.channel is stage or None, 30, lambda: "joined")
    live = cog.live_game(game.id)
    await emulator.wait_until(lambda: live.voice_ready, 10, lambda: "making the phrases")
    assert await live.voice_ready > 0
    return game, call


def calls_posted(channel, marker: str):
    return [m for m in channel.messages if marker in m.content and not m.ephemeral]


async def check_spoken_before_posted(bot, cog, game, call, posts, per_call: int):
    """Each call's phrases were heard whole (their length, not silence), in order, before its
    message was posted."""
    await call.wait_until_quiet()
    spans = call.spans()
    assert len(spans) >= per_call * len(posts)
    for index, post in enumerate(posts):
        seq = index + 1
        value = (await bot.storage.draws(game.id))[index].value
        before, after = cog.call_phrases(game, value, seq)
        phrases = before + after
        assert len(phrases) == per_call
        heard = spans[index * per_call : (index + 1) * per_call]
        for span, phrase in zip(heard, phrases, strict=True):
            speech = await bot.voices.speech(phrase)
            pcm = call.pcm(span)
            assert abs(seconds_of(pcm) - speech.seconds) < FRAME_SECONDS
            assert loudness(pcm) > 500
        assert heard[-1][-1].arrived <= post.created, f"call {seq} was posted before it was said"
        if index + 1 < len(posts):  # and the next call's speech began after this one's post
            assert spans[(index + 1) * per_call][0].arrived >= post.created


async def test_a_loteria_game_is_sung_in_the_voice_channel_before_each_call_is_posted(
    emulator: Emulator, start_bot
):
    guild, channel, stage, members, bot, cog = await voice_night(emulator, start_bot, "Lotería")

    lobby, _ = await open_game(channel, members, "loteria start", voice=stage)
    assert f"spoken** in <#{stage.id}>" in lobby.content
    game, call = await joined_and_ready(emulator, bot, cog, guild, stage)
    assert game.options["voice"] == stage.id
    assert guild.members_in_voice(stage)[-1].id == emulator.bot_user.id

    await run_calls(cog, game.id, 3)
    posts = calls_posted(channel, " of 54")
    assert len(posts) == 3
    # The card's name, then its verse (verses are on by default).
    await check_spoken_before_posted(bot, cog, game, call, posts, per_call=2)
    card = cog.state_of(game).deck.card((await bot.storage.draws(game.id))[0].value)
    name, verse = cog.call_phrases(game, card.number, 1)[0]
    assert name.text.startswith(card.spanish)
    assert card.english in name.text
    assert name.language == verse.language == "en"

    await (await members[0].slash("loteria stop", in_channel=channel)).reply()
    await emulator.wait_until(lambda: call.channel is None or None, 30, lambda: "the bot left")
    farewell = call.spans()[-1]
    assert loudness(call.pcm(farewell)) > 500  # "That's the game", said before leaving
    assert len(call.spans()) == 3 * 2 + 1
    assert (await bot.storage.get_game(game.id)).status is GameStatus.FINISHED
    await emulator.wait_until(lambda: bot.voices.speakers == {} or None, 10, lambda: "forgotten")


async def test_housie_calls_the_number_its_nickname_and_the_number_in_both_languages(
    emulator: Emulator, start_bot
):
    guild, channel, stage, members, bot, cog = await voice_night(emulator, start_bot, "Housie")
    # The server's default: spoken in English, then again in Spanish.
    manager = guild.add_member("owner", manage_guild=True)
    await (
        await manager.slash(
            "gamenight settings",
            in_channel=channel,
            game="housie",
            voice=stage,
            voice_language="both",
        )
    ).reply()

    await open_game(channel, members, "housie start", calls="classic")
    game, call = await joined_and_ready(emulator, bot, cog, guild, stage)
    await run_calls(cog, game.id, 2)
    posts = calls_posted(channel, " of 90")
    assert len(posts) == 2
    await check_spoken_before_posted(bot, cog, game, call, posts, per_call=6)
    value = (await bot.storage.draws(game.id))[0].value
    before, _ = cog.call_phrases(game, value, 1)
    assert [p.language for p in before] == ["en"] * 3 + ["es"] * 3
    assert before[0] == before[2]  # the number, the nickname, the number again
    assert before[1].text not in {before[0].text, before[4].text}


async def test_bingo_calls_the_letter_and_number_with_its_nickname_in_the_games_language(
    emulator: Emulator, start_bot
):
    guild, channel, stage, members, bot, cog = await voice_night(
        emulator, start_bot, "Bingo", locale="es-ES"
    )
    await open_game(channel, members, "bingo start", voice=stage)
    game, call = await joined_and_ready(emulator, bot, cog, guild, stage)
    await run_calls(cog, game.id, 1)
    posts = [m for m in channel.messages if "🎱" in m.content and not m.ephemeral]
    assert len(posts) == 1
    await check_spoken_before_posted(bot, cog, game, call, posts, per_call=3)
    value = (await bot.storage.draws(game.id))[0].value
    (called, nickname, again), _ = cog.call_phrases(game, value, 1)
    assert called == again
    assert called.text == f"{'BINGO'[(value - 1) // 15]} {value}."
    assert nickname.language == "es"  # the game's language, a Spanish server's


async def test_without_connect_the_host_is_told_privately_and_the_game_goes_on_in_text(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    channel = guild.add_channel("general")
    guild.add_member(
        "owner"
    )  # (a guild without a member is the bot's own: it holds every permission)
    closed = guild.add_voice_channel("Staff", bot_denied=Permission.CONNECT)
    members = [guild.add_member(name) for name in ("ana", "beto")]
    bot = await start_bot(time_scale=100)
    cog = bot.get_cog("Lotería")

    _, start = await open_game(channel, members, "loteria start", voice=closed)
    told = await emulator.wait_until(
        lambda: [m for m in start.followups if "🔇" in m.content] or None,
        30,
        lambda: "the host told why",
    )
    assert told[0].ephemeral
    # (Without Connect, Discord counts the channel's other voice permissions denied too.)
    assert f"I can't speak in <#{closed.id}>: I'm missing **Connect**" in told[0].content
    assert not [m for m in channel.messages if "🔇" in m.content]  # nothing public
    (game,) = await bot.storage.live_games("loteria")
    await run_calls(cog, game.id, 2)
    assert len(calls_posted(channel, " of 54")) == 2
    assert emulator.voice(guild).frames == []
    assert guild.members_in_voice(closed) == []


@pytest.mark.slow
async def test_a_voice_connection_dropped_mid_game_comes_back_and_no_call_waits_for_it(
    emulator: Emulator, start_bot
):
    guild, channel, stage, members, bot, cog = await voice_night(emulator, start_bot, "Lotería")
    await open_game(channel, members, "loteria start", voice=stage, verses="off")
    game, call = await joined_and_ready(emulator, bot, cog, guild, stage)
    await run_calls(cog, game.id, 1)
    await call.wait_until_quiet()
    assert len(call.spans()) == 1

    await emulator.drop_voice(guild)
    await run_calls(cog, game.id, 1)  # posted at once, spoken or not
    assert len(calls_posted(channel, " of 54")) == 2
    speaker = cog.live_game(game.id).speaker
    await emulator.wait_until(
        # (discord.py's UDP reader sits up to 30 s on the socket it had before the cut.)
        lambda: (call.connected and speaker.connected) or None,
        90,
        lambda: "connected again",
    )
    await call.wait_until_quiet()
    heard = len(call.audio_frames)
    await run_calls(cog, game.id, 1)
    await call.wait_until_quiet()
    # The third call is heard whole again.
    value = (await bot.storage.draws(game.id))[2].value
    (phrase,), _ = cog.call_phrases(game, value, 3)
    assert len(call.audio_frames) - heard == len((await bot.voices.speech(phrase)).frames)
    assert len(calls_posted(channel, " of 54")) == 3


def test_what_is_spoken_has_no_markdown_mentions_or_emoji():
    assert speakable("🎉 **¡Línea!** _Gana_ Ana 🏆") == "¡Línea! Gana Ana"


async def frames_of(bot, phrases) -> int:
    """How many Opus frames ``phrases`` are, said whole."""
    return sum([len((await bot.voices.speech(phrase)).frames) for phrase in phrases])


async def test_pausing_hushes_the_voice_and_resuming_speaks_again(emulator: Emulator, start_bot):
    guild, channel, stage, members, bot, cog = await voice_night(emulator, start_bot, "Lotería")
    await open_game(channel, members, "loteria start", voice=stage)
    game, call = await joined_and_ready(emulator, bot, cog, guild, stage)
    assert await bot.storage.draws(game.id) == []

    calling = asyncio.create_task(cog.call_next(game.id))
    await call.wait_for_frames(10)  # the first call is being said
    await (await members[0].slash("loteria pause", in_channel=channel)).reply()
    assert await calling  # posted once hushed
    await call.wait_until_quiet()
    value = (await bot.storage.draws(game.id))[0].value
    before, _ = cog.call_phrases(game, value, 1)
    whole = await frames_of(bot, before)
    assert len(call.audio_frames) < whole  # cut short by the pause
    assert len(calls_posted(channel, " of 54")) == 1

    await (await members[0].slash("loteria resume", in_channel=channel)).reply()
    heard = len(call.audio_frames)
    await run_calls(cog, game.id, 1)
    await call.wait_until_quiet()
    value = (await bot.storage.draws(game.id))[1].value
    before, _ = cog.call_phrases(game, value, 2)
    whole = await frames_of(bot, before)
    assert len(call.audio_frames) - heard == whole


async def test_the_servers_default_the_hosts_choice_and_a_planned_night_name_the_voice_channel(
    emulator: Emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    rooms = [guild.add_channel(f"room{i}") for i in range(3)]
    usual = guild.add_voice_channel("Usual")
    other = guild.add_voice_channel("Other")
    manager = guild.add_member("manager", manage_guild=True)
    bot = await start_bot(time_scale=100)

    saved = await (
        await manager.slash(
            "gamenight settings", game="loteria", voice=usual, voice_language="both"
        )
    ).reply()
    assert f"spoken in <#{usual.id}> (English, then Spanish)" in saved.content
    refused = await (await manager.slash("gamenight settings", voice=usual)).reply()
    assert refused.ephemeral
    assert "game" in refused.content  # which game's default: it must say
    with pytest.raises(
        DriverError, match="channels of types"
    ):  # Discord offers voice channels only
        await manager.slash("loteria start", in_channel=rooms[0], voice=rooms[1])

    await (await manager.slash("loteria start", in_channel=rooms[0])).reply()
    await (await manager.slash("housie start", in_channel=rooms[1], voice=other)).reply()
    games = {g.channel_id: g for g in await bot.storage.live_games()}
    assert games[rooms[0].id].options["voice"] == usual.id
    assert games[rooms[0].id].options["voice_language"] == "both"
    assert games[rooms[1].id].options["voice"] == other.id  # Housie has no default: the host's

    cog = bot.get_cog("Lotería")
    await (await manager.slash("loteria stop", in_channel=rooms[0])).reply()
    await (
        await manager.slash(
            "loteria schedule", in_channel=rooms[2], when="in 30 minutes", lobby=10, voice=other
        )
    ).reply()
    emulator.advance_clock(21 * 60)
    bot.clock_offset += 21 * 60
    cog.nights_wake.set()
    lobby = await rooms[2].wait_for_message(lambda m: "Planned game night" in m.content)
    assert f"spoken** in <#{other.id}>" in lobby.content
    night = next(g for g in await bot.storage.live_games("loteria") if g.channel_id == rooms[2].id)
    assert night.options["voice"] == other.id  # as planned, over the server's default

    off = await (
        await manager.slash("gamenight settings", game="loteria", voice_language="off")
    ).reply()
    assert "spoken in" not in off.content


@pytest.mark.slow
async def test_a_win_is_said_aloud_after_its_call(emulator: Emulator, start_bot):
    # Seed 33 with 6 tablas: Line is completed on call 22 by the tablas dealt 1st and 3rd
    # (tests/cogs/test_auto_claims.py); the bot finds the winners itself.
    guild, channel, stage, members, bot, cog = await voice_night(
        emulator, start_bot, "Lotería", seed=(33).to_bytes(32, "big")
    )
    members += [guild.add_member(f"p{i}") for i in range(4)]
    await open_game(
        channel, members, "loteria start", voice=stage, verses="off", prizes="line", claims="auto"
    )
    game, call = await joined_and_ready(emulator, bot, cog, guild, stage)
    await run_calls(cog, game.id, 22)
    await channel.wait_for_message(lambda m: "🎉" in m.content)
    last_call = calls_posted(channel, "card 22 of 54")[0]
    (said,) = cog.win_phrases(game, "line", [members[0].name, members[2].name])
    assert "ana" in said.text
    speech = await bot.voices.speech(said)
    await emulator.wait_until(
        lambda: (
            sum(f.arrived > last_call.created for f in call.frames) >= len(speech.frames) or None
        ),
        30,
        lambda: "the win said",
    )
    await call.wait_until_quiet()
    # After the last call, the win, whole (and the five silence frames that end speech).
    after = [f for f in call.frames if f.arrived > last_call.created]
    assert len(speech.frames) <= len(after) <= len(speech.frames) + 5
    assert loudness(call.pcm(after)) > 500


async def test_in_riddle_mode_the_verse_is_said_before_the_riddle_and_the_card_at_its_reveal(
    emulator: Emulator, start_bot
):
    # At the real pace: the caller makes the first call itself, the riddle's pause in seconds.
    guild, channel, stage, members, bot, cog = await voice_night(
        emulator, start_bot, "Lotería", time_scale=1
    )
    await open_game(channel, members, "loteria start", voice=stage, verses="riddle")
    game, call = await joined_and_ready(emulator, bot, cog, guild, stage)
    riddle = await channel.wait_for_message(lambda m: "of 54" in m.content, timeout=60)
    await emulator.wait_until(lambda: riddle.edits or None, 60, lambda: "the riddle revealed")
    await (await members[0].slash("loteria pause", in_channel=channel)).reply()
    value = (await bot.storage.draws(game.id))[0].value
    (verse,), (name,) = cog.call_phrases(game, value, 1)
    card = cog.state_of(game).deck.card(value)
    assert card.english in name.text
    assert card.english not in verse.text
    await call.wait_until_quiet()
    said_verse, said_name = call.spans()[:2]
    assert len(said_verse) == len((await bot.voices.speech(verse)).frames)
    assert len(said_name) == len((await bot.voices.speech(name)).frames)
    assert said_verse[-1].arrived <= riddle.created <= said_name[0].arrived
    assert card.english in riddle.content  # revealed once the card was said
