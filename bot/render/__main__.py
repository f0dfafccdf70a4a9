"""``python -m bot.render --sample DIR``: write one example of every picture into DIR.

Each game supplies its own (``GameCog.sample_pictures``, the games found on disk as the bot
finds them, ``bot.app.game_cogs``); the leaderboard of ``/stats`` follows, a card for each of
them. The examples come from fixed values, so they are the same on every run; ``alt-text.txt``
beside them lists each file's alt text.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.app import EXTENSIONS, game_cogs
from bot.render import leaderboard


def write_samples(directory: Path, extensions: Sequence[str] = EXTENSIONS) -> list[Path]:
    """Render every sample of the games of ``extensions``, then the leaderboard's, into
    ``directory`` (created if needed); returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    lines = []
    games = game_cogs(extensions)
    every = [sample for cog in games for sample in cog.sample_pictures()]
    for name, rendered in [*every, *leaderboard.samples([cog.title for cog in games])]:
        path = directory / name
        path.write_bytes(rendered.png)
        written.append(path)
        lines.append(f"{name}: {rendered.alt_text}")
    (directory / "alt-text.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.render --sample DIR``: writes every sample picture and their alt text."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.render", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--sample", metavar="DIR", type=Path, required=True, help="folder to write into"
    )
    args = parser.parse_args(argv)
    for path in write_samples(args.sample):
        sys.stdout.write(f"{path} ({path.stat().st_size // 1024} KB)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
