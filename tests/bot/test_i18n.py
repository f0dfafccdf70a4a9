"""Messages by key: every key the code uses exists, in English and Spanish with the same
placeholders; plural forms are picked in one place."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import string
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.app import discover_extensions
from bot.i18n import MESSAGES, Plural, Text, message
from bot.plurals import counted, plural
from bot.replies import UserError

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")])
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


def keys_used(sources: Sequence[Path] = SOURCES) -> tuple[set[str], set[str]]:
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

    for path in sources:
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
        values |= {"titulo": "x", "title": "x"}
        for count in (0, 1, 2):
            text = message(key, locale, **{**values, **dict.fromkeys(counts_of(pair), count)})
            assert text.strip(), key
            assert "{" not in text.replace("{{", ""), key


# -- plurals -----------------------------------------------------------------------------------

# Words that are counted, singular and plural, in both languages: after a count they must agree
# with it ("1 player", "2 players"; "1 jugador", "0 jugadores").
COUNTED_WORDS = {
    "en": [
        ("player", "players"), ("ticket", "tickets"), ("minute", "minutes"),
        ("number", "numbers"), ("board", "boards"), ("call", "calls"), ("peg", "pegs"),
        ("game", "games"), ("win", "wins"), ("day", "days"), ("hint", "hints"),
        ("jump", "jumps"), ("move", "moves"), ("box", "boxes"), ("card", "cards"),
        ("tabla", "tablas"), ("claim", "claims"), ("prize", "prizes"), ("winner", "winners"),
        ("second", "seconds"), ("server", "servers"), ("line", "lines"), ("hole", "holes"),
    ],
    "es": [
        ("jugador", "jugadores"), ("cartón", "cartones"), ("minuto", "minutos"),
        ("número", "números"), ("tablero", "tableros"), ("cantada", "cantadas"),
        ("clavija", "clavijas"), ("partida", "partidas"), ("victoria", "victorias"),
        ("día", "días"), ("pista", "pistas"), ("salto", "saltos"), ("jugada", "jugadas"),
        ("caja", "cajas"), ("carta", "cartas"), ("tabla", "tablas"), ("reclamo", "reclamos"),
        ("premio", "premios"), ("ganador", "ganadores"), ("segundo", "segundos"),
        ("servidor", "servidores"), ("línea", "líneas"), ("hoyo", "hoyos"),
    ],
}  # fmt: skip


def counts_of(pair: tuple[Text, Text]) -> set[str]:
    """The placeholders of a message that are counts: ``count``, and what its plural forms are
    picked by."""
    found = {text.by for text in pair if isinstance(text, Plural)}
    return found | ({"count"} & {name for text in pair for name in fields(text)})


def disagreeing(text: str, count: int, language: str) -> list[str]:
    """Where ``text`` puts ``count`` before a counted word in the wrong form (an adjective may
    come between, as in "1 false claims"; ``**`` too)."""
    wrong = 1 if count == 1 else 0  # the plural after 1, the singular after anything else
    words = "|".join(re.escape(pair[wrong]) for pair in COUNTED_WORDS[language])
    pattern = rf"(?<![\w#.,]){count}(?:\*\*)? (?:\w+ )?(?:{words})\b"
    return re.findall(pattern, text)


def test_a_placeholder_before_a_counted_word_is_the_count_of_a_plural():
    """In every template, a placeholder written before a counted word in the plural ("{most}
    players", "{count} false claims") must be the count its message's forms are picked by, so
    that nothing ever says "1 players". (Not after an ``x``: "{rows}x{columns} boxes" is a
    size; "wins" and "moves" are verbs too: "{winner} wins".)"""
    wrong = []
    for key, pair in MESSAGES.items():
        for language, text in zip(("en", "es"), pair, strict=True):
            plurals = [other for _, other in COUNTED_WORDS[language]]
            words = "|".join(re.escape(w) for w in plurals if w not in {"wins", "moves"})
            before_a_word = rf"(?<![x\w])\{{(\w+)\}}(?:\*\*)? (?:\w+ )?(?:{words})\b"
            forms = [text.one, text.other] if isinstance(text, Plural) else [text]
            picked_by = text.by if isinstance(text, Plural) else None
            wrong += [
                f"{key} ({language}): {{{name}}}"
                for form in forms
                for name in re.findall(before_a_word, form)
                if name != picked_by
            ]
    assert wrong == []


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_every_message_taking_a_count_agrees_with_0_1_and_2(locale):
    language = locale[:2]
    walked = 0
    for key, pair in MESSAGES.items():
        counts = counts_of(pair)
        if not counts:
            continue
        walked += 1
        others = {name: "X" for text in pair for name in fields(text)} | {"titulo": "X"}
        for count in (0, 1, 2):
            text = message(key, locale, **{**others, **dict.fromkeys(counts, count)})
            assert disagreeing(text, count, language) == [], (key, count, text)
    assert walked > 30  # the walk found the messages with counts


def test_the_plural_rule_is_one_for_1_and_other_for_the_rest():
    assert [plural(n, "peg", "pegs") for n in (0, 1, 2, 21)] == ["pegs", "peg", "pegs", "pegs"]
    assert counted(1, "server", "servers") == "1 server"
    assert counted(0, "false claim", "false claims") == "0 false claims"
    assert Plural("a", "b", by="most").pick(1) == "a"
    # A message picks its form by the placeholder it names.
    assert message("housie_ticket_count", "en-US", most=1) == "Choose 1 ticket."
    assert message("housie_ticket_count", "es-ES", most=3) == "Elige de 1 a 3 cartones."
    assert "up to 1 player" in message(
        "loteria_options", "en-US", prizes="x", interval=5, deck="x", most=1
    )
    assert message("n_calls", "es-ES", count=1) == "1 cantada"


def test_plural_forms_are_picked_by_count():
    assert message("tri_pegs", "en-US", count=1) == "1 peg"
    assert message("tri_pegs", "en-US", count=0) == "0 pegs"
    assert message("tri_pegs", "es-ES", count=2) == "2 clavijas"
    assert message("boards_phrase", "es-ES", count=3, board="cartones") == "tus 3 cartones"
    assert message(
        "dm_boards", "en-US", count=2, boards="b", title="T", game=1, channel=2
    ).startswith("Here are")
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
        i18n.register_messages(added, {"Say hello": "Saluda"}, owner="cogs.zz.words")
        assert message("zz_test_hello", "es-ES", name="Ana") == "Hola Ana"
        assert i18n.COMMAND_TRANSLATIONS["Say hello"] == "Saluda"
        # The same module again (its cog reloaded): its own keys, no refusal.
        i18n.register_messages(added, {"Say hello": "Saluda"}, owner="cogs.zz.words")
        # Another module, or none, may not take them; nor a shared key.
        for owner in ("cogs.other.words", None):
            with pytest.raises(ValueError, match="already in use"):
                i18n.register_messages(added, owner=owner)
        with pytest.raises(ValueError, match="already in use"):
            i18n.register_messages({"server_only": ("x", "y")}, owner="cogs.zz.words")
        # A name or description may be shared, but not worded otherwise.
        i18n.register_messages({}, {"start": "empezar"}, owner="cogs.other.words")
        with pytest.raises(ValueError, match="worded otherwise"):
            i18n.register_messages({}, {"Say hello": "Hola"}, owner="cogs.other.words")
        assert i18n.COMMAND_TRANSLATIONS["Say hello"] == "Saluda"
    finally:
        MESSAGES.pop("zz_test_hello", None)
        i18n.COMMAND_TRANSLATIONS.pop("Say hello", None)


def words_modules() -> list[Path]:
    """The words beside each cog the bot discovers (``cogs/<game>/words.py``)."""
    found = []
    for name in discover_extensions():
        spec = importlib.util.find_spec(name)
        assert spec is not None
        assert spec.origin is not None
        words = Path(spec.origin).parent / "words.py"
        if spec.submodule_search_locations and words.exists():
            found.append(words)
    return found


def dict_keys(path: Path, name: str) -> list[str]:
    """The keys of the dict literal ``name`` in ``path``, read without importing it."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == name:
            assert isinstance(node.value, ast.Dict)
            return [ast.literal_eval(key) for key in node.value.keys if key is not None]
    return []


def renderers_words() -> list[Path]:
    """The words beside each game's pictures (``bot/render/<game>/words.py``)."""
    return sorted(ROOT.joinpath("bot", "render").glob("*/words.py"))


def test_every_cogs_words_are_among_the_checked_messages():
    """The checks above walk MESSAGES: every game's words are in it (tests/conftest.py imports
    the cogs the bot discovers), with their commands' Spanish."""
    from bot.i18n import COMMAND_TRANSLATIONS

    found = words_modules()
    assert len(found) >= 5  # Lotería, Housie, tic-tac-toe, Dots and Boxes, the Tricky Triangle
    for words in found:
        keys = dict_keys(words, "MESSAGES")
        assert keys, words
        assert [key for key in keys if key not in MESSAGES] == [], words
        commands = dict_keys(words, "COMMAND_TRANSLATIONS")
        assert [name for name in commands if name not in COMMAND_TRANSLATIONS] == [], words


def test_every_renderers_words_are_among_the_checked_messages():
    """The words each game's pictures draw, beside its renderer, are in MESSAGES too: each
    cog the bot discovers imports its renderer, which registers them."""
    found = renderers_words()
    assert len(found) >= 5  # the five games' pictures
    for words in found:
        keys = dict_keys(words, "MESSAGES")
        assert keys, words
        assert [key for key in keys if key not in MESSAGES] == [], words


def test_a_cog_reloaded_registers_its_words_again():
    import cogs.triangle.words

    before = dict(MESSAGES)
    importlib.reload(cogs.triangle.words)
    assert before == MESSAGES
    assert message("tri_remark_1", "es-ES") == "Eres un genio"


def test_the_bot_names_only_its_own_words():
    """A module of bot/ never needs words only a cog brings (it may run before, or without,
    that cog): every key it names is one of bot/i18n.py's own, or, in a game's renderer, one of
    the words beside it (``bot/render/<game>/words.py``, which the renderer imports). A key a
    game provides reaches bot/ through its cog (``exhausted_reason``, ``help_keys``, an engine's
    reason code)."""
    shared = set(dict_keys(ROOT / "bot" / "i18n.py", "MESSAGES"))
    pictures = {words.parent: set(dict_keys(words, "MESSAGES")) for words in renderers_words()}
    bot_sources = [path for path in SOURCES if path.is_relative_to(ROOT / "bot")]
    literal, _ = keys_used(bot_sources)
    assert len(literal) > 100  # the scan found bot/'s keys
    unknown = []
    for path in bot_sources:
        own = shared | pictures.get(path.parent, set())
        used, _ = keys_used([path])
        unknown += [f"{path.relative_to(ROOT)}: {key}" for key in sorted(used - own)]
    assert unknown == []
    games = {key for words in words_modules() for key in dict_keys(words, "MESSAGES")}
    # No key in two places: the shared words, the cogs' and each renderer's.
    places = [shared, games, *pictures.values()]
    assert sum(len(keys) for keys in places) == len(set().union(*places))
