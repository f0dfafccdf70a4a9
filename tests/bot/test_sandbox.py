"""The offline sandbox: whole games run for real (emulator + bot + simulated members), plus the
pieces it is made of (options, colour, markdown, how simulated members decide to claim)."""

from __future__ import annotations

import io
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.__main__ import main as bot_main
from bot.sandbox import Intent, SimulatedPlayer, main
from bot.sandbox._cli import parse_options
from bot.sandbox._orchestration import DEFAULT_IMAGES, SandboxOptions
from bot.sandbox._players import (
    MAX_PLAYERS,
    NAMES,
    housie_numbers_missing,
    loteria_cards_missing,
)
from bot.sandbox._transcript import Style, format_content, wants_colour
from bot.storage import BoardRow, GameRow, GameStatus
from engine.housie import Prize, tickets_at
from engine.loteria import LoteriaGame, Pattern, Tabla, check_claim, tabla_for_seat

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PROJECT_ROOT = Path(__file__).resolve().parents[2]


# -- whole games -------------------------------------------------------------------------------


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
    names = " ".join(path.name for path in images)
    assert "-dm-bashir-tabla" in names
    assert "-only-chen-tabla" in names
    assert "-game-night-call-1-" in names
    assert f"{len(images)} images saved" in out


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
    script = (
        "import sys; sys.modules['jsonschema'] = None\n"
        "from bot.sandbox import main\n"
        "sys.exit(main(['--game=housie', '--players=2', '--speed=100', '--seconds=1', "
        f"'--images={tmp_path}']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Requests are not validated (jsonschema is not installed" in result.stdout
    assert "pip install 'gamenight[emulator]'" in result.stdout
    assert "number 1 of 90" in result.stdout
    assert "Traceback" not in result.stderr


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


# -- options -----------------------------------------------------------------------------------


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
    for bad in (["--players", "0"], ["--speed", "0"], ["--game", "chess"], ["--seconds", "x"]):
        assert main(bad) == 2, bad
        assert "error" in capsys.readouterr().err


# -- terminal output ---------------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal():
    assert wants_colour(FakeTerminal(), {})
    assert not wants_colour(io.StringIO(), {})
    assert not wants_colour(FakeTerminal(), {"NO_COLOR": "1"})
    assert not wants_colour(FakeTerminal(), {"TERM": "dumb"})


def test_markdown_becomes_terminal_text():
    text = "## Lotería #1 hosted by <@7>\nPlayers: **3** in <#9> · seed `ab12`"
    plain = format_content(text, Style(enabled=False), {7: "Ana"}, {9: "game-night"})
    assert plain == ["Lotería #1 hosted by @Ana", "Players: 3 in #game-night · seed ab12"]

    coloured = format_content(text, Style(enabled=True), {7: "Ana"}, {9: "game-night"})
    assert coloured[0].startswith("\x1b[1m")
    assert coloured[0].endswith("\x1b[22m")
    assert "\x1b[1m3\x1b[22m" in coloured[1]
    assert "\x1b[36m#game-night\x1b[39m" in coloured[1]


def test_unknown_mentions_stay_readable():
    assert format_content("<@123> won", Style(enabled=False), {}, {}) == ["@123 won"]


# -- how simulated members claim ----------------------------------------------------------------

SEED = bytes(range(32))


def game_row(kind: str, state: str) -> GameRow:
    return GameRow(
        id=1,
        kind=kind,
        guild_id=1,
        channel_id=2,
        host_id=3,
        status=GameStatus.RUNNING,
        seed=SEED,
        options={},
        state=state,
        lobby_message_id=None,
        created_at=0.0,
        started_at=0.0,
        finished_at=None,
    )


def board_row(state: str, *, index: int = 0, out: bool = False) -> BoardRow:
    return BoardRow(
        id=index + 1,
        game_id=1,
        user_id=3,
        board_index=index,
        deal_index=index,
        state=state,
        code="",
        out=out,
    )


class AlwaysYes(random.Random):
    def random(self):
        return 0.0


def player(*, bluffs: int = 0) -> SimulatedPlayer:
    return SimulatedPlayer(member=None, rng=AlwaysYes(), bluffs_left=bluffs)  # type: ignore[arg-type]


def test_honest_player_claims_the_line_exactly_when_it_is_complete():
    tabla = tabla_for_seat(SEED, 0)
    honest = player()
    state = LoteriaGame.new(SEED, (Pattern.LINE,))
    claimed_at = None
    while claimed_at is None:
        state, _ = state.draw()
        intent = honest.decide_loteria(
            game_row("loteria", state.to_state()), [board_row(tabla.to_state())]
        )
        complete = check_claim(tabla, state.called, Pattern.LINE).valid
        assert (intent is not None) == complete
        if intent is not None:
            claimed_at = len(state.called)
            assert intent == Intent("line", None, bluff=False)
    honest.claimed.add("line")
    assert (
        honest.decide_loteria(game_row("loteria", state.to_state()), [board_row(tabla.to_state())])
        is None
    )


def test_bluffer_claims_falsely_only_when_one_card_short():
    tabla = tabla_for_seat(SEED, 1)
    rows = [board_row(tabla.to_state())]
    state = LoteriaGame.new(SEED, (Pattern.LINE,))
    bluffs = 0
    while True:
        state, _ = state.draw()
        game = game_row("loteria", state.to_state())
        if check_claim(tabla, state.called, Pattern.LINE).valid:
            break
        intent = player(bluffs=1).decide_loteria(game, rows)
        if loteria_cards_missing(tabla, state.called, Pattern.LINE) == 1:
            assert intent == Intent("line", None, bluff=True)
            bluffs += 1
        else:
            assert intent is None
        assert player(bluffs=0).decide_loteria(game, rows) is None
        caught = player(bluffs=1)
        caught.bluffed.add("line")  # one bluff per prize: they were caught on this one already
        assert caught.decide_loteria(game, rows) is None
    assert bluffs >= 1  # a line is always one card short on the call before it completes


def test_cards_missing_counts_the_closest_shape():
    tabla = Tabla(tuple(range(1, 17)))  # row 0 holds cards 1-4, the corners 1, 4, 13, 16
    assert loteria_cards_missing(tabla, [], Pattern.LINE) == 4
    assert loteria_cards_missing(tabla, [1, 2, 3], Pattern.LINE) == 1
    assert loteria_cards_missing(tabla, [1, 4, 13, 16, 40], Pattern.CORNERS) == 0
    assert loteria_cards_missing(tabla, [1, 4, 40], Pattern.FULL) == 14


def test_housie_numbers_missing_and_choice_of_ticket():
    first, second = tickets_at(SEED, 0, 2)
    top = [n for n in first.rows[0] if n]
    assert housie_numbers_missing(first, top[:4], Prize.TOP_LINE) == 1
    assert housie_numbers_missing(first, top[:4], Prize.EARLY_FIVE) == 1
    assert housie_numbers_missing(first, top, Prize.EARLY_FIVE) == 0

    from engine.housie import HousieGame

    state = HousieGame.new((Prize.TOP_LINE, Prize.FULL_HOUSE), SEED)
    boards = [board_row(first.to_state(), index=0), board_row(second.to_state(), index=1)]
    honest = player()
    while True:
        state, _ = state.draw()
        wins = [
            number
            for number, ticket in ((1, first), (2, second))
            if {n for n in ticket.rows[0] if n} <= set(state.called)
        ]
        intent = honest.decide_housie(game_row("housie", state.to_state()), boards)
        if wins:
            assert intent == Intent("TL", wins[0], bluff=False)
            break
        assert intent is None
    # A ticket that is out (after a bogey) is never claimed on.
    out_boards = [board_row(b.state, index=b.board_index, out=True) for b in boards]
    assert honest.decide_housie(game_row("housie", state.to_state()), out_boards) is None
