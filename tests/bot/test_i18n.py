"""Messages by key: every key the code uses exists, in English and Spanish with the same
placeholders; plural forms are picked in one place."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from bot.errors import UserError
from bot.i18n import MESSAGES, Plural, Text, message

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").glob("*.py")])
# The calls whose first argument is a message key.
KEYED_CALLS = {"UserError", "message", "say", "refusal"}
# A game's name: English templates say {title}, Spanish ones may say {titulo} (its Spanish name).
SAME_FIELD = {"titulo": "title"}
# Placeholders one language leaves out on purpose.
LEFT_OUT = {
    "call_line": {"english"},  # Spanish players read the card's Spanish name alone
}


def fields(text: Text) -> set[str]:
    forms = [text.one, text.other] if isinstance(text, Plural) else [text]
    found = set()
    for form in forms:
        for _, name, _, _ in string.Formatter().parse(form):
            if name is not None:
                found.add(SAME_FIELD.get(name.split("!")[0], name.split("!")[0]))
    return found


def keys_used() -> tuple[set[str], set[str]]:
    """Literal keys, and the patterns of keys built with f-strings (``f"status_{x}"``)."""
    literal: set[str] = set()
    patterns: set[str] = set()

    def note(node: ast.expr) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            literal.add(node.value)
        elif isinstance(node, ast.IfExp):
            note(node.body)
            note(node.orelse)
        elif isinstance(node, ast.JoinedStr):
            patterns.add(
                "".join(
                    re.escape(part.value) if isinstance(part, ast.Constant) else "[a-z0-9_]+"
                    for part in node.values
                )
            )

    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in KEYED_CALLS:
                note(node.args[0])
    return literal, patterns


def test_every_key_the_code_uses_exists():
    literal, patterns = keys_used()
    assert len(literal) > 150  # the scan found the code's keys
    missing = sorted(key for key in literal if key not in MESSAGES)
    assert missing == []
    assert len(patterns) >= 5
    for pattern in patterns:
        assert any(re.fullmatch(pattern, key) for key in MESSAGES), pattern


def test_both_languages_have_the_same_placeholders():
    differing = {
        key: (fields(english), fields(spanish))
        for key, (english, spanish) in MESSAGES.items()
        if fields(english) - LEFT_OUT.get(key, set()) != fields(spanish) - LEFT_OUT.get(key, set())
    }
    assert differing == {}


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_every_message_formats(locale):
    for key, pair in MESSAGES.items():
        values = {name: "x" for text in pair for name in fields(text)}
        values |= {"titulo": "x", "title": "x", "count": 2}
        for count in (0, 1, 2):
            text = message(key, locale, **{**values, "count": count})
            assert text.strip(), key
            assert "{" not in text.replace("{{", ""), key


def test_plural_forms_are_picked_by_count():
    assert message("tri_pegs", "en-US", count=1) == "1 peg"
    assert message("tri_pegs", "en-US", count=0) == "0 pegs"
    assert message("tri_pegs", "es-ES", count=2) == "2 clavijas"
    assert message("boards_phrase", "es-ES", count=3, board="cartones") == "tus 3 cartones"
    assert message("dm_boards", "en-US", count=2, boards="b", title="T", game=1, channel=2).startswith(
        "Here are"
    )
    with pytest.raises(KeyError):
        message("tri_pegs", "en-US")  # a plural message needs its count


def test_a_refusal_with_an_unknown_key_is_a_bug_caught_at_once():
    with pytest.raises(KeyError, match="no message"):
        UserError("Use /stats in a server.")
    assert UserError("server_only").text("es-ES") == message("server_only", "es-ES")


def test_a_new_game_brings_its_own_messages():
    from bot import i18n

    added = {"zz_test_hello": ("Hello {name}", "Hola {name}")}
    try:
        i18n.register_messages(added, {"Say hello": "Saluda"})
        assert message("zz_test_hello", "es-ES", name="Ana") == "Hola Ana"
        assert i18n.COMMAND_TRANSLATIONS["Say hello"] == "Saluda"
        with pytest.raises(ValueError, match="already in use"):
            i18n.register_messages({"server_only": ("x", "y")})
    finally:
        MESSAGES.pop("zz_test_hello", None)
        i18n.COMMAND_TRANSLATIONS.pop("Say hello", None)
