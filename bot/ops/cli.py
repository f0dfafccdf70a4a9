"""The ``gamenight`` command, also ``python -m bot``: the bot and the tools to run it.

Every sub-command is one :class:`Command` in :data:`COMMANDS`; adding one is adding an entry.
Without a sub-command the bot runs, as ``python -m bot`` always has. Exit codes: 0 done, 1 the
command failed, 2 bad arguments, settings (a token Discord refuses included) or database: one
line on stderr says which and how to fix it, never a traceback (the systemd units do not
restart the bot on 2: restarting cannot fix it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from bot.config import ConfigError, Settings, database_path, postgres_url_problem, setting_values

EXIT_FAILED = 1
EXIT_USAGE = 2  # also bad settings and an unusable database
DEFAULT_ENV_FILE = Path(".env")


@dataclass(frozen=True)
class Command:
    """One sub-command of ``gamenight``: its name, its help texts and what runs it.

    ``run`` gets the parsed options; a command with a parser of its own has ``run_own`` instead,
    which gets the rest of the command line as it is. Either returns the exit code.
    """

    name: str
    summary: str  # its line in ``gamenight --help``
    description: str = ""  # the top of its own ``--help`` (default: the summary)
    run: Callable[[argparse.Namespace], int] | None = None
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    # Or, for a command with a parser of its own: it gets the rest of the command line as it is.
    run_own: Callable[[list[str]], int] | None = None


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """Print ``error: message`` on stderr; returns ``code``, the exit code to give."""
    print(f"error: {message}", file=sys.stderr)
    return code


def warn(message: str) -> None:
    """Print ``warning: message`` on stderr."""
    print(f"warning: {message}", file=sys.stderr)


def env_files(options: argparse.Namespace) -> list[Path]:
    """The settings files: each ``--env-file`` (later ones win), else ``./.env`` if there."""
    files: list[Path] = options.env_file
    return files


def load_settings(options: argparse.Namespace) -> Settings:
    """The settings as the bot reads them (``Settings.load``, the files of ``--env-file``).
    Raises ``ConfigError``, after printing the warnings met before it (a misspelt name often
    explains the error)."""
    try:
        return Settings.load(env_file=env_files(options))
    except ConfigError as error:
        for warning in error.warnings:
            warn(warning)
        raise


# -- run -----------------------------------------------------------------------------------------


def run(options: argparse.Namespace) -> int:
    """``gamenight run``: the bot on Discord until SIGTERM or Ctrl-C.

    Bad settings, a token Discord refuses, an unusable database or the day's session starts
    spent are one line on stderr and exit code 2 (docs/PROMISES.md lists every case). The token is asked of Discord first (``GET /users/@me``, as ``check-config
    --online`` does), so that a refused token touches neither the database nor the log.
    """
    from bot.storage.database_file import UnusableDatabaseError, file_locks

    try:
        settings = load_settings(options)
        file_locks()  # not a POSIX system (Windows): said now, on any database
    except (ConfigError, UnusableDatabaseError) as error:
        return fail(str(error))

    import asyncio
    import logging

    from bot.app import STOP_SIGNALS, run_bot
    from bot.fleet.endpoints import apply_endpoints
    from bot.fleet.process import run_fleet
    from bot.logs import setup_logging
    from bot.ops.config_check import DiscordUnreachableError, TokenRefusedError, ask_discord
    from bot.throttle import heavy_work_executor

    # Libraries at INFO at most, and no secret in any line (bot/logs.py says why).
    setup_logging(settings.log_level, secrets=(settings.token, settings.signing_key))
    log = logging.getLogger(__name__)
    for warning in settings.warnings:
        log.warning("%s", warning)
    apply_endpoints(settings.api_base_url, settings.gateway_url)

    async def start() -> None:
        # The token first; SIGTERM or Ctrl-C meanwhile is a clean stop, as later on.
        loop = asyncio.get_running_loop()
        asking = asyncio.ensure_future(ask_discord(settings.token))
        for stop_signal in STOP_SIGNALS:
            loop.add_signal_handler(stop_signal, asking.cancel)
        try:
            await asyncio.wait([asking])
        finally:
            for stop_signal in STOP_SIGNALS:
                loop.remove_signal_handler(stop_signal)
        if asking.cancelled():
            return
        if isinstance(asking.exception(), DiscordUnreachableError):
            # No verdict on the token: discord.py retries as it logs in, and logs why.
            log.debug("could not ask Discord who the token is first: %s", asking.exception())
        else:
            asking.result()  # a refused token raises here
        # Heavy work (pictures, the solver) yields the core to the event loop.
        loop.set_default_executor(heavy_work_executor())
        # One process of a fleet sharing the shards, or one running them all.
        await (run_fleet(settings) if settings.shards.fleet else run_bot(settings))

    try:
        asyncio.run(start())
    except (ConfigError, TokenRefusedError, UnusableDatabaseError) as error:
        return fail(str(error))
    except KeyboardInterrupt:  # Ctrl-C before the bot's own handler is in place
        return 0
    except Exception as error:
        # Refused at login after all (reset meanwhile), or later (4004: the token was reset).
        if token_refused(error):
            return fail(str(TokenRefusedError()))
        raise
    return 0


def token_refused(error: BaseException | None) -> bool:
    """Whether Discord refusing the token is what ``error`` comes down to: discord.py's
    ``LoginFailure`` (a 401 at login) or the gateway closing with 4004 (authentication failed),
    as raised or as the cause of a fleet client's failure."""
    import discord

    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, BaseExceptionGroup):
            return any(token_refused(inner) for inner in error.exceptions)
        if isinstance(error, discord.LoginFailure) or (
            isinstance(error, discord.ConnectionClosed) and error.code == 4004
        ):
            return True
        error = error.__cause__ or error.__context__
    return False


