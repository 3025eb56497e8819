"""Loans (Article VIII): who may borrow, the maximum, the rate, the amortization schedule, where the
money comes from and goes back to, and default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal

from benefits.engine.dates import add_months, quarter_end
from benefits.engine.money import ZERO, to_decimal, to_money, to_money_down
from benefits.engine.trace import Trace, TraceBuilder, money, percent, recording

from ..base import LoanTerms
from .accounts import AccountVesting
from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import (
    BEFORE_TAX,
    DISCRETIONARY,
    LABELS,
    MATCHING_2002,
    MATCHING_PRE2002,
    NONELECTIVE,
    ROLLOVER,
    SPECIAL,
    TOP_HEAVY,
)

DOLLAR_CAP = Decimal("50000")
MINIMUM_LOAN = Decimal("1000")
MAX_TERM_YEARS = 5
MAX_TERM_YEARS_RESIDENCE = 15
MATCH_PARTS = (MATCHING_PRE2002, TOP_HEAVY, MATCHING_2002)


# ---------------------------------------------------------------- the maximum (§8.2, §8.4(f))


def loan_base(vesting: AccountVesting, settings: BenefitSettings = DEFAULT_SETTINGS) -> tuple[Decimal, Trace]:
    """§8.2(a): Before-Tax (with Special) and Rollover at Net Value, vested Matching and Discretionary,
    and Nonelective (vested by default, A17; full Net Value on the literal reading)."""
    tb = TraceBuilder()
    if not recording():  # the same sum without the steps' words (a census asks for every participant)
        return _loan_base_untraced(vesting, settings), tb.build()
    total = ZERO
    for src in (BEFORE_TAX, SPECIAL, ROLLOVER):
        if src in vesting.by_source:
            total += tb.step(
                f"{LABELS[src]} at Net Value", section="§8.2(a)", result=money(vesting.balance_of(src))
            )
    for src in (*MATCH_PARTS, DISCRETIONARY):
        if src in vesting.by_source:
            total += tb.step(
                f"{LABELS[src]}, vested part", section="§8.2(a), §4.1(d)", result=money(vesting.vested(src))
            )
    if NONELECTIVE in vesting.by_source:
        if settings.loan_base_nonelective_vested:
            total += tb.step(
                f"{LABELS[NONELECTIVE]}, vested part",
                section="§8.4(b)(v) (GAP-8, A17)",
                result=money(vesting.vested(NONELECTIVE)),
            )
        else:
            total += tb.step(
                f"{LABELS[NONELECTIVE]} at full Net Value",
                section="§8.2(a) (GAP-8)",
                result=money(vesting.balance_of(NONELECTIVE)),
            )
    tb.step("Loan base", section="§8.2(a)", result=money(total))
    return total, tb.build()


def _loan_base_untraced(vesting: AccountVesting, settings: BenefitSettings) -> Decimal:
    """``loan_base``'s sum, source by source in the same order."""
    by_source = vesting.by_source
    total = ZERO
    for src in (BEFORE_TAX, SPECIAL, ROLLOVER):
        if src in by_source:
            total += by_source[src].balance
    for src in (*MATCH_PARTS, DISCRETIONARY):
        if src in by_source:
            total += by_source[src].vested_balance
    if NONELECTIVE in by_source:
        sv = by_source[NONELECTIVE]
        total += sv.vested_balance if settings.loan_base_nonelective_vested else sv.balance
    return total


@dataclass(frozen=True)
class LoanMaximum:
    amount: Decimal  # 0 when no loan may be made
    eligible: bool
    reasons: tuple[str, ...]
    base: Decimal
    trace: Trace


