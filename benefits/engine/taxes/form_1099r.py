"""Form 1099-R: the distribution codes of box 7 and the boxes of one form.

Read from the 2026 Instructions for Forms 1099-R and 5498 (its "Guide to Distribution Codes" and box 7 instructions):

* **G** — direct rollover to a qualified plan, 403(b), governmental 457(b) or IRA. Not combined with
  1, 2 or 7; combined with 4 for a beneficiary's direct rollover (**4G**). A payment split between a
  direct rollover and a payment to the payee is reported on two forms ("If part of the distribution is
  a direct rollover and part is not, file separate Forms 1099-R").
* **4** — death, whatever the participant's or the beneficiary's age.
* **7** — normal distribution: the participant is at least age 59½ on the payment date.
* **1** — early distribution, no known exception: under age 59½.
* **2** — early distribution, exception applies (under 59½), where the payer knows it: separation from
  service in or after the year the participant reached age 55 (Code §72(t)(2)(A)(v)); annuity payments
  for life after separation (a series of substantially equal periodic payments, §72(t)(2)(A)(iv)).
* **3** — disability (§72(m)(7)), when the plan knows of it.
* **L** — a loan treated as a deemed distribution (§72(p)), with 1, 2, 4 or 7 (L is never used for a
  loan offset). **M** — a qualified plan loan offset (§402(c)(3)(C)), with 1, 2, 4 or 7; a plan loan
  offset that is not qualified (more than 12 months after severance) has the age code alone.

Readings this module takes (the plan's facts leave them open):

* Age 59½ is the day six calendar months after the 59th birthday (IRS Publication 575); the payment on
  that day is a normal distribution (code 7).
* The age-55 exception: the plan knows the separation date and birth date, so it uses code 2 when the
  participant left the employer in or after the *calendar* year of the 55th birthday (the plans'
  participants are individuals with calendar tax years) and the payment is made after leaving. A
  payment made while still employed under 59½ gets code 1.
* A hardship distribution, an RMD or a payment to an estate follows the same age codes (4 for a death
  benefit); hardship is not itself an exception to the 10% tax.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from benefits.engine.dates import add_months, add_years, date_attaining_age
from benefits.engine.money import ZERO
from benefits.engine.taxes.distributions import Distribution, Kind, Recipient

INSTRUCTIONS = "2026 Instructions for Forms 1099-R and 5498"
SEPARATION_EXCEPTION_AGE = 55  # Code §72(t)(2)(A)(v)


def age_59_half(birth_date: date) -> date:
    """The day a person born on ``birth_date`` reaches age 59½: six calendar months after the 59th
    birthday (Feb 29 → Feb 28 in a common year, then six months on)."""
    return add_months(add_years(birth_date, 59), 6)


def separated_in_or_after_year_of_55(d: Distribution) -> bool:
    if d.separation_date is None or d.separation_date > d.paid_on:
        return False
    return (
        d.separation_date.year >= date_attaining_age(d.participant_birth_date, SEPARATION_EXCEPTION_AGE).year
    )


def _age_code(d: Distribution) -> str:
    if d.paid_on >= age_59_half(d.participant_birth_date):
        return "7"
    if d.disabled:
        return "3"
    if separated_in_or_after_year_of_55(d):
        return "2"
    if d.kind is Kind.ANNUITY and d.separation_date is not None and d.separation_date <= d.paid_on:
        return "2"
    return "1"


def box7(d: Distribution, *, direct_rollover: bool) -> str:
    """The distribution code(s) for ``d`` (the part rolled over directly when ``direct_rollover``)."""
    death = d.recipient is not Recipient.PARTICIPANT
    if direct_rollover:
        return "4G" if death else "G"
    code = "4" if death else _age_code(d)
    if d.kind is Kind.LOAN_DEEMED:
        code += "L"
    elif d.kind is Kind.LOAN_OFFSET and d.qualified_loan_offset:
        code += "M"  # a plan loan offset that is not a qualified one has the age code alone
    return code


@dataclass(frozen=True)
class Line:
    """One payment's contribution to a form (the rollover and the paid part of a split are two lines)."""

    gross: Decimal  # box 1
    taxable: Decimal  # box 2a
    withheld: Decimal  # box 4
    employee_contributions: Decimal  # box 5
    code: str  # box 7
    taxable_not_determined: bool = False  # box 2b, first checkbox
    total_distribution: bool = False  # box 2b, second checkbox


def lines(
    d: Distribution, *, rolled_over: Decimal, paid_to_payee: Decimal, withheld: Decimal, total: bool = False
) -> list[Line]:
    """The form lines for one payment: a direct rollover (box 2a zero) and the part paid to the payee."""
    out = []
    if rolled_over > ZERO:
        out.append(
            Line(rolled_over, ZERO, ZERO, ZERO, box7(d, direct_rollover=True), total_distribution=total)
        )
    if paid_to_payee > ZERO:
        basis = d.employee_contributions
        out.append(
            Line(
                paid_to_payee,
                ZERO if not d.basis_known else paid_to_payee - basis,
                withheld,
                basis if d.basis_known else ZERO,
                box7(d, direct_rollover=False),
                taxable_not_determined=not d.basis_known,
                total_distribution=total,
            )
        )
    return out


@dataclass(frozen=True)
class Form:
    """One Form 1099-R: one payee, one year, one box-7 code (the instructions' one-form-per-code rule)."""

    year: int
    code: str
    gross: Decimal = ZERO
    taxable: Decimal = ZERO
    withheld: Decimal = ZERO
    employee_contributions: Decimal = ZERO
    taxable_not_determined: bool = False
    total_distribution: bool = False
    payments: tuple[str, ...] = field(default_factory=tuple)  # the payment references summed

    def as_dict(self) -> dict[str, object]:
        return {
            "year": self.year,
            "box_1": str(self.gross),
            "box_2a": "" if self.taxable_not_determined else str(self.taxable),
            "box_2b_not_determined": self.taxable_not_determined,
            "box_2b_total": self.total_distribution,
            "box_4": str(self.withheld),
            "box_5": str(self.employee_contributions),
            "box_7": self.code,
            "payments": list(self.payments),
        }


def forms(year: int, entries: Iterable[tuple[str, Line]]) -> list[Form]:
    """Sum one payee's lines of the year into forms, one per box-7 code, in code order."""
    by_code: dict[str, Form] = {}
    for ref, line in entries:
        f = by_code.get(line.code, Form(year, line.code))
        by_code[line.code] = Form(
            year,
            line.code,
            f.gross + line.gross,
            f.taxable + line.taxable,
            f.withheld + line.withheld,
            f.employee_contributions + line.employee_contributions,
            f.taxable_not_determined or line.taxable_not_determined,
            f.total_distribution or line.total_distribution,
            (*f.payments, ref),
        )
    return [by_code[c] for c in sorted(by_code)]
