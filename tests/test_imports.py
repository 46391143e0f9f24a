"""The package's modules import each other in one direction: no cycle, not even through an
import inside a function or under TYPE_CHECKING (lsp/server.py, commands.py and sync.py had one)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "server" / "iterative_retrieval"


def _graph() -> dict[str, set[str]]:
    """module → the package's modules it imports, from every import statement in it."""
    def name(p: Path) -> str:
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    mods = {name(p): p for p in PKG.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for m, p in mods.items():
        package = m if p.name == "__init__.py" else m.rsplit(".", 1)[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(p.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    deps.add(sub if sub in mods else target)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        graph[m] = {d for d in deps if d in mods and d != m}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, or None (depth-first search, colours)."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state and (found := visit(w)):
                return found
        state[v] = 2
        path.pop()
        return None

    for v in sorted(graph):
        if v not in state and (found := visit(v)):
            return found
    return None


def test_no_import_cycle_in_the_package():
    """Every module of the package, every import (lazy and typing-only ones too)."""
    graph = _graph()
    assert len(graph) > 40 and "iterative_retrieval.lsp.state" in graph
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_language_server_modules_depend_one_way():
    """server → commands, sync → state → rpc, protocol, progress; nothing imports back."""
    graph = _graph()
    lsp = "iterative_retrieval.lsp."
    assert {lsp + "commands", lsp + "sync", lsp + "state"} <= graph[lsp + "server"]
    for low in ("state", "rpc", "protocol", "progress", "documents"):
        assert not graph[lsp + low] & {lsp + "server", lsp + "commands", lsp + "sync"}, low
