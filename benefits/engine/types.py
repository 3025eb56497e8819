"""Engine inputs shared by every plan: a participant's dated history, as the contract defines it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import date
from decimal import Decimal
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class EmploymentPeriod:
    start: date
    end: date | None  # None while employed


@dataclass(frozen=True)
class Participant:
    """One participant as the engine sees them (see docs/engine-cli.md)."""

    id: str
    birth_date: date
    hire_date: date
    termination_date: date | None = None
    # When given, replaces hire/termination: each span of employment, in order.
    employment_periods: tuple[EmploymentPeriod, ...] = ()
    marital_status: str = "single"  # "single" | "married"
    spouse_birth_date: date | None = None
    # Hours of Service per plan computation period, keyed by the year the period begins.
    hours: MappingProxyType[int, int] = field(default_factory=lambda: MappingProxyType({}))
    # The plan's Compensation/Earnings per calendar year.
    compensation: MappingProxyType[int, Decimal] = field(default_factory=lambda: MappingProxyType({}))
    commencement_dates: tuple[date, ...] = ()
    death_date: date | None = None
    disability_date: date | None = None
    plan_data: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def periods(self) -> tuple[EmploymentPeriod, ...]:
        """Employment spans: the explicit list, or the one span hire → termination."""
        if self.employment_periods:
            return self.employment_periods
        return (EmploymentPeriod(self.hire_date, self.termination_date),)

    @property
    def is_married(self) -> bool:
        return self.marital_status == "married"


_PARTICIPANT_FIELDS = [f.name for f in fields(Participant)]


def participant_of(**values: Any) -> Participant:
    """``Participant(**values)`` without the frozen init's ``object.__setattr__`` for each field (a
    census makes one a line): every field given, in order, goes straight into the instance (there is
    no ``__post_init__``); anything else takes the init. Held equal by
    tests/engine/core/test_participant_of.py."""
    if list(values) != _PARTICIPANT_FIELDS:
        return Participant(**values)
    new = object.__new__(Participant)
    new.__dict__.update(values)
    return new
