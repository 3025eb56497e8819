"""Changes to the Before-Tax Contribution rate (§3.1, §3.3) through the plan protocol's ``deferrals``.

§3.1: whole percentages of Compensation from 1% to 15% (0 stops deferrals). §3.3: a change is filed at
least 10 days before the first day of the payroll period it applies to, and at most one change a
calendar quarter; stopping is allowed at any time (the ``stop_deferrals_outside_quarterly_limit``
reading, GAP-23). The plan has no Roth deferrals and no catch-up contributions (GAP-4), so the year's
dollar limit is the §402(g) limit alone.

Which payroll period a change reaches: the plan's text names payroll periods without a calendar, so
this package reads a change as taking effect with the first payroll of a calendar month (the demo
payroll is monthly); the 10-day lead is counted to that month's first day.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from benefits.engine.dates import day_after, first_of_month_on_or_after, quarter_end, quarter_of
from benefits.engine.deferral_limits import DeferralLimit, elective_deferral_limit
from benefits.engine.money import HUNDRED, ZERO, to_decimal, to_money
from benefits.engine.parameters import ParameterNotInForce, parameter

from ..base import DeferralKind
from .contributions import (
    MAX_DEFERRAL_PERCENT,
    MIN_DEFERRAL_PERCENT,
    ElectionChange,
    check_election_change,
    validate_deferral_percent,
)
from .limits import PLAN_402G_LIMITS, compensation_limit
from .settings import DEFAULT_SETTINGS, BenefitSettings

LEAD_DAYS = 10  # §3.3: "at least ten (10) days prior to the first day of the payroll period"
BEFORE_TAX = DeferralKind("before_tax", "Before-tax contributions", "§3.1")


@dataclass(frozen=True)
class DeferralEstimate:
    """What a rate would defer in a year: the rate times the year's pay the plan counts, stopped at the
    year's dollar limit."""

    amount: Decimal
    pay_counted: Decimal
    limit: DeferralLimit
    stops_at_limit: bool


def _settings(settings: Any) -> BenefitSettings:
    return settings if isinstance(settings, BenefitSettings) else DEFAULT_SETTINGS


def _counts(percent: Decimal, settings: BenefitSettings) -> bool:
    """Whether a change uses the quarter's one change (stopping does not, under GAP-23's reading)."""
    return not (settings.stop_deferrals_outside_quarterly_limit and to_decimal(percent) == ZERO)


def _first_payroll_after_lead(filed_on: date) -> date:
    return first_of_month_on_or_after(filed_on + timedelta(days=LEAD_DAYS))


class CarverDeferrals:
    kinds = (BEFORE_TAX,)
    min_percent = MIN_DEFERRAL_PERCENT
    max_percent = MAX_DEFERRAL_PERCENT
    rate_section = "§3.1"
    change_rule = (
        "You may change your rate once in each calendar quarter, and stop your contributions at any "
        "time. A change takes effect with the first payroll of the first month that begins at least "
        "10 days after you make it (§3.3). Rates are whole percentages of your pay from 1% to 15% (§3.1)."
    )

    def check_rate(self, percent: Decimal) -> tuple[str, ...]:
        try:
            validate_deferral_percent(percent)
        except ValueError as exc:
            return (str(exc),)
        return ()

    def quarter_used(
        self, filed_on: date, earlier: Sequence[tuple[date, Decimal]], settings: Any = None
    ) -> bool:
        s = _settings(settings)
        return any(_counts(p, s) and quarter_of(f) == quarter_of(filed_on) for f, p in earlier)

    def next_effective(
        self, filed_on: date, earlier: Sequence[tuple[date, Decimal]], percent: Decimal, settings: Any = None
    ) -> date:
        """The first payroll a change to ``percent`` may reach: made today, or (when this quarter's
        change is used) on the first day of the next quarter."""
        s = _settings(settings)
        if _counts(percent, s) and self.quarter_used(filed_on, earlier, s):
            filed_on = day_after(quarter_end(filed_on))  # the next quarter's first day
        return _first_payroll_after_lead(filed_on)

    def check_change(
        self,
        filed_on: date,
        effective_on: date,
        percent: Decimal,
        earlier: Sequence[tuple[date, Decimal]],
        settings: Any = None,
    ) -> tuple[str, ...]:
        s = _settings(settings)
        change = ElectionChange(
            filed=filed_on, effective=effective_on, percent=to_decimal(percent), previous_percent=ZERO
        )
        past = [
            ElectionChange(filed=f, effective=f, percent=to_decimal(p), previous_percent=ZERO)
            for f, p in earlier
        ]
        reasons = list(check_election_change(change, past, settings=s).reasons)
        if effective_on.day != 1:
            reasons.append("§3.3: a change takes effect with the first payroll of a month")
        return tuple(reasons)

    def annual_limit(self, year: int, birth_date: date) -> DeferralLimit:
        return elective_deferral_limit(
            year,
            birth_date,
            catch_up_offered=False,  # GAP-4: the plan provides no catch-up contributions
            plan_base=PLAN_402G_LIMITS.get(year),
            why_not="This plan does not offer catch-up contributions for people 50 and over.",
        )

    def estimate(
        self, percent: Decimal, annual_pay: Decimal, year: int, birth_date: date
    ) -> DeferralEstimate:
        """§3.1 rate × Compensation (up to the §401(a)(17) limit, §1.15), rounded to the cent and
        stopped at the year's §402(g) limit (§3.2(b), (d))."""
        limit = self.annual_limit(year, birth_date)
        pay = to_money(annual_pay)
        try:
            cap = compensation_limit(year)
        except ParameterNotInForce:  # a year not published yet: the latest published limit, projected
            cap = parameter("irs_401a17_compensation_limit").latest_published(date(year, 1, 1)).value
        if cap is not None:
            pay = min(pay, to_money(cap))
        raw = to_money(to_decimal(percent) / HUNDRED * pay)
        return DeferralEstimate(min(raw, limit.total), pay, limit, raw > limit.total)


DEFERRALS = CarverDeferrals()
