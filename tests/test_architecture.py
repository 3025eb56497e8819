"""The layers hold (docs/architecture.md): no module-level import cycles, tasks that import their
service only when they run, one list of audit event types, and a repository that names no path
outside itself.

The import graph is read from the source with ``ast`` (nothing is imported), so a cycle is caught
even where Python's import order happens to hide it today.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("accounts", "benefits", "elections", "payments", "config")


def _modules(packages=PACKAGES) -> dict[str, Path]:
    out = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()
# The layer rules (presenters, views) cover every app, taxes included.
LAYERED = _modules((*PACKAGES, "taxes"))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_level_imports(tree: ast.Module, module: str, is_package: bool) -> set[str]:
    """Project modules imported when ``module`` is imported: module body only (try/if included,
    ``if TYPE_CHECKING`` and function bodies excluded)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".") if is_package else module.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join([*base, node.module] if node.module else base)
                else:
                    target = node.module or ""
                names.add(target)
                names.update(f"{target}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If) and not _is_type_checking(node):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(tree.body)
    edges = set()
    for name in names:
        parts = name.split(".")
        # Importing a.b.c runs a, a.b and a.b.c: each is an edge when it is one of ours, except the
        # packages that hold ``module`` itself (they are imported before it).
        for i in range(1, len(parts) + 1):
            candidate = ".".join(parts[:i])
            if candidate in MODULES and candidate != module and not module.startswith(candidate + "."):
                edges.add(candidate)
    return edges


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        graph[module] = _top_level_imports(tree, module, path.name == "__init__.py")
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def connect(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
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

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_the_graph_sees_the_layers():
    # A check of the checker: known module-level imports are edges.
    graph = import_graph()
    assert "benefits.models" in graph["benefits.audit"]
    assert "elections.claims.models" in graph["elections.models"]
    assert "benefits.services.documents" in graph["benefits.services"]
    assert "benefits.engine_adapter" in graph["benefits.presenters.dashboard"]


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_cycles():
    assert _cycles(import_graph()) == []


def _every_import(tree: ast.Module, module: str, is_package: bool) -> list[tuple[str, str, int]]:
    """(module imported, name taken from it or "", line) for every import, those inside functions too
    (those under ``if TYPE_CHECKING`` name types for annotations and are never run)."""
    found = []
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, "", node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found += [(target, alias.name, node.lineno) for alias in node.names]
    return found


def _is_value(name: str) -> bool:
    """A class or a constant (``CalculationError``, ``RELATIONSHIPS``): something that computes nothing
    when imported, unlike a function (``get_plan``, ``membership_calculate``)."""
    return name[:1].isupper()


ENGINE = "benefits.engine"
# The adapters: where ORM rows become engine inputs and engine results are read.
ADAPTERS = ("benefits.engine_adapter", "benefits.statement_inputs")
# Queries and writes through a model's manager or a queryset.
ORM_CALLS = {
    "objects", "filter", "exclude", "select_related", "prefetch_related", "order_by", "annotate",
    "aggregate", "select_for_update", "bulk_create", "save", "get_or_create", "update_or_create",
}  # fmt: skip


def _is_presenter(module: str) -> bool:
    return "presenters" in module.split(".")


def _is_view(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return last == "views" or last.startswith("views_")


def _in_engine(target: str) -> bool:
    return target == ENGINE or target.startswith(ENGINE + ".")


def _presenter_breaches(module: str) -> list[str]:
    """What takes ``module`` out of the presenter layer: a service, an engine call, an ORM query."""
    path = LAYERED[module]
    tree = ast.parse(path.read_text(), filename=str(path))
    breaches = []
    for target, name, line in _every_import(tree, module, path.name == "__init__.py"):
        full = f"{target}.{name}" if name else target
        if any(part == "services" for part in full.split(".")):
            breaches.append(f"{module}:{line} imports the service {full}")
        elif _in_engine(target) and target != f"{ENGINE}.money" and not (name and _is_value(name)):
            # The engine's money rounding is allowed (the payload's plain amounts); nothing that computes.
            breaches.append(f"{module}:{line} calls the engine ({full})")
        elif target in ADAPTERS and not (name and _is_value(name)):
            breaches.append(f"{module}:{line} calls the adapter ({full}); the view or a selector does")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ORM_CALLS:
            breaches.append(f"{module}:{node.lineno} queries or writes through the ORM (.{node.attr})")
    return breaches


PRESENTERS = sorted(m for m in LAYERED if _is_presenter(m))


@pytest.mark.parametrize("module", PRESENTERS)
def test_presenters_only_shape_data(module):
    """Presenters shape data: no services, no engine calls (directly or through an adapter), no ORM
    queries or writes, at module level or inside a function (docs/architecture.md, the layers)."""
    assert not _presenter_breaches(module)


def test_every_area_with_views_has_presenters_that_the_rule_covers():
    areas = {m.rsplit(".", 1)[0] for m in LAYERED if _is_view(m)}
    assert {"benefits", "elections.claims", "payments"} <= areas
    assert (
        "elections.claims.presenters" in PRESENTERS and "benefits.presenters.account_statements" in PRESENTERS
    )


def test_the_presenter_rule_sees_a_breach():
    # A check of the checker on the shapes it refuses.
    tree = ast.parse(
        "from benefits.engine.plans import get_plan\n"
        "def f(m):\n    from elections.claims import services\n    return m.claims.filter(x=1)\n"
    )
    imports = _every_import(tree, "x.presenters", False)
    assert ("benefits.engine.plans", "get_plan", 1) in imports and (
        "elections.claims",
        "services",
        3,
    ) in imports
    assert _is_value("CalculationError") and _is_value("RELATIONSHIPS") and not _is_value("get_plan")


@pytest.mark.parametrize("module", sorted(m for m in LAYERED if _is_view(m)))
def test_views_do_not_call_the_engine(module):
    """A view reaches the engine through the adapter, a selector or a service, never directly."""
    path = LAYERED[module]
    calls = [
        f"{target}.{name}:{line}"
        for target, name, line in _every_import(ast.parse(path.read_text()), module, False)
        if _in_engine(target) and not (name and _is_value(name))
    ]
    assert not calls


def test_selectors_do_not_import_services():
    graph = import_graph()
    for module, edges in graph.items():
        if module.endswith(".selectors"):
            assert not {e for e in edges if ".services" in e}, module


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.endswith(".tasks")))
def test_tasks_import_their_service_inside_the_task(module):
    edges = import_graph()[module]
    assert not {e for e in edges if e.rsplit(".", 1)[-1] in ("services", "views") or ".services." in e}, (
        f"{module} imports a service at module level; import it inside the task function"
    )


def test_every_tasks_module_is_registered_with_celery():
    from config.celery import app

    app.loader.import_default_modules()
    for module in (m for m in MODULES if m.endswith(".tasks")):
        tree = ast.parse(MODULES[module].read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "name" and isinstance(node.value, ast.Constant):
                assert node.value.value in app.tasks, f"{module}: task {node.value.value} is not discovered"


def test_background_work_is_sent_only_through_the_job_helper():
    """Every background job has its row (benefits/jobs): a task sent any other way (``.delay``,
    ``apply_async``, ``send_task``) would have no row, so nothing would re-send it, put it back when its
    worker died or show its failure. Only ``job_send`` talks to the broker."""
    allowed = {"benefits.jobs.services"}
    offenders = []
    for module, path in MODULES.items():
        if module in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("delay", "apply_async", "send_task", "signature")
            ):
                offenders.append(f"{module}:{node.lineno} .{node.func.attr}()")
    assert not offenders, offenders


# ------------------------------------------------------------------------------------ audit events


def test_audit_event_types_keep_their_stored_values():
    from benefits.audit import AuditEventType

    # Values already stored in audit logs before the enumeration existed: they never change.
    stored = {
        "identity.linked", "identity.link_failed", "plan.reading_changed", "plan.settings_confirmed",
        "participant.viewed_by_staff", "modeler.run_requested", "quote.saved", "document.requested",
        "document.rendered", "document.failed", "claim.filed", "claim.start_review",
        "claim.start_appeal_review", "claim.extended", "claim.information_requested",
        "claim.information_answered", "claim.information_not_answered", "claim.documents_requested",
        "claim.documents_added", "claim.vote_recorded", "claim.approve", "claim.deny", "claim.appealed",
        "claim.appealed_deemed_denial", "claim.approve_on_review", "claim.deny_on_review",
        "claim.handed_to_election", "claim.document_viewed", "claim.notice_viewed",
    }  # fmt: skip
    assert stored <= set(AuditEventType.values)
    assert all(re.fullmatch(r"[a-z_]+\.[a-z_]+", v) for v in AuditEventType.values)
    # A value fits AuditEvent.event_type (max_length 60); the list stays a readable size (it grew with
    # the payments, taxes and sign-in events: one list, grouped by area in benefits/audit.py).
    assert len(AuditEventType.values) <= 140 and max(len(v) for v in AuditEventType.values) <= 60


@pytest.mark.django_db
def test_audit_record_refuses_a_type_outside_the_list():
    from benefits.audit import AuditEventType, audit_record
    from benefits.models import AuditEvent

    with pytest.raises(ValueError):
        audit_record(event_type="plan.renamed", summary="not a known kind of write")
    event = audit_record(event_type=AuditEventType.QUOTE_SAVED, summary="known")
    assert AuditEvent.objects.get(pk=event.pk).event_type == "quote.saved"


def _calls(tree: ast.AST, name: str):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id == name) or (
                isinstance(func, ast.Attribute) and func.attr == name
            ):
                yield node


