"""Small benefits (§13.7(G)): a Value at or under the threshold is paid as a lump sum without consent.

Value = the lump-sum equivalent of the vested normal-form benefit (GAP-12 default: the vested
Accrued Benefit as a life annuity from NRD), on the plan's basis of Table A: the GATT Applicable
Mortality Table ("or such other mortality table as may be prescribed by the Secretary", i.e. the
§417(e)(3) table in force on the distribution date) and the GATT Applicable Interest Rate (the
30-year Treasury rate for the third full calendar month before the termination, retirement or death).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import add_months, months_between_firsts
from benefits.engine.money import to_money
from benefits.engine.trace import Trace, TraceBuilder

from .settings import DEFAULT_SETTINGS, BenefitSettings

ZERO = Decimal(0)


def threshold_on(distribution_date: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> Decimal:
    """$3,500, and from January 1, 1998, $5,000 (§13.7(G)); a later amendment may raise it (GAP-12)."""
    if distribution_date < date(1998, 1, 1):
        return Decimal(3500)
    if distribution_date >= date(2024, 1, 1):
        return Decimal(settings.cash_out_threshold_after_2023)
    return Decimal(5000)


def lookback_month(event_date: date) -> str:
    """'The third full calendar month preceding' the event, as ``YYYY-MM``."""
    m = add_months(date(event_date.year, event_date.month, 1), -3)
    return f"{m.year:04d}-{m.month:02d}"


def deferred_annuity_factor(
    *, age_years: float, months_to_start: int, annual_rate: float, when: date
) -> float:
    """Present value of 1 a year paid monthly in advance for life from ``months_to_start`` months ahead,
    at ``annual_rate``, on the §417(e)(3) applicable table in force ``when`` (the shared actuarial math)."""
    from benefits.engine.actuarial import life_annuity, plan_basis
    from benefits.engine.mortality import LAST_417E_YEAR, applicable_417e_table

    # A future distribution uses the latest table published (no projection of later tables).
    year = when.year if isinstance(when, date) else int(when)
    table = applicable_417e_table(when if year <= LAST_417E_YEAR else LAST_417E_YEAR)
    return life_annuity(plan_basis(table, annual_rate), age_years, deferral=months_to_start / 12)


@dataclass(frozen=True)
class CashOut:
    required: bool | None  # None: the Value cannot be computed (no interest rate given)
    value: Decimal | None
    threshold: Decimal
    trace: Trace


def cash_out(
    *,
    vested_annual_at_nrd: Decimal,
    birth_date: date,
    distribution_date: date,
    event_date: date,
    nrd: date,
    treasury_30y: Mapping[str, object] | None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> CashOut:
    tb = TraceBuilder()
    threshold = threshold_on(distribution_date, settings)
    tb.step("Small-benefit threshold on the distribution date", section="§13.7(G)", result=threshold)
    if vested_annual_at_nrd <= 0:
        tb.step(
            "The Value is $0: the participant is deemed to have received a lump sum (the unvested "
            "benefit is forfeited)",
            section="§13.7(G)",
            result=ZERO,
        )
        return CashOut(True, ZERO, threshold, tb.build())
    month = lookback_month(event_date)
    rate = None if treasury_30y is None else treasury_30y.get(month)
    if rate is None:
        tb.step(
            "The Value needs the 30-year Treasury rate for the third full calendar month before the "
            "event, which was not supplied",
            section="Table A (GATT Applicable Interest Rate)",
            result=None,
            lookback_month=month,
        )
        return CashOut(None, None, threshold, tb.build())
    if distribution_date < date(2000, 1, 1):
        tb.step(
            "Before 2000 the Value used the PBGC rate and the UP-1984 table (not computed here)",
            section="§13.7(G)",
            result=None,
        )
        return CashOut(None, None, threshold, tb.build())
    i = float(Decimal(str(rate)) / 100)
    age = (distribution_date - birth_date).days / 365.25
    months = max(0, months_between_firsts(distribution_date, nrd))
    factor = deferred_annuity_factor(
        age_years=age, months_to_start=months, annual_rate=i, when=distribution_date
    )
    value = to_money(vested_annual_at_nrd * Decimal(repr(factor)))
    tb.step(
        "Value: the vested Accrued Benefit as a life annuity from Normal Retirement Date, discounted at "
        "the GATT Applicable Interest Rate with the applicable mortality table",
        section="§13.7(G), Table A",
        result=value,
        interest_rate_percent=rate,
        lookback_month=month,
        annuity_factor=factor,
    )
    required = value <= threshold
    tb.step(
        "Paid as a lump sum without consent" if required else "Above the threshold: no cash-out",
        section="§13.7(G)",
        result=required,
    )
    return CashOut(required, value, threshold, tb.build())
