"""Federal income tax withheld from a plan payment (Code §3405).

* Eligible rollover distribution (ERD) paid to the payee: 20% withheld, mandatory (§3405(c)(1)); the
  payee may ask for more on Form W-4R, never less. Nothing is withheld from the part rolled over
  directly (§3405(c)(2)).
* Other nonperiodic payment (hardship, a required minimum, a payment to an estate, the part of a
  payment that is the year's RMD): 10% unless the payee elects another rate from 0% to 100% on Form
  W-4R (§3405(b)(1), (2); Form W-4R instructions).
* Periodic payment (an annuity, installments over 10 years or more or a life expectancy): as wages,
  per the payee's Form W-4P (§3405(a)(1)) — filing status, Step 2(b) other jobs and pensions, Step 3
  credits, Step 4(a) other income, 4(b) deductions, 4(c) extra — on Publication 15-T (2026) Worksheet 1B
  (``pub15t.worksheet_1b``); with no W-4P, as for a single filer with no adjustments (Code §3405(a)(4);
  Pub. 15-T (2026)); the payee may elect no withholding (§3405(a)(2)).
* Under $200 (Treas. Reg. §31.3405(c)-1 Q&A-14): the 20% mandatory withholding of §3405(c) does not
  apply when the eligible rollover distributions the payee is reasonably expected to receive from the
  plan in the calendar year total less than $200 (``Distribution.year_eligible_total``); the payment is
  then withheld on as any other nonperiodic payment (§3405(b): 10% unless the payee chooses another rate
  from 0% to 100% on Form W-4R). Such a payment is still an eligible rollover distribution: a direct
  rollover the payee asks for is made (Treas. Reg. §1.401(a)(31)-1 Q&A-11 lets the plan decline to offer
  one; the product does not use that permission) and the §402(f) notice is still given (§402(f) and
  Treas. Reg. §1.402(f)-1 have no amount below which the notice is not needed).
* No more can be withheld than the money and property other than employer securities in the payment
  (§3405(e)(8); Treas. Reg. §31.3405(c)-1 Q&A-11): a loan offset or a payment in shares may carry
  less withholding, or none.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from benefits.engine.money import HUNDRED, ZERO, to_money
from benefits.engine.taxes import pub15t
from benefits.engine.taxes.distributions import Distribution, Method
from benefits.engine.taxes.rollover import eligibility, is_periodic

MANDATORY_ERD_RATE = Decimal("20")  # Code §3405(c)(1)
# Treas. Reg. §31.3405(c)-1 Q&A-14: no §3405(c) withholding when the year's ERDs total less than this.
SMALL_YEAR_TOTAL = Decimal("200")
NONPERIODIC_DEFAULT_RATE = Decimal("10")  # Code §3405(b)(1)


class ElectionRefused(ValueError):
    """The payee's choices break a rule; ``field`` names the choice, the message the rule."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Election:
    """The payee's choices for one payment."""

    method: Method = Method.DIRECT_PAYMENT
    rollover_amount: Decimal | None = None  # for a split: the part rolled over directly
    w4r_rate: Decimal | None = None  # Form W-4R rate in whole percent; None: the default
    w4p_status: str | None = None  # "single", "married", "head_of_household", "none"; None: no W-4P
    w4p_extra: Decimal = ZERO  # Form W-4P Step 4(c): extra withholding a payment
    w4p_step2_jobs: Decimal = ZERO  # Form W-4P Step 2(b)(i): annual pay from all jobs
    w4p_step2_pensions: Decimal = ZERO  # Step 2(b)(ii): annual payments from lower-paying pensions
    w4p_step3: Decimal = ZERO  # Step 3: the year's credits
    w4p_step4a: Decimal = ZERO  # Step 4(a): other income
    w4p_step4b: Decimal = ZERO  # Step 4(b): deductions
    payments_per_year: int = 12  # for a periodic payment


@dataclass(frozen=True)
class Withholding:
    gross: Decimal
    rolled_over: Decimal  # paid by direct rollover
    paid_to_payee: Decimal  # before withholding
    federal_withholding: Decimal
    net_to_payee: Decimal
    form: str  # "W-4R", "W-4P" or "" (all rolled over)
    rule: str  # plain words with the section

    @property
    def as_dict(self) -> dict[str, str]:
        return {
            "gross": str(self.gross),
            "rolled_over": str(self.rolled_over),
            "paid_to_payee": str(self.paid_to_payee),
            "federal_withholding": str(self.federal_withholding),
            "net_to_payee": str(self.net_to_payee),
            "form": self.form,
            "rule": self.rule,
        }


def w4p_of(e: Election) -> pub15t.W4P:
    """The Form W-4P the election holds (status None: none given, the single default)."""
    return pub15t.W4P(
        status=e.w4p_status if e.w4p_status != "none" else None,
        step2_jobs=e.w4p_step2_jobs,
        step2_pensions=e.w4p_step2_pensions,
        step3_credits=e.w4p_step3,
        step4a_other_income=e.w4p_step4a,
        step4b_deductions=e.w4p_step4b,
        step4c_extra=e.w4p_extra,
    )


def mandatory_applies(d: Distribution, eligible_amount: Decimal) -> bool:
    """Whether §3405(c)'s 20% applies: not when the year's ERDs are expected to total under $200
    (Treas. Reg. §31.3405(c)-1 Q&A-14)."""
    total = d.year_eligible_total if d.year_eligible_total is not None else eligible_amount
    return total >= SMALL_YEAR_TOTAL


