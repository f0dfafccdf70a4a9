"""``python -m bot sandbox --voice``: the calls spoken in the sandbox's voice channel, each saved
as a WAV file beside its picture (as long as its phrases, not silence) and played from the page;
where the bot cannot speak, it says why and exits with status 2."""

from __future__ import annotations

import html
import re
import wave
from pathlib import Path

from bot.sandbox import main
from bot.voice.engines import Espeak
from bot.voice.pcm import loudness, seconds_of
from emulator.voice import FRAME_SECONDS
from tests.bot.sandbox.helpers import sandbox_without

AUDIO = re.compile(
    r'<figure class="voice"><audio controls preload="none" src="([^"]+)"></audio>'
    r"<figcaption>🔊 (.*?) \([\d.]+ s\)</figcaption></figure>"
)


def read_wav(path: Path) -> tuple[float, bytes]:
    with wave.open(str(path), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 48_000)
        frames = wav.readframes(wav.getnframes())
        return wav.getnframes() / wav.getframerate(), frames


def test_each_call_is_saved_as_it_was_spoken_beside_its_picture_and_plays_from_the_page(
    tmp_path, capsys
):
    options = ["--voice", "--game=housie", "--players=2", "--speed=100", "--seconds=8"]
    code = main([*options, f"--images={tmp_path}"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "uses /housie start tickets:2 interval:5 voice:🔊game-night-voice" in out
    (folder,) = tmp_path.iterdir()
    page = (folder / "index.html").read_text(encoding="utf-8")

    calls = sorted(folder.glob("*-housie-call-*.png"))
    assert len(calls) >= 2  # (one every 5 s of the game's clock: as fast as they are said)
    assert f"{len(calls)} spoken calls saved as WAV files" in out
    audio = {src: html.unescape(said) for src, said in AUDIO.findall(page)}
    espeak = Espeak("espeak-ng")
    for picture in calls:
        recording = picture.with_suffix(".wav")  # beside its picture, named after it
        assert recording.name in audio, f"{recording.name} is not on the page"
        number = re.search(r"-call-\d+-(\d+)$", picture.stem)[1]
        phrases = audio[recording.name].split(" · ")
        assert phrases == [f"{number}.", phrases[1], f"{number}."]  # number, nickname, number
        seconds, pcm = read_wav(recording)
        said = sum(seconds_of(espeak.synthesize(text, "en")) for text in phrases)
        # Each phrase is heard whole: its 20 ms frames, the last one padded.
        assert said <= seconds < said + len(phrases) * FRAME_SECONDS, recording.name
        assert loudness(pcm) > 500, recording.name
    # The farewell, said after the summary, plays beside it.
    farewell = [src for src in audio if src.endswith("-said.wav")]
    assert farewell
    summary = page.rindex("is over: stopped by the host")
    assert page.index(farewell[-1], summary) > summary
    seconds, pcm = read_wav(folder / farewell[-1])
    assert seconds > 0.5
    assert loudness(pcm) > 500


def test_without_voice_it_says_why_and_exits_with_status_2(tmp_path):
    # The voice extra's davey hidden: the bot could not speak.
    result = sandbox_without("davey", ["--voice", "--game=housie", f"--images={tmp_path}"])
    assert result.returncode == 2, result.stdout + result.stderr
    assert "--voice: the bot cannot speak here: davey is not installed" in result.stderr
    assert "pip install 'gamenight[voice]'" in result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing ran


def test_voice_is_for_a_game_of_calls(tmp_path, capsys):
    assert main(["--voice", "--game=dots", f"--images={tmp_path}"]) == 2
    assert "has no calls to speak" in capsys.readouterr().err


def test_spans_go_with_their_call_even_one_posted_mid_speech_and_the_rest_with_the_win():
    from types import SimpleNamespace

    from bot.sandbox._voice import CallPost, assign_spans
    from bot.voice.phrase import Phrase
    from emulator.voice import VoiceFrame

    def span(start: float, frames: int):
        return [VoiceFrame(b"x", n, n * 960, 1, start + n * 0.02) for n in range(frames)]

    def post(message_id: int, created: float):
        return SimpleNamespace(id=message_id, created=created)

    first, win, second = post(1, 2.0), post(2, 2.5), post(3, 6.5)
    spans = [span(0.0, 30), span(1.0, 40), span(2.6, 50), span(4.0, 20), span(6.0, 35)]
    calls = [
        CallPost(first, (Phrase("1."), Phrase("Kelly's eye")), (30, 40)),
        # Posted at a stop while its second phrase was still being said.
        CallPost(second, (Phrase("2."), Phrase("One little duck")), (20, 35)),
    ]
    heard = assign_spans(spans, calls, [win])
    assert [(h.message.id, h.call, [len(s) for s in h.spans]) for h in heard] == [
        (1, True, [30, 40]),
        (2, False, [50]),  # the win, said after it was posted
        (3, True, [20, 35]),
    ]
