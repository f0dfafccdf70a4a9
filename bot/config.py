"""Settings from the environment and an optional ``.env`` file; secrets are never logged."""

from __future__ import annotations

import dataclasses
import difflib
import io
import ipaddress
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlparse, urlsplit

from dotenv.parser import parse_stream

from bot.fleet.shards import AUTO, ShardPlan, ShardSettingError, parse_shards
from bot.voice.voices import PiperModelError, PiperVoice, read_piper_voice

HOW_TO_GET_CREDENTIALS = (
    "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
    "open Bot > Reset Token, and put the token in a file named .env in the project folder as "
    "DISCORD_TOKEN=... (see .env.example), or export it in the environment. "
    "To try the bot without Discord, run: python -m bot sandbox"
)


WHERE_TOKENS_ARE_MADE = (
    "Discord Developer Portal (https://discord.com/developers/applications) > your application > "
    "Bot > Reset Token"
)

MAX_RETENTION_DAYS = 36500

# Every setting the bot reads (.env.example explains each). An unknown GAMENIGHT_ name in the
# environment or a settings file is a warning naming the nearest of these: a misspelt setting
# would otherwise be ignored without a word.
SETTING_NAMES = (
    "DISCORD_TOKEN",
    "GAMENIGHT_SIGNING_KEY",
    "GAMENIGHT_DATABASE",
    "GAMENIGHT_DEV_GUILD_ID",
    "GAMENIGHT_LOG_LEVEL",
    "GAMENIGHT_TIME_SCALE",
    "DISCORD_API_BASE_URL",
    "DISCORD_GATEWAY_URL",
    "DISCORD_OPENAPI_SPEC",
    "GAMENIGHT_SHARDS",
    "GAMENIGHT_METRICS_PORT",
    "GAMENIGHT_METRICS_HOST",
    "GAMENIGHT_PUBLIC_URL",
    "GAMENIGHT_RETENTION_DAYS",
    "GAMENIGHT_PIPER_MODEL",
    "GAMENIGHT_PIPER_BIN",
)
# GAMENIGHT_ names the project's own tests and benchmarks read (not settings of the bot).
TOOL_NAMES = ("GAMENIGHT_TRACE_FILE", "GAMENIGHT_SCREENSHOTS", "GAMENIGHT_CHROMIUM")
UNKNOWN_PREFIX = "GAMENIGHT_"

EnvFiles = Path | Sequence[Path] | None


