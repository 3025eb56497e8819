"""In-service withdrawals at age 59½ (§7.3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from benefits.engine.dates import add_months, add_years
from benefits.engine.money import ZERO
from benefits.engine.trace import Trace, TraceBuilder, money, recording

from .accounts import AccountVesting
from .draws import draw_in_order
from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import (
    BEFORE_TAX,
    DISCRETIONARY,
    MATCHING_2002,
    MATCHING_PRE2002,
    NONELECTIVE,
    ROLLOVER,
    SPECIAL,
    TOP_HEAVY,
)


@dataclass(frozen=True)
class Withdrawal59:
    eligible: bool
    eligible_from: date
    reasons: tuple[str, ...]
    available: Mapping[str, Decimal]  # §7.3(a) order
    spousal_consent_required: bool
    trace: Trace

    @property
    def maximum(self) -> Decimal:
        return sum(self.available.values(), ZERO) if self.eligible else ZERO


def age_59_half(birth_date: date) -> date:
    """A3 (§7.3): the date six calendar months after the 59th birthday."""
    return add_months(add_years(birth_date, 59), 6)


def withdrawal_at_59_half(
    vesting: AccountVesting,
    *,
    birth_date: date,
    on: date,
    married: bool,
    notice_given: date | None = None,
    prior_withdrawal_dates: Sequence[date] = (),
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Withdrawal59:
    """§7.3(a): from age 59½ (A3), once a Plan Year, on 10 days' written notice, with spousal consent:
    all or part of the vested balance, Before-Tax first, then Rollover, vested Matching, vested
    Discretionary and Nonelective (vested by default, GAP-8)."""
    tb = TraceBuilder()
    traced = recording()  # without a trace, no step's words (a census asks for every participant)
    start = age_59_half(birth_date)
    if traced:
        tb.step(
            "Age 59½: six calendar months after the 59th birthday",
            section="§7.3(a) (A3)",
            result=start,
            birth_date=birth_date,
        )
    reasons: list[str] = []
    if on < start:
        reasons.append("§7.3(a): the Participant has not attained age 59½")
    if any(d.year == on.year for d in prior_withdrawal_dates):
        reasons.append("§7.3(a): only one withdrawal in a Plan Year")
    if notice_given is not None and on - notice_given < timedelta(days=10):
        reasons.append("§7.3(a): ten days' prior written notice to the Committee is required")
    ne = (
        vesting.vested(NONELECTIVE)
        if settings.withdrawal_nonelective_vested_only
        else vesting.balance_of(NONELECTIVE)
    )
    avail = {
        BEFORE_TAX: vesting.balance_of(BEFORE_TAX),
        SPECIAL: vesting.balance_of(SPECIAL),
        ROLLOVER: vesting.balance_of(ROLLOVER),
        MATCHING_PRE2002: vesting.vested(MATCHING_PRE2002),
        TOP_HEAVY: vesting.vested(TOP_HEAVY),
        MATCHING_2002: vesting.vested(MATCHING_2002),
        DISCRETIONARY: vesting.vested(DISCRETIONARY),
        NONELECTIVE: ne,
    }
    avail = {k: v for k, v in avail.items() if k in vesting.by_source}
    if traced:
        tb.step(
            "Available: the vested balance of every account",
            section="§7.3(a) (GAP-8)",
            result=money(sum(avail.values(), ZERO) if not reasons else ZERO),
            problems=list(reasons),
        )
        if married:
            tb.step("Spousal consent is required", section="§7.2(a)(iii), §7.3(a)", result=True)
    return Withdrawal59(not reasons, start, tuple(reasons), avail, married, tb.build())


def withdrawal_sources(amount: object, w: Withdrawal59) -> tuple[dict[str, Decimal], Trace]:
    """§7.3(a): Before-Tax, Rollover, vested Matching (sub-portions pro rata, A24), vested
    Discretionary, Nonelective."""
    a = w.available

    def g(*srcs: str) -> list[tuple[str, Decimal]]:
        return [(s, a[s]) for s in srcs if s in a]

    groups = [
        g(BEFORE_TAX, SPECIAL),
        g(ROLLOVER),
        g(MATCHING_PRE2002, TOP_HEAVY, MATCHING_2002),
        g(DISCRETIONARY),
        g(NONELECTIVE),
    ]
    taken, short, t = draw_in_order(amount, groups, section="§7.3(a)")
    if short > ZERO:
        raise ValueError("the withdrawal exceeds the vested balance")
    return taken, t
