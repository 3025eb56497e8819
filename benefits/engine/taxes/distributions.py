"""The facts about one payment that the tax rules read: what kind of payment, to whom, how paid.

The web app turns a payment record into a ``Distribution``; the rules modules never see a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum

from benefits.engine.money import ZERO


class Kind(StrEnum):
    """Every kind of payment the product makes (and two it does not, so the rules are complete)."""

    LUMP_SUM = "lump_sum"  # a single sum of the whole benefit or account (incl. a cash-out)
    PARTIAL_LUMP_SUM = "partial_lump_sum"  # a single sum of part of it
    INSTALLMENT = "installment"  # one of a series of installments (see ``installment_years``)
    ANNUITY = "annuity"  # one payment of an annuity for life or joint lives
    WITHDRAWAL = "withdrawal"  # an in-service withdrawal other than hardship (e.g. at age 59½)
    HARDSHIP = "hardship"  # a hardship distribution from elective deferrals
    REQUIRED_MINIMUM = "required_minimum"  # a §401(a)(9) required minimum distribution
    LOAN_DEEMED = "loan_deemed"  # a loan in default while employed: a §72(p) deemed distribution
    LOAN_OFFSET = "loan_offset"  # a loan balance offset against the account at severance
    CORRECTIVE = "corrective"  # a corrective distribution (excess deferrals); not made by the product


class Recipient(StrEnum):
    PARTICIPANT = "participant"
    SPOUSE_BENEFICIARY = "spouse_beneficiary"  # the surviving spouse, after the participant's death
    NONSPOUSE_BENEFICIARY = "nonspouse_beneficiary"  # an individual (or see-through trust) beneficiary
    ESTATE = "estate"  # the participant's estate: not an individual, cannot roll over


class Method(StrEnum):
    """How the payee asked to be paid (the §401(a)(31) choice)."""

    DIRECT_PAYMENT = "direct_payment"
    DIRECT_ROLLOVER = "direct_rollover"
    SPLIT = "split"  # part rolled over directly, the rest paid to the payee


# The account a direct rollover may go to (Code §402(c)(8)(B); a nonspouse beneficiary only to an
# inherited IRA, §402(c)(11)(A)).
ROLLOVER_DESTINATIONS = (
    "traditional_ira",
    "qualified_plan",
    "403b_plan",
    "governmental_457b",
    "inherited_ira",
)


@dataclass(frozen=True)
class Distribution:
    """One payment (or one instalment) and the facts its tax treatment turns on."""

    kind: Kind
    recipient: Recipient
    gross: Decimal  # the whole amount distributed (box 1), cash and property
    paid_on: date
    participant_birth_date: date
    # The date the participant left the employer that maintains the plan (None while employed).
    separation_date: date | None = None
    # An installment series: its length in years, or None when it runs over a life expectancy.
    installment_years: int | None = None
    installments_for_life_expectancy: bool = False
    # The part of the payment that is a required minimum distribution for the year (§1.402(c)-2 Q&A-7:
    # the first amounts paid in a distribution calendar year are the RMD).
    rmd_portion: Decimal = ZERO
    # Employer securities in the payment at their value (an ESOP may pay in shares): no income tax can
    # be withheld from shares (Code §3405(e)(8)).
    employer_securities: Decimal = ZERO
    # A loan offset carries no cash (the note is cancelled against the account).
    employee_contributions: Decimal = ZERO  # after-tax basis recovered by this payment (box 5)
    basis_known: bool = True  # False where the plan cannot know the basis (box 2b "not determined")
    disabled: bool = False  # §72(m)(7) disability, known to the plan
    # The eligible rollover distributions the payee is reasonably expected to receive from the plan in
    # this payment's calendar year, this one included (Treas. Reg. §31.3405(c)-1 Q&A-14, §1.401(a)(31)-1
    # Q&A-11: the $200 rule); None: this payment's eligible amount alone.
    year_eligible_total: Decimal | None = None
    # A loan offset made because of severance within 12 months after it (Code §402(c)(3)(C)): code M.
    qualified_loan_offset: bool = True

    @property
    def cash(self) -> Decimal:
        """Money and property other than employer securities: the most that can be withheld from."""
        if self.kind in (Kind.LOAN_DEEMED, Kind.LOAN_OFFSET):
            return ZERO
        return self.gross - self.employer_securities
