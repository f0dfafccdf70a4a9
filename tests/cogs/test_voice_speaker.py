"""The real GameNightBot's voice against the emulator's: a speaker joins a voice channel, speaks
phrases the emulator receives and decodes (their length, not silence), and leaves; refused
without Connect before trying; a voice connection cut mid-phrase; everyone leaving; voice off
without the voice extra."""

from __future__ import annotations

import asyncio
import sys

import discord
import pytest

from bot.voice.machinery import NoVoice
from bot.voice.pcm import loudness, seconds_of
from bot.voice.phrase import Phrase
from bot.voice.speaker import Speaker
from emulator.model import Permission
from emulator.voice import FRAME_SECONDS


def voice_channel(bot, channel_id: int) -> discord.VoiceChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.VoiceChannel)
    return channel


async def joined(bot, channel_id: int, **options) -> Speaker:
    speaker = await bot.voices.join(voice_channel(bot, channel_id), **options)
    assert isinstance(speaker, Speaker), speaker
    return speaker


async def test_the_bot_joins_speaks_two_phrases_the_emulator_hears_and_leaves(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    alice = guild.add_member("alice")
    alice.join_voice(stage)
    bot = await start_bot()
    phrases = [Phrase("Twenty two", "en"), Phrase("Dos patitos, veintidós", "es")]
    assert await bot.voices.prepare(phrases) == 2
    made = [await bot.voices.speech(phrase) for phrase in phrases]
    speaker = await joined(bot, stage.id)
    call = emulator.voice(guild)
    assert call.channel is stage
    assert await speaker.say(phrases[0])
    # Resolved once played: the phrase's frames have been sent (UDP on loopback arrives).
    await call.wait_for_frames(len(made[0].frames))
    assert await speaker.say(phrases[1])
    await call.wait_until_quiet()
    spans = call.spans()
    assert [len(span) for span in spans] == [len(speech.frames) for speech in made]
    for span, speech in zip(spans, made, strict=True):
        pcm = call.pcm(span)
        # Decoded, each phrase lasts as long as the PCM it was made from (to the 20 ms frame).
        assert abs(seconds_of(pcm) - speech.seconds) < FRAME_SECONDS
        assert loudness(pcm) > 500  # speech, not silence
    await speaker.leave()
    await emulator.wait_until(lambda: call.channel is None or None, 5, lambda: "the bot left")
    assert guild.members_in_voice(stage) == [alice.user]
    assert speaker.left == "requested"
    assert bot.voices.speakers == {}


async def test_without_connect_the_reason_comes_back_and_the_bot_does_not_try(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    # A member first: a guild without one is the bot's own, and its owner holds every permission.
    guild.add_member("owner")
    closed = guild.add_voice_channel("Staff", bot_denied=Permission.CONNECT | Permission.SPEAK)
    bot = await start_bot()
    refused = await bot.voices.join(voice_channel(bot, closed.id))
    assert refused == NoVoice("voice_missing_permissions", closed.id, ("connect", "speak"))
    assert "I'm missing **Connect**, **Speak** there" in refused.words("en-US")
    assert emulator.voice_refusals == []  # checked before asking Discord
    assert guild.members_in_voice(closed) == []
    assert bot.voices.speakers == {}


async def test_everyone_leaving_the_channel_makes_the_speaker_leave(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob")
    alice.join_voice(stage)
    bob.join_voice(stage)
    bot = await start_bot()
    reasons: list[str] = []

    async def on_leave(reason: str) -> None:
        reasons.append(reason)

    speaker = await joined(bot, stage.id, on_leave=on_leave, empty_grace=0.5)
    call = emulator.voice(guild)
    alice.leave_voice()
    await asyncio.sleep(1.0)  # longer than the grace: bob is still there
    assert call.channel is stage
    assert speaker.left is None
    bob.leave_voice()
    await emulator.wait_until(lambda: call.channel is None or None, 10, lambda: "the bot left")
    await emulator.wait_until(lambda: reasons, 5, lambda: "the game told why")
    assert reasons == ["empty"]
    assert speaker.left == "empty"
    assert not await speaker.say(Phrase("Anyone?", "en"))
    assert guild.members_in_voice(stage) == []


async def test_a_second_game_in_the_server_is_told_the_voice_is_busy(emulator, start_bot):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    other = guild.add_voice_channel("Other")
    guild.add_member("alice").join_voice(stage)
    bot = await start_bot()
    speaker = await joined(bot, stage.id)
    assert await bot.voices.join(voice_channel(bot, other.id)) == NoVoice("voice_busy", stage.id)
    await speaker.leave()


@pytest.mark.slow
async def test_a_voice_connection_cut_mid_phrase_skips_it_and_the_next_phrase_arrives(
    emulator, start_bot
):
    guild = emulator.add_guild("Game Night")
    guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    guild.add_member("alice").join_voice(stage)
    bot = await start_bot()
    long_phrase = Phrase("Seventy seven, sunset strip, seven and seven, seventy seven", "en")
    after_phrase = Phrase("Eighty eight, two fat ladies", "en")
    await bot.voices.prepare([long_phrase, after_phrase])
    # discord.py's reconnection needs up to 30 s (tests/README.md): a long join timeout.
    speaker = await joined(bot, stage.id, connect_timeout=45)
    call = emulator.voice(guild)
    saying = asyncio.create_task(speaker.say(long_phrase))
    await call.wait_for_frames(10)
    first_ssrc = call.frames[0].ssrc
    await emulator.drop_voice(guild)
    # The caller is not held up by the cut (bounded by the phrase and its margin) nor raised to.
    cut_short = await asyncio.wait_for(saying, 30)
    assert cut_short in (True, False)
    await emulator.wait_until(
        lambda: (call.identified >= 2 and speaker.connected) or None,
        60,
        lambda: f"a second voice connection; {call!r}",
    )
    assert await speaker.say(after_phrase)
    await call.wait_until_quiet()
    made = await bot.voices.speech(after_phrase)
    after = [f for f in call.audio_frames if f.ssrc != first_ssrc]
    # The next phrase came whole through the new connection (with whatever was left of the cut one).
    assert len(after) >= len(made.frames)
    last_span = call.spans()[-1]
    assert len(last_span) == len(made.frames)
    assert loudness(call.pcm(last_span)) > 500
    assert call.channel is stage
    await speaker.leave()


async def test_without_the_voice_extra_the_bot_runs_and_a_game_is_told_voice_is_off(
    emulator, start_bot, monkeypatch, caplog
):
    monkeypatch.setitem(sys.modules, "nacl", None)  # as if PyNaCl were not installed
    guild = emulator.add_guild("Game Night")
    general = guild.add_channel("general")
    stage = guild.add_voice_channel("Calling")
    host = guild.add_member("host")
    bot = await start_bot()
    assert "voice is off: PyNaCl is not installed (pip install 'gamenight[voice]')" in [
        r.getMessage() for r in caplog.records if r.name == "bot.voice.machinery"
    ]
    refused = await bot.voices.join(voice_channel(bot, stage.id))
    assert isinstance(refused, NoVoice)
    assert refused.key == "voice_off"
    assert "PyNaCl" in refused.detail
    # The bot itself runs as before: a game opens.
    lobby = await (await host.slash("loteria start")).reply()
    assert lobby in general.messages
    assert emulator.voice(guild).identified == 0
