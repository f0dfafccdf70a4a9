"""The voice machinery's cost: run by hand, prints figures.

    python bench/bench_voice.py [--phrases 40] [--seconds 10]
    python bench/bench_voice.py --games 20 [--minutes 1] [--every 5] [--hog 2]

Synthesis per phrase, cold (espeak-ng run, its WAV resampled to discord.py's PCM (bot.voice.pcm),
encoded to Opus, written to the disk cache) and on a cache hit (read from disk by a new
machinery, as after a restart; and from memory, as during a night once prepared), in English
and Spanish, phrases of a caller's length ("Twenty two", "two little ducks"). Then the CPU of
playing: discord.py's voice send loop (its AudioPlayer thread, measured from /proc per thread,
so the emulator in the same process does not count) per second of audio, for the cached Opus
frames the speaker plays and, for comparison, for the same speech as raw PCM that discord.py
encodes live.

``--games N``: a night's calls in N servers at once, by one bot process. The emulator runs here;
the bot is a second process (this file with ``--voice-bot``): a real discord.py client with the
bot's voice machinery (``Voices``, one ``Speaker`` per server, as the games use it), which joins
one voice channel in each of N emulator servers (``Voices`` allows one speaker per server) where a
member listens, and speaks a cached phrase of about 2 s every ``--every`` seconds in each, the
servers' calls spread over that time, for ``--minutes``. It reports its own CPU (from /proc: the
whole process, every thread) per second of audio played, idle in the channels and while calling,
and its RSS before joining, once joined and after calling; the emulator reports the frames it
received against those sent. ``--hog K`` runs K busy processes meanwhile (a busy machine).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import discord

from bot.fleet.endpoints import apply_endpoints
from bot.voice.engines import Espeak
from bot.voice.machinery import Voices
from bot.voice.pcm import read_wav, to_discord_pcm
from bot.voice.phrase import Phrase
from bot.voice.speaker import Speaker
from bot.voice.speech import SpeechSource, encode
from emulator import Emulator, run_bot

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parents[1]
MIB = 2**20
# Calls of about 2 s, as a caller says them (a number, its nickname, the number again).
NIGHT_CALLS_EN = [
    "{n}, two little ducks",
    "{n}, top of the shop",
    "{n}, key of the door",
    "{n}, legs eleven",
]
NIGHT_CALLS_ES = [
    "{n}, el gallo, {n}",
    "{n}, el diablito",
    "{n}, la dama, {n}",
    "{n}, el catrín",
]

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


# -- a night's calls in many servers, one bot process -------------------------------------------


def night_calls(count: int) -> list[Phrase]:
    made = []
    for index in range(count):
        templates, language = (NIGHT_CALLS_EN, "en") if index % 2 == 0 else (NIGHT_CALLS_ES, "es")
        text = templates[index // 2 % len(templates)].format(n=index % 89 + 1)
        made.append(Phrase(text, language))  # type: ignore[arg-type]
    return made


def own_cpu() -> float:
    """This process's CPU seconds so far, every thread (user and system)."""
    times = os.times()
    return times.user + times.system


