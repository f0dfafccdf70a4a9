"""The voice machinery off Discord: espeak-ng in English and Spanish turned into discord.py's
PCM, the disk cache (a second request runs no program), the settings of Piper voices, and voice
off without the voice extra or espeak-ng."""

from __future__ import annotations

import array
import asyncio
import io
import itertools
import logging
import math
import os
import stat
import subprocess
import sys
import wave
from pathlib import Path

import discord
import pytest

import bot.voice.pcm as pcm_module
from bot.config import ConfigError, Settings
from bot.voice.cache import SpeechCache
from bot.voice.engines import Espeak, Piper
from bot.voice.machinery import NoVoice, Voices
from bot.voice.pcm import BYTES_PER_SECOND, loudness, read_wav, resample, seconds_of, to_discord_pcm
from bot.voice.phrase import Phrase, VoiceLanguages, in_languages
from bot.voice.speech import FRAME_SECONDS, Speech, encode
from bot.voice.voices import PiperVoice, read_piper_voice

ROOT = Path(__file__).resolve().parents[3]


def wav_bytes(rate: int, samples: list[int], channels: int = 1) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(channels)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(array.array("h", samples).tobytes())
    return out.getvalue()


# Resampled by the standard library's audioop where Python has it, else in pure Python (3.13):
# both ways are held to the same.
CONVERSIONS = ["audioop", "pure python"] if pcm_module._audioop is not None else ["pure python"]


