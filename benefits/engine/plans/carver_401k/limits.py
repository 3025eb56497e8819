"""The 402(g) (§3.2(b)), 401(a)(17) and 415(c) (§3.12) limits by year. IRS limits after the years the plan
states are OUTSIDE the plan: callers pass them (or the shared parameters module supplies them); the
plan's own numbers are kept here with their section.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal

from benefits.engine.money import HUNDRED, ZERO, to_decimal, to_money
from benefits.engine.parameters import UnknownParameter, current_reads, parameter
from benefits.engine.trace import Trace, TraceBuilder, money, percent

from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import BEFORE_TAX, DISCRETIONARY, MATCHING_2002, MATCHING_PRE2002, NONELECTIVE, SPECIAL

# §3.2(b): the dollar limits the plan states; later years are "adjusted" by the Secretary (OUTSIDE).
PLAN_402G_LIMITS = {1997: Decimal("9500"), 1998: Decimal("10000"), 1999: Decimal("10000")}


# §1.15: the 401(a)(17) limits the plan states; later years OUTSIDE.
PLAN_COMP_LIMITS = {y: Decimal("160000") for y in (1997, 1998, 1999)} | {
    2000: Decimal("170000"),
    2001: Decimal("170000"),
}


class LimitUnavailable(LookupError):
    """An IRS limit the plan does not state was needed and not supplied."""


def _lookup(name: str, on: date) -> Decimal | None:
    """The shared dated IRS parameters (benefits/engine/parameters), None when not in force.

    When no read is being recorded (no trace kept) each value is looked up once: a parameter's
    file is loaded once a process and never changes, and a census asks for every year's limits
    for every participant. A value not in force raises each time, as the lookup does."""
    if current_reads() is not None:
        return _read(name, on)
    key = (name, on)
    try:
        return _UNRECORDED[key]
    except KeyError:
        value = _UNRECORDED[key] = _read(name, on)
        return value


_UNRECORDED: dict[tuple[str, date], Decimal | None] = {}


def _read(name: str, on: date) -> Decimal | None:
    try:
        return parameter(name).at_or_none(on)
    except UnknownParameter:
        return None


def deferral_limit_402g(year: int, irs_limit: object | None = None) -> tuple[Decimal, str]:
    """§3.2(b): the plan's dollar limit for 1997–2001, else the IRS 402(g) limit (OUTSIDE)."""
    if irs_limit is not None:
        return to_decimal(irs_limit), "§3.2(b); IRC §402(g)(1) (supplied)"
    if year in PLAN_402G_LIMITS:
        return PLAN_402G_LIMITS[year], "§3.2(b)"
    v = _lookup("irs_402g_elective_deferral_limit", date(year, 1, 1))
    if v is None:
        raise LimitUnavailable(f"the §402(g) limit for {year} is not stated in the plan; supply it")
    return v, "§3.2(b); IRC §402(g)(1) (parameters)"


def compensation_limit(year: int, irs_limit: object | None = None) -> Decimal | None:
    """§1.15: the 401(a)(17) limit; None when unknown (Compensation is then used uncapped)."""
    if irs_limit is not None:
        return to_decimal(irs_limit)
    if year in PLAN_COMP_LIMITS:
        return PLAN_COMP_LIMITS[year]
    return _lookup("irs_401a17_compensation_limit", date(year, 1, 1))


def year_limits(year: int) -> tuple[Decimal | None, Decimal | None]:
    """(the 401(a)(17) limit, the 402(g) limit) of a Plan Year, each None when not known: what
    ``compensation_limit(year)`` and ``deferral_limit_402g(year)`` give (``LimitUnavailable`` read as
    None), looked up once a process when no read is recorded (a census asks for every year of every
    participant). A limit not in force raises each time, as the lookup does."""
    if current_reads() is not None:
        return _year_limits(year)
    try:
        return _UNRECORDED_YEARS[year]
    except KeyError:
        value = _UNRECORDED_YEARS[year] = _year_limits(year)
        return value


_UNRECORDED_YEARS: dict[int, tuple[Decimal | None, Decimal | None]] = {}


def _year_limits(year: int) -> tuple[Decimal | None, Decimal | None]:
    limit = compensation_limit(year)  # first, as ``year_contributions`` asks: the same error first
    try:
        lim402: Decimal | None = deferral_limit_402g(year)[0]
    except LimitUnavailable:
        lim402 = None
    return limit, lim402


def annual_additions_limit(
    year: int,
    compensation_415: object,
    dollar_limit: object | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> tuple[Decimal, Trace]:
    """§3.12(d): the lesser of the dollar limit (OUTSIDE after the plan's $30,000) and a percentage of
    Section 415 Compensation (25% in the text; 100% from 2002 under EGTRRA, GAP-3)."""
    if dollar_limit is None:
        dollar_limit = _lookup("irs_415c_annual_additions_limit", date(year, 12, 31))
        if dollar_limit is None:
            raise LimitUnavailable(f"the §415(c) dollar limit for {year} is not known; supply it")
    pct = Decimal("25") if year < 2002 else settings.section_415c_percent_from_2002
    by_pct = to_money(pct / HUNDRED * to_decimal(compensation_415))
    lim = min(to_money(dollar_limit), by_pct)
    t = Trace().add(
        "Annual Additions may not exceed the lesser of the dollar limit and a percentage of "
        "Section 415 Compensation",
        section="§3.12(d) (GAP-3)",
        result=money(lim),
        dollar_limit=money(to_money(dollar_limit)),
        percent=percent(pct),
        compensation_415=compensation_415,
    )
    return lim, t


# §3.12(e): the order in which contributions are cut back during the year.
REDUCTION_ORDER_415 = (DISCRETIONARY, NONELECTIVE, BEFORE_TAX, SPECIAL, MATCHING_PRE2002, MATCHING_2002)


def reduce_to_415(
    additions: Mapping[str, object], limit: Decimal
) -> tuple[dict[str, Decimal], Decimal, Trace]:
    """§3.12(e): cut Discretionary, then Nonelective, Before-Tax, Special and Matching until the Annual
    Additions fit. Returns (allowed by source, total excess, trace)."""
    allowed = {k: to_money(v) for k, v in additions.items()}
    excess = max(ZERO, sum(allowed.values(), ZERO) - limit)
    remaining = excess
    tb = TraceBuilder()
    for src in REDUCTION_ORDER_415:
        if remaining <= ZERO:
            break
        cut = min(allowed.get(src, ZERO), remaining)
        if cut > ZERO:
            allowed[src] -= cut
            remaining -= cut
            tb.step(
                f"Reduce {src} to keep Annual Additions within the §415 limit",
                section="§3.12(e)",
                result=money(allowed[src]),
                reduced_by=money(cut),
            )
    if excess == ZERO:
        tb.step(
            "Annual Additions are within the §415 limit",
            section="§3.12(d)",
            result=money(ZERO),
            applied=False,
            limit=money(limit),
        )
    return allowed, excess, tb.build()
