"""Settings from the environment and an optional ``.env`` file; secrets are never logged."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from dotenv import dotenv_values

from bot.shards import AUTO, ShardPlan, ShardSettingError, parse_shards

HOW_TO_GET_CREDENTIALS = (
    "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
    "open Bot > Reset Token, and put the token in a file named .env in the project folder as "
    "DISCORD_TOKEN=... (see .env.example), or export it in the environment. "
    "To try the bot without Discord, run: python -m bot sandbox"
)


MAX_RETENTION_DAYS = 36500


class ConfigError(Exception):
    """A missing or bad setting; the message names it and says how to fix it."""


def read_env_file(path: Path) -> dict[str, str]:
    """The settings in a ``.env`` file, parsed by python-dotenv: ``# comments`` (also after an
    unquoted value), single or double quotes, ``export``, spaces around ``=``. Values are taken
    literally (no ``${VAR}`` expansion); a name without ``=`` is ignored."""
    if not path.is_file():
        return {}
    values = dotenv_values(path, interpolate=False, encoding="utf-8")
    return {key: value for key, value in values.items() if value is not None}


def setting_values(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> dict[str, str]:
    """The raw settings: ``.env`` (if any) overridden by the environment."""
    values = read_env_file(env_file) if env_file is not None else {}
    values.update(os.environ if environ is None else environ)
    return values


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

    @property
    def database(self) -> Path | str:
        """What ``Storage.open`` takes: the PostgreSQL URL, or else the SQLite file."""
        return self.database_url or self.database_path

    @classmethod
    def load(
        cls, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
    ) -> Settings:
        """Environment variables win over ``.env``; raises ``ConfigError`` naming the setting."""
        values = setting_values(environ, env_file)

        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(HOW_TO_GET_CREDENTIALS)

        key_text = values.get("GAMENIGHT_SIGNING_KEY", "").strip()
        if not key_text:
            raise ConfigError(
                "GAMENIGHT_SIGNING_KEY is not set. It signs Housie ticket codes; make one with "
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
            if not guild_text.isdigit():
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
            if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
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
                "postgresql:// URL (README: Running at scale), or GAMENIGHT_SHARDS=auto"
            )

        retention_text = values.get("GAMENIGHT_RETENTION_DAYS", "").strip()
        retention_days: int | None = None
        if retention_text:
            if not retention_text.isdigit() or not 1 <= int(retention_text) <= MAX_RETENTION_DAYS:
                raise ConfigError(
                    "GAMENIGHT_RETENTION_DAYS must be a number of days from 1 to "
                    f"{MAX_RETENTION_DAYS}, got {retention_text!r}; leave it empty to keep "
                    "finished games"
                )
            retention_days = int(retention_text)

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
        )


def _url_setting(
    values: dict[str, str],
    name: str,
    schemes: tuple[str, ...],
    hint: str = "leave it empty to talk to Discord itself",
) -> str | None:
    text = values.get(name, "").strip()
    if not text:
        return None
    parsed = urlparse(text)
    if parsed.scheme not in schemes or not parsed.netloc:
        raise ConfigError(
            f"{name} must be a {' or '.join(s + '://' for s in schemes)} URL, got {text!r}; {hint}"
        )
    return text.rstrip("/")
