"""The lump sum (§5.11(a)(iv), (b)), its grandfathered floor, the Beginning Balance (§4.2, §1.2(h))
and the whipsaw illustration (§1.2(d), GAP-3).

§5.11(b): the lump sum "shall be the amount of the balance in such Participant's Cash Balance Account
as of the Annuity Starting Date", but not less than the Actuarial Equivalent, computed as of the ASD,
of the Normal (or Late) Retirement Benefit determined as of December 31, 1999 under the old plan
(updated under Appendix A). The old plan is not in the file (GAP-1), so that benefit is certified
input data (``plan_data.dec31_1999_benefit``, monthly from the old NRD); its present value uses the
§1.2(d) basis (AIR and the Applicable Mortality Table).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.actuarial import life_annuity
from benefits.engine.dates import add_months, first_of_next_month, months_between
from benefits.engine.money import to_decimal, to_money
from benefits.engine.trace import Trace

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
    monthly: Decimal, *, birth_date: date, on: date, starts: date, basis: ApplicableBasis
) -> tuple[Decimal, float]:
    """Value on ``on`` of ``monthly`` for life from ``starts`` (monthly in advance), and the factor."""
    deferral = months_between(on, starts) / 12.0 if starts > on else 0.0
    factor = life_annuity(basis.basis, age_at(birth_date, on), deferral=deferral)
    return to_money(to_decimal(monthly) * 12 * to_decimal(factor)), factor


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
) -> LumpSum:
    """The lump sum payable on ``asd``: the balance, floored by the 1999 benefit's value."""
    trace = Trace().add(
        "Lump sum: the account balance as of the Annuity Starting Date",
        section="§5.11(a)(iv), §5.11(b)",
        result=balance,
        asd=asd,
    )
    amount = balance
    floor = None
    if benefit_1999 is not None and basis is not None:
        starts = max(benefit_1999_starts or asd, asd)
        floor, factor = deferred_annuity_value(
            benefit_1999, birth_date=birth_date, on=asd, starts=starts, basis=basis
        )
        trace = trace.add(
            "Grandfathered floor: value at the ASD of the December 31, 1999 benefit (Appendix A as "
            "certified), on the Applicable Interest Rate and Mortality Table",
            section="§5.11(b), §1.2(d), App. A; GAP-1",
            result=floor,
            monthly_1999_benefit=benefit_1999,
            payable_from=starts,
            age=age_words(birth_date, asd),
            annuity_factor=round(factor, 6),
            basis=basis.describe(),
        )
        if floor > amount:
            amount = floor
    if whipsaw_value is not None:
        trace = trace.add(
            "Projection value (whipsaw): PV of the annuity the account would buy at NRD; "
            + ("paid if greater (setting)" if pay_whipsaw else "shown for information only"),
            section="§1.2(d); GAP-3",
            result=whipsaw_value,
        )
        if pay_whipsaw and whipsaw_value > amount:
            amount = whipsaw_value
    trace = trace.add("Lump sum payable", section="§5.11(b)", result=amount)
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
        result=value,
        monthly_benefit=benefit_1999,
        payable_from=nrd,
        deferred_annuity_factor=round(factor, 6),
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
