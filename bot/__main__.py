"""``python -m bot``: run the bot with settings from the environment or ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.config import ConfigError, Settings


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["sandbox"]:
        from bot.sandbox import main as sandbox_main

        return sandbox_main(args[1:])
    if args[:1] == ["migrate-db"]:
        return migrate_db(args[1:])
    if args:
        print(
            f"error: unknown argument {args[0]!r}; usage: python -m bot [sandbox | migrate-db]",
            file=sys.stderr,
        )
        return 2
    try:
        settings = Settings.load()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    from bot.app import run_bot
    from bot.database_file import UnusableDatabaseError
    from bot.endpoints import apply_endpoints

    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
    )
    apply_endpoints(settings.api_base_url, settings.gateway_url)
    try:
        asyncio.run(run_bot(settings))
    except UnusableDatabaseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C before the bot's own handler is in place
        return 0
    return 0


MIGRATE_DB_USAGE = "usage: python -m bot migrate-db SQLITE_FILE POSTGRESQL_URL"


def migrate_db(args: list[str]) -> int:
    """Copy a SQLite database into PostgreSQL (idempotent; see ``bot.storage.copy_database``)."""
    from pathlib import Path

    from bot.database_file import UnusableDatabaseError
    from bot.storage import StorageError, copy_database, is_postgres_url, redact

    if args in (["-h"], ["--help"]):
        print(f"{MIGRATE_DB_USAGE}\n\n{copy_database.__doc__}")
        return 0
    if len(args) != 2 or is_postgres_url(args[0]) or not is_postgres_url(args[1]):
        print(f"error: {MIGRATE_DB_USAGE}", file=sys.stderr)
        return 2
    source, target = Path(args[0]), args[1]
    try:
        report = asyncio.run(copy_database(source, target))
    except (UnusableDatabaseError, StorageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{source} -> {redact(target)}: {report.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
