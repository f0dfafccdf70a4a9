"""The sandbox's command line: defaults, --help, bad options (status 2) and Ctrl-C (status 130)."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.__main__ import main as bot_main
from bot.sandbox import main
from bot.sandbox._cli import parse_options
from bot.sandbox._orchestration import DEFAULT_IMAGES, SandboxOptions
from bot.sandbox._players import MAX_PLAYERS, NAMES

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def test_defaults():
    assert parse_options([]) == SandboxOptions(
        game="loteria", players=6, speed=10.0, images=DEFAULT_IMAGES, seconds=None
    )
    assert parse_options(["--speed", "4"]).time_scale == 0.25
    assert parse_options(["--players", str(MAX_PLAYERS)]).players == MAX_PLAYERS
    assert len(set(NAMES)) == MAX_PLAYERS  # everyone at the biggest table has a name


def test_help_and_bad_options(capsys):
    assert bot_main(["sandbox", "--help"]) == 0
    assert "usage: python -m bot sandbox" in capsys.readouterr().out
    for bad in (
        ["--players", "0"],
        ["--speed", "0"],
        ["--game", "chess"],
        ["--seconds", "x"],
        ["--lang", "fr"],
    ):
        assert main(bad) == 2, bad
        assert "error" in capsys.readouterr().err


def test_ctrl_c_stops_cleanly(tmp_path):
    stderr_path = tmp_path / "stderr.txt"
    with stderr_path.open("w") as stderr:  # a file, so a chatty stderr can never block it
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "sandbox", "--speed", "20", "--images", str(tmp_path)],
            cwd=PROJECT_ROOT,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            encoding="utf-8",
        )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout])
    reader.start()
    try:
        seen = ""
        give_up = time.monotonic() + 60  # a guard against hanging, not a speed check
        while "card 2 of 54" not in seen:
            try:
                seen += lines.get(timeout=0.5)
            except queue.Empty:
                assert process.poll() is None, f"it ended early:\n{seen}{stderr_path.read_text()}"
                assert time.monotonic() < give_up, f"no second call yet:\n{seen}"
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        if process.poll() is None:
            process.kill()
        reader.join()
    rest = "".join(lines.queue)
    assert "Stopped (Ctrl-C)" in rest
    errors = stderr_path.read_text()
    assert "Traceback" not in errors, errors


def test_the_games_come_from_the_cogs_and_are_named_nowhere_here():
    """``--game`` offers the calling games of the cogs found on disk; neither the sandbox nor
    the verify link names one (a new calling game needs no edit there)."""
    from bot.calling import CallingGameCog
    from bot.sandbox._orchestration import calling_games

    games = calling_games()
    assert set(games) >= {"loteria", "housie"}
    assert all(issubclass(cog, CallingGameCog) for cog in games.values())
    assert parse_options(["--game", "housie"]).game == "housie"
    # The table games too, each from a cog that says how a simulated member plays it.
    from bot.sandbox._orchestration import sandbox_games, table_games

    assert set(table_games()) == {"tictactoe", "dots", "triangle"}
    assert set(sandbox_games()) == set(games) | set(table_games())
    assert parse_options(["--game", "dots"]).games == ["dots"]
    assert parse_options(["--game", "all"]).games == sandbox_games()
    assert parse_options(["--lang", "es"]).locale == "es-ES"
    sources = [
        *(PROJECT_ROOT / "bot" / "sandbox").glob("*.py"),
        PROJECT_ROOT / "bot" / "verify_link.py",
    ]
    for path in sources:
        text = path.read_text(encoding="utf-8").casefold()
        for kind, cog in {**games, **table_games()}.items():
            for name in {kind, cog.title.casefold(), cog.title_es.casefold()}:
                assert name not in text, f"{path.name} names {name}"