def maximum_new_loan(
    vesting: AccountVesting,
    *,
    highest_balance_last_12_months: object = ZERO,
    outstanding_balance: object = ZERO,
    approved_not_disbursed: object = ZERO,
    in_installment_or_annuity_pay: bool = False,
    receiving_preretirement_death_benefit: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> LoanMaximum:
    """§8.2: the lesser of 50% of the loan base and $50,000 less the highest outstanding loan balance
    of the preceding 12 months; at least $1,000; only one loan at a time (§8.4(f)); not for people in
    installment or annuity pay status or receiving a preretirement death benefit (§8.1(a)(i)).

    ``approved_not_disbursed`` is the principal of a loan the Committee approved that is not yet paid
    out: it is counted as outstanding (the balance it will have on disbursement, within the 12 months
    of §8.2(b)), so no second loan is offered beside it (§8.4(f)) before the money moves."""
    base, base_trace = loan_base(vesting, settings)
    tb = TraceBuilder()
    tb.include(base_trace)
    traced = recording()  # without a trace, no step's words (a census asks for every participant)
    reasons: list[str] = []
    highest = to_money(highest_balance_last_12_months)
    pending = to_money(approved_not_disbursed)
    outstanding = to_money(outstanding_balance) + pending
    highest = max(highest, outstanding)
    half = to_money_down(base / 2)
    cap = max(ZERO, DOLLAR_CAP - highest)
    # The lesser of the two is the maximum; the other did not bind.
    if traced:
        tb.step(
            "50% of the loan base",
            section="§8.2(a)",
            result=money(half),
            applied=half <= cap,
            base=money(base),
        )
        tb.step(
            "$50,000 less the highest outstanding loan balance in the preceding 12 months",
            section="§8.2(b)",
            result=money(cap),
            applied=cap < half,
            highest_balance=money(highest),
        )
    amount = min(half, cap)
    if in_installment_or_annuity_pay or receiving_preretirement_death_benefit:
        reasons.append(
            "§8.1(a)(i): not a Borrower while receiving installments, an annuity or a death benefit"
        )
    if pending > ZERO:
        reasons.append("§8.4(f): only one loan may be outstanding, and a loan approved is not yet paid out")
        tb.step(
            "A loan approved and not yet paid out counts as outstanding",
            section="§8.2(b), §8.4(f)",
            result=money(pending),
        )
    elif outstanding > ZERO:
        reasons.append(
            "§8.4(f): only one loan may be outstanding; the whole loan must be prepaid first (§8.5(d))"
        )
    if outstanding > ZERO:
        tb.step(
            "A loan is outstanding, so no new loan can be made",
            section="§8.4(f)",
            result=money(ZERO),
            outstanding_balance=money(outstanding),
        )
    if amount < MINIMUM_LOAN:
        reasons.append("§8.2: the minimum loan is $1,000")
        tb.step(
            "The most that could be lent is below the $1,000 minimum", section="§8.2", result=money(amount)
        )
    eligible = not reasons
    final = amount if eligible else ZERO
    if traced:
        tb.step("Maximum new loan", section="§8.2", result=money(final))
    return LoanMaximum(final, eligible, tuple(reasons), base, tb.build())


# ---------------------------------------------------------------- rate and term (§8.3)


def loan_rate(prime_percent: object, settings: BenefitSettings = DEFAULT_SETTINGS) -> tuple[Decimal, Trace]:
    """§8.3: the prime rate in the first Wall Street Journal of the month of the request, plus one point,
    rounded to the nearest 1/4% (ties up, A18). Returns a percent, e.g. Decimal("5.25")."""
    x = to_decimal(prime_percent) + 1
    rounding = ROUND_HALF_UP if settings.loan_rate_tie_rounds_up else ROUND_HALF_DOWN
    rate = (x * 4).quantize(Decimal(1), rounding=rounding) / 4
    rate = rate.quantize(Decimal("0.01"))
    t = Trace().add(
        "Loan rate: the Wall Street Journal prime rate plus 1 percentage point, rounded to the nearest "
        "quarter of one percent; it stays fixed until the loan is repaid",
        section="§8.3 (A18)",
        result=percent(rate),
        prime=percent(to_decimal(prime_percent)),
    )
    return rate, t


def check_term(term_months: int, *, principal_residence: bool = False) -> None:
    """§8.3: at most 5 years; at most 15 years for a loan to buy the Borrower's principal residence
    (at the Committee's discretion)."""
    cap = (MAX_TERM_YEARS_RESIDENCE if principal_residence else MAX_TERM_YEARS) * 12
    if not 0 < term_months <= cap:
        raise ValueError(f"§8.3: the term must be more than 0 and at most {cap // 12} years")


def first_payroll_deduction(submitted: date, payroll_dates: Sequence[date]) -> date:
    """§8.5(a): the first payroll date no later than three weeks after the loan form is submitted."""
    for d in sorted(payroll_dates):
        if submitted <= d <= submitted + timedelta(weeks=3):
            return d
    raise ValueError("§8.5(a): no payroll date within three weeks of submission")


# ---------------------------------------------------------------- amortization (A19)


@dataclass(frozen=True)
class Payment:
    number: int
    due: date
    payment: Decimal
    interest: Decimal
    principal: Decimal
    balance: Decimal  # after this payment


@dataclass(frozen=True)
class Schedule:
    principal: Decimal
    annual_rate_percent: Decimal
    periods_per_year: int
    level_payment: Decimal
    payments: tuple[Payment, ...]
    trace: Trace

    @property
    def total_interest(self) -> Decimal:
        return sum((p.interest for p in self.payments), ZERO)


def level_payment(principal: Decimal, periodic_rate: Decimal, n: int) -> Decimal:
    if periodic_rate == ZERO:
        return to_money(principal / n)
    return to_money(principal * periodic_rate / (1 - (1 + periodic_rate) ** -n))


def amortization_schedule(
    principal: object,
    annual_rate_percent: object,
    number_of_payments: int,
    *,
    first_due: date,
    periods_per_year: int = 26,
) -> Schedule:
    """A19 / GAP-29: level payments (payroll periods while on the payroll, e.g. 26 a year biweekly;
    12 a year in cash otherwise, §8.5(a)). Interest each period is rounded to the cent; the last
    payment pays off the balance and so absorbs the rounding residue."""
    p0 = to_money(principal)
    rate = to_decimal(annual_rate_percent)
    r = rate / 100 / periods_per_year
    n = number_of_payments
    if n <= 0 or p0 <= ZERO:
        raise ValueError("a schedule needs a positive principal and at least one payment")
    pay = level_payment(p0, r, n)
    bal = p0
    rows: list[Payment] = []
    for k in range(1, n + 1):
        if periods_per_year == 26:
            due = first_due + timedelta(days=14 * (k - 1))
        elif periods_per_year == 52:
            due = first_due + timedelta(days=7 * (k - 1))
        else:
            due = add_months(first_due, (k - 1) * 12 // periods_per_year)
        interest = to_money(bal * r)
        prin = bal if k == n else min(bal, pay - interest)
        bal -= prin
        rows.append(Payment(k, due, prin + interest, interest, prin, bal))
    t = Trace().add(
        "Level payments: principal × r / (1 − (1 + r)^−n), with r the annual rate divided by the payments "
        "a year; interest each period on the unpaid balance, the last payment clears the balance",
        section="§8.3, §8.5(a) (A19)",
        result=money(pay),
        principal=money(p0),
        annual_rate=percent(rate),
        payments=n,
        periods_per_year=periods_per_year,
        last_payment=money(rows[-1].payment),
    )
    return Schedule(p0, rate, periods_per_year, pay, tuple(rows), t)


# ---------------------------------------------------------------- sources and repayment (§8.4(b), §8.5(c))


def loan_sources(
    amount: object, vesting: AccountVesting, settings: BenefitSettings = DEFAULT_SETTINGS
) -> tuple[dict[str, Decimal], Trace]:
    """§8.4(b): Before-Tax, Rollover, vested Matching (sub-portions pro rata, A24), vested Discretionary,
    vested Nonelective. Returns the principal drawn from each source, in draw order."""
    need = to_money(amount)
    drawn: dict[str, Decimal] = {}
    tb = TraceBuilder()

    def take(src: str, available: Decimal) -> None:
        nonlocal need
        x = min(need, max(ZERO, available))
        if x > ZERO:
            drawn[src] = x
            need -= x
            tb.step(
                f"Lent from the {LABELS[src]}", section="§8.4(b)", result=money(x), available=money(available)
            )

    for src in (BEFORE_TAX, SPECIAL, ROLLOVER):
        take(src, vesting.balance_of(src))
    match_avail = {s: vesting.vested(s) for s in MATCH_PARTS if vesting.vested(s) > ZERO}
    total_match = sum(match_avail.values(), ZERO)
    if need > ZERO and total_match > ZERO:
        from_match = min(need, total_match)
        parts = list(match_avail.items())
        left = from_match
        for i, (src, avail) in enumerate(parts):
            share = left if i == len(parts) - 1 else to_money(from_match * avail / total_match)
            share = min(share, avail)
            if share > ZERO:
                drawn[src] = share
                tb.step(
                    f"Lent from the {LABELS[src]} (match parts pro rata)",
                    section="§8.4(b)(iii) (A24)",
                    result=money(share),
                )
            left -= share
        need -= from_match - left
    take(DISCRETIONARY, vesting.vested(DISCRETIONARY))
    ne = (
        vesting.vested(NONELECTIVE)
        if settings.loan_base_nonelective_vested
        else vesting.balance_of(NONELECTIVE)
    )
    take(NONELECTIVE, ne)
    if need > ZERO:
        raise ValueError("the loan exceeds what the accounts can lend")
    return drawn, tb.build()


def outstanding_by_source(drawn: Mapping[str, Decimal], principal_repaid: object) -> dict[str, Decimal]:
    """§8.5(c): repayments restore the sources in the §8.4(b) order, each in full before the next.
    Returns the principal still out of each source (the loan part of §4.1(d)'s D)."""
    left = to_money(principal_repaid)
    out: dict[str, Decimal] = {}
    for src, amt in drawn.items():
        back = min(left, amt)
        left -= back
        out[src] = amt - back
    return out


# ---------------------------------------------------------------- default (§8.6)


@dataclass(frozen=True)
class LoanDefault:
    missed_due_date: date
    default_date: date
    foreclosure: str  # when the lien is foreclosed
    trace: Trace


def loan_default(
    missed_due_date: date,
    *,
    employed: bool,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> LoanDefault:
    """§8.6(a): the whole unpaid loan is in default and due 90 days after the first missed payment
    (A20: never later than the end of the next calendar quarter). §8.6(b): the lien is foreclosed at
    Termination of Service while employed, immediately otherwise."""
    tb = TraceBuilder()
    d = tb.step(
        "Default 90 days after the initial date of payment delinquency",
        section="§8.6(a)",
        result=missed_due_date + timedelta(days=90),
        missed_due_date=missed_due_date,
    )
    if settings.loan_default_capped_at_quarter_end:
        limit = quarter_end(add_months(missed_due_date.replace(day=1), 3))
        if d > limit:
            d = tb.step(
                "Capped at the last day of the calendar quarter after the quarter of the missed payment",
                section="§8.6(a) (A20); Treas. Reg. §1.72(p)-1 Q&A-10",
                result=limit,
            )
    how = "at Termination of Service" if employed else "immediately upon default"
    tb.step(f"The lien on the accounts is foreclosed {how}", section="§8.6(b)", result=how)
    return LoanDefault(missed_due_date, d, how, tb.build())


# ---------------------------------------------------------------- the plan's loan program (Plan.loans)

PAYROLL_PAYMENTS_PER_YEAR = 26  # §8.5(a): payroll deduction while employed (biweekly payroll, A19)
CASH_PAYMENTS_PER_YEAR = 12  # §8.5(a): monthly in cash once off the payroll
FIRST_DEDUCTION_WITHIN = timedelta(weeks=3)  # §8.5(a)


TERMS = LoanTerms(
    maximum_words="50% of the vested balance, at most $50,000 less the highest outstanding loan balance "
    "in the last 12 months",
    maximum_section="§8.2",
    minimum_section="§8.2",
    one_at_a_time_section="§8.4(f)",
    rate_words="the prime rate for the month of the request plus one percentage point, rounded to the "
    "nearest quarter of one percent",
    rate_section="§8.3",
    term_section="§8.3",
    repayment_words="Payments are made by payroll deduction while the Borrower is employed, otherwise in cash",
    repayment_section="§8.5(a)",
    first_due_words="three weeks after the loan was approved",
    default_words="The loan is secured by the Borrower's Accounts; default and its consequences are "
    "governed by §8.6 of the plan",
    default_section="§8.6",
)


@dataclass(frozen=True)
class LoanProgram:
    """Article VIII as the web app asks for it (``base.LoanProgram``)."""

    minimum: Decimal = MINIMUM_LOAN
    terms: LoanTerms = TERMS

    def check_term(self, term_months: int, *, principal_residence: bool = False) -> None:
        check_term(term_months, principal_residence=principal_residence)

    def rate(self, prime_percent: object) -> tuple[Decimal, Trace]:
        return loan_rate(prime_percent)

    def payments_per_year(self, *, employed: bool) -> int:
        return PAYROLL_PAYMENTS_PER_YEAR if employed else CASH_PAYMENTS_PER_YEAR

    def first_due(self, decided_on: date) -> date:
        """§8.5(a): the first payroll deduction is no later than three weeks after the form is processed."""
        return decided_on + FIRST_DEDUCTION_WITHIN

    def default(self, missed_due_date: date, *, employed: bool) -> LoanDefault:
        """§8.6(a), (b): the default date (90 days, capped at the quarter end, A20) and the foreclosure."""
        return loan_default(missed_due_date, employed=employed)

    def schedule(
        self,
        principal: object,
        annual_rate_percent: object,
        number_of_payments: int,
        *,
        first_due: date,
        periods_per_year: int,
    ) -> Schedule:
        return amortization_schedule(
            principal,
            annual_rate_percent,
            number_of_payments,
            first_due=first_due,
            periods_per_year=periods_per_year,
        )


LOANS = LoanProgram()
