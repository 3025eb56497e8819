"""Small benefits (§13.7(G)): a Value at or under the threshold is paid as a lump sum without consent.

Value = the lump-sum equivalent of the vested normal-form benefit (GAP-12 default: the vested
Accrued Benefit as a life annuity from NRD), valued on the distribution date at any age (the
earliest retirement date limits when an annuity may start, not when a small benefit is cashed out).

Basis: from 1/1/2000 Table A's GATT basis — the 30-year Treasury rate for the third full calendar
month before the termination, retirement or death, and the applicable mortality table "or such other
mortality table as may be prescribed by the Secretary". For plan years from 2008 the statute
overrides those words (§417(e)(3) as amended by PPA 2006 §302, §411(a)(11)(B)): the engine's
``minimum_present_value.statutory_basis`` for the distribution date, keeping the plan's look-back
month. Before 2000 the plan used the PBGC rate and UP-1984 (not in the engine).

Threshold: $3,500, and $5,000 from the first plan year beginning after 5 August 1997 (the calendar
plan year 1998, §13.7(G); TD 8794); $7,000 for distributions from 2024 only if the plan adopted it
(setting ``cash_out_threshold_after_2023``, GAP-12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.actuarial import Form, form_factors, life_annuity
from benefits.engine.basis_memo import DATES, memo_of
from benefits.engine.dates import add_months, age_in_years_months, months_between_firsts
from benefits.engine.minimum_present_value import (
    SEGMENTS_KEY,
    TREASURY_KEY,
    BasisNotAvailable,
    statutory_basis,
)
from benefits.engine.missing import describe
from benefits.engine.money import to_decimal, to_money
from benefits.engine.parameters import cash_out_limit
from benefits.engine.trace import Trace, TraceBuilder, money, money_step, years
from benefits.engine.trace import factor as factor_of

from .settings import DEFAULT_SETTINGS, BenefitSettings

ZERO = Decimal(0)


def threshold_on(distribution_date: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> Decimal:
    """§13.7(G): the statutory cash-out limit for the calendar plan year containing the distribution
    ($3,500; $5,000 from the 1998 plan year), and from 2024 the plan's adopted amount (at most $7,000)."""
    entry = cash_out_limit(distribution_date, date(distribution_date.year, 1, 1))
    assert entry.value is not None
    if distribution_date.year >= 2024:
        return min(entry.value, Decimal(settings.cash_out_threshold_after_2023))
    return entry.value


def cash_out_event(termination: date | None, distribution: date) -> date:
    """The event whose look-back month values the test (Table A: "the third full calendar month
    preceding the Participant's Termination of Employment, retirement or death, whichever applies").

    Reading (GAP-12): a distribution within 12 months of the termination is the termination's
    cash-out; a later one (or one while employed) is a retirement on its Retirement Date (the first
    of a month, so the look-back is the third calendar month before the payment month, as for the
    §7.4(E) relative values).
    """
    if termination is not None and distribution <= add_months(termination, 12):
        return termination
    return distribution


def lookback_month(event_date: date) -> str:
    """'The third full calendar month preceding' the event, as ``YYYY-MM``."""
    m = add_months(date(event_date.year, event_date.month, 1), -3)
    return f"{m.year:04d}-{m.month:02d}"


@dataclass(frozen=True)
class CashOut:
    required: bool | None  # None: the Value cannot be computed (an input is missing)
    value: Decimal | None
    threshold: Decimal
    trace: Trace
    missing: tuple[str, str] | None = None  # (JSON pointer, message) of what blocks the Value


