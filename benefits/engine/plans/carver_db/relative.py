"""The §7.4(E) relative values of many commencement dates at once (the one-pass path, ``dates.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from benefits.engine.relative_value import RelativeValues

from .estimates import Estimate, form_relative_values
from .settings import BenefitSettings


def relative_values_of_dates(
    estimates: Sequence[Estimate],
    *,
    birth_date: date,
    married: bool,
    annuitant_birth: date | None,
    assumptions: Mapping[str, Any] | None,
    settings: BenefitSettings,
) -> list[RelativeValues | ValueError]:
    """``form_relative_values`` of each estimate's forms (a ``ValueError`` where the scalar path
    raises one: that date's error)."""
    out: list[RelativeValues | ValueError] = []
    for e in estimates:
        try:
            out.append(
                form_relative_values(
                    e.forms,
                    birth_date=birth_date,
                    retirement_date=e.commencement_date,
                    married=married,
                    annuitant_birth=annuitant_birth,
                    assumptions=assumptions,
                    settings=settings,
                )
            )
        except ValueError as exc:
            out.append(exc)
    return out
