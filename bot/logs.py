"""How the bot logs: one handler on stderr, discord.py's format, and never a secret.

``GAMENIGHT_LOG_LEVEL`` sets the level of the project's own loggers (``bot``, ``cogs``,
``engine``) only. Every other library logs at INFO at the most verbose, whatever the setting:
at DEBUG the database drivers log every statement with its values (aiosqlite: a running game's
seed, hence every call still to come) and discord.py every request, gateway event and answer
(interaction tokens, message bodies, members' names). Then, as a second line, every formatted
line (traceback included) is redacted on its way out: the bot token, the signing key, interaction
tokens (in webhook and interaction URLs and in ``token`` fields) and any seed-shaped run of 64
hex digits (a seed as stored in a game's state; a commitment looks the same and goes too).
"""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import Iterable

import discord

OWN_LOGGERS = ("bot", "cogs", "engine")
# The loggers known to print payloads at DEBUG, held at INFO by name too (in case one of them
# ever sets a level of its own); every other library is held there by the root logger's level.
CHATTY_LIBRARIES = ("aiosqlite", "asyncpg", "discord", "aiohttp", "websockets")
REDACTED = "[redacted]"

# An interaction token after /webhooks/<application id>/ or /interactions/<interaction id>/.
_URL_TOKEN = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?#'\"]+")
# A "token" field of a payload, printed as JSON or as a Python dict.
_TOKEN_FIELD = re.compile(r"""(["']token["']\s*:\s*["'])[^"']+""")
# A seed in hex (32 bytes), not part of a longer run of hex digits.
_SEED_HEX = re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{64}(?![0-9A-Fa-f])")


def _spellings(secret: str | bytes) -> set[str]:
    """The ways a secret can be printed: as it is, and bytes as hex, repr and base64."""
    if isinstance(secret, str):
        return {secret} if secret else set()
    if not secret:
        return set()
    text = secret.hex()
    return {
        text,
        text.upper(),
        repr(secret)[2:-1],  # b'...' without the quotes
        base64.b64encode(secret).decode(),
        base64.urlsafe_b64encode(secret).decode(),
    }


class Redactor:
    """Removes secrets from log text: the ones given (the bot token, the signing key) in every
    spelling, and interaction tokens and seed-shaped hex by their shape."""

    def __init__(self, secrets: Iterable[str | bytes] = ()) -> None:
        spellings: set[str] = set()
        for secret in secrets:
            spellings |= _spellings(secret)
        # Longest first, so that a secret containing another is removed whole.
        ordered = sorted(spellings, key=len, reverse=True)
        self._known = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def __call__(self, text: str) -> str:
        """``text`` with every secret replaced by ``[redacted]``."""
        if self._known is not None:
            text = self._known.sub(REDACTED, text)
        text = _URL_TOKEN.sub(rf"\g<1>{REDACTED}", text)
        text = _TOKEN_FIELD.sub(rf"\g<1>{REDACTED}", text)
        return _SEED_HEX.sub(REDACTED, text)


class RedactingFormatter(logging.Formatter):
    """Another formatter's lines (message, traceback and stack), redacted."""

    def __init__(self, inner: logging.Formatter, redact: Redactor) -> None:
        super().__init__()
        self.inner = inner
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        """The inner formatter's text for ``record``, secrets removed."""
        return self.redact(self.inner.format(record))


def setup_logging(level: str, secrets: Iterable[str | bytes] = ()) -> logging.Handler:
    """Log to stderr at ``level`` (a name: DEBUG, INFO, WARNING or ERROR) for the project's own
    loggers and at ``level`` or INFO, the less verbose, for every library, each line redacted of
    ``secrets`` (the bot token, the signing key) and of interaction tokens and seeds.

    Returns the handler it added to the root logger."""
    own_level = logging.getLevelName(level.upper())
    if not isinstance(own_level, int):
        raise ValueError(f"unknown log level {level!r}")
    library_level = max(own_level, logging.INFO)
    handler = logging.StreamHandler()
    # discord.py's own set-up: one format for its logs and ours, coloured on a terminal.
    discord.utils.setup_logging(handler=handler, level=library_level, root=True)
    assert handler.formatter is not None
    handler.setFormatter(RedactingFormatter(handler.formatter, Redactor(secrets)))
    for name in CHATTY_LIBRARIES:
        logging.getLogger(name).setLevel(library_level)
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(own_level)
    return handler