def _is_member(value: ast.expr) -> bool:
    return (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and value.value.id == "AuditEventType"
    )


def test_every_audit_record_names_a_member_of_the_list():
    """``audit_record(event_type=AuditEventType.X)`` everywhere (one computed claim type aside, which
    is checked below), so the list is the whole vocabulary. A helper may pass on its own
    ``event_type`` parameter when that parameter's default is a member and every call of the helper
    that names one names a member."""
    helpers: set[str] = set()
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text())
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            params = function.args.kwonlyargs
            defaults = dict(zip((a.arg for a in params), function.args.kw_defaults, strict=True))
            for call in _calls(function, "audit_record"):
                kw = {k.arg: k.value for k in call.keywords}
                value = kw.get("event_type")
                assert value is not None, f"{module}:{call.lineno}"
                if module == "elections.claims.workflow" or _is_member(value):
                    continue
                assert isinstance(value, ast.Name) and _is_member(defaults.get(value.id)), (
                    f"{module}:{call.lineno} passes event_type that is not an AuditEventType member"
                )
                helpers.add(function.name)
    for module, path in MODULES.items():
        for helper in helpers:
            for call in _calls(ast.parse(path.read_text()), helper):
                given = next((k.value for k in call.keywords if k.arg == "event_type"), None)
                assert given is None or _is_member(given), f"{module}:{call.lineno} {helper}(event_type=...)"