def own_memory() -> tuple[int, int]:
    """This process's RSS and its peak (VmHWM), in bytes."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) * 1024
    return found["VmRSS"], found["VmHWM"]


async def settled_rss() -> int:
    gc.collect()
    await asyncio.sleep(2)
    return own_memory()[0]


async def voice_bot(options: argparse.Namespace) -> None:
    """The bot process of ``--games``: joins the servers' voice channels and calls, then prints
    its figures as one JSON line."""
    apply_endpoints(os.environ["DISCORD_API_BASE_URL"], os.environ["DISCORD_GATEWAY_URL"])
    intents = discord.Intents(guilds=True, voice_states=True)
    client = discord.Client(intents=intents, guild_ready_timeout=0.5)
    runner = asyncio.create_task(client.start(os.environ["DISCORD_TOKEN"]))
    await asyncio.wait_for(client.wait_until_ready(), 60)
    figures: dict[str, float] = {}
    voices = Voices(client, Path(os.environ["VOICE_CACHE"]))
    assert voices.available, voices.off_reason
    calls = night_calls(40)
    assert await voices.prepare(calls) == len(calls)
    made = {call: await voices.speech(call) for call in calls}
    seconds = {call: speech.seconds for call, speech in made.items() if speech is not None}
    frame_counts = {call: len(speech.frames) for call, speech in made.items() if speech is not None}
    figures["phrase_seconds"] = statistics.mean(seconds.values())
    figures["rss_ready"] = await settled_rss()

    channels = [channel for guild in client.guilds for channel in guild.voice_channels]
    speakers = []
    for channel in channels:
        speaker = await voices.join(channel)
        assert isinstance(speaker, Speaker), speaker
        speakers.append(speaker)
    figures["rss_joined"] = await settled_rss()
    idle_seconds = 10.0
    start_cpu, start = own_cpu(), time.perf_counter()
    await asyncio.sleep(idle_seconds)
    figures["idle_cpu_per_game"] = (
        (own_cpu() - start_cpu) / (time.perf_counter() - start) / len(speakers)
    )

    stop_at = time.perf_counter() + options.minutes * 60
    played = [0.0]
    frames = [0]
    late = [0]

    async def night(speaker: Speaker, first: int) -> None:
        await asyncio.sleep(random.uniform(0, options.every))  # the servers' calls spread out
        index = first
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            call = calls[index % len(calls)]
            if await speaker.say(call):
                played[0] += seconds[call]
                frames[0] += frame_counts[call]
            index += 1
            took = time.perf_counter() - began
            if took > seconds[call] + 0.5:
                late[0] += 1
            await asyncio.sleep(max(0.0, options.every - took))

    start_cpu, start = own_cpu(), time.perf_counter()
    await asyncio.gather(*(night(s, i * 7) for i, s in enumerate(speakers)))
    wall = time.perf_counter() - start
    cpu = own_cpu() - start_cpu
    figures["wall"] = wall
    figures["cpu"] = cpu
    figures["audio_seconds"] = played[0]
    figures["frames_sent"] = frames[0]
    figures["late_phrases"] = late[0]
    figures["phrases"] = sum(s.spoken for s in speakers)
    figures["skipped"] = sum(s.skipped for s in speakers)
    figures["rss_after"], figures["rss_peak"] = own_memory()
    figures["threads"] = len(os.listdir("/proc/self/task"))
    await asyncio.gather(*(s.leave() for s in speakers))
    await voices.close()
    await client.close()
    await asyncio.wait_for(runner, 10)
    print(json.dumps(figures), flush=True)


def hogs(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that spin on a core each (a busy machine)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


async def many_games(options: argparse.Namespace) -> None:
    async with Emulator() as emu:
        stages = []
        for number in range(options.games):
            guild = emu.add_guild(f"Night {number + 1}")
            guild.add_channel("general")
            stage = guild.add_voice_channel("Calling")
            guild.add_member(f"player{number}").join_voice(stage)  # someone listens
            stages.append(guild)
        busy = hogs(options.hog)
        try:
            with tempfile.TemporaryDirectory() as folder:
                environment = {
                    **os.environ,
                    "DISCORD_TOKEN": emu.token,
                    "DISCORD_API_BASE_URL": emu.api_base_url,
                    "DISCORD_GATEWAY_URL": emu.gateway_url,
                    "VOICE_CACHE": str(Path(folder) / "voice-cache"),
                    "PYTHONPATH": str(ROOT),
                }
                process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    str(SCRIPT),
                    "--voice-bot",
                    "--minutes",
                    str(options.minutes),
                    "--every",
                    str(options.every),
                    env=environment,
                    stdout=asyncio.subprocess.PIPE,
                )
                out, _ = await process.communicate()
        finally:
            for hog in busy:
                hog.kill()
                hog.wait()
        assert process.returncode == 0, process.returncode
        figures = json.loads(out.decode().strip().splitlines()[-1])
        received = sum(len(emu.voice(guild).audio_frames) for guild in stages)
        failures = emu.take_failures()
    audio = figures["audio_seconds"]
    print(
        f"{options.games} servers, a call of {figures['phrase_seconds']:.1f} s every "
        f"{options.every:g} s in each for {figures['wall']:.0f} s, {options.hog} busy processes "
        f"beside (load average {os.getloadavg()[0]:.1f}):"
    )
    print(
        f"  calls spoken: {figures['phrases']:.0f} ({audio:.0f} s of audio), skipped "
        f"{figures['skipped']:.0f}, late (played more than 0.5 s over their length) "
        f"{figures['late_phrases']:.0f}; frames the emulator got: {received} of "
        f"{figures['frames_sent']:.0f}"
    )
    print(
        f"  bot CPU while calling: {figures['cpu'] / audio * 1000:.1f} ms per second of audio, "
        f"{figures['cpu'] / figures['wall'] * 100:.0f}% of a core for the {options.games}"
    )
    print(
        f"  bot CPU joined and silent: {figures['idle_cpu_per_game'] * 1000:.2f} ms a second "
        f"per server"
    )
    print(
        f"  bot RSS: {figures['rss_ready'] / MIB:.0f} MiB ready (phrases made), "
        f"{figures['rss_joined'] / MIB:.0f} MiB joined to {options.games} channels "
        f"(+{(figures['rss_joined'] - figures['rss_ready']) / options.games / 1024:.0f} KiB "
        f"each), {figures['rss_after'] / MIB:.0f} MiB after calling (peak "
        f"{figures['rss_peak'] / MIB:.0f} MiB); {figures['threads']:.0f} threads"
    )
    if failures:
        print(f"  emulator failures: {failures}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phrases", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=0, help="voice games at once (one bot)")
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between calls")
    parser.add_argument("--hog", type=int, default=0, help="busy processes beside")
    parser.add_argument("--voice-bot", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.voice_bot:
        asyncio.run(voice_bot(options))
    elif options.games:
        asyncio.run(many_games(options))
    else:
        synthesis(options.phrases)
        asyncio.run(playing(options.seconds))


if __name__ == "__main__":
    main()