# -- sandbox -------------------------------------------------------------------------------------


def sandbox(argv: list[str]) -> int:
    """``gamenight sandbox``: a whole game offline (``bot.sandbox`` reads its own arguments)."""
    from bot.sandbox import main as sandbox_main

    return sandbox_main(argv)


# -- invite --------------------------------------------------------------------------------------


def snowflake(text: str) -> int:
    """``text`` as a Discord id, for argparse: 1 to 20 digits, or an argparse error."""
    if not text.isdigit() or not 1 <= len(text) <= 20:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Discord id (digits only)")
    return int(text)


def invite_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamenight invite``: ``--client-id`` and ``--guild-id``."""
    parser.add_argument(
        "--client-id",
        type=snowflake,
        metavar="ID",
        help="the Application ID (Developer Portal > your application > General Information); "
        "default: read from DISCORD_TOKEN, whose first part is the bot's id",
    )
    parser.add_argument(
        "--guild-id", type=snowflake, metavar="ID", help="pre-select this server in Discord's page"
    )


def invite(options: argparse.Namespace) -> int:
    """``gamenight invite``: the link that adds the bot on stdout, what it asks for on stderr.

    The client id is ``--client-id``, or read from ``DISCORD_TOKEN``.
    """
    from bot.ops.invite import SCOPES, NoClientIdError, client_id_from_token, invite_url
    from bot.permissions import INVITE_PERMISSIONS, PERMISSION_NAMES, invite_permissions

    client_id: int | None = options.client_id
    if client_id is None:
        token = setting_values(env_file=env_files(options)).get("DISCORD_TOKEN", "").strip()
        if not token:
            return fail(
                "no client id: pass --client-id with the Application ID (Developer Portal > your "
                "application > General Information), or set DISCORD_TOKEN to read it from the token"
            )
        try:
            client_id = client_id_from_token(token)
        except NoClientIdError as error:
            return fail(str(error))
    print(invite_url(client_id, guild_id=options.guild_id), flush=True)
    # The URL alone on stdout (to paste or pipe); what it asks for on stderr.
    names = ", ".join(PERMISSION_NAMES[name][0] for name in INVITE_PERMISSIONS)
    print(
        f"Open it in a browser, pick a server you manage and authorise. It adds application "
        f"{client_id} with the scopes {' and '.join(SCOPES)}, and asks for exactly the "
        f"permissions the games use: {names} (permissions={invite_permissions().value}).",
        file=sys.stderr,
    )
    return 0


# -- backup --------------------------------------------------------------------------------------


def backup_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``gamenight backup``: ``FILE``, ``--force`` and ``--database``."""
    parser.add_argument("file", type=Path, metavar="FILE", help="where to write the copy")
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")
    parser.add_argument(
        "--database",
        type=Path,
        metavar="PATH",
        help="the database to copy (default: GAMENIGHT_DATABASE from the environment or .env)",
    )