class ConfigError(Exception):
    """A missing or bad setting; the message names it and says how to fix it. ``warnings``: what
    was noticed while reading the settings before the error (a misspelt name, often its cause)."""

    def __init__(self, message: str, warnings: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.warnings = tuple(warnings)


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``str.isdigit`` also takes ``²``,
    which ``int`` refuses, and ``٣``, which it reads as 3)."""
    return text.isascii() and text.isdigit()


def read_env_file(path: Path, problems: list[str] | None = None) -> dict[str, str]:
    """The settings in a settings file (``.env``), parsed by python-dotenv's parser, the one
    reading of it everywhere (the systemd units hand the file to the bot rather than reading it
    themselves): ``# comments`` (also after an unquoted value), single or double quotes,
    ``export``, spaces around ``=``. Values are taken literally (no ``${VAR}`` expansion); a name
    without ``=`` is ignored. A line that cannot be parsed is ignored and described in
    ``problems``; a file that cannot be read raises ``ConfigError``. No file: no settings."""
    if not path.is_file():
        return {}
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"cannot read the settings file {path}: it is not UTF-8 text ({error.reason} at byte "
            f"{error.start}); save it as UTF-8"
        ) from None
    except OSError as error:
        raise ConfigError(
            f"cannot read the settings file {path} ({error.strerror or error}); let the bot's "
            "user read it, or point --env-file elsewhere"
        ) from None
    values: dict[str, str] = {}
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            if problems is not None:
                problems.append(
                    f"line {binding.original.line} of {path} is not NAME=value and is ignored"
                )
        elif binding.key is not None and binding.value is not None:
            values[binding.key] = binding.value
    return values


def _files(env_file: EnvFiles) -> tuple[Path, ...]:
    if env_file is None:
        return ()
    return (env_file,) if isinstance(env_file, Path) else tuple(env_file)


def setting_values(
    environ: Mapping[str, str] | None = None,
    env_file: EnvFiles = Path(".env"),
    problems: list[str] | None = None,
) -> dict[str, str]:
    """The raw settings: the settings files (if there; a later one wins over an earlier one),
    overridden by the environment. ``problems`` receives a warning for each line that cannot be
    parsed and each unknown ``GAMENIGHT_`` name."""
    environment = os.environ if environ is None else environ
    values: dict[str, str] = {}
    for path in _files(env_file):
        from_file = read_env_file(path, problems)
        if problems is not None:
            problems.extend(unknown_names(from_file, f"in {path}"))
        values.update(from_file)
    if problems is not None:
        problems.extend(unknown_names(environment, "in the environment"))
    values.update(environment)
    return values


def unknown_names(values: Mapping[str, str], where: str) -> list[str]:
    """A warning for each ``GAMENIGHT_`` name in ``values`` that is no setting, with the nearest
    real name when one is close."""
    known = (*SETTING_NAMES, *TOOL_NAMES)
    warnings = []
    for name in sorted(values):
        if not name.startswith(UNKNOWN_PREFIX) or name in known:
            continue
        nearest = difflib.get_close_matches(name, SETTING_NAMES, n=1, cutoff=0.75)
        hint = f"did you mean {nearest[0]}?" if nearest else "the settings are in .env.example"
        warnings.append(f"{name} ({where}) is not a Game Night setting and is ignored; {hint}")
    return warnings


def postgres_url_problem(url: str) -> str | None:
    """What makes ``url`` unusable as a PostgreSQL URL before any connection is tried (a port
    that is not 1 to 65535, a broken ``[IPv6]`` address), or None. The URL may hold a password,
    so the problem never quotes it whole."""
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError as error:
        return f"it is not a valid URL ({error})"
    ports: list[str] = []
    # asyncpg takes several hosts, host[:port] each, separated by commas.
    for host in parts.netloc.rpartition("@")[2].split(","):
        if host.startswith("["):
            address, bracket, rest = host[1:].partition("]")
            try:
                ipaddress.IPv6Address(address)
            except ValueError:
                return f"[{address}] is not an IPv6 address"
            if not bracket or (rest and not rest.startswith(":")):
                return f"{host!r} is not [IPv6 address]:port"
            port = rest[1:]
        else:
            port = host.partition(":")[2]
        if port:
            ports.append(port)
    ports += [port for key, value in query if key == "port" for port in value.split(",")]
    for port in ports:
        if not is_number(port) or not 1 <= int(port) <= 65535:
            return f"the port {port!r} is not a number from 1 to 65535"
    return None


def database_path(values: Mapping[str, str]) -> Path:
    """``GAMENIGHT_DATABASE``, the one setting the commands that only touch the database need."""
    return Path(values.get("GAMENIGHT_DATABASE", "").strip() or "gamenight.sqlite3")


@dataclass(frozen=True)
class Settings:
    """The bot's settings, read from the environment (and ``.env``) by :meth:`load`; the token and
    the signing key never appear in its ``repr``."""

    token: str = field(repr=False)
    database_path: Path
    signing_key: bytes = field(repr=False)
    dev_guild_id: int | None
    api_base_url: str | None
    gateway_url: str | None
    log_level: str
    time_scale: float = 1.0
    # The optional HTTP endpoint: /healthz, /metrics and the verification page (None: off).
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    # Where players reach that endpoint (for links to the verification page), if anywhere.
    public_url: str | None = None
    # GAMENIGHT_DATABASE as a postgresql:// URL (it may hold a password); None for SQLite.
    database_url: str | None = field(default=None, repr=False)
    # GAMENIGHT_SHARDS: every shard in this process (auto), or this process's part of a fleet.
    shards: ShardPlan = AUTO
    # Games over for longer than this many days are deleted (None: kept until forget-me).
    retention_days: int | None = None
    # Piper voice models (GAMENIGHT_PIPER_MODEL), one per language at most, and the piper
    # program that speaks with them; languages without one are spoken by espeak-ng.
    piper_voices: tuple[PiperVoice, ...] = ()
    piper_program: str | None = None
    # What the bot should say at start and check-config prints: unknown GAMENIGHT_ names, lines
    # of a settings file that could not be parsed.
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def database(self) -> Path | str:
        """What ``Storage.open`` takes: the PostgreSQL URL, or else the SQLite file."""
        return self.database_url or self.database_path

    @classmethod
    def load(
        cls, environ: Mapping[str, str] | None = None, env_file: EnvFiles = Path(".env")
    ) -> Settings:
        """The settings from the files ``env_file`` (``.env`` by default, if there; a later file
        wins over an earlier one) and the environment, which wins over them. Raises
        ``ConfigError`` naming the setting."""
        warnings: list[str] = []
        values = setting_values(environ, env_file, warnings)
        try:
            settings = cls._from_values(values)
        except ConfigError as error:
            raise ConfigError(str(error), warnings) from None
        return dataclasses.replace(settings, warnings=tuple(warnings))

    @classmethod
    def _from_values(cls, values: Mapping[str, str]) -> Settings:
        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(HOW_TO_GET_CREDENTIALS)
        if token[:4].lower() == "bot ":
            raise ConfigError(
                "DISCORD_TOKEN starts with 'Bot ': set it to the token alone, as "
                f"{WHERE_TOKENS_ARE_MADE} shows it (the bot adds 'Bot ' itself when it talks to "
                "Discord)"
            )

        key_text = values.get("GAMENIGHT_SIGNING_KEY", "").strip()
        if not key_text:
            raise ConfigError(
                "GAMENIGHT_SIGNING_KEY is not set. It signs the codes printed on players' "
                "boards; make one with "
                '`python -c "import secrets; print(secrets.token_hex(32))"` and put it in .env '
                "as GAMENIGHT_SIGNING_KEY=..."
            )
        try:
            signing_key = bytes.fromhex(key_text)
        except ValueError:
            signing_key = b""
        if len(signing_key) < 16:
            raise ConfigError(
                "GAMENIGHT_SIGNING_KEY must be at least 32 hex characters (16 bytes); make one with "
                '`python -c "import secrets; print(secrets.token_hex(32))"`'
            )

        guild_text = values.get("GAMENIGHT_DEV_GUILD_ID", "").strip()
        dev_guild_id: int | None = None
        if guild_text:
            if not is_number(guild_text):
                raise ConfigError(
                    f"GAMENIGHT_DEV_GUILD_ID must be a server id (digits only), got {guild_text!r}; "
                    "enable Developer Mode in Discord and use Copy Server ID, or leave it empty"
                )
            dev_guild_id = int(guild_text)

        level = values.get("GAMENIGHT_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
            raise ConfigError(
                f"GAMENIGHT_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}"
            )

        scale_text = values.get("GAMENIGHT_TIME_SCALE", "").strip() or "1"
        try:
            time_scale = float(scale_text)
        except ValueError:
            time_scale = 0.0
        if not 0.001 <= time_scale <= 100:
            raise ConfigError(
                f"GAMENIGHT_TIME_SCALE must be a number from 0.001 to 100, got {scale_text!r}; "
                "leave it empty for real time"
            )

        port_text = values.get("GAMENIGHT_METRICS_PORT", "").strip()
        metrics_port: int | None = None
        if port_text:
            if not is_number(port_text) or not 1 <= int(port_text) <= 65535:
                raise ConfigError(
                    f"GAMENIGHT_METRICS_PORT must be a port number 1-65535, got {port_text!r}; "
                    "leave it empty to run without the HTTP endpoint"
                )
            metrics_port = int(port_text)
        metrics_host = values.get("GAMENIGHT_METRICS_HOST", "").strip() or "127.0.0.1"

        database_text = values.get("GAMENIGHT_DATABASE", "").strip() or "gamenight.sqlite3"
        database_url: str | None = None
        if "://" in database_text:
            if not database_text.startswith(("postgresql://", "postgres://")):
                raise ConfigError(
                    "GAMENIGHT_DATABASE must be a SQLite file path or a postgresql:// URL, got "
                    f"one starting {database_text.partition('://')[0]}://"
                )
            problem = postgres_url_problem(database_text)
            if problem is not None:
                raise ConfigError(
                    f"GAMENIGHT_DATABASE is not a usable postgresql:// URL: {problem}; fix it (for "
                    "example postgresql://gamenight:PASSWORD@db.example:5432/gamenight)"
                )
            database_url = database_text
            database_text = "gamenight.sqlite3"

        shards_text = values.get("GAMENIGHT_SHARDS", "").strip()
        try:
            shards = parse_shards(shards_text)
        except ShardSettingError as error:
            raise ConfigError(
                f"GAMENIGHT_SHARDS: {error}; leave it empty (or auto) for one process"
            ) from None
        if shards.fleet and database_url is None:
            raise ConfigError(
                f"GAMENIGHT_SHARDS={shards_text} splits the shards between processes, which needs "
                "PostgreSQL (a SQLite file serves one process): set GAMENIGHT_DATABASE to a "
                "postgresql:// URL (docs/SCALING.md: Running at scale), or GAMENIGHT_SHARDS=auto"
            )

        retention_text = values.get("GAMENIGHT_RETENTION_DAYS", "").strip()
        retention_days: int | None = None
        if retention_text:
            if not is_number(retention_text) or not 1 <= int(retention_text) <= MAX_RETENTION_DAYS:
                raise ConfigError(
                    "GAMENIGHT_RETENTION_DAYS must be a number of days from 1 to "
                    f"{MAX_RETENTION_DAYS}, got {retention_text!r}; leave it empty to keep "
                    "finished games"
                )
            retention_days = int(retention_text)

        piper_voices, piper_program = _piper_settings(values)

        return cls(
            token=token,
            database_path=Path(database_text),
            database_url=database_url,
            shards=shards,
            signing_key=signing_key,
            dev_guild_id=dev_guild_id,
            api_base_url=_url_setting(values, "DISCORD_API_BASE_URL", ("http", "https")),
            gateway_url=_url_setting(values, "DISCORD_GATEWAY_URL", ("ws", "wss")),
            log_level=level,
            time_scale=time_scale,
            metrics_port=metrics_port,
            metrics_host=metrics_host,
            public_url=_url_setting(
                values,
                "GAMENIGHT_PUBLIC_URL",
                ("http", "https"),
                "leave it empty if players cannot reach the bot's HTTP endpoint",
            ),
            retention_days=retention_days,
            piper_voices=piper_voices,
            piper_program=piper_program,
        )


def _piper_settings(values: Mapping[str, str]) -> tuple[tuple[PiperVoice, ...], str | None]:
    """GAMENIGHT_PIPER_MODEL (voice model files, separated by commas) and the piper program
    (GAMENIGHT_PIPER_BIN, or ``piper`` on PATH), checked now: a voice that cannot speak is a
    bad setting, not a silent fall back to espeak-ng."""
    models_text = values.get("GAMENIGHT_PIPER_MODEL", "").strip()
    program_text = values.get("GAMENIGHT_PIPER_BIN", "").strip()
    if not models_text:
        return (), None
    voices: dict[str, PiperVoice] = {}
    for part in models_text.split(","):
        if not part.strip():
            continue
        try:
            voice = read_piper_voice(Path(part.strip()).expanduser())
        except PiperModelError as error:
            raise ConfigError(
                f"GAMENIGHT_PIPER_MODEL: {error}; point it at a Piper voice's .onnx file "
                "(docs/RUNNING.md: Voice), or leave it empty to speak with espeak-ng"
            ) from None
        if voice.language in voices:
            raise ConfigError(
                f"GAMENIGHT_PIPER_MODEL names two {voice.language} voices "
                f"({voices[voice.language].model.name} and {voice.model.name}); keep one per "
                "language"
            )
        voices[voice.language] = voice
    program = shutil.which(program_text or "piper")
    if program is None:
        where = (
            f"GAMENIGHT_PIPER_BIN={program_text} is not an executable program"
            if program_text
            else "no piper program is on PATH"
        )
        raise ConfigError(
            f"GAMENIGHT_PIPER_MODEL is set but {where}; install Piper (pip install piper-tts) "
            "and set GAMENIGHT_PIPER_BIN to its piper, or leave GAMENIGHT_PIPER_MODEL empty"
        )
    return tuple(voices.values()), program


def _url_setting(
    values: Mapping[str, str],
    name: str,
    schemes: tuple[str, ...],
    hint: str = "leave it empty to talk to Discord itself",
) -> str | None:
    text = values.get(name, "").strip()
    if not text:
        return None
    try:
        parsed = urlparse(text)
    except ValueError:  # a broken [IPv6] address
        parsed = urlparse("")
    if parsed.scheme not in schemes or not parsed.netloc:
        raise ConfigError(
            f"{name} must be a {' or '.join(s + '://' for s in schemes)} URL, got {text!r}; {hint}"
        )
    return text.rstrip("/")
