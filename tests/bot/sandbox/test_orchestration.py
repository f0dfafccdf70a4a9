"""Whole games run for real, offline: the emulator, the bot and the simulated members, with and
without Discord's OpenAPI description and jsonschema to validate requests."""

from __future__ import annotations

import re

from bot.sandbox import main
from tests.bot.sandbox.helpers import sandbox_without

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_a_whole_loteria_game_offline(tmp_path, capsys):
    code = main(["--players", "4", "--speed", "100", "--images", str(tmp_path)])
    out = capsys.readouterr().out

    assert code == 0, out
    assert "validation on" in out
    assert out.count("presses Join") == 4
    assert "[DM to Bashir]" in out
    assert "only Chen sees" in out  # Chen's DMs are closed: the tabla comes in a private reply
    assert "card 1 of 54" in out
    assert re.search(r"🎉 .+ wins on call \d+", out)
    assert re.search(r"Seed: [0-9a-f]{64}", out)
    assert "verified" in out
    assert "\x1b[" not in out  # not a terminal: no colour codes

    images = sorted(tmp_path.rglob("*.png"))
    assert images
    assert all(path.read_bytes().startswith(PNG_MAGIC) for path in images)
    (replay,) = tmp_path.rglob("*.gif")  # the end's replay, beside the pictures
    assert replay.read_bytes().startswith(b"GIF89a")
    names = " ".join(path.name for path in images)
    assert "-dm-bashir-tabla" in names
    assert "-only-chen-tabla" in names
    assert "-game-night-call-1-" in names
    assert f"{len(images) + 1} images saved" in out
    last = out.strip().splitlines()[-1]  # the page's path, printed last
    assert last.endswith(str(images[0].parent / "index.html")), last


def test_a_whole_bingo_game_offline_in_spanish(tmp_path, capsys):
    code = main(["--game=bingo", "--lang=es", "--players=3", "--speed=100", f"--images={tmp_path}"])
    out = capsys.readouterr().out

    assert code == 0, out
    assert "uses /bingo start patterns:line, x, blackout" in out
    assert "Figuras: Cualquier línea → Equis → Cartón lleno" in out
    # Each number with its nickname (classic calls, the start command's default).
    assert re.search(r"🎱 [BINGO]-\d+ · [^·\n]+ · número 1 de 75 · se juega Cualquier línea", out)
    # (The blackout may come with the 75th number, when the game ends whoever claims.)
    for pattern in ("Cualquier línea", "Equis"):
        assert re.search(rf"🎉 ¡{pattern}! .+ gana en la cantada \d+", out), out
    assert re.search(r"[0-9a-f]{64}", out)
    assert "verificada" in out
    names = " ".join(path.name for path in tmp_path.rglob("*.png"))
    for picture in ("-bingo-pattern-line", "-bingo-card-", "-bingo-call-1-", "-bingo-board-10"):
        assert picture in names, picture
    assert "-results-" in names


def test_housie_without_the_spec_stops_at_the_time_limit(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DISCORD_OPENAPI_SPEC", str(tmp_path / "no-such-spec.json"))
    code = main(
        [
            "--game=housie",
            "--players=3",
            "--speed=100",
            "--seconds=1",
            f"--images={tmp_path / 'images'}",
        ]
    )
    out = capsys.readouterr().out

    assert code == 0, out
    assert "not validated" in out
    assert re.search(r"asks for [12] tickets?", out)
    assert "number 1 of 90" in out
    assert "s are up: the host stops the game" in out
    assert "uses /housie stop" in out
    assert re.search(r"Seed: [0-9a-f]{64}", out)
    tickets = list((tmp_path / "images").rglob("*-ticket-*.png"))
    assert tickets
    assert all(path.read_bytes().startswith(PNG_MAGIC) for path in tickets)


def test_without_jsonschema_it_plays_and_says_how_to_validate(tmp_path):
    # `pip install -e .` has no jsonschema (it is in the emulator extra): hide the installed one.
    result = sandbox_without(
        "jsonschema",
        ["--game=housie", "--players=2", "--speed=100", "--seconds=1", f"--images={tmp_path}"],
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Requests are not validated (jsonschema is not installed" in result.stdout
    assert "pip install 'gamenight[emulator]'" in result.stdout
    assert "number 1 of 90" in result.stdout
    assert "Traceback" not in result.stderr
