"""Whether a payment is an eligible rollover distribution (ERD), and how much of it is.

The law (Code §402(c)(4)): any distribution of all or part of the balance to the credit of the
employee, except
  (A) one of a series of substantially equal periodic payments made at least annually for the life
      (or life expectancy) of the employee, the joint lives of the employee and a beneficiary, or a
      specified period of 10 years or more;
  (B) a distribution to the extent it is required under §401(a)(9) (the RMD; Treas. Reg.
      §1.402(c)-2 Q&A-7: the first amounts paid in a distribution calendar year are the RMD);
  (C) a hardship distribution.
Treas. Reg. §1.402(c)-2 Q&A-4 adds: corrective distributions of excess deferrals or contributions, and
loans treated as deemed distributions under §72(p) (a loan *offset* is an actual distribution and is
eligible, Q&A-9; a qualified plan loan offset may be rolled over until the tax return due date,
§402(c)(3)(C)).
Beneficiaries: a surviving spouse is treated as the employee (§402(c)(9)); a nonspouse designated
beneficiary may roll over only directly to an inherited IRA (§402(c)(11)), and since WRERA 2008 that
distribution is an ERD for §401(a)(31), §402(f) and §3405(c) (Notice 2009-68). An estate is not an
individual and has no rollover (Notice 2007-7 Q&A-16 allows a trust only as a see-through trust,
which the product records as a nonspouse beneficiary).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from benefits.engine.money import ZERO
from benefits.engine.taxes.distributions import Distribution, Kind, Recipient

TEN_YEARS = 10  # §402(c)(4)(A)(ii): "a specified period of 10 years or more"


@dataclass(frozen=True)
class Eligibility:
    eligible: bool
    eligible_amount: Decimal  # the part of the payment that is an ERD
    reason: str  # plain words with the section
    destinations: tuple[str, ...] = ()  # where a direct rollover may go


def is_periodic(d: Distribution) -> bool:
    """A periodic payment for §3405(a): an annuity, or installments over life expectancy or 10+ years
    (Code §3405(e)(2): payments over more than one year)."""
    if d.kind is Kind.ANNUITY:
        return True
    if d.kind is Kind.INSTALLMENT:
        return d.installments_for_life_expectancy or (d.installment_years or 0) >= TEN_YEARS
    return False


def eligibility(d: Distribution) -> Eligibility:
    """Whether ``d`` is an eligible rollover distribution and the eligible amount, with the reason."""
    if d.recipient is Recipient.ESTATE:
        return Eligibility(False, ZERO, "Paid to an estate, which cannot roll over (Code §402(c)(9), (11)).")
    if d.kind is Kind.HARDSHIP:
        return Eligibility(False, ZERO, "A hardship distribution cannot be rolled over (Code §402(c)(4)(C)).")
    if d.kind is Kind.REQUIRED_MINIMUM:
        return Eligibility(
            False, ZERO, "A required minimum distribution cannot be rolled over (Code §402(c)(4)(B))."
        )
    if d.kind is Kind.CORRECTIVE:
        return Eligibility(
            False, ZERO, "A corrective distribution cannot be rolled over (Treas. Reg. §1.402(c)-2 Q&A-4(b))."
        )
    if d.kind is Kind.LOAN_DEEMED:
        return Eligibility(
            False,
            ZERO,
            "A loan treated as a deemed distribution cannot be rolled over (Treas. Reg. §1.402(c)-2 Q&A-4(d)).",
        )
    if d.kind is Kind.ANNUITY:
        return Eligibility(
            False, ZERO, "Annuity payments for life cannot be rolled over (Code §402(c)(4)(A)(i))."
        )
    if d.kind is Kind.INSTALLMENT and is_periodic(d):
        return Eligibility(
            False,
            ZERO,
            "Installments over 10 years or more, or over a life expectancy, cannot be rolled over "
            "(Code §402(c)(4)(A)).",
        )
    amount = max(ZERO, d.gross - d.rmd_portion)
    if amount == ZERO:
        return Eligibility(
            False, ZERO, "The whole payment is the year's required minimum (Code §402(c)(4)(B))."
        )
    if d.recipient is Recipient.NONSPOUSE_BENEFICIARY:
        return Eligibility(
            True,
            amount,
            "Eligible, by direct rollover to an inherited IRA only (Code §402(c)(11)).",
            ("inherited_ira",),
        )
    destinations: tuple[str, ...] = ("traditional_ira", "qualified_plan", "403b_plan", "governmental_457b")
    if d.recipient is Recipient.SPOUSE_BENEFICIARY:
        destinations = (*destinations, "inherited_ira")  # a spouse may also keep it inherited (§402(c)(9))
    reason = "An eligible rollover distribution (Code §402(c)(4))."
    if d.kind is Kind.LOAN_OFFSET:
        reason = (
            "A loan offset is an eligible rollover distribution; a qualified plan loan offset may be rolled "
            "over until your tax return's due date (Code §402(c)(3)(C))."
        )
    if d.rmd_portion > ZERO:
        reason += " The year's required minimum part cannot be rolled over (Code §402(c)(4)(B))."
    return Eligibility(True, amount, reason, destinations)
