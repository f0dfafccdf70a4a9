"""``python -m bot``: the ``gamenight`` command (``bot.ops.cli``); without a sub-command it runs the
bot with settings from the environment or ``.env``."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bot.ops.cli import main as cli_main


def main(argv: Sequence[str] | None = None) -> int:
    """The ``gamenight`` command, named ``python -m bot`` in its help; returns the exit code."""
    return cli_main(argv, prog="python -m bot")


if __name__ == "__main__":
    sys.exit(main())
