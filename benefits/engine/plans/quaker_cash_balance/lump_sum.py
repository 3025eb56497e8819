"""The lump sum (§5.11(a)(iv), (b)), its grandfathered floor, the Beginning Balance (§4.2, §1.2(h))
and the whipsaw illustration (§1.2(d), GAP-3).

§5.11(b): the lump sum "shall be the amount of the balance in such Participant's Cash Balance Account
as of the Annuity Starting Date", but not less than the Actuarial Equivalent, computed as of the ASD,
of the Normal (or Late) Retirement Benefit determined as of December 31, 1999 under the old plan
(updated under Appendix A). The old plan is not in the file (GAP-1), so that benefit is certified
input data (``plan_data.dec31_1999_benefit``, monthly from the old NRD); its present value uses the
§1.2(d) basis (AIR and the Applicable Mortality Table) for plan years before 2008. From 2008 that
minimum is a §417(e)(3) minimum present value and the statute overrides the plan's "30-year
Treasury" words: the floor is valued on ``minimum_present_value.statutory_basis`` for the ASD
(PPA phase-in 2008-2011, segment rates from 2012), keeping the plan's look-back month (§1.2(e):
the second month before the distribution).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.actuarial import Basis, life_annuity
from benefits.engine.dates import add_months, first_of_next_month, months_between
from benefits.engine.minimum_present_value import PPA_FIRST_YEAR, StatutoryBasis, lookback, statutory_basis
from benefits.engine.money import to_decimal, to_money
from benefits.engine.trace import Trace, money
from benefits.engine.trace import factor as factor_of

from .annuity import ApplicableBasis, age_at, age_words


def earliest_lump_sum_date(separation: date, *, retirement: bool) -> date:
    """§5.11(a)(iv): after an Early/Normal/Late/Disability Retirement, the first of any month after
    the separation; after any other separation, the first day of the third calendar month after the
    calendar quarter in which it occurred (a separation on Oct 15 gives March 1)."""
    if retirement:
        return first_of_next_month(separation)
    quarter_last_month = 3 * ((separation.month - 1) // 3 + 1)
    return add_months(date(separation.year, quarter_last_month, 1), 3)


def deferred_annuity_value(
    monthly: Decimal, *, birth_date: date, on: date, starts: date, basis: ApplicableBasis | StatutoryBasis
) -> tuple[Decimal, float]:
    """Value on ``on`` of ``monthly`` for life from ``starts`` (monthly in advance), and the factor."""
    deferral = months_between(on, starts) / 12.0 if starts > on else 0.0
    b: Basis = basis.basis
    factor = life_annuity(b, age_at(birth_date, on), deferral=deferral)
    return to_money(to_decimal(monthly) * 12 * to_decimal(factor)), factor


def floor_basis(asd: date, assumptions: Mapping[str, Any] | None) -> StatutoryBasis | None:
    """The statute's basis for the grandfathered minimum on ``asd`` (calendar Plan Years from 2008),
    or None before 2008, when the plan's §1.2(d) basis is the §417(e)(3) basis. The 30-year Treasury
    rate for the 2008-2011 blend is ``treasury_30y_monthly`` or, the same series, the plan's
    ``applicable_interest_rate``. Raises ``MissingMarketData`` naming a missing month."""
    if asd.year < PPA_FIRST_YEAR:
        return None
    a = dict(assumptions or {})
    if "treasury_30y_monthly" not in a and "applicable_interest_rate" in a:
        a["treasury_30y_monthly"] = a["applicable_interest_rate"]
    return statutory_basis(
        asd, a, lookback_month=lookback(asd, 2), period_start=date(asd.year, 1, 1), projection=True
    )


@dataclass(frozen=True)
class LumpSum:
    asd: date
    balance: Decimal
    floor: Decimal | None  # §5.11(b) grandfathered minimum (pre-2000 participants, GAP-1 input)
    whipsaw_value: Decimal | None  # GAP-3: PV of the projected NRD annuity, for information
    amount: Decimal
    trace: Trace


def lump_sum(
    balance: Decimal,
    *,
    asd: date,
    birth_date: date,
    basis: ApplicableBasis | None = None,
    benefit_1999: Decimal | None = None,
    benefit_1999_starts: date | None = None,
    whipsaw_value: Decimal | None = None,
    pay_whipsaw: bool = False,
    statutory: StatutoryBasis | None = None,
) -> LumpSum:
    """The lump sum payable on ``asd``: the balance, floored by the 1999 benefit's value (on the
    ``statutory`` basis from 2008 when given: ``floor_basis``)."""
    trace = Trace().add(
        "Lump sum: the account balance as of the Annuity Starting Date",
        section="§5.11(a)(iv), §5.11(b)",
        result=money(balance),
        asd=asd,
    )
    amount = balance
    floor = None
    used: ApplicableBasis | StatutoryBasis | None = statutory or basis
    if benefit_1999 is not None and used is not None:
        starts = max(benefit_1999_starts or asd, asd)
        floor_trace = Trace()  # before the valuation, so the tables it reads are in it
        floor, factor = deferred_annuity_value(
            benefit_1999, birth_date=birth_date, on=asd, starts=starts, basis=used
        )
        if statutory is not None:
            floor_trace = floor_trace.extend(statutory.trace)
            words = (
                "Grandfathered floor: value at the ASD of the December 31, 1999 benefit (Appendix A as "
                "certified), on the §417(e)(3) minimum present value basis for the date (the statute "
                "overrides §1.2(e)'s 30-year Treasury rate from the 2008 Plan Year)"
            )
            section = "§5.11(b), §1.2(d), App. A; IRC §417(e)(3), PPA 2006 §302; GAP-1, GAP-6"
            described = statutory.words
        else:
            assert basis is not None
            words = (
                "Grandfathered floor: value at the ASD of the December 31, 1999 benefit (Appendix A as "
                "certified), on the Applicable Interest Rate and Mortality Table"
            )
            section = "§5.11(b), §1.2(d), App. A; GAP-1"
            described = basis.describe()
        floor_trace = floor_trace.add(
            words,
            section=section,
            result=money(floor),
            monthly_1999_benefit=money(benefit_1999),
            payable_from=starts,
            age=age_words(birth_date, asd),
            annuity_factor=factor_of(round(factor, 6), 6),
            basis=described,
        )
        # A floor not above the balance did not make the lump sum: its steps are kept, not applied.
        trace = trace.extend(floor_trace if floor > amount else floor_trace.not_applied())
        if floor > amount:
            amount = floor
    if whipsaw_value is not None:
        trace = trace.add(
            "Projection value (whipsaw): PV of the annuity the account would buy at NRD; "
            + ("paid if greater (setting)" if pay_whipsaw else "shown for information only"),
            section="§1.2(d); GAP-3",
            result=money(whipsaw_value),
            applied=pay_whipsaw and whipsaw_value > amount,
        )
        if pay_whipsaw and whipsaw_value > amount:
            amount = whipsaw_value
    trace = trace.add("Lump sum payable", section="§5.11(b)", result=money(amount))
    return LumpSum(asd, balance, floor, whipsaw_value, amount, trace)


def beginning_balance(
    benefit_1999: Decimal, *, birth_date: date, nrd: date, basis: ApplicableBasis
) -> tuple[Decimal, Trace]:
    """§4.2, §1.2(h): the January 1, 2000 Beginning Balance = the 1999 monthly benefit divided by
    the lump-sum factor (monthly benefit per $1) for a January 1, 2000 distribution. The old plan's
    basis is unknown (GAP-1); ``basis`` is the one the actuary certifies (the SPEC assumes AIR for
    November 1999 and the Rev. Rul. 95-6 table)."""
    on = date(2000, 1, 1)
    value, factor = deferred_annuity_value(
        benefit_1999, birth_date=birth_date, on=on, starts=nrd, basis=basis
    )
    trace = Trace().add(
        "January 1, 2000 Beginning Balance: the December 31, 1999 Retirement Benefit ÷ the lump-sum "
        "factor (= benefit × 12 × deferred annuity factor)",
        section="§4.2, §1.2(h); GAP-1",
        result=money(value),
        monthly_benefit=money(benefit_1999),
        payable_from=nrd,
        deferred_annuity_factor=factor_of(round(factor, 6), 6),
        basis=basis.describe(),
    )
    return value, trace


def whipsaw_value(
    projected_monthly_at_nrd: Decimal, *, birth_date: date, asd: date, nrd: date, basis: ApplicableBasis
) -> Decimal:
    """GAP-3: PV at the ASD (AIR, Applicable Mortality Table) of the projected NRD life annuity."""
    value, _ = deferred_annuity_value(
        projected_monthly_at_nrd, birth_date=birth_date, on=asd, starts=nrd, basis=basis
    )
    return value
