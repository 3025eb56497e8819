"""The engine is pure Python: every import under benefits/engine is the standard library, numpy,
pymort or the engine itself (the developers' guide). This allow-list is the one engine-purity check:
it names what may be imported, so a new web-app module or package is caught without being listed."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "benefits" / "engine"
ALLOWED_THIRD_PARTY = {"numpy", "pymort"}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def test_engine_imports_only_the_standard_library_numpy_pymort_and_itself():
    bad = []
    for path in sorted(ENGINE.rglob("*.py")):
        for line, name in _imports(path):
            top = name.split(".")[0]
            if name == "benefits.engine" or name.startswith("benefits.engine."):
                continue
            if top in sys.stdlib_module_names or top in ALLOWED_THIRD_PARTY:
                continue
            bad.append(f"{path.relative_to(ENGINE.parents[1])}:{line} imports {name}")
    assert bad == []


def test_the_check_sees_every_engine_module():
    assert len(list(ENGINE.rglob("*.py"))) > 50  # the walk really reads the engine