def _strings(expr: ast.expr, function: ast.FunctionDef) -> set[str]:
    """The strings an expression can evaluate to: constants, both arms of ``x if c else y``, the values
    of a dict it subscripts, and for a variable every string assigned to it in ``function``."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return _strings(expr.body, function) | _strings(expr.orelse, function)
    if isinstance(expr, ast.Subscript):
        return _strings(expr.value, function)
    if isinstance(expr, ast.Dict):
        return set().union(*(_strings(v, function) for v in expr.values))
    if isinstance(expr, ast.Name):
        out: set[str] = set()
        for assign in (n for n in ast.walk(function) if isinstance(n, ast.Assign)):
            if any(isinstance(t, ast.Name) and t.id == expr.id for t in assign.targets):
                out |= _strings(assign.value, function)
        return out
    raise AssertionError(f"line {expr.lineno}: cannot tell which actions this expression gives")


def test_every_claim_action_is_a_member_of_the_list():
    """``record_event(action=...)`` writes ``claim.<action>``: every action it can be given is listed."""
    from benefits.audit import AuditEventType

    actions: set[str] = set()
    for module in ("elections.claims.services", "elections.claims.decisions"):
        tree = ast.parse(MODULES[module].read_text())
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            for call in _calls(function, "record_event"):
                action = next((k.value for k in call.keywords if k.arg == "action"), None)
                assert action is not None
                actions |= _strings(action, function)
    assert {"filed", "approve", "deny_on_review", "start_appeal_review"} <= actions
    missing = {a for a in actions if f"claim.{a}" not in AuditEventType.values}
    assert not missing


# ------------------------------------------------------------------------------------ self-contained


# Assembled from parts so that this file does not itself spell the paths it refuses.
_SHARED = "shared"
MACHINE_PATH = re.compile(
    "|".join(
        (
            "/" + "work" + "/",
            r"\.\./" + _SHARED,
            r"\b" + _SHARED + r"/(plans|contracts|data|reference)\b",
            "/" + "home" + r"/\w",
            "/" + "Users" + r"/\w",
        )
    )
)


def test_no_tracked_file_names_a_path_outside_the_repository():
    try:
        files = subprocess.run(  # noqa: S603
            ["git", "ls-files", "-z"],  # noqa: S607
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    offenders = []
    for name in filter(None, (f.decode() for f in files)):
        path = ROOT / name
        if path.suffix in {".png", ".pdf", ".woff", ".woff2", ".ico", ".svg"} or not path.is_file():
            continue
        if name.startswith("static/"):
            continue  # vendored USWDS assets
        text = path.read_text(errors="ignore")
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                offenders.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not offenders, "\n".join(offenders)


# A plan's section number ("§8.4(f)", "Section 8.4(b)") in the web apps or the generic templates is a
# plan's rule or citation outside its package: the plan package (and docs/plan-notes/) cites its sections
# and the web app says the rule generically ("the plan's loan section"). Law stays: Code sections have no
# dot after one or two digits, and regulations (Treas. Reg. §1.72(p)-1, §1.401(a)-21, 29 CFR §2560.503-1,
# §54.4980F-1) are removed before the search. benefits/demo/ is left out: it is the demo plans' own
# data (`make demo`: the five plans and their people), written against their texts the way a plan
# package is.
PLAN_SECTION = re.compile(r"(§|Section |section )\s?\d{1,2}\.\d")
LAW_SECTION = re.compile(r"Treas\. Reg\. §\s?1\.\d+|§\s?1\.\d{3}|§\s?\d{2}\.\d{3}")
WEB_APPS = ("accounts", "benefits", "elections", "payments", "taxes", "config", "templates")
NOT_WEB = ("benefits/engine/", "benefits/demo/")


def _plan_sections(line: str) -> list[str]:
    return [m.group(0) for m in PLAN_SECTION.finditer(LAW_SECTION.sub("", line))]


def test_the_web_apps_name_no_plan_section():
    offenders = []
    for top in WEB_APPS:
        for path in sorted((ROOT / top).rglob("*")):
            name = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".py", ".html") or name.startswith(NOT_WEB):
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if _plan_sections(line):
                    offenders.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not offenders, "\n".join(offenders)


def test_the_plan_section_search_tells_a_plan_from_the_law():
    assert _plan_sections("counted as outstanding (§8.4(f))") == ["§8.4"]
    assert _plan_sections('"in the order of priority established under Section 8.4(b)"')
    assert _plan_sections("quaker-cash-balance §1.2(e)")
    for law in (
        "Treas. Reg. §1.72(p)-1 Q&A-10",
        "Treas. Reg. §1.401(a)-21",
        "§1.417(e)-1(b)(3)(ii)(D)",
        "Code §72(p)(2)(A); Code §402(c)(3)(C)",
        "29 CFR §2560.503-1(l)",
        "§54.4980F-1",
    ):
        assert not _plan_sections(law), law