@pytest.mark.parametrize("conversion", CONVERSIONS)
def test_a_wav_is_resampled_to_48k_stereo_keeping_its_length_and_tone(
    conversion: str, monkeypatch: pytest.MonkeyPatch
):
    if conversion == "pure python":
        monkeypatch.setattr(pcm_module, "_audioop", None)
    rate = 22_050
    tone = [round(8000 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(rate)]  # 1 s
    pcm = to_discord_pcm(read_wav(wav_bytes(rate, tone)))
    assert len(pcm) % 4 == 0
    assert seconds_of(pcm) == pytest.approx(1.0, abs=0.001)
    samples = array.array("h", pcm)
    assert samples[0::2] == samples[1::2]  # the same on both channels
    # A sine's RMS is A/√2, kept through linear interpolation.
    assert loudness(pcm) == pytest.approx(8000 / math.sqrt(2), rel=0.02)
    # 440 Hz: zero crossings per second stay ~880 at the new rate.
    left = samples[0::2]
    crossings = sum(1 for a, b in itertools.pairwise(left) if (a < 0) != (b < 0))
    assert crossings == pytest.approx(880, abs=4)


def test_a_wav_from_a_pipe_with_unfinished_lengths_is_read_to_its_end():
    data = bytearray(wav_bytes(16_000, list(range(100))))
    data[4:8] = b"\xff\xff\xff\x7f"
    data[40:44] = b"\xff\xff\xff\x7f"  # the data chunk's length, as espeak-ng writes to stdout
    assert list(read_wav(bytes(data)).samples) == list(range(100))


@pytest.mark.parametrize("channels", [1, 2])
def test_both_conversions_give_the_same_audio(channels: int, monkeypatch: pytest.MonkeyPatch):
    if pcm_module._audioop is None:
        pytest.skip("this Python has no audioop: only the pure Python conversion exists")
    rate = 16_000
    wave = [round(6000 * math.sin(2 * math.pi * 300 * i / rate)) for i in range(rate // 2)]
    samples = [s for sample in wave for s in [sample] * channels]
    wav = read_wav(wav_bytes(rate, samples, channels=channels))
    fast = array.array("h", to_discord_pcm(wav))
    monkeypatch.setattr(pcm_module, "_audioop", None)
    slow = array.array("h", to_discord_pcm(wav))
    assert abs(len(fast) - len(slow)) <= 4  # a sample or so at the end
    shared = min(len(fast), len(slow))
    assert max(abs(a - b) for a, b in zip(fast[:shared], slow[:shared], strict=True)) < 400


def test_resample_interpolates_between_samples():
    assert list(resample(array.array("h", [0, 100]), 1, 2)) == [0, 50, 100, 100]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Two little ducks, twenty two"),
        ("es", "El que le cantó a San Pedro no le volverá a cantar"),
    ],
)
def test_espeak_ng_speaks_english_and_spanish_as_discords_pcm(language, text):
    engine = Espeak()
    pcm = engine.synthesize(text, language)
    seconds = seconds_of(pcm)
    # About 150 words a minute: 5 to 11 words take 1.5 to 6 s.
    assert 1.5 < seconds < 6, seconds
    assert loudness(pcm) > 500  # speech, not silence
    # sox agrees on the length of the same speech (its own reading of espeak-ng's WAV).
    wav = subprocess.run(
        ["espeak-ng", "-v", engine.voice_for(language), "-s", "150", "--stdin", "--stdout"],
        input=text.encode(),
        capture_output=True,
        check=True,
    ).stdout
    sox = subprocess.run(
        ["sox", "-t", "wav", "-", "-n", "stat"], input=wav, capture_output=True, check=True
    )
    length = next(line for line in sox.stderr.decode().splitlines() if line.startswith("Length"))
    assert seconds == pytest.approx(float(length.split(":")[1]), abs=0.01)


def test_spanish_and_english_voices_differ():
    engine = Espeak()
    assert engine.voice_for("en") != engine.voice_for("es")
    assert engine.synthesize("uno", "en") != engine.synthesize("uno", "es")


def test_speech_encodes_to_opus_frames_and_back():
    pcm = Espeak().synthesize("bingo", "en")
    speech = encode(pcm)
    assert len(speech.frames) == math.ceil(len(pcm) / (BYTES_PER_SECOND * FRAME_SECONDS))
    assert Speech.from_bytes(speech.to_bytes()) == speech
    decoder = discord.opus.Decoder()
    decoded = b"".join(decoder.decode(frame, fec=False) for frame in speech.frames)
    assert seconds_of(decoded) == pytest.approx(speech.play_seconds)
    assert loudness(decoded) == pytest.approx(loudness(pcm), rel=0.3)


def make_voices(tmp_path: Path, **options) -> Voices:
    client = discord.Client(intents=discord.Intents(guilds=True, voice_states=True))
    return Voices(client, tmp_path / "voice-cache", **options)


async def test_the_cache_answers_a_second_request_without_running_espeak(tmp_path):
    voices = make_voices(tmp_path)
    phrase = Phrase("Le Gallo", "es")
    first = await voices.speech(phrase)
    assert first is not None
    assert voices.espeak.runs == 1
    # A new machinery (a restart) finds it on disk: no program run, the same frames.
    again = make_voices(tmp_path)
    second = await again.speech(phrase)
    assert second == first
    assert again.espeak.runs == 0
    assert again.cache.hits == 1
    # Another language or text is another phrase.
    assert await again.speech(Phrase("Le Gallo", "en")) is not None
    assert again.espeak.runs == 1


async def test_prepare_makes_each_phrase_once_off_the_event_loop(tmp_path):
    voices = make_voices(tmp_path)
    phrases = [Phrase(f"number {n}", "en") for n in range(6)] * 2
    loop_thread = asyncio.get_running_loop()
    ticks = 0

    async def ticking() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(ticking())
    assert await voices.prepare(phrases) == 6
    ticker.cancel()
    assert loop_thread.is_running()
    assert voices.espeak.runs == 6
    assert ticks > 0  # the loop went on turning while espeak-ng ran
    for phrase in phrases:
        assert await voices.speech(phrase) is not None
    assert voices.espeak.runs == 6


def test_the_cache_keeps_within_its_bound_dropping_the_least_recently_used(tmp_path):
    cache = SpeechCache(tmp_path, max_bytes=350)
    for name in "abc":
        cache.put(name, bytes(100))
        os.utime(tmp_path / f"{name}.speech", (1000 + ord(name),) * 2)
    assert cache.get("a") is not None  # used now: the newest
    cache.put("d", bytes(100))
    assert cache.total_bytes == 300
    assert cache.get("b") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.speech", "c.speech", "d.speech"]


def test_a_phrase_is_english_or_spanish_and_both_is_english_then_spanish():
    with pytest.raises(ValueError, match="en or es"):
        Phrase("hola", "fr")  # type: ignore[arg-type]

    def phrases(language):
        return [Phrase({"en": "one", "es": "uno"}[language], language)]

    assert [p.text for p in in_languages(phrases, VoiceLanguages.BOTH)] == ["one", "uno"]
    assert [p.text for p in in_languages(phrases, VoiceLanguages.SPANISH)] == ["uno"]


def no_game_names_in(folder: Path) -> list[str]:
    games = [p.name for p in (ROOT / "cogs").iterdir() if p.is_dir() and p.name[0] != "_"]
    games += ["lotería", "bingo"]
    found = []
    for path in folder.rglob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        found += [f"{path.name}: {game}" for game in games if game in text]
    return found


def test_the_machinery_names_no_game():
    assert no_game_names_in(ROOT / "bot" / "voice") == []


# Piper: no voice model can be downloaded here, so a stand-in program takes piper's place: it
# reads the text on its standard input and writes the WAV where --output_file says (espeak-ng's
# speech at 16 kHz, through sox), as piper does with a model.
STAND_IN_PIPER = """#!/bin/sh
while [ $# -gt 0 ]; do
  case "$1" in --model) model="$2"; shift 2;; --output_file) out="$2"; shift 2;; *) shift;; esac
done
test -f "$model" || exit 3
espeak-ng --stdin --stdout | sox -t wav - -r 16000 -t wav "$out"
"""


def piper_model(folder: Path, code: str, name: str) -> Path:
    model = folder / f"{name}.onnx"
    model.write_bytes(b"onnx")
    Path(f"{model}.json").write_text(f'{{"language": {{"code": "{code}"}}}}', encoding="utf-8")
    return model


def stand_in_piper(folder: Path) -> Path:
    program = folder / "piper"
    program.write_text(STAND_IN_PIPER, encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


def settings_with(**values: str) -> Settings:
    base = {"DISCORD_TOKEN": "t", "GAMENIGHT_SIGNING_KEY": "ab" * 16}
    return Settings.load(base | values, env_file=None)


def test_piper_models_are_read_with_their_language_and_program(tmp_path):
    english = piper_model(tmp_path, "en_GB", "en_GB-alan-medium")
    spanish = piper_model(tmp_path, "es_MX", "es_MX-claude-high")
    program = stand_in_piper(tmp_path)
    settings = settings_with(
        GAMENIGHT_PIPER_MODEL=f"{english}, {spanish}", GAMENIGHT_PIPER_BIN=str(program)
    )
    assert settings.piper_voices == (PiperVoice(english, "en"), PiperVoice(spanish, "es"))
    assert settings.piper_program == str(program)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"GAMENIGHT_PIPER_MODEL": "/nowhere/x.onnx"}, "/nowhere/x.onnx is not a file"),
        ({"GAMENIGHT_PIPER_MODEL": "{bare}"}, ".onnx.json is missing"),
        ({"GAMENIGHT_PIPER_MODEL": "{french}"}, "speaks fr_FR"),
        ({"GAMENIGHT_PIPER_MODEL": "{english},{english}"}, "two en voices"),
        ({"GAMENIGHT_PIPER_BIN": "/nowhere/piper"}, "/nowhere/piper is not an executable"),
    ],
)
def test_a_piper_setting_that_cannot_speak_is_refused_at_start(tmp_path, change, said):
    english = piper_model(tmp_path, "en_GB", "english")
    french = piper_model(tmp_path, "fr_FR", "french")
    bare = tmp_path / "bare.onnx"
    bare.write_bytes(b"onnx")
    names = {"english": english, "french": french, "bare": bare}
    values = {
        "GAMENIGHT_PIPER_MODEL": str(english),
        "GAMENIGHT_PIPER_BIN": str(stand_in_piper(tmp_path)),
    }
    values |= {key: value.format(**names) for key, value in change.items()}
    with pytest.raises(ConfigError, match=said) as refused:
        settings_with(**values)
    assert "\n" not in str(refused.value)


