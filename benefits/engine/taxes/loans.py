"""A plan loan that is not repaid: a deemed distribution or a loan offset, and what each is for tax.

* **Deemed distribution** (Code §72(p)(1); Treas. Reg. §1.72(p)-1 Q&A-4, Q&A-10): a loan that fails the
  repayment terms is treated as distributed at the end of the cure period the plan allows, which may not
  run past the last day of the calendar quarter after the quarter of the missed payment (Q&A-10(a)).
  The amount is the whole outstanding balance, accrued interest included (Q&A-10(b)). Nothing leaves
  the plan: a deemed distribution is not an actual distribution (Q&A-11), so the loan stays in the
  participant's Loan Account until it is repaid or offset. Not an eligible rollover distribution (Treas. Reg. §1.402(c)-2 Q&A-4(d)); Form 1099-R code L
  with the age code (1, 2, 4 or 7; 2026 Instructions for Forms 1099-R and 5498, box 7, "L—Loans treated
  as distributions"). No cash, so no withholding (Code §3405(e)(8)).
* **Loan offset** (Treas. Reg. §1.402(c)-2 Q&A-9): the account balance is reduced by the unpaid loan —
  an actual distribution and an eligible rollover distribution. A **qualified plan loan offset** (Code
  §402(c)(3)(C); Treas. Reg. §1.402(c)-3(b)) is one made because of severance from employment (or plan
  termination) within 12 months after the severance; it may be rolled over until the tax return's due
  date and is reported with code M and the age code. Any other offset keeps the 60-day rollover and is
  reported with the age code alone (2026 Instructions, "M—Qualified plan loan offset").

Which applies follows the plan's own default rule (its ``LoanProgram.default``): while the borrower is
employed a defaulted loan is a deemed distribution and the lien is foreclosed only at Termination of
Service; a borrower no longer employed has the loan offset at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import add_years
from benefits.engine.money import ZERO, to_money

QPLO_MONTHS = 12  # Treas. Reg. §1.402(c)-3(b)(2): offset within 12 months after severance


@dataclass(frozen=True)
class Outstanding:
    principal: Decimal
    interest: Decimal  # accrued and unpaid: the interest of the scheduled payments due and not made

    @property
    def total(self) -> Decimal:
        return self.principal + self.interest


def outstanding(
    *, principal: Decimal, schedule: Sequence[dict[str, object]], principal_repaid: Decimal, on: date
) -> Outstanding:
    """The loan's outstanding balance on ``on`` (Treas. Reg. §1.72(p)-1 Q&A-10(b): principal and accrued
    interest). Repayments cover the schedule's payments in order; the interest of each scheduled payment
    due on or before ``on`` and not covered is accrued and unpaid."""
    left = to_money(principal_repaid)
    interest = ZERO
    for row in schedule:
        due = date.fromisoformat(str(row["due"]))
        part = Decimal(str(row["principal"]))
        if left >= part and part > ZERO:
            left -= part
            continue
        left = ZERO
        if due <= on:
            interest += Decimal(str(row["interest"]))
    return Outstanding(to_money(max(ZERO, principal - to_money(principal_repaid))), to_money(interest))


@dataclass(frozen=True)
class Treatment:
    kind: str  # "deemed_distribution" or "loan_offset"
    qualified_offset: bool  # a qualified plan loan offset (code M, rollover to the return's due date)
    reason: str


def treatment(*, default_date: date, separation_date: date | None) -> Treatment:
    """A deemed distribution while employed on the default date; otherwise an offset, qualified when made
    within 12 months after the severance (Code §402(c)(3)(C); Treas. Reg. §1.402(c)-3(b))."""
    if separation_date is None or separation_date > default_date:
        return Treatment(
            "deemed_distribution",
            False,
            "Still employed on the default date: the loan is treated as distributed (Code §72(p); Treas. Reg. "
            "§1.72(p)-1 Q&A-10) and stays in the Loan Account until Termination of Service.",
        )
    qualified = default_date <= add_years(separation_date, 1)
    return Treatment(
        "loan_offset",
        qualified,
        "No longer employed: the unpaid loan is offset against the account"
        + (
            " within 12 months after leaving — a qualified plan loan offset (Code §402(c)(3)(C))."
            if qualified
            else " more than 12 months after leaving — a plan loan offset, not a qualified one (Treas. Reg. "
            "§1.402(c)-3(b))."
        ),
    )
