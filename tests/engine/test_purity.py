"""``engine`` is pure: no Discord, no database, no images, no I/O of any kind."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN_MODULES = {
    "discord",
    "aiosqlite",
    "sqlite3",
    "asyncpg",
    "PIL",
    "aiohttp",
    "asyncio",
    "os",
    "io",
    "pathlib",
    "socket",
    "subprocess",
    "shutil",
    "tempfile",
    "urllib",
    "http",
    "requests",
    "logging",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def module_name(path: Path) -> str:
    return path.relative_to(ENGINE).with_suffix("").as_posix()


def test_engine_has_modules():
    # Packages' modules are found too: each of them is checked below.
    names = {module_name(path) for path in engine_files()}
    assert {"fairness", "errors", "housie/__init__", "housie/sampling", "housie/game"} <= names


@pytest.mark.parametrize("path", engine_files(), ids=module_name)
def test_engine_module_is_pure(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            roots = [(node.module or "").split(".")[0]] if node.level == 0 else []
        else:
            roots = []
        problems += [
            f"line {node.lineno}: imports {root}" for root in roots if root in FORBIDDEN_MODULES
        ]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FORBIDDEN_CALLS
        ):
            problems.append(f"line {node.lineno}: calls {node.func.id}()")
    assert problems == []


def test_the_checker_catches_a_violation(tmp_path: Path):
    bad = "import discord\nfrom PIL import Image\nopen('x')\n"
    tree = ast.parse(bad)
    found = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        or (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "open")
    ]
    assert len(found) == 3