def test_a_piper_model_without_a_program_says_how_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    english = piper_model(tmp_path, "en_US", "english")
    with pytest.raises(ConfigError, match="no piper program is on PATH"):
        settings_with(GAMENIGHT_PIPER_MODEL=str(english))


def test_the_bot_refuses_a_bad_piper_model_with_exit_code_2(tmp_path):
    (tmp_path / "empty.env").write_text("", encoding="utf-8")
    env = dict(os.environ, DISCORD_TOKEN="t", GAMENIGHT_SIGNING_KEY="ab" * 16)
    env["GAMENIGHT_PIPER_MODEL"] = str(tmp_path / "missing.onnx")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "empty.env"), "run"],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: GAMENIGHT_PIPER_MODEL: {tmp_path / 'missing.onnx'} is not a file; point it at "
        "a Piper voice's .onnx file (docs/RUNNING.md: Voice), or leave it empty to speak with "
        "espeak-ng"
    ]


async def test_piper_speaks_its_language_and_espeak_ng_the_other(tmp_path):
    english = read_piper_voice(piper_model(tmp_path, "en_GB", "english"))
    voices = make_voices(
        tmp_path, piper_voices=[english], piper_program=str(stand_in_piper(tmp_path))
    )
    assert voices.available
    piper = voices.engines["en"]
    assert isinstance(piper, Piper)
    spoken = await voices.speech(Phrase("Eyes down", "en"))
    assert spoken is not None
    assert spoken.seconds > 0.5
    assert (piper.runs, voices.espeak.runs) == (1, 0)
    assert await voices.speech(Phrase("Ojos abajo", "es")) is not None
    assert (piper.runs, voices.espeak.runs) == (1, 1)


def test_without_the_voice_extra_voice_is_off_and_says_why(tmp_path, monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "nacl", None)  # as if PyNaCl were not installed
    with caplog.at_level(logging.INFO, logger="bot.voice.machinery"):
        voices = make_voices(tmp_path)
    assert not voices.available
    said = [r.getMessage() for r in caplog.records if r.name == "bot.voice.machinery"]
    assert said == ["voice is off: PyNaCl is not installed (pip install 'gamenight[voice]')"]


def test_without_espeak_ng_voice_is_off_and_says_why(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("PATH", str(tmp_path))
    with caplog.at_level(logging.INFO, logger="bot.voice.machinery"):
        voices = make_voices(tmp_path)
    assert voices.off_reason == "espeak-ng is not installed (Debian: apt-get install espeak-ng)"
    said = [r.getMessage() for r in caplog.records if r.name == "bot.voice.machinery"]
    assert said == [f"voice is off: {voices.off_reason}"]


def test_a_no_voice_reason_is_worded_for_the_host_in_both_languages():
    reason = NoVoice("voice_missing_permissions", 42, ("connect", "speak"))
    assert reason.words("en-US") == (
        "🔇 I can't speak in <#42>: I'm missing **Connect**, **Speak** there. The calls go on "
        "in text; ask someone who manages the server to allow them."
    )
    assert "**Conectar**, **Hablar**" in reason.words("es-ES")