def backup(options: argparse.Namespace) -> int:
    """``gamenight backup``: a consistent copy of the SQLite database (PostgreSQL has pg_dump).
    Exit code 2 when refused before copying (no database, a FILE that cannot or must not be
    written), 1 when the copy failed."""
    from bot.ops.backup import BackupError, BackupRefusedError, backup_database

    values = setting_values(env_file=env_files(options))
    if options.database is None and "://" in values.get("GAMENIGHT_DATABASE", ""):
        return fail(
            "gamenight backup copies a SQLite database; back up PostgreSQL with pg_dump "
            "(see docs/SCALING.md, PostgreSQL)"
        )
    source: Path = options.database or database_path(values)
    try:
        report = backup_database(source, options.file, force=options.force)
    except BackupRefusedError as error:
        return fail(str(error))
    except BackupError as error:
        return fail(str(error), EXIT_FAILED)
    print(
        f"Backed up {report.source} to {report.target} ({report.size:,} bytes, schema version "
        f"{report.schema_version}, integrity check ok)."
    )
    return 0


# -- check-config --------------------------------------------------------------------------------


def check_config_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamenight check-config``: ``--online``."""
    parser.add_argument(
        "--online",
        action="store_true",
        help="also ask Discord who DISCORD_TOKEN is (GET /users/@me, on DISCORD_API_BASE_URL if "
        "set), and print the bot's name and the link that invites it",
    )


def check_config(options: argparse.Namespace) -> int:
    """``gamenight check-config``: the settings (read exactly as the bot reads them), the token's
    shape and the database checked as the bot would at start, then what it would run with,
    secrets left out; with ``--online``, Discord's word on the token too."""
    import asyncio

    from bot.fleet.endpoints import apply_endpoints
    from bot.ops.config_check import (
        DiscordUnreachableError,
        TokenRefusedError,
        ask_discord,
        inspect_database,
        inspect_postgres,
        summary,
        token_problem,
    )
    from bot.ops.invite import invite_url
    from bot.storage.database_file import UnusableDatabaseError, file_locks

    try:
        settings = load_settings(options)
        for warning in settings.warnings:
            warn(warning)
        problem = token_problem(settings.token)
        if problem is not None:
            raise ConfigError(problem)
        file_locks()  # the bot could not start without them
        database = (
            inspect_postgres(settings.database_url)
            if settings.database_url
            else inspect_database(settings.database_path)
        )
    except (ConfigError, UnusableDatabaseError) as error:
        return fail(str(error))
    identity = invite = None
    if options.online:
        apply_endpoints(settings.api_base_url, settings.gateway_url)
        try:
            identity = asyncio.run(ask_discord(settings.token))
        except TokenRefusedError as error:
            return fail(str(error))
        except DiscordUnreachableError as error:
            return fail(f"could not ask Discord who DISCORD_TOKEN is: {error}", EXIT_FAILED)
        invite = invite_url(identity.id)
    read = [path for path in env_files(options) if path.is_file()]
    for line in summary(settings, database, read, identity, invite):
        print(line)
    return 0


# -- migrate-db ----------------------------------------------------------------------------------


