"""The steps behind a number: inputs used, the rule applied with its plan section, intermediate values.

A ``Trace`` is an immutable list of ``Step``s. Engine functions build one as they go and attach it to
their result, so the web app, the PDFs and the command line can show a participant or an auditor how
a number was reached, in plain words with the plan section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar

T = TypeVar("T")


def _plain(value: object) -> object:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Step:
    rule: str  # what was done, in plain words
    section: str = ""  # plan section or regulation, e.g. "Carver DB §3.1(A)" or "IRC §415(b)"
    inputs: tuple[tuple[str, object], ...] = ()
    result: object = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "section": self.section,
            "inputs": {k: _plain(v) for k, v in self.inputs},
            "result": _plain(self.result),
        }


@dataclass(frozen=True)
class Trace:
    steps: tuple[Step, ...] = field(default_factory=tuple)

    def add(self, rule: str, *, section: str = "", result: object = None, **inputs: object) -> Trace:
        """Return a new trace with one more step (traces are immutable)."""
        return Trace(self.steps + (Step(rule, section, tuple(inputs.items()), result),))

    def extend(self, other: Trace) -> Trace:
        return Trace(self.steps + other.steps)

    def as_list(self) -> list[dict[str, Any]]:
        return [s.as_dict() for s in self.steps]


class TraceBuilder:
    """A mutable helper for long calculations; ``build()`` freezes it into a ``Trace``."""

    def __init__(self) -> None:
        self._steps: list[Step] = []

    def step(self, rule: str, *, section: str = "", result: T = None, **inputs: object) -> T:  # type: ignore[assignment]
        self._steps.append(Step(rule, section, tuple(inputs.items()), result))
        return result

    def include(self, trace: Trace) -> None:
        self._steps.extend(trace.steps)

    def build(self) -> Trace:
        return Trace(tuple(self._steps))
