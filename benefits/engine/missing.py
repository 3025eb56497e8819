"""Partial results: a missing input blocks only the figures that need it (issue 12 item 5).

A participant's figures are computed wherever their inputs exist. When one figure needs an input that
was not given (a Treasury yield, the segment rates of a month, a plan setting that only affects
benefits) or a regulatory value the engine does not have for that date (a limit not published, a
mortality table not confirmed), that figure is left out and the result lists it under ``missing``::

    "missing": [{"field": "/assumptions/segment_rates/2024-01",
                 "message": "the §417(e)(3) segment rates for 2024-01 are needed and were not supplied",
                 "blocks": ["/estimates/0/cash_out", "/estimates/0/relative_value_basis"]}]

An input whose absence only changes the basis of a figure (the law's market rates for a date, when
the figure can stand on the plan's own rate instead) lists that figure under ``fallback`` (and
nothing under ``blocks``): the figure is shown, on the basis the message names.

``field`` is the JSON pointer of the missing request input; a regulatory value the engine lacks is
``/engine/parameters/<name>`` or ``/engine/mortality/417e`` (not a request field: nothing the caller
can supply fixes it). ``blocks`` are JSON pointers into the participant's result of the figures left
out. ``error`` stays for a participant whose own data is malformed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from benefits.engine.mortality import TableNotAvailable
from benefits.engine.parameters import ParameterNotInForce

T = TypeVar("T")


class MissingInput(LookupError):
    """An input a figure needs was not supplied; ``field`` is its JSON pointer in the request."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Missing:
    field: str
    message: str
    blocks: tuple[str, ...]
    fallback: tuple[str, ...] = ()  # figures shown on a fallback basis because this input is absent

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "message": self.message, "blocks": list(self.blocks)}
        if self.fallback:
            out["fallback"] = list(self.fallback)
        return out


def _is_missing_type(exc: BaseException) -> bool:
    from benefits.engine.minimum_present_value import BasisNotAvailable, MissingMarketData

    if isinstance(exc, MissingInput | MissingMarketData | ParameterNotInForce | TableNotAvailable):
        return True
    if isinstance(exc, BasisNotAvailable):
        return True
    # A plan's own market-data error (e.g. a rate keyed by month) carries the input's pointer.
    return type(exc).__name__ == "MarketDataError" and isinstance(getattr(exc, "field", None), str)


def describe(exc: BaseException) -> tuple[str, str] | None:
    """(field, message) when ``exc`` means "an input or regulatory value is missing", else None."""
    if not _is_missing_type(exc):
        return None
    if isinstance(exc, ParameterNotInForce):
        return f"/engine/parameters/{exc.name}", str(exc)
    pointer = getattr(exc, "field", None)
    if isinstance(pointer, str) and pointer:
        return pointer, str(getattr(exc, "message", "") or exc)
    return "/engine/mortality/417e", str(exc)


@dataclass
class MissingLog:
    """Collects what is missing while a participant's figures are computed."""

    items: list[Missing] = field(default_factory=list)

    def block(self, exc: BaseException, *paths: str) -> None:
        """Record that ``exc`` (a missing-type exception) blocks the figures at ``paths``."""
        found = describe(exc)
        if found is None:
            raise exc
        self.items.append(Missing(found[0], found[1], tuple(paths)))

    def attempt(self, paths: str | Iterable[str], compute: Callable[[], T]) -> T | None:
        """``compute()``, or None with the missing input recorded against ``paths``."""
        try:
            return compute()
        except Exception as exc:
            if describe(exc) is None:
                raise
            self.block(exc, *([paths] if isinstance(paths, str) else list(paths)))
            return None

    def as_json(self) -> list[dict[str, Any]]:
        return merge(self.items)


# ``CoreResult.extra`` key: a ``MissingInput`` the service core found that holds back every benefit
# figure (a plan reading still to be confirmed); the result keeps vesting, service and dates.
BENEFITS_BLOCKED = "benefits_blocked"

# The benefit figures each plan's contract result carries beyond vesting and dates (engine-cli.md):
# what a missing input blocks when it stops the plan's figures as a whole.
BENEFIT_KEYS = {
    "carver-db": ("accrued_benefit", "earliest_commencement_date", "estimates", "cash_out"),
    "quaker-cash-balance": ("account", "accrued_benefit", "estimates", "cash_out"),
    "carver-401k": ("account", "contributions", "statement", "loan", "hardship", "withdrawal", "cash_out"),
    "fairport-esop": ("account", "statement", "diversification", "cash_out"),
    "carver-esop": ("account", "cash_out"),
}


def whole_plan_blocked(plan_key: str, exc: BaseException) -> dict[str, Any] | None:
    """The ``missing`` entry when a missing input stops every benefit figure of a plan (the result
    keeps vesting and dates), or None when ``exc`` is not a missing input."""
    found = describe(exc)
    if found is None:
        return None
    blocks = [f"/{k}" for k in BENEFIT_KEYS.get(plan_key, ("benefits",))]
    return {"field": found[0], "message": found[1], "blocks": blocks}


def merge(items: Iterable[Missing]) -> list[dict[str, Any]]:
    """One entry per missing input (``field``, with the first message), its blocked figures (and the
    figures shown on a fallback basis) in order, without repeats."""
    merged: dict[str, tuple[str, list[str], list[str]]] = {}
    for m in items:
        _, blocks, fallback = merged.setdefault(m.field, (m.message, [], []))
        blocks.extend(b for b in m.blocks if b not in blocks)
        fallback.extend(b for b in m.fallback if b not in fallback)
    out: list[dict[str, Any]] = []
    for f, (msg, b, fb) in merged.items():
        entry: dict[str, Any] = {"field": f, "message": msg, "blocks": b}
        if fb:
            entry["fallback"] = fb
        out.append(entry)
    return out


__all__ = ["BENEFITS_BLOCKED", "Missing", "MissingInput", "MissingLog", "describe", "merge"]