def migrate_db_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``gamenight migrate-db``: the SQLite file and the PostgreSQL URL."""
    parser.add_argument("source", type=Path, metavar="SQLITE_FILE", help="the SQLite database")
    parser.add_argument(
        "target", metavar="POSTGRESQL_URL", help="the PostgreSQL database (postgresql://...)"
    )


def migrate_db(options: argparse.Namespace) -> int:
    """``gamenight migrate-db``: a SQLite database copied into PostgreSQL, ids kept."""
    import asyncio

    from bot.storage import StorageError, copy_database, is_postgres_url, redact
    from bot.storage.database_file import UnusableDatabaseError

    if is_postgres_url(str(options.source)) or not is_postgres_url(options.target):
        return fail("migrate-db copies a SQLite file into a postgresql:// database")
    problem = postgres_url_problem(options.target)
    if problem is not None:
        return fail(f"POSTGRESQL_URL is not a usable postgresql:// URL: {problem}")
    try:
        report = asyncio.run(copy_database(options.source, options.target))
    except (UnusableDatabaseError, StorageError) as error:
        return fail(str(error))
    print(f"{options.source} -> {redact(options.target)}: {report.summary()}")
    return 0


# -- rest-proxy ----------------------------------------------------------------------------------


def port_number(text: str) -> int:
    """``--port``: 0 to 65535 (0: the system picks a free port)."""
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535; 0 picks a free one)")
    return int(text)


def positive(kind: Callable[[str], int | float]) -> Callable[[str], int | float]:
    """An argparse type: ``kind`` read from the text, refused unless above 0."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0")
        return value

    return parse


