"""The voice machinery's cost: run by hand, prints figures.

    python bench/bench_voice.py [--phrases 40] [--seconds 10]

Synthesis per phrase, cold (espeak-ng run, its WAV resampled to discord.py's PCM in pure Python,
encoded to Opus, written to the disk cache) and on a cache hit (read from disk by a new
machinery, as after a restart; and from memory, as during a night once prepared), in English
and Spanish, phrases of a caller's length ("Twenty two", "two little ducks"). Then the CPU of
playing: discord.py's voice send loop (its AudioPlayer thread, measured from /proc per thread,
so the emulator in the same process does not count) per second of audio, for the cached Opus
frames the speaker plays and, for comparison, for the same speech as raw PCM that discord.py
encodes live.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import discord

from bot.voice.engines import Espeak
from bot.voice.machinery import Voices
from bot.voice.pcm import read_wav, to_discord_pcm
from bot.voice.phrase import Phrase
from bot.voice.speech import SpeechSource, encode
from emulator import Emulator, run_bot

ENGLISH = [
    "{n}",
    "Number {n}",
    "{n}, two little ducks, {n}",
    "Eyes down, number {n}",
]
SPANISH = [
    "El número {n}",
    "{n}, el gallo",
    "El que le cantó a San Pedro, número {n}",
    "Ojos abajo, {n}",
]
TICKS = os.sysconf("SC_CLK_TCK")


def phrases(count: int) -> list[Phrase]:
    made = []
    for index in range(count):
        templates, language = (ENGLISH, "en") if index % 2 == 0 else (SPANISH, "es")
        text = templates[index // 2 % len(templates)].format(n=index + 10)
        made.append(Phrase(text, language))  # type: ignore[arg-type]
    return made


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:6.1f} ms, max {max(values) * 1000:6.1f} ms"


def synthesis(count: int) -> None:
    client = discord.Client(intents=discord.Intents(guilds=True, voice_states=True))
    with tempfile.TemporaryDirectory() as folder:
        voices = Voices(client, Path(folder) / "voice-cache")
        assert voices.available, voices.off_reason
        espeak = Espeak()
        spoken_seconds: list[float] = []
        parts: dict[str, list[float]] = {"espeak-ng": [], "to PCM": [], "Opus": []}
        import subprocess

        for phrase in phrases(count):
            start = time.perf_counter()
            wav = subprocess.run(
                [
                    "espeak-ng",
                    "-v",
                    espeak.voice_for(phrase.language),
                    "-s",
                    "150",
                    "--stdin",
                    "--stdout",
                ],
                input=phrase.text.encode(),
                capture_output=True,
                check=True,
            ).stdout
            ran = time.perf_counter()
            pcm = to_discord_pcm(read_wav(wav))
            converted = time.perf_counter()
            encode(pcm)
            parts["espeak-ng"].append(ran - start)
            parts["to PCM"].append(converted - ran)
            parts["Opus"].append(time.perf_counter() - converted)
            spoken_seconds.append(len(pcm) / 192_000)
        print(f"phrases: {count}, {statistics.mean(spoken_seconds):.2f} s of speech on average")
        for name, values in parts.items():
            print(f"  cold, {name:10} {ms(values)}")
        cold = []
        for phrase in phrases(count):
            start = time.perf_counter()
            voices.make(phrase)
            cold.append(time.perf_counter() - start)
        print(f"  cold, whole      {ms(cold)}  (Voices.make: run, convert, encode, cache)")
        restarted = Voices(client, Path(folder) / "voice-cache")
        hits = []
        for phrase in phrases(count):
            start = time.perf_counter()
            restarted.make(phrase)
            hits.append(time.perf_counter() - start)
        assert restarted.espeak.runs == 0
        print(f"  cache hit, disk  {ms(hits)}")

        async def from_memory() -> list[float]:
            await restarted.prepare(phrases(count))
            times = []
            for phrase in phrases(count):
                start = time.perf_counter()
                await restarted.speech(phrase)
                times.append(time.perf_counter() - start)
            return times

        print(f"  cache hit, memory {ms(asyncio.run(from_memory()))}")
        size = restarted.cache.total_bytes
        print(
            f"  disk: {size / 1024:.0f} KiB for {count} phrases "
            f"({size / sum(spoken_seconds) / 1024:.1f} KiB per second of speech)"
        )


def thread_cpu(native_id: int) -> float:
    fields = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


async def play_and_measure(voice: discord.VoiceClient, source: discord.AudioSource) -> float:
    done = asyncio.get_running_loop().create_future()
    voice.play(source, after=lambda e: done.get_loop().call_soon_threadsafe(done.set_result, e))
    player = next(t for t in threading.enumerate() if isinstance(t, discord.player.AudioPlayer))
    assert player.native_id is not None
    cpu = 0.0
    while not done.done():
        cpu = thread_cpu(player.native_id)
        await asyncio.sleep(0.05)
    return cpu


async def playing(seconds: float) -> None:
    texts = phrases(60)
    client_intents = discord.Intents(guilds=True, voice_states=True)
    async with Emulator() as emu:
        guild = emu.add_guild("Bench")
        guild.add_channel("general")
        stage = guild.add_voice_channel("Calling")
        client = discord.Client(intents=client_intents, guild_ready_timeout=0.05)
        async with run_bot(emu, client):
            with tempfile.TemporaryDirectory() as folder:
                voices = Voices(client, Path(folder) / "voice-cache")
                pcm = b""
                index = 0
                while len(pcm) < seconds * 192_000:
                    phrase = texts[index % len(texts)]
                    pcm += Espeak().synthesize(phrase.text, phrase.language)
                    index += 1
                del voices
            channel = client.get_channel(stage.id)
            assert isinstance(channel, discord.VoiceChannel)
            voice = await channel.connect(timeout=10)
            audio = len(pcm) / 192_000
            opus_cpu = await play_and_measure(voice, SpeechSource(encode(pcm)))
            pcm_cpu = await play_and_measure(voice, discord.PCMAudio(io.BytesIO(pcm)))
            print(f"playing {audio:.1f} s of speech (the voice send loop's thread):")
            print(
                f"  cached Opus frames: {opus_cpu / audio * 1000:5.1f} ms CPU per second of audio"
            )
            print(f"  PCM encoded live:   {pcm_cpu / audio * 1000:5.1f} ms CPU per second of audio")
            await voice.disconnect()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phrases", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=10.0)
    options = parser.parse_args()
    synthesis(options.phrases)
    asyncio.run(playing(options.seconds))


if __name__ == "__main__":
    main()