def _rate(value: Decimal | None) -> Decimal | None:
    if value is None:
        return None
    if value != value.to_integral_value() or not ZERO <= value <= HUNDRED:
        raise ElectionRefused("w4r_rate", "Withholding rate (Form W-4R): a whole percent from 0 to 100.")
    return value


def compute(d: Distribution, e: Election) -> Withholding:
    """The amounts for one payment under the payee's election (refused whole if a choice breaks a rule)."""
    elig = eligibility(d)
    rate = _rate(e.w4r_rate)
    # What is rolled over directly (only the eligible part may be).
    if e.method is Method.DIRECT_PAYMENT:
        rolled = ZERO
    elif not elig.eligible:
        raise ElectionRefused("method", f"This payment cannot be rolled over: {elig.reason}")
    elif e.method is Method.DIRECT_ROLLOVER:
        rolled = elig.eligible_amount
    else:
        if e.rollover_amount is None or not ZERO < e.rollover_amount < elig.eligible_amount:
            raise ElectionRefused(
                "rollover_amount",
                f"Amount to roll over: more than $0 and less than the eligible ${elig.eligible_amount:,.2f} "
                "(to roll over all of it, choose a direct rollover).",
            )
        rolled = e.rollover_amount
    to_payee = d.gross - rolled
    eligible_to_payee = elig.eligible_amount - rolled if elig.eligible else ZERO
    other_to_payee = to_payee - eligible_to_payee
    cap = max(ZERO, d.cash - rolled)
    if to_payee == ZERO:
        return Withholding(
            d.gross,
            rolled,
            ZERO,
            ZERO,
            ZERO,
            "",
            "Rolled over directly: nothing withheld (Code §3405(c)(2)).",
        )

    if is_periodic(d):
        status = e.w4p_status or "single"
        if status == "none":
            amount, rule = ZERO, "You chose no federal income tax withholding (Form W-4P; Code §3405(a)(2))."
        else:
            for name in (
                "w4p_extra",
                "w4p_step2_jobs",
                "w4p_step2_pensions",
                "w4p_step3",
                "w4p_step4a",
                "w4p_step4b",
            ):
                if getattr(e, name) < ZERO:
                    raise ElectionRefused(name, "Form W-4P amounts: $0 or more.")
            sheet = pub15t.worksheet_1b(
                year=d.paid_on.year, payment=to_payee, payments_per_year=e.payments_per_year, w4p=w4p_of(e)
            )
            amount = sheet.withholding
            used = sheet.year_used
            adjusted = any(
                getattr(e, n) > ZERO
                for n in (
                    "w4p_extra",
                    "w4p_step2_jobs",
                    "w4p_step2_pensions",
                    "w4p_step3",
                    "w4p_step4a",
                    "w4p_step4b",
                )
            )
            rule = (
                f"Withheld as for {status.replace('_', ' ')} per Publication 15-T ({used}"
                + ("" if used == d.paid_on.year else f"; {d.paid_on.year}'s table not loaded yet")
                + ") Worksheet 1B"
                + (" with your Form W-4P's Steps 2 to 4" if adjusted else "")
                + ("" if e.w4p_status else ", the default with no Form W-4P")
                + " (Code §3405(a))."
            )
        form = "W-4P"
    else:
        if eligible_to_payee > ZERO and not mandatory_applies(d, elig.eligible_amount):
            # Q&A-14: the year's ERDs are under $200: §3405(b) withholding, as on any nonperiodic payment.
            other_to_payee, eligible_to_payee = to_payee, ZERO
            small = True
        else:
            small = False
        if eligible_to_payee > ZERO and rate is not None and rate < MANDATORY_ERD_RATE:
            raise ElectionRefused(
                "w4r_rate",
                "Withholding rate (Form W-4R): at least 20% on an eligible rollover distribution paid to you "
                "(Code §3405(c)).",
            )
        erd_rate = rate if rate is not None else MANDATORY_ERD_RATE
        other_rate = rate if rate is not None else NONPERIODIC_DEFAULT_RATE
        amount = to_money(eligible_to_payee * erd_rate / HUNDRED) + to_money(
            other_to_payee * other_rate / HUNDRED
        )
        parts = []
        if eligible_to_payee > ZERO:
            parts.append(f"{erd_rate}% of the eligible rollover distribution paid to you (Code §3405(c))")
        if other_to_payee > ZERO:
            parts.append(
                f"{other_rate}% of the payment that cannot be rolled over "
                + ("(your Form W-4R rate)" if rate is not None else "(the 10% default, Code §3405(b))")
            )
        rule = "Withheld: " + "; ".join(parts) + "."
        if small:
            rule = (
                "Withheld: "
                + (f"{other_rate}% (your Form W-4R rate)" if rate is not None else "10% (Code §3405(b))")
                + ". The 20% rule does not apply: your eligible rollover distributions from the plan this year "
                "total less than $200 (Treas. Reg. §31.3405(c)-1 Q&A-14)."
            )
        form = "W-4R"
    if amount > cap:
        amount = cap
        rule += " Limited to the cash in the payment (Code §3405(e)(8))."
    return Withholding(d.gross, rolled, to_payee, amount, to_payee - amount, form, rule)
