"""The log's set-up (bot/logs.py): the libraries that print payloads at DEBUG stay at INFO, the
bot's own loggers follow GAMENIGHT_LOG_LEVEL, and secrets are redacted from every line."""

from __future__ import annotations

import base64
import io
import logging
from collections.abc import Iterator

import pytest

from bot.logs import REDACTED, Redactor, setup_logging

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
KEY = bytes(range(7, 39))
INTERACTION = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZmdoaWprbG1ub3A"


@pytest.fixture
def restored_logging() -> Iterator[None]:
    """setup_logging changes the process's loggers: put them back afterwards."""
    names = ("", "bot", "cogs", "engine", "aiosqlite", "asyncpg", "discord", "discord.http")
    levels = {name: logging.getLogger(name).level for name in names}
    handlers = list(logging.getLogger().handlers)
    yield
    root = logging.getLogger()
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def test_secrets_are_redacted_in_every_spelling() -> None:
    redact = Redactor([TOKEN, KEY])
    seed = bytes(range(100, 132))
    lines = [
        f"Authorization: Bot {TOKEN}",
        f"key {KEY.hex()} {KEY.hex().upper()} {KEY!r} {base64.b64encode(KEY).decode()}",
        f"POST /api/v10/interactions/1234567890123/{INTERACTION}/callback",
        f"PATCH /webhooks/98765432109876/{INTERACTION}/messages/@original",
        f"{{'id': '1', 'token': '{INTERACTION}', 'type': 2}}",
        f'{{"token": "{INTERACTION}"}}',
        f"state {seed.hex()}/classic/line/3/0",
    ]
    for line in lines:
        cleaned = redact(line)
        assert REDACTED in cleaned, line
        for secret in (TOKEN, KEY.hex(), KEY.hex().upper(), INTERACTION, seed.hex()):
            assert secret not in cleaned, line
        assert repr(KEY)[2:-1] not in cleaned
    # What is not a secret stays readable.
    assert redact("game 12: call 5 of 54 by 123456789012345678") == (
        "game 12: call 5 of 54 by 123456789012345678"
    )


@pytest.mark.usefixtures("restored_logging")
def test_debug_is_the_bots_own_and_every_line_is_redacted() -> None:
    handler = setup_logging("DEBUG", secrets=[TOKEN, KEY])
    assert isinstance(handler, logging.StreamHandler)
    out = io.StringIO()
    handler.setStream(out)
    logging.getLogger("aiosqlite").debug("executing INSERT ... %r", KEY)
    logging.getLogger("discord.http").debug("PATCH /webhooks/1/%s has returned 200", INTERACTION)
    logging.getLogger("some.library").debug("chatter")
    logging.getLogger("bot.calling").debug("our own detail")
    try:
        raise RuntimeError(f"failed with {TOKEN}")
    except RuntimeError:
        logging.getLogger("discord.client").exception("an error in an event handler")
    text = out.getvalue()
    assert "our own detail" in text
    assert "executing" not in text
    assert "has returned" not in text
    assert "chatter" not in text
    assert "an error in an event handler" in text
    assert "RuntimeError: failed with [redacted]" in text
    assert TOKEN not in text


@pytest.mark.usefixtures("restored_logging")
def test_a_quieter_level_quietens_the_libraries_too() -> None:
    setup_logging("WARNING")
    assert not logging.getLogger("discord.gateway").isEnabledFor(logging.INFO)
    assert not logging.getLogger("bot.app").isEnabledFor(logging.INFO)
    assert logging.getLogger("bot.app").isEnabledFor(logging.WARNING)
