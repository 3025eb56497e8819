"""Contributions: Before-Tax elections (§3.1, §3.3), the match in force for each period (§3.4), the
Nonelective (§3.13) and Discretionary (§3.6) contributions, each year's total within the limits
(``limits``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import cast

from benefits.engine.dates import quarter_of
from benefits.engine.money import CENT, HUNDRED, ZERO, to_decimal, to_money
from benefits.engine.parameters import current_reads
from benefits.engine.trace import Trace, TraceBuilder, money, percent, recording

from .limits import PLAN_402G_LIMITS, LimitUnavailable, compensation_limit, deferral_limit_402g, year_limits
from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import BEFORE_TAX, DISCRETIONARY, MATCHING_2002, MATCHING_PRE2002, NONELECTIVE, SPECIAL

SAFE_HARBOR_START = date(2002, 1, 1)


NONELECTIVE_START = date(2001, 1, 1)


MIN_DEFERRAL_PERCENT = 1


MAX_DEFERRAL_PERCENT = 15


MAX_DISCRETIONARY_PERCENT = Decimal("15")

# The formulas' rates, made once (a census applies them to every participant's every year).
HALF = Decimal("0.5")  # §3.4(a) before 2002
MATCH_CAP_RATE = Decimal("0.04")  # §3.4(a) from 2002
DEFERRAL_CAP_RATE = Decimal("0.15")  # §3.1
NONELECTIVE_RATE = Decimal("0.02")  # §3.13


PLAN_402G_LIMITS |= {2000: Decimal("10500"), 2001: Decimal("10500")}


def validate_deferral_percent(percent: object) -> None:
    """§3.1: whole percentages of Compensation, 1% to 15% (0 means no deferrals)."""
    p = to_decimal(percent)
    if p == ZERO:
        return
    if p != p.to_integral_value():
        raise ValueError("§3.1: Before-Tax Contributions are whole percentages of Compensation")
    if not MIN_DEFERRAL_PERCENT <= p <= MAX_DEFERRAL_PERCENT:
        raise ValueError("§3.1: the deferral rate must be at least 1% and at most 15%")


@dataclass(frozen=True)
class ElectionChange:
    filed: date
    effective: date  # first day of the payroll period the change applies to
    percent: Decimal
    previous_percent: Decimal
    in_safe_harbor_window: bool = False  # filed within 30 days after the §3.2 notice


@dataclass(frozen=True)
class ElectionCheck:
    allowed: bool
    reasons: tuple[str, ...]
    trace: Trace


def check_election_change(
    change: ElectionChange,
    earlier_changes: Sequence[ElectionChange] = (),
    *,
    settings: BenefitSettings = DEFAULT_SETTINGS,
    rate_cap: Decimal | None = None,
) -> ElectionCheck:
    """§3.3: filed at least 10 days before the payroll period; at most one change a calendar quarter
    (by filing date); stopping allowed any time (GAP-23); the §3.2 30-day window is "in addition to"
    the other periods so it does not count. `rate_cap` is a post-hardship §3.3(B) cap."""
    tb = TraceBuilder()
    reasons: list[str] = []
    try:
        validate_deferral_percent(change.percent)
        tb.step(
            "The rate is a whole percentage from 1% to 15%",
            section="§3.1",
            result=True,
            percent=percent(change.percent),
        )
    except ValueError as exc:
        reasons.append(str(exc))
        tb.step(str(exc), section="§3.1", result=False, percent=change.percent)
    if change.filed > change.effective - timedelta(days=10):
        reasons.append("§3.3: the form must be filed at least 10 days before the payroll period")
    tb.step(
        "Filed at least 10 days before the first day of the payroll period",
        section="§3.3",
        result=change.filed <= change.effective - timedelta(days=10),
        filed=change.filed,
        effective=change.effective,
    )

    def counts(c: ElectionChange) -> bool:
        if c.in_safe_harbor_window:
            return False
        return not (settings.stop_deferrals_outside_quarterly_limit and c.percent == ZERO)

    if counts(change):
        same_quarter = [
            c for c in earlier_changes if counts(c) and quarter_of(c.filed) == quarter_of(change.filed)
        ]
        if same_quarter:
            reasons.append("§3.3: only one change to the deferral rate may be made in a calendar quarter")
        tb.step(
            "No other change made in the same calendar quarter",
            section="§3.3",
            result=not same_quarter,
            quarter=f"{quarter_of(change.filed)[0]}-Q{quarter_of(change.filed)[1]}",
        )
    else:
        tb.step(
            "Stopping deferrals, or an election in the 30-day safe-harbor window, is allowed in "
            "addition to the quarterly change",
            section="§3.3, §3.2 (GAP-23)",
            result=True,
        )
    if rate_cap is not None and change.percent > rate_cap:
        reasons.append(f"§3.3(B): after a hardship the rate may not exceed {rate_cap}% for 12 months")
        tb.step("Post-hardship rate cap", section="§3.3(B)", result=False, cap=percent(rate_cap))
    return ElectionCheck(not reasons, tuple(reasons), tb.build())


@dataclass(frozen=True)
class PayPeriod:
    start: date  # the payroll period's first day (its Plan Year is start.year)
    compensation: Decimal
    deferral_percent: Decimal = ZERO
    deferral: Decimal | None = None  # the amount actually deducted, when known

    def deferral_amount(self) -> Decimal:
        """A5: rate × Compensation for the period, rounded half up to the cent."""
        if self.deferral is not None:
            return to_money(self.deferral)
        return to_money(to_decimal(self.deferral_percent) / HUNDRED * to_decimal(self.compensation))


def match_source(on: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> str:
    return (
        MATCHING_2002 if on >= SAFE_HARBOR_START and settings.safe_harbor_2002_adopted else MATCHING_PRE2002
    )


def period_match(
    deferral: Decimal, compensation: Decimal, on: date, settings: BenefitSettings = DEFAULT_SETTINGS
) -> Decimal:
    """§3.4(a): 50% of Before-Tax Contributions before 2002; from 2002, 100% of them up to 4% of
    Compensation. Never on Special Contributions (§3.5)."""
    if match_source(on, settings) == MATCHING_PRE2002:
        return to_money(HALF * deferral)
    return min(to_money(deferral), to_money(MATCH_CAP_RATE * compensation))


@dataclass(frozen=True)
class MatchResult:
    year: int
    source: str
    deferrals: Decimal
    compensation: Decimal
    match: Decimal
    per_period: tuple[Decimal, ...]
    trace: Trace


def match_for_periods(
    periods: Iterable[PayPeriod],
    *,
    settings: BenefitSettings = DEFAULT_SETTINGS,
    compensation_limit_for_year: object | None = None,
) -> MatchResult:
    """The match for one Plan Year of payroll periods, per period (A6) or trued up (GAP-6).

    Compensation above the 401(a)(17) limit is not counted: once the year's Compensation reaches the
    limit, later periods count only what remains under it.
    """
    ps = sorted(periods, key=lambda p: p.start)
    if not ps:
        raise ValueError("no payroll periods")
    year = ps[0].start.year
    if any(p.start.year != year for p in ps):
        raise ValueError("payroll periods of one Plan Year only")
    limit = compensation_limit(year, compensation_limit_for_year)
    source = match_source(ps[0].start, settings)
    tb = TraceBuilder()
    ytd = ZERO
    per: list[Decimal] = []
    total_def = ZERO
    total_comp = ZERO
    for p in ps:
        comp = to_decimal(p.compensation)
        if limit is not None:
            comp = max(ZERO, min(comp, limit - ytd))
        ytd += to_decimal(p.compensation)
        d = p.deferral_amount()
        total_def += d
        total_comp += comp
        per.append(period_match(d, comp, p.start, settings))
    if source == MATCHING_2002 and settings.match_annual_true_up:
        match = min(total_def, to_money(MATCH_CAP_RATE * total_comp))
        tb.step(
            "Match for the year: 100% of the year's Before-Tax Contributions, up to 4% of the year's "
            "Compensation (annual true-up reading)",
            section="§3.4(a) (GAP-6)",
            result=money(match),
            deferrals=money(total_def),
            compensation=money(total_comp),
        )
    elif source == MATCHING_2002:
        match = sum(per, ZERO)
        tb.step(
            "Match each payroll period: 100% of that period's Before-Tax Contributions, up to 4% of "
            "that period's Compensation, no year-end true-up",
            section="§3.4(a), §3.4(c) (A6)",
            result=money(match),
            periods=len(ps),
            deferrals=money(total_def),
            compensation=money(total_comp),
        )
    else:
        match = sum(per, ZERO)
        tb.step(
            "Match: 50% of Before-Tax Contributions (the rule before 2002)",
            section="§3.4(a)",
            result=match,
            deferrals=total_def,
        )
    return MatchResult(year, source, total_def, total_comp, match, tuple(per), tb.build())


@dataclass(frozen=True)
class YearContributions:
    year: int
    amounts: Mapping[str, Decimal]  # source → amount; "matching" is the year's match whatever its source
    excess_deferrals: Decimal
    trace: Trace = field(default_factory=Trace)


def year_contributions(
    year: int,
    compensation: object,
    deferrals: object,
    *,
    employed_last_day: bool = True,
    nonelective_made: bool = False,
    discretionary_percent: object | None = None,
    special: object | None = None,
    irs_402g_limit: object | None = None,
    irs_comp_limit: object | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> YearContributions:
    """The contributions the plan's formulas give for a Plan Year from annual totals.

    From annual totals alone the 2002+ match is min(deferrals, 4% of Compensation): exact when the
    deferral rate was level all year (then the per-payroll reading A6 agrees), an upper bound when
    the rate changed. Use ``match_for_periods`` when the payroll detail is known.
    """
    args = (year, compensation, deferrals, employed_last_day, nonelective_made, discretionary_percent,
            special, irs_402g_limit, irs_comp_limit, settings)  # fmt: skip
    return _year_traced(*args) if recording() else _year_untraced(*args)


def _year_untraced(
    year: int,
    compensation: object,
    deferrals: object,
    employed_last_day: bool,
    nonelective_made: bool,
    discretionary_percent: object | None,
    special: object | None,
    irs_402g_limit: object | None,
    irs_comp_limit: object | None,
    settings: BenefitSettings,
) -> YearContributions:
    """``_year_traced`` when no trace is kept: the same Decimal steps in the same order, without the
    trace steps' words and arguments (a census computes every participant's every year)."""
    comp = to_money(compensation)
    defs = to_money(deferrals)
    limit = compensation_limit(year, irs_comp_limit)
    comp_used = min(comp, limit) if limit is not None else comp
    try:
        lim402, _ = deferral_limit_402g(year, irs_402g_limit)
    except LimitUnavailable:
        lim402 = None
    excess = ZERO
    matched = defs
    if lim402 is not None and defs > lim402:
        excess = defs - lim402
        matched = lim402
    cap15 = to_money(comp_used * DEFERRAL_CAP_RATE)
    if matched > cap15:
        matched = cap15
    on = date(year, 1, 1)
    src = match_source(on, settings)
    m = period_match(matched, comp_used, on, settings)
    amounts: dict[str, Decimal] = {BEFORE_TAX: defs, src: m, "matching": m}
    if nonelective_made and year >= NONELECTIVE_START.year:
        amounts[NONELECTIVE] = to_money(NONELECTIVE_RATE * comp_used) if employed_last_day else ZERO
    if discretionary_percent is not None:
        pct = to_decimal(discretionary_percent)
        if not ZERO <= pct <= MAX_DISCRETIONARY_PERCENT:
            raise ValueError("§3.6: the Discretionary Employer Contribution is at most 15% of Compensation")
        amounts[DISCRETIONARY] = to_money(pct / HUNDRED * comp_used) if employed_last_day else ZERO
    if special is not None:
        amounts[SPECIAL] = to_money(special)
    return YearContributions(year, amounts, excess, _NO_TRACE)


_NO_TRACE = Trace((), None)  # what a TraceBuilder builds when no trace is kept

# The amounts the row below takes: pay and deferrals to the cent need at most 17 digits, well within
# the 28 of the decimal context (no rounding but the explicit one to the cent).
ROW_BOUND = Decimal("1e15")


def untraced_year_row(
    year: int, compensation: object, deferrals: object, settings: BenefitSettings
) -> dict[str, str] | None:
    """The contract's row for a Plan Year without employer contributions made or payroll detail,
    when no trace is kept: ``_year_untraced``'s figures (the same Decimal steps, rounded at the same
    points) as the contract's money strings, with the year's limits looked up once a process. None
    for anything but Decimal amounts from 0 to the bound: the caller then takes the general path."""
    if not (type(compensation) is Decimal and compensation.is_finite() and ZERO <= compensation < ROW_BOUND):
        return None
    no_deferrals = deferrals is ZERO  # the contract's amount for a year without deferrals
    if not no_deferrals:
        if not (type(deferrals) is Decimal and deferrals.is_finite() and ZERO <= deferrals < ROW_BOUND):
            return None
        no_deferrals = not deferrals and not deferrals.is_signed()
    limit, lim402 = year_limits(year)
    safe_harbor = year >= SAFE_HARBOR_START.year and settings.safe_harbor_2002_adopted  # match_source
    src = MATCHING_2002 if safe_harbor else MATCHING_PRE2002
    if no_deferrals and (limit is None or limit >= ZERO) and (lim402 is None or lim402 >= ZERO):
        # No deferrals: no excess, nothing above the 15% cap; the match is 50% of 0.00, or the lesser
        # of 0.00 and 4% of pay (not negative) rounded, which is the first, 0.00.
        return {BEFORE_TAX: "0.00", src: "0.00", "matching": "0.00"}
    comp = compensation.quantize(CENT, ROUND_HALF_UP)
    defs = cast(Decimal, deferrals).quantize(CENT, ROUND_HALF_UP)  # ZERO or checked above
    comp_used = min(comp, limit) if limit is not None else comp
    excess = ZERO
    matched = defs
    if lim402 is not None and defs > lim402:
        excess = defs - lim402
        matched = lim402
    cap15 = (comp_used * DEFERRAL_CAP_RATE).quantize(CENT, ROUND_HALF_UP)
    if matched > cap15:
        matched = cap15
    if safe_harbor:  # period_match
        m = min(
            matched.quantize(CENT, ROUND_HALF_UP), (MATCH_CAP_RATE * comp_used).quantize(CENT, ROUND_HALF_UP)
        )
    else:
        m = (HALF * matched).quantize(CENT, ROUND_HALF_UP)
    match = str(m)
    row = {BEFORE_TAX: str(defs), src: match, "matching": match}
    if excess > ZERO:
        row["excess_deferrals"] = str(excess.quantize(CENT, ROUND_HALF_UP))
    return row


# A year without deferrals has the same row whatever the pay (each figure is 0.00): each year's row,
# key and trace key, by the safe-harbor setting's truth (all the row reads of the settings).
_NO_DEFERRAL_ROWS: dict[bool, dict[int, tuple[str, str, dict[str, str]] | None]] = {True: {}, False: {}}


def no_deferral_rows(settings: BenefitSettings) -> dict[int, tuple[str, str, dict[str, str]] | None] | None:
    """The rows kept for the settings (``no_deferral_row`` fills them); None while reads are
    recorded (the limits are then read afresh)."""
    if current_reads() is not None:
        return None
    return _NO_DEFERRAL_ROWS[bool(settings.safe_harbor_2002_adopted)]


def no_deferral_row(
    kept: dict[int, tuple[str, str, dict[str, str]] | None], year: int, settings: BenefitSettings
) -> tuple[str, str, dict[str, str]] | None:
    """(the year's key, its trace key, ``untraced_year_row(year, pay, ZERO, settings)``) for any pay
    that row takes (a Decimal from 0 to ``ROW_BOUND``), kept in ``kept``; None when the year's row
    depends on the pay or its limits are not in force (the caller then asks ``untraced_year_row``)."""
    if year in kept:
        return kept[year]
    try:
        limit, lim402 = year_limits(year)
    except Exception:  # noqa: BLE001 - a limit not in force: raised afresh on the general path
        return None
    if (limit is not None and limit < ZERO) or (lim402 is not None and lim402 < ZERO):
        row = None  # (then the pay counts)
    else:
        row = untraced_year_row(year, ZERO, ZERO, settings)
    entry = None if row is None else (str(year), f"contributions.{year}", row)
    if len(kept) < 1024:
        kept[year] = entry
    return entry


def _year_traced(
    year: int,
    compensation: object,
    deferrals: object,
    employed_last_day: bool,
    nonelective_made: bool,
    discretionary_percent: object | None,
    special: object | None,
    irs_402g_limit: object | None,
    irs_comp_limit: object | None,
    settings: BenefitSettings,
) -> YearContributions:
    """``year_contributions`` with every step of its trace."""
    tb = TraceBuilder()
    comp = to_money(compensation)
    defs = to_money(deferrals)
    limit = compensation_limit(year, irs_comp_limit)
    comp_used = min(comp, limit) if limit is not None else comp
    if limit is not None and comp > limit:
        tb.step(
            "Compensation is limited to the 401(a)(17) limit for the year",
            section="§1.15",
            result=money(comp_used),
            compensation=money(comp),
            limit=money(limit),
        )
    amounts: dict[str, Decimal] = {}
    try:
        lim402, sec = deferral_limit_402g(year, irs_402g_limit)
    except LimitUnavailable:
        lim402, sec = None, ""
    excess = ZERO
    matched = defs
    if lim402 is not None and defs > lim402:
        excess = defs - lim402
        matched = lim402
        tb.step(
            "Before-Tax Contributions above the §402(g) dollar limit are excess deferrals, returned "
            "by April 15 with no match",
            section=f"{sec}, §3.2(c)",
            result=money(excess),
            deferrals=money(defs),
            limit=money(lim402),
        )
    cap15 = to_money(comp_used * DEFERRAL_CAP_RATE)
    if matched > cap15:
        tb.step(
            "Deferrals above 15% of Compensation exceed what the plan allows; the match is computed on 15%",
            section="§3.1",
            result=money(cap15),
            deferrals=money(matched),
        )
        matched = cap15
    amounts[BEFORE_TAX] = defs
    on = date(year, 1, 1)
    src = match_source(on, settings)
    m = period_match(matched, comp_used, on, settings)
    rule = (
        "Match: 50% of Before-Tax Contributions (before 2002)"
        if src == MATCHING_PRE2002
        else "Match: 100% of Before-Tax Contributions up to 4% of Compensation, from the year's totals "
        "(as if the deferral rate was level all year)"
    )
    tb.step(rule, section="§3.4(a)", result=money(m), deferrals=money(matched), compensation=money(comp_used))
    amounts[src] = m
    amounts["matching"] = m
    if nonelective_made and year >= NONELECTIVE_START.year:
        ne = to_money(NONELECTIVE_RATE * comp_used) if employed_last_day else ZERO
        tb.step(
            "Nonelective Employer Contribution: 2% of Compensation, for those employed on the last "
            "day of the Plan Year",
            section="§3.13",
            result=money(ne),
            compensation=money(comp_used),
            employed_last_day=employed_last_day,
        )
        amounts[NONELECTIVE] = ne
    if discretionary_percent is not None:
        pct = to_decimal(discretionary_percent)
        if not ZERO <= pct <= MAX_DISCRETIONARY_PERCENT:
            raise ValueError("§3.6: the Discretionary Employer Contribution is at most 15% of Compensation")
        dc = to_money(pct / HUNDRED * comp_used) if employed_last_day else ZERO
        tb.step(
            "Discretionary Employer Contribution: the Board's percentage of Compensation, for those "
            "employed on the last day of the Plan Year (or who left by death, Disability or "
            "retirement, on Compensation to that date)",
            section="§3.6",
            result=money(dc),
            percent=percent(pct),
            compensation=money(comp_used),
        )
        amounts[DISCRETIONARY] = dc
    if special is not None:
        amounts[SPECIAL] = to_money(special)
        tb.step(
            "Special Contributions as allocated by the Employer (no match on them)",
            section="§3.5",
            result=amounts[SPECIAL],
        )
    return YearContributions(year, amounts, excess, tb.build())
