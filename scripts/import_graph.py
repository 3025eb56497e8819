"""Every import between the project's modules, those made inside functions included, and the circles
among them.

import-linter (``lint-imports``, contracts in pyproject.toml) sees module-level imports only; an
import inside a function is still a dependency, and a circle hidden inside functions is still a
circle. This reads the source with ``ast`` (nothing is imported) and finds every strongly connected
component of more than one module. ``tests/test_import_cycles.py`` fails on any of them except the
one documented shape (docs/architecture.md): a background task (``*.tasks``, an area's ``*.jobs`` or
``benefits.jobs.base``, the task base class) imports its service inside the task function, and the service enqueues that
task. A circle is allowed only when taking those task-to-service edges out leaves no circle.

    python scripts/import_graph.py            # the circles, with the import lines that make them
    python scripts/import_graph.py --local    # the imports made inside functions, and whether each
                                              # could move to the top of its module without a circle
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("accounts", "benefits", "elections", "payments", "taxes", "config")

TASK_MODULES = ("benefits.jobs.base",)  # besides every ``*.tasks`` and ``*.jobs`` module


def is_task_module(module: str) -> bool:
    return module.endswith((".tasks", ".jobs")) or module in TASK_MODULES


SERVICE_MODULES = ("benefits.mail",)  # the mail service, which enqueues ``mail.send``


def is_service_module(module: str) -> bool:
    return module.endswith(".services") or ".services." in module or module in SERVICE_MODULES


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    local: bool  # made inside a function (or a class body's method), not when the module is imported


def modules(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    else:
        target = node.module or ""
    return {target} | {f"{target}.{alias.name}" for alias in node.names}


def edges_of(module: str, path: Path, known: dict[str, Path]) -> list[Edge]:
    """Every project module ``module`` imports, at any depth of its source. Imports under ``if
    TYPE_CHECKING`` are left out: they never run."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Edge] = []

    def visit(node: ast.AST, local: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child, local)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            for name in _imported_names(node, module, is_package):
                parts = name.split(".")
                # Importing a.b.c runs a, a.b and a.b.c: each is an edge when it is one of ours,
                # except the packages that hold ``module`` itself (imported before it).
                for i in range(1, len(parts) + 1):
                    candidate = ".".join(parts[:i])
                    if candidate in known and candidate != module and not module.startswith(candidate + "."):
                        found.append(Edge(module, candidate, node.lineno, local))
            return
        inner = local or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, False)
    return found


def all_edges(root: Path = ROOT) -> list[Edge]:
    known = modules(root)
    out: list[Edge] = []
    for module, path in known.items():
        out.extend(edges_of(module, path, known))
    return out


def graph(edges: list[Edge], *, local: bool = True) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for e in edges:
        g.setdefault(e.source, set())
        g.setdefault(e.target, set())
        if local or not e.local:
            g[e.source].add(e.target)
    return g


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(g.get(w, ())))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def task_service_edge(e: Edge) -> bool:
    """The documented shape: a task imports its service inside the task function."""
    return e.local and is_task_module(e.source) and is_service_module(e.target)


def disallowed_cycles(edges: list[Edge]) -> list[list[str]]:
    """The circles left once every task-to-service import inside a task function is taken out."""
    return cycles(graph([e for e in edges if not task_service_edge(e)]))


def _report_cycles(edges: list[Edge]) -> int:
    found = cycles(graph(edges))
    bad = disallowed_cycles(edges)
    for component in found:
        members = set(component)
        allowed = not any(members & set(c) for c in bad)
        print(f"circle of {len(component)} modules" + (" (allowed: task <-> service)" if allowed else ""))
        for e in sorted(set(edges), key=lambda e: (e.source, e.line, e.target)):
            if e.source in members and e.target in members:
                where = "in a function" if e.local else "module level"
                print(f"  {e.source}:{e.line} -> {e.target}  ({where})")
    print(f"{len(found)} circle(s); {len(bad)} not allowed")
    return 1 if bad else 0


def _report_local(edges: list[Edge]) -> int:
    """Each import made inside a function, and whether moving it to the module top would close a
    circle (only those that would need to stay local)."""
    top = graph(edges, local=False)
    local = sorted({(e.source, e.target, e.line) for e in edges if e.local})
    needed = 0
    for source, target, line in local:
        trial = {k: set(v) for k, v in top.items()}
        trial[source].add(target)
        closes = any(source in c and target in c for c in cycles(trial))
        needed += closes
        print(f"{source}:{line} -> {target}{'  (would close a circle)' if closes else ''}")
    print(f"{len(local)} imports inside functions; {needed} would close a circle at module level")
    return 0


if __name__ == "__main__":
    edges = all_edges()
    sys.exit(_report_local(edges) if "--local" in sys.argv else _report_cycles(edges))
