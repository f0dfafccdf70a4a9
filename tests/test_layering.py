"""The layering of docs/ARCHITECTURE.md, enforced: who may import whom among the bot's packages.

``engine/`` imports nothing of the project (tests/engine/test_purity.py) and ``emulator/`` nothing
of the bot (tests/emulator/test_layering.py); here: the bot's modules from the bottom up, the
cogs above them, the entry points on top, and no circle anywhere. A module may import from its
own layer or lower ones. One exception, by name: a cog or a game base may refer to
``bot.app.GameNightBot`` in a type hint only (``if TYPE_CHECKING:``), as the bot that loads it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Lowest first.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "bot",  # the package itself (empty), and its groups
        "bot.ops",
        "bot.fleet",
        "bot.plurals",
        "bot.i18n",
        "bot.call_names",
        "bot.reasons",
        "bot.config",
        "bot.logs",
        "bot.fleet.shards",
        "bot.fleet.endpoints",
        "bot.voice.voices",
        "bot.storage.database_file",
        "bot.verify_link",
        "bot.acks",
        "bot.ops.metrics",
        "bot.when",
        "bot.render",
        "bot.ops.connection_guard",
        "bot.fleet.rest_proxy",
    ),
    (
        "bot.storage",
        "bot.replies",
        "bot.throttle",
        "bot.permissions",
        "bot.attachments",
        "bot.ops.backup",
        "bot.fleet.gateway_sessions",
    ),
    (
        "bot.ops.invite",
        "bot.ops.config_check",
        "bot.components",
        "bot.game_settings",
        "bot.voice",
    ),
    ("bot.games",),
    ("bot.calling", "bot.table", "bot.ops.http_server"),
    ("bot.app",),
    ("bot.fleet.process",),
    ("cogs",),
    ("bot.sandbox", "bot.ops.cli", "bot.__main__", "bot.ops.healthcheck", "bot.render.__main__"),
)
TYPE_HINT_ONLY = {"bot.app"}
PROJECT = ("bot", "cogs", "engine", "emulator")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None  # (length of the matching name, layer)
    for index, members in enumerate(LAYERS):
        for member in members:
            # The bare package ("bot") names itself only, not every module inside it.
            inside = member != "bot" and module.startswith(member + ".")
            matches = module == member or inside
            if matches and (best is None or len(member) > best[0]):
                best = (len(member), index)
    return None if best is None else best[1]


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """``(module, in_a_type_checking_block)`` for every import of a project module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hinted: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hinted |= {id(child) for child in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from bot import render`` imports the module bot.render.
            top_level = node.module in {"bot", "cogs"}
            names = [f"{node.module}.{a.name}" for a in node.names] if top_level else [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        found += [(name, id(node) in hinted) for name in names if name.split(".")[0] in PROJECT]
    return found


SOURCES = sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")])


def test_every_module_has_a_layer():
    assert [module_name(p) for p in SOURCES if layer_of(module_name(p)) is None] == []


@pytest.mark.parametrize("path", SOURCES, ids=module_name)
def test_imports_go_down(path: Path):
    here = module_name(path)
    mine = layer_of(here)
    assert mine is not None
    wrong = []
    for imported, hint_only in imports_of(path):
        top = imported.split(".")[0]
        if top == "engine":
            continue  # the pure game rules are below everything
        if top == "emulator":
            if not here.startswith("bot.sandbox"):
                wrong.append(f"{imported} (only the sandbox runs the emulator)")
            continue
        theirs = layer_of(imported)
        if hint_only and imported in TYPE_HINT_ONLY:
            continue
        if theirs is None or theirs > mine:
            wrong.append(imported)
    assert wrong == [], f"{here} imports upwards: {wrong}"


def test_no_circles():
    graph: dict[str, set[str]] = {}
    for path in SOURCES:
        here = module_name(path)
        graph[here] = {
            imported
            for imported, hint_only in imports_of(path)
            if imported.split(".")[0] in {"bot", "cogs"}
            and not (hint_only and imported in TYPE_HINT_ONLY)
            and imported != here
        }
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                raise AssertionError(" -> ".join([*trail, node, nxt]))
            if nxt in graph and state.get(nxt) is None:
                visit(nxt, [*trail, node])
        state[node] = 2

    for node in sorted(graph):
        if state.get(node) is None:
            visit(node, [])


def test_engine_has_no_circles():
    engine = sorted(ROOT.joinpath("engine").rglob("*.py"))  # sub-packages too (engine/housie/)
    graph = {
        module_name(p): {m for m, _ in imports_of(p) if m.startswith("engine.")} for p in engine
    }
    for module, deps in graph.items():
        for dep in deps:
            assert module not in graph.get(dep, set()), f"{module} <-> {dep}"
