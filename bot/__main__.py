"""``python -m bot``: run the bot with settings from the environment or ``.env``."""

from __future__ import annotations

import sys

from bot.config import ConfigError, Settings


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    del args  # sub-commands (sandbox) come with the emulator
    try:
        settings = Settings.load()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"settings loaded; database {settings.database_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
