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

from benefits.engine.parameters import ParameterRead, current_reads

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


def read_step(read: ParameterRead) -> Step:
    """The trace step for one regulatory value used: what, for which date, the value and its source."""
    return Step(
        read.words(),
        read.section,
        (
            ("parameter", read.name),
            ("for_date", read.on.isoformat()),
            ("in_force_from", read.entry.effective.isoformat()),
            ("source", read.entry.source),
            ("estimate", read.projected),
        ),
        _plain(read.entry.value),
    )


class TraceBuilder:
    """A mutable helper for long calculations; ``build()`` freezes it into a ``Trace``.

    Every regulatory value read (a parameter or a mortality table, ``parameters.recorded_reads``)
    between the builder's creation and ``build()`` is added to the trace automatically, once.
    """

    def __init__(self) -> None:
        self._steps: list[Step] = []
        reads = current_reads()
        self._reads_from = len(reads) if reads is not None else None

    def step(self, rule: str, *, section: str = "", result: T = None, **inputs: object) -> T:  # type: ignore[assignment]
        self._steps.append(Step(rule, section, tuple(inputs.items()), result))
        return result

    def include(self, trace: Trace) -> None:
        self._steps.extend(trace.steps)

    def build(self) -> Trace:
        reads = current_reads()
        if reads is not None and self._reads_from is not None:
            for read in reads[self._reads_from :]:
                step = read_step(read)
                if step not in self._steps:
                    self._steps.append(step)
            self._reads_from = len(reads)
        return Trace(tuple(self._steps))
