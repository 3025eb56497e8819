"""No import circle anywhere, imports made inside functions included (scripts/import_graph.py).

``tests/test_architecture.py`` and import-linter (``lint-imports``) see module-level imports only; an
import inside a function is a dependency all the same. The one circle allowed is the documented
task↔service shape (docs/architecture.md): a task imports its service inside the task function.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
import_graph = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("import_graph", import_graph)  # its dataclass looks its module up
_spec.loader.exec_module(import_graph)


EDGES = import_graph.all_edges()  # read once: every test below looks at the same source


def _edge(source: str, target: str, local: bool = False):
    return import_graph.Edge(source, target, 1, local)


def test_the_graph_sees_imports_inside_functions():
    local = {(e.source, e.target) for e in EDGES if e.local}
    # benefits/imports/tasks.py runs its service inside each job body (the documented task shape)
    assert ("benefits.imports.tasks", "benefits.imports.services") in local
    assert {"taxes", "payments", "config", "accounts"} <= {e.source.split(".")[0] for e in EDGES}


def test_a_circle_through_a_function_is_found():
    edges = [_edge("a.x", "a.y"), _edge("a.y", "a.x", local=True)]
    assert import_graph.disallowed_cycles(edges) == [["a.x", "a.y"]]


def test_only_a_task_importing_its_service_inside_the_task_is_allowed():
    pair = [_edge("a.services", "a.tasks"), _edge("a.tasks", "a.services", local=True)]
    assert import_graph.disallowed_cycles(pair) == []
    at_top = [_edge("a.services", "a.tasks"), _edge("a.tasks", "a.services")]
    assert import_graph.disallowed_cycles(at_top) == [["a.services", "a.tasks"]]
    not_a_service = [_edge("a.views", "a.tasks"), _edge("a.tasks", "a.views", local=True)]
    assert import_graph.disallowed_cycles(not_a_service) == [["a.tasks", "a.views"]]


def test_no_import_circles_counting_imports_inside_functions():
    assert import_graph.disallowed_cycles(EDGES) == []


def test_benefit_election_presenters_import_no_services_or_models():
    edges = {e.target for e in EDGES if e.source == "elections.benefit_elections.presenters"}
    assert not {t for t in edges if import_graph.is_service_module(t) or t.endswith(".models")}, edges


def test_consents_call_none_of_the_areas_that_ask_for_them():
    reached = {e.target for e in EDGES if e.source.startswith("elections.consents")}
    assert not {t for t in reached if t.startswith(("elections.benefit_elections", "elections.claims"))}, (
        reached
    )
