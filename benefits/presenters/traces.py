"""The engine's trace behind any figure of a contract result, ready to show in plain words.

Plans keep traces in one of two shapes (engine-cli.md leaves it to the plan): a ``traces`` map keyed
by the figure's dotted path (Carver plans), or a ``trace`` list beside the figure (Quaker). A step
whose result names another path ("as traced under accrued_benefit.monthly_at_nrd") is expanded.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_INDEX = re.compile(r"^(\w+)\[(\d+)\]$")


def _walk(result: dict, path: str):
    node = result
    for part in path.split("."):
        m = _INDEX.match(part)
        try:
            node = node[m.group(1)][int(m.group(2))] if m else node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def trace_steps(result: dict, path: str, *, _depth: int = 0) -> list[dict]:
    """The steps behind ``path`` in ``result`` (empty when the engine gave none)."""
    steps = (result.get("traces") or {}).get(path)
    if steps is None:
        node = _walk(result, path)
        steps = node.get("trace") if isinstance(node, dict) else None
    if steps is None and "." in path:
        # A form's amount is traced on the form (e.g. "estimates[0].forms.lump_sum" → its trace).
        parent = path.rsplit(".", 1)[0]
        node = _walk(result, parent)
        steps = node.get("trace") if isinstance(node, dict) else None
    out: list[dict] = []
    for step in steps or []:
        target = step.get("result")
        if (
            _depth < 2
            and isinstance(target, str)
            and target != path
            and "." in target
            and target in (result.get("traces") or {})
        ):
            out.extend(trace_steps(result, target, _depth=_depth + 1))
            continue
        out.append(step)
    return out


def plain_value(value: object) -> str:
    """A trace value for people: long decimals shortened (the engine keeps full precision)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(plain_value(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {plain_value(v)}" for k, v in value.items())
    if isinstance(value, str) and "." in value:
        try:
            d = Decimal(value)
        except InvalidOperation:
            return value
        if d.as_tuple().exponent < -6:
            return f"{d:.6f}".rstrip("0").rstrip(".")
    return str(value)


def presented(steps: list[dict]) -> list[dict]:
    """Steps with their inputs and result as display strings."""
    return [
        {
            "rule": s.get("rule", ""),
            "section": s.get("section", ""),
            "inputs": [(k.replace("_", " "), plain_value(v)) for k, v in (s.get("inputs") or {}).items()],
            "result": plain_value(s.get("result")),
        }
        for s in steps
    ]