def rest_proxy_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamenight rest-proxy``."""
    parser.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=port_number, default=8080, help="the port to listen on (default 8080)"
    )
    parser.add_argument(
        "--upstream",
        metavar="URL",
        help="Discord's HTTP API to forward to (default https://discord.com/api/v10)",
    )
    parser.add_argument(
        "--limit",
        type=positive(int),
        help="requests per window and bot token, Discord's global limit (default 50)",
    )
    parser.add_argument(
        "--window", type=positive(float), metavar="SECONDS", help="the window (default 1)"
    )
    parser.add_argument(
        "--max-connections",
        type=positive(int),
        metavar="N",
        help="connections kept open at most (default: a third of the file descriptor limit, "
        "at most 8192)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=positive(float),
        metavar="SECONDS",
        help="a connection without a request is closed after this (default 60)",
    )
    parser.add_argument(
        "--header-timeout",
        type=positive(float),
        metavar="SECONDS",
        help="a request's headers must arrive within this of its first byte (default 10)",
    )


def rest_proxy(options: argparse.Namespace) -> int:
    """``gamenight rest-proxy``: serve until SIGTERM or SIGINT; 2 for an unusable option or no
    ``DISCORD_TOKEN`` (the one token it forwards, read as the bot reads it)."""
    import asyncio

    from bot.fleet import rest_proxy as proxy
    from bot.logs import setup_logging
    from bot.ops.connection_guard import ConnectionLimits

    upstream = options.upstream or proxy.DEFAULT_UPSTREAM
    if not upstream.startswith(("http://", "https://")):
        return fail(f"--upstream {upstream!r} is not an http:// or https:// URL")
    values = setting_values(env_file=options.env_file)
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        return fail(
            "the REST proxy forwards the bot's requests only, and DISCORD_TOKEN is not set: give "
            "it the same settings as the bot processes (their .env or --env-file, or "
            "DISCORD_TOKEN in its environment)"
        )
    limits = proxy.default_limits()
    connections = ConnectionLimits(
        max_connections=options.max_connections or limits.max_connections,
        idle_timeout=options.idle_timeout or limits.idle_timeout,
        header_timeout=options.header_timeout or limits.header_timeout,
    )
    proxy_options = proxy.ProxyOptions(
        token=token,
        upstream=upstream,
        limit=options.limit or proxy.DEFAULT_LIMIT,
        window=options.window or proxy.DEFAULT_WINDOW,
        host=options.host,
        port=options.port,
        connections=connections,
    )
    level = values.get("GAMENIGHT_LOG_LEVEL", "INFO").upper()
    setup_logging(level, secrets=[token])
    try:
        asyncio.run(proxy.serve(proxy_options))
    except OSError as error:  # the port is taken, the address is not this machine's...
        return fail(f"cannot listen on {options.host}:{options.port}: {error}", EXIT_FAILED)
    except KeyboardInterrupt:
        return 0
    return 0


COMMANDS: tuple[Command, ...] = (
    Command(
        "run",
        "run the bot (the default)",
        "Run the bot on Discord with the settings from the environment and ./.env (or "
        "--env-file); SIGTERM or Ctrl-C stops it cleanly. Exit code 2 (one line on stderr): a "
        "bad setting, a token Discord refuses or an unusable database.",
        run,
    ),
    Command(
        "sandbox",
        "play a whole game offline: a local Discord, the real bot, simulated members",
        run_own=sandbox,
    ),
    Command(
        "invite",
        "print the link that adds the bot to a server",
        "Print the OAuth2 link that adds the bot, with its slash commands, to a server, asking "
        "for exactly the permissions the games use.",
        invite,
        invite_arguments,
    ),
    Command(
        "backup",
        "copy the database safely, even while the bot runs",
        "Write a consistent copy of the SQLite database to FILE while the bot keeps running "
        "(SQLite's online backup; the copy is integrity-checked before it gets its name).",
        backup,
        backup_arguments,
    ),
    Command(
        "migrate-db",
        "copy a SQLite database into PostgreSQL (run it again: it changes nothing)",
        "Copy every game, player, board, call and claim of a SQLite database into a PostgreSQL "
        "database, keeping their ids. Running it again changes nothing; rows that differ are "
        "refused with one line. Stop the bot first.",
        migrate_db,
        migrate_db_arguments,
    ),
    Command(
        "check-config",
        "check the settings and the database (and, with --online, the token with Discord)",
        "Check the settings (read as the bot reads them), the token's shape and the database as "
        "the bot would at start, without changing anything; print what the bot would run with "
        "(never a secret). Discord is asked only with --online. Exit code 0 when the bot could "
        "start, 2 otherwise.",
        check_config,
        check_config_arguments,
    ),
    Command(
        "rest-proxy",
        "one global rate limit for several bot processes: point DISCORD_API_BASE_URL here",
        "Forward every bot process's requests to Discord (DISCORD_API_BASE_URL=http://HOST:PORT"
        "/api/v10 in each) and keep them together under Discord's global limit of 50 requests/s; "
        "interaction answers pass at once. It forwards the bot's own token only (DISCORD_TOKEN, "
        "from the settings as the bot reads them) and answers any other 401 itself. SIGTERM or "
        "Ctrl-C stops it.",
        rest_proxy,
        rest_proxy_arguments,
    ),
)


def build_parser(prog: str) -> argparse.ArgumentParser:
    """The parser of the ``gamenight`` command line, a sub-parser per :data:`COMMANDS` entry."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Game Night, a Discord bot for calling games and table games. "
        "Without a command, it runs the bot.",
        epilog=f"'{prog} COMMAND --help' explains each command. Settings: see .env.example.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument(
        "--env-file",
        type=Path,
        action="append",
        metavar="PATH",
        help="read settings from this file (default: .env in the current folder, if there); "
        "give it again for more files (a later one wins); environment variables still win",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for command in COMMANDS:
        sub = commands.add_parser(
            command.name,
            help=command.summary,
            description=command.description or command.summary,
            add_help=command.run_own is None,
        )
        if command.add_arguments is not None:
            command.add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None, *, prog: str = "gamenight") -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit code.

    ``--help``, ``--version`` and bad arguments return their code too, rather than exit.
    """
    parser = build_parser(prog)
    try:
        options, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
        command = next((c for c in COMMANDS if c.name == options.command), COMMANDS[0])
        if command.run_own is not None:
            return command.run_own(rest)
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        for path in options.env_file or ():
            if not path.is_file():
                return fail(f"--env-file {path} is not a file")
        # Each command reads the settings files in options.env_file (a list).
        options.env_file = options.env_file or [DEFAULT_ENV_FILE]
    except SystemExit as exit_request:  # --help, --version, or bad arguments (argparse said why)
        code = exit_request.code
        return code if isinstance(code, int) else 0 if code is None else EXIT_USAGE
    assert command.run is not None
    try:
        return command.run(options)
    except ConfigError as error:  # a settings file that cannot be read, for any command
        return fail(str(error))


def _version() -> str:
    try:
        return version("gamenight")
    except PackageNotFoundError:  # run from a source folder that was never installed
        return "(not installed)"
