"""The emulator stands on its own, in layers: it imports nothing of the bot, and each of its core
modules imports only the core modules below it (type-checking-only imports count too), so it
could be published as a library of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

EMULATOR = Path(__file__).resolve().parents[2] / "emulator"
# Bottom to top: each may import only those before it.
CORE = ("model", "rules", "interactions", "gateway", "voice", "rest", "driver", "server")
# Helpers any core module may use; they import no core module themselves.
HELPERS = ("spec", "ratelimit", "faults", "endpoints", "latency")
# Entry points on top of everything: the package, the pytest-free test helper, the spec refresher.
ENTRIES = ("__init__", "testing", "refresh_spec")
PROJECT_PACKAGES = {"bot", "cogs", "engine", "tests", "bench"}


def imported_modules(source: str, package: str = "emulator") -> set[str]:
    """Every absolute module name imported anywhere in ``source`` (inside functions and
    ``if TYPE_CHECKING:`` too); relative imports resolved against ``package``; ``from emulator
    import model`` counts as ``emulator.model``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            if base == "emulator":
                found.update(f"emulator.{alias.name}" for alias in node.names)
    return found


def emulator_imports(name: str) -> set[str]:
    source = (EMULATOR / f"{name}.py").read_text(encoding="utf-8")
    return {
        module.split(".")[1]
        for module in imported_modules(source)
        if module.startswith("emulator.") and module.count(".") >= 1
    }


def test_every_module_is_placed():
    modules = {path.stem for path in EMULATOR.glob("*.py")}
    assert modules == set(CORE) | set(HELPERS) | set(ENTRIES)


@pytest.mark.parametrize("path", sorted(EMULATOR.rglob("*.py")), ids=lambda p: p.name)
def test_the_emulator_imports_nothing_of_the_project(path: Path):
    roots = {module.split(".")[0] for module in imported_modules(path.read_text(encoding="utf-8"))}
    assert roots & PROJECT_PACKAGES == set()


@pytest.mark.parametrize("name", CORE)
def test_a_core_module_imports_only_what_is_below_it(name: str):
    below = set(CORE[: CORE.index(name)]) | set(HELPERS)
    assert emulator_imports(name) - below == set()


@pytest.mark.parametrize("name", HELPERS)
def test_a_helper_imports_no_core_module(name: str):
    assert emulator_imports(name) & set(CORE) == set()


def test_the_checker_sees_every_kind_of_import():
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "import emulator.gateway\n"
        "from emulator import server\n"
        "from . import driver\n"
        "from .rest import RestApi\n"
        "if TYPE_CHECKING:\n"
        "    from bot.app import GameNightBot\n"
        "def late():\n"
        "    from emulator.interactions import InteractionResult\n"
    )
    found = imported_modules(source)
    assert {
        "emulator.gateway",
        "emulator.server",
        "emulator.driver",
        "emulator.rest",
        "bot.app",
        "emulator.interactions",
    } <= found
