"""The command line of ``python -m bot sandbox``: its options (argparse, which exits with status
2 on bad ones) and :func:`main`, which runs the sandbox and turns how it ended into an exit code:
0 once the game is over, 1 if something went wrong, 2 for bad options (an ``--images`` folder it
cannot make, and ``--voice`` where the bot cannot speak, included), 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.calling import MIN_INTERVAL
from bot.sandbox._orchestration import (
    DEFAULT_IMAGES,
    DEFAULT_PLAYERS,
    DEFAULT_SPEED,
    EVERY_GAME,
    LOCALES,
    SHORT_NIGHT_SECONDS,
    SandboxError,
    SandboxOptions,
    SandboxSetupError,
    default_game,
    run_sandbox,
    sandbox_games,
)
from bot.sandbox._players import MAX_PLAYERS
from bot.sandbox._transcript import Style, wants_colour

EXIT_USAGE = 2  # bad options, or an images folder or temporary folder it cannot use
EXIT_INTERRUPTED = 130


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
    return value


def _player_count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{text!r}: choose 1 to {MAX_PLAYERS} players")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    games = sandbox_games()  # the games of the cogs found on disk
    default = default_game()
    other = games[-1]
    parser = argparse.ArgumentParser(
        prog="python -m bot sandbox",
        description=(
            "Play a whole game night offline: a local Discord emulator, the real bot and a few "
            "simulated members who join, play and claim (some falsely). The channel is printed "
            "as it happens and every image the bot sends is saved. No Discord account needed."
        ),
        epilog=(
            f"Example: python -m bot sandbox --game {other} --lang es. "
            "Press Ctrl-C to stop at any time. Every run also writes the night as a page "
            "(HTML, beside the images) and prints its path last."
        ),
    )
    parser.add_argument(
        "--game",
        choices=[*games, EVERY_GAME],
        default=default,
        help=f"the game to play, or {EVERY_GAME}: a short night of each (default: {default})",
    )
    parser.add_argument(
        "--lang",
        choices=sorted(LOCALES),
        default="en",
        help="the server's and the simulated members' language (default: en)",
    )
    parser.add_argument(
        "--players",
        type=_player_count,
        default=DEFAULT_PLAYERS,
        metavar="N",
        help=f"simulated members, the host included, 1 to {MAX_PLAYERS} (default: "
        f"{DEFAULT_PLAYERS})",
    )
    parser.add_argument(
        "--speed",
        type=_positive_float,
        default=DEFAULT_SPEED,
        metavar="X",
        help=f"run the game's clock X times faster than real time; the host picks one call "
        f"every {MIN_INTERVAL} s, so X=10 makes it one call every "
        f"{MIN_INTERVAL / DEFAULT_SPEED:g} s (default: {DEFAULT_SPEED:g})",
    )
    parser.add_argument(
        "--images",
        type=Path,
        default=DEFAULT_IMAGES,
        metavar="DIR",
        help="save every image the bot sends under DIR, in a new folder per run "
        f"(default: ./{DEFAULT_IMAGES}/)",
    )
    parser.add_argument(
        "--seconds",
        type=_positive_float,
        default=None,
        metavar="LIMIT",
        help="stop each game (as the host would) if it is still on LIMIT seconds after it "
        f"starts (with --game {EVERY_GAME}: {SHORT_NIGHT_SECONDS:g} s for a game of calls)",
    )
    parser.add_argument(
        "--voice",
        action="store_true",
        help="the members sit in a voice channel where the bot speaks the calls; each call's "
        "audio is saved as a WAV file beside its picture and plays from the page (needs the "
        "voice extra, libopus and espeak-ng: without them it says why and exits with status 2)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="also log what the bot and discord.py do"
    )
    return parser


def parse_options(argv: Sequence[str]) -> SandboxOptions:
    """Options from the command line; argparse exits (status 2) on bad ones."""
    parsed = build_parser().parse_args(list(argv))
    return SandboxOptions(
        game=parsed.game,
        players=parsed.players,
        speed=parsed.speed,
        images=parsed.images,
        seconds=parsed.seconds,
        verbose=parsed.verbose,
        lang=parsed.lang,
        voice=parsed.voice,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot sandbox [options]``: 0 once the game is over, 1 if something went wrong,
    2 for bad options or a folder it cannot use (one line on stderr), 130 after Ctrl-C."""
    try:
        options = parse_options(sys.argv[1:] if argv is None else argv)
    except SystemExit as exit_request:  # --help, or bad options (argparse printed why)
        code = exit_request.code
        return code if isinstance(code, int) else 0 if code is None else EXIT_USAGE
    out = sys.stdout
    style = Style(wants_colour(out))
    try:
        return asyncio.run(run_sandbox(options, out, style))
    except KeyboardInterrupt:
        print("\nStopped (Ctrl-C). The emulator and the bot are closed.", file=out)
        return EXIT_INTERRUPTED
    except SandboxSetupError as error:  # nothing ran: where it was asked to run is unusable
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SandboxError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
