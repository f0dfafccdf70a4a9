"""docs/ARCHITECTURE.md stays true: every module of ``bot/`` is in its list of layers, and every
module, path, class and function it names in backticks exists."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
NAMED = sorted(set(re.findall(r"`([^`\n]+)`", DOC)))
PACKAGES = ("bot", "cogs", "engine", "emulator")


def layer_list() -> str:
    """The numbered list of ``bot/``'s layers."""
    start = DOC.index("\n1. ", DOC.index("Inside `bot/`"))
    return DOC[start : DOC.index("\n\n", start)]


def is_group(package: Path) -> bool:
    """A folder that only groups modules (its ``__init__.py`` holds a docstring and nothing else)."""
    body = ast.parse((package / "__init__.py").read_text(encoding="utf-8")).body
    return len(body) == 1 and isinstance(body[0], ast.Expr)


def bot_modules() -> set[str]:
    """The modules and packages of ``bot/`` (entry points and builders included), a group's
    modules by their path in it (``ops/cli``)."""
    found = {p.stem for p in (ROOT / "bot").glob("*.py") if p.stem not in {"__init__", "__main__"}}
    for package in (p for p in (ROOT / "bot").iterdir() if (p / "__init__.py").exists()):
        inside = {f"{package.name}/{m.stem}" for m in package.glob("[!_]*.py")}
        found |= inside if is_group(package) else {package.name}
    return found


def named_modules() -> set[str]:
    """Every module of a package of ``bot/``, by its path (``storage/database_file``)."""
    return {f"{p.parent.name}/{p.stem}" for p in (ROOT / "bot").glob("*/[!_]*.py")}


IDENTIFIER = r"`([a-z_][a-z0-9_]*(?:/[a-z_][a-z0-9_]*)?)/?`"


def test_every_module_of_bot_is_in_the_layers():
    named = set(re.findall(IDENTIFIER, layer_list()))
    missing = sorted(bot_modules() - named)
    assert missing == [], f"modules of bot/ the layers leave out: {missing}"


def functions_of_bot() -> set[str]:
    return {
        node.name
        for path in (ROOT / "bot").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }


def test_every_name_in_the_layers_exists():
    """A module of bot/, a function or method of it, or a command the project installs."""
    scripts = re.findall(r'^(\S+) = "', (ROOT / "pyproject.toml").read_text(), re.MULTILINE)
    known = bot_modules() | named_modules() | functions_of_bot() | set(scripts)
    unknown = sorted(set(re.findall(IDENTIFIER, layer_list())) - known)
    assert unknown == [], f"the layers name what bot/ does not have: {unknown}"


def path_exists(text: str) -> bool:
    relative = text.rstrip("/")
    bases = (ROOT, ROOT / "bot")
    return any((b / relative).exists() or (b / f"{relative}.py").exists() for b in bases)


@pytest.mark.parametrize(
    "path",
    [n for n in NAMED if "/" in n and not n.startswith("/") and re.fullmatch(r"[\w./-]+", n)],
)
def test_every_path_it_names_exists(path: str):
    assert path_exists(path), f"docs/ARCHITECTURE.md names {path}, which does not exist"


def defined_names() -> dict[str, set[str]]:
    """Each class of the project, with the names defined in it (methods, attributes)."""
    classes: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    members = classes.setdefault(node.name, set())
                    for inner in ast.walk(node):
                        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            members.add(inner.name)
                        elif isinstance(inner, ast.AnnAssign) and isinstance(
                            inner.target, (ast.Name, ast.Attribute)
                        ):
                            target = inner.target
                            members.add(target.id if isinstance(target, ast.Name) else target.attr)
                        elif isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store):
                            members.add(inner.attr)
                        elif isinstance(inner, ast.Assign):
                            members |= {t.id for t in inner.targets if isinstance(t, ast.Name)}
    return classes


CLASSES = defined_names()


@pytest.mark.parametrize(
    "name", [n for n in NAMED if re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+", n)]
)
def test_every_dotted_name_it_names_exists(name: str):
    first, *rest = name.split(".")
    if first in (*PACKAGES, "discord"):  # a module, then perhaps a name in it
        for cut in range(len(rest), -1, -1):
            module = ".".join([first, *rest[:cut]])
            try:
                found: object = importlib.import_module(module)
            except ModuleNotFoundError:
                continue
            for attribute in rest[cut:]:
                assert hasattr(found, attribute), f"{name}: {module} has no {attribute}"
                found = getattr(found, attribute)
            return
        pytest.fail(f"{name}: no such module")
    assert first in CLASSES, f"{name}: no class {first} in the project"
    assert rest[0] in CLASSES[first], f"{name}: {first} defines no {rest[0]}"
