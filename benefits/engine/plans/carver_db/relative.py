"""The §7.4(E) relative values of many commencement dates at once (the one-pass path, ``dates.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from benefits.engine.relative_value import OptionalForm, RelativeValues
from benefits.engine.relative_value import relative_values_of_dates as values_of_dates

from .estimates import Estimate, optional_forms, relative_value_rules
from .forms import ss_commencement_date
from .settings import BenefitSettings


def relative_values_of_dates(
    estimates: Sequence[Estimate],
    *,
    birth_date: date,
    married: bool,
    annuitant_birth: date | None,
    assumptions: Mapping[str, Any] | None,
    settings: BenefitSettings,
) -> list[RelativeValues | Exception]:
    """``form_relative_values`` of each estimate's forms, every date priced together (an exception
    where the scalar path raises one)."""
    ss_start = ss_commencement_date(birth_date, settings)

    def forms_of(e: Estimate) -> Callable[[], list[OptionalForm]]:
        return lambda: optional_forms(
            e.forms,
            birth_date=birth_date,
            retirement_date=e.commencement_date,
            annuitant_birth=annuitant_birth,
            settings=settings,
            ss_start=ss_start,
        )

    return values_of_dates(
        [(e.commencement_date, forms_of(e)) for e in estimates],
        birth_date=birth_date,
        married=married,
        assumptions=assumptions,
        rules=relative_value_rules(settings),
        single_sum=None,
    )