def cash_out(
    *,
    vested_annual_at_nrd: Decimal,
    birth_date: date,
    distribution_date: date,
    event_date: date,
    nrd: date,
    assumptions: Mapping[str, Any] | None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> CashOut:
    """The §13.7(G) test on ``distribution_date`` after the termination, retirement or death on
    ``event_date``; the Value is on the §417(e)(3) basis for the distribution date."""
    tb = TraceBuilder()
    threshold = threshold_on(distribution_date, settings)
    tb.put(money_step("Small-benefit threshold on the distribution date", "§13.7(G)", threshold))
    if vested_annual_at_nrd <= 0:
        tb.step(
            "The Value is $0: the participant is deemed to have received a lump sum (the unvested "
            "benefit is forfeited)",
            section="§13.7(G)",
            result=money(ZERO),
        )
        return CashOut(True, ZERO, threshold, tb.build())
    month = lookback_month(event_date)
    try:
        if distribution_date < date(2000, 1, 1):
            raise BasisNotAvailable(
                "before January 1, 2000 the plan valued small benefits on the PBGC immediate annuity rate "
                "and the UP-1984 table, which the engine does not have"
            )
        sb = statutory_basis(
            distribution_date,
            assumptions,
            lookback_month=month,
            period_start=date(distribution_date.year, 1, 1),  # the Plan Year is the calendar year
            projection=True,
        )
    except Exception as exc:
        found = describe(exc)
        if found is None:
            raise
        tb.step(
            f"The Value cannot be computed yet: {found[1]}",
            section="§13.7(G), Table A; IRC §417(e)(3)",
            result=None,
            lookback_month=month,
        )
        return CashOut(None, None, threshold, tb.build(), found)
    tb.include(sb.trace)
    age = age_in_years_months(birth_date, distribution_date)  # completed years and months
    months = max(0, months_between_firsts(distribution_date, nrd))
    factor = life_annuity(sb.basis, age, deferral=months / 12)
    value = to_money(vested_annual_at_nrd * to_decimal(factor))
    tb.step(
        "Value: the vested Accrued Benefit as a life annuity from Normal Retirement Date, discounted to "
        "the distribution date on the minimum present value basis for that date",
        section="§13.7(G), Table A; IRC §417(e)(3)",
        result=money(value),
        vested_annual_benefit_at_nrd=money(vested_annual_at_nrd),
        age_on_distribution_date=years(age),
        months_to_nrd=months,
        annuity_factor=factor_of(round(factor, 6), 6),
        basis=sb.words,
    )
    required = value <= threshold
    tb.step(
        "Paid as a lump sum without consent" if required else "Above the threshold: no cash-out",
        section="§13.7(G)",
        result=required,
    )
    return CashOut(required, value, threshold, tb.build())


def cash_outs_of_dates(
    *,
    vested_annual_at_nrd: Decimal,
    birth_date: date,
    dates: Sequence[tuple[date, date]],
    nrd: date,
    assumptions: Mapping[str, Any] | None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> list[CashOut | Exception]:
    """``cash_out`` for many (distribution date, event date) pairs, without traces: each date keeps
    the §417(e)(3) basis of its own plan year and look-back month, and the life annuities of the
    dates on the same basis (the projected months share the last published rates) are one
    ``form_factors`` pass, each the same float as ``life_annuity``'s. Element ``i`` is what
    ``cash_out`` returns for pair ``i`` (its trace left out), or the exception it raises."""
    empty = Trace()
    out: list[CashOut | Exception] = []
    pending: dict[Any, list[tuple[int, float, float, Decimal]]] = {}
    # each date's basis kept between requests: it is made from the date and the market data alone
    kept = memo_of(("cash-out basis",), assumptions, (SEGMENTS_KEY, TREASURY_KEY))
    for distribution_date, event_date in dates:
        try:
            threshold = threshold_on(distribution_date, settings)
            if vested_annual_at_nrd <= 0:
                out.append(CashOut(True, ZERO, threshold, empty))
                continue
            month = lookback_month(event_date)
            try:
                if distribution_date < date(2000, 1, 1):
                    raise BasisNotAvailable(
                        "before January 1, 2000 the plan valued small benefits on the PBGC immediate annuity "
                        "rate and the UP-1984 table, which the engine does not have"
                    )
                basis = None if kept is None else kept.get((distribution_date, month))
                if basis is None:
                    basis = statutory_basis(
                        distribution_date,
                        assumptions,
                        lookback_month=month,
                        period_start=date(distribution_date.year, 1, 1),
                        projection=True,
                        traced=False,  # the basis alone is read, unlabelled
                    ).basis
                    if kept is not None and len(kept) < DATES:
                        kept[(distribution_date, month)] = basis
            except Exception as exc:
                found = describe(exc)
                if found is None:
                    raise
                out.append(CashOut(None, None, threshold, empty, found))
                continue
            age = age_in_years_months(birth_date, distribution_date)
            months = max(0, months_between_firsts(distribution_date, nrd))
        except Exception as exc:  # noqa: BLE001 - the scalar call raises it: that date's outcome
            out.append(exc)
            continue
        pending.setdefault(basis, []).append((len(out), age, months / 12, threshold))
        out.append(CashOut(None, None, threshold, empty))  # replaced below
    for basis, items in pending.items():
        try:
            factors = form_factors(
                basis, Form.life(), [a for _, a, _, _ in items], deferrals=[d for _, _, d, _ in items]
            ).tolist()
        except Exception:  # noqa: BLE001 - one by one, each date meeting its own error
            factors = [None] * len(items)
        for (i, age, deferral, threshold), factor in zip(items, factors, strict=True):
            try:
                if factor is None:
                    factor = life_annuity(basis, age, deferral=deferral)
                value = to_money(vested_annual_at_nrd * to_decimal(factor))
                out[i] = CashOut(value <= threshold, value, threshold, empty)
            except Exception as exc:  # noqa: BLE001 - as the scalar call would raise it
                out[i] = exc
    return out
