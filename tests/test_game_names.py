"""A game is its own files: no game's name is written into the code outside them.

The games are those of the cogs the bot loads (``bot.app.EXTENSIONS``): each ``GameCog``'s kind,
button prefix, English and Spanish titles and cog name (``loteria``, ``Lotería``, ``tictactoe``,
``ttt``, ``Tic-tac-toe``, ``Tres en raya``...). A game's own files are its engine
(``engine/<kind>.py`` or the package ``engine/<kind>/``), its pictures (``bot/render/<kind>.py``
or ``bot/render/<kind>/``) and its cog (its module, or its whole package, words included); its
tests are under ``tests/``, which is not searched. Everywhere else in ``bot/``, ``cogs/`` and
``engine/``, a name in a string or in an identifier is a place that lists the games.

Whole words only, so no game hides in another word ("tri" in "tricky", "dots" in "dotsy"):
texts and identifiers are cut into words at anything but a letter or digit and at case changes
(``render_dots``, ``gn:ttt:cell``, ``TicTacToe``), accents and case set aside (``Lotería`` is
``loteria``); a title of several words is found as those words in a row. Docstrings are
documentation, not code that lists games, and are not searched (comments never are).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.app import EXTENSIONS
from bot.games import GameCog

ROOT = Path(__file__).resolve().parents[1]
SEARCHED = ("bot", "cogs", "engine")

# The English words that are also a game's kind, where they mean the word: (file, word).
ORDINARY_WORDS = {
    ("bot/ops/config_check.py", "dots"),  # a token's parts "separated by dots"
    ("bot/call_names.py", "loteria"),  # 54's nickname: "Cards in a Lotería deck"
    # The family of games, in the words describing these: "90-ball bingo", "the Mexican bingo".
    ("cogs/housie/__init__.py", "bingo"),
    ("cogs/housie/words.py", "bingo"),
    ("cogs/loteria/__init__.py", "bingo"),
    ("cogs/loteria/words.py", "bingo"),
}


@dataclass(frozen=True)
class Game:
    kind: str
    names: frozenset[tuple[str, ...]]  # each name as its words
    own: tuple[Path, ...]  # its files and folders

    def owns(self, path: Path) -> bool:
        return any(path == mine or mine in path.parents for mine in self.own)


def words(text: str) -> list[str]:
    """``text`` as lowercase unaccented words: cut at anything but a letter or digit, and
    where a lowercase letter or digit meets a capital (``TicTacToe``)."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.findall(r"[a-z0-9]+", plain.lower())


def loaded_games() -> list[Game]:
    games = []
    for extension in EXTENSIONS:
        module = importlib.import_module(extension)
        for cog in vars(module).values():
            if not (
                inspect.isclass(cog)
                and issubclass(cog, GameCog)
                and cog.__module__ == module.__name__
            ):
                continue
            source = Path(inspect.getfile(module))
            cog_files = source.parent if source.name == "__init__.py" else source
            names = {cog.kind, cog.title, cog.title_es, cog.__cog_name__, cog.button_prefix()}
            own = (
                ROOT / "engine" / f"{cog.kind}.py",
                ROOT / "engine" / cog.kind,
                ROOT / "bot" / "render" / f"{cog.kind}.py",
                ROOT / "bot" / "render" / cog.kind,
                cog_files,
            )
            games.append(Game(cog.kind, frozenset(tuple(words(n)) for n in names), own))
    return games


def texts_of(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every string and identifier of a module, with its line, docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module


def contains(found: list[str], name: tuple[str, ...]) -> bool:
    return any(tuple(found[i : i + len(name)]) == name for i in range(len(found) - len(name) + 1))


def names_found() -> dict[str, list[str]]:
    """Every game's name outside its own files: ``{file: ["line 12: loteria", ...]}``."""
    games = loaded_games()
    found: dict[str, list[str]] = {}
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, text in texts_of(tree):
                cut = words(text)
                for game in games:
                    if game.owns(path):
                        continue
                    for name in game.names:
                        if (relative, " ".join(name)) in ORDINARY_WORDS:
                            continue
                        if contains(cut, name):
                            found.setdefault(relative, []).append(f"line {line}: {' '.join(name)}")
    return found


def test_the_games_are_found_from_the_loaded_cogs():
    games = {game.kind: game for game in loaded_games()}
    assert {"loteria", "housie", "bingo", "tictactoe", "dots", "triangle"} <= set(games)
    assert ("ttt",) in games["tictactoe"].names
    assert ("tres", "en", "raya") in games["tictactoe"].names
    assert ("loteria",) in games["loteria"].names  # Lotería, accent set aside


def test_the_search_finds_whole_words_in_strings_and_identifiers():
    assert words("gn:ttt:cell:12") == ["gn", "ttt", "cell", "12"]
    assert words("render_housie_call") == ["render", "housie", "call"]
    assert words("TicTacToeCog") == ["tic", "tac", "toe", "cog"]
    assert words("Lotería") == ["loteria"]
    assert not contains(words("a tricky trip"), ("tri",))
    assert not contains(words("dotsy"), ("dots",))
    assert contains(words("Play Dots and Boxes"), ("dots", "and", "boxes"))
    tree = ast.parse('"""Lotería."""\nGAME = "loteria"\ndef render_tri(): ...\n')
    assert sorted(text for _, text in texts_of(tree)) == ["GAME", "loteria", "render_tri"]


def test_no_game_is_named_outside_its_own_files():
    found = names_found()
    assert found == {}, "games named outside their own files (take them from the loaded cogs)"
