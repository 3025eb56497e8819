"""Distributions: timing (F §10.1, §10.2), stock or cash (§10.6), put option (§10.6), right of first
refusal (§10.7), and the §409(o) statutory outer limits the plan does not restate (SPEC A7.4)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, Decimal

from benefits.engine.dates import add_months, add_years, days_after, first_of_month_on_or_after, year_end
from benefits.engine.money import ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money
from benefits.engine.trace import rate as rate_of

from .settings import DEFAULT_SETTINGS, NO_CONSENT_LIMIT, SMALL_BALANCE_LIMIT, BenefitSettings

# Terminations for which §10.2-1 (and §409(o)(1)(A)(i)) give the one-year outer limit.
NRA_DISABILITY_DEATH = frozenset({"normal_retirement", "disability", "death"})


def normal_retirement_date(birth_date: date) -> date:
    """First day of the month coincident with or next following the 65th birthday (F §2)."""
    return first_of_month_on_or_after(add_years(birth_date, 65))


def age_70_half(birth_date: date) -> date:
    return add_months(birth_date, 70 * 12 + 6)


@dataclass(frozen=True)
class SmallBalanceRoute:
    route: str  # "lump_sum_cash" | "automatic_rollover" | "consent_required"
    consent_needed: bool
    in_cash: bool
    pay_by: date | None
    trace: Trace


def small_balance_route(
    vested_balance: Decimal, termination_year: int, settings: BenefitSettings = DEFAULT_SETTINGS
) -> SmallBalanceRoute:
    """The §10.1 small-balance rules: up to $1,000 paid within 60 days after the Plan Year; over $1,000
    up to $5,000 may go without consent, by direct rollover to the administrator's IRA, in cash;
    over $5,000 needs consent."""
    v = to_money(vested_balance)
    tb = TraceBuilder()
    sec = "Fairport ESOP §10.1"
    if v <= SMALL_BALANCE_LIMIT:
        pay_by = days_after(year_end(termination_year), 60)
        tb.step(
            "Vested balance does not exceed $1,000: lump sum in cash within 60 days after the Plan Year "
            "in which employment ends, no consent needed",
            section=sec,
            result=pay_by,
            vested_balance=money(v),
        )
        return SmallBalanceRoute("lump_sum_cash", False, True, pay_by, tb.build())
    if v <= NO_CONSENT_LIMIT and settings.pay_small_balances_without_consent:
        tb.step(
            "Vested balance over $1,000 and not over $5,000, paid without consent: direct rollover to an "
            "IRA the Plan administrator designates (§401(a)(31)(B)), in cash; the plan sets no deadline",
            section=sec + "; SPEC GAP D1.16",
            result=None,
            vested_balance=money(v),
        )
        return SmallBalanceRoute("automatic_rollover", False, True, None, tb.build())
    tb.step(
        "Vested balance over $5,000 (or policy requires consent): not paid before the later of Normal "
        "Retirement and age 62 without the Participant's written election",
        section=sec,
        result=None,
        vested_balance=money(v),
    )
    return SmallBalanceRoute("consent_required", True, False, None, tb.build())


@dataclass(frozen=True)
class Timing:
    normal_retirement_date: date
    no_payment_without_consent_before: date  # later of NRD and age 62
    default_payment_date: date | None  # when nothing is elected and consent is needed
    latest_default_start: date  # §10.2-2
    earliest_elected_date: date | None  # given an election delivered on a date
    outer_limit_if_elected: date | None  # §10.2-1 / STATUTE §409(o)(1)(A)
    required_beginning_date: date  # §10.2-3 as written (70½); counsel supplies current law (D3.2)
    small_balance: SmallBalanceRoute
    spousal_consent_required: bool  # §10.2-1 "if applicable" (GAP D1.19)
    trace: Trace


def distribution_timing(
    *,
    birth_date: date,
    termination_date: date,
    termination_reason: str,
    vested_balance: Decimal,
    participation_start_year: int,
    election_delivered: date | None = None,
    five_percent_owner: bool = False,
    married: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Timing:
    tb = TraceBuilder()
    nrd = normal_retirement_date(birth_date)
    tb.step(
        "Normal Retirement Date: first of the month on or after the 65th birthday",
        section="Fairport ESOP §2",
        result=nrd,
    )
    age62 = add_years(birth_date, 62)
    not_before = max(nrd, age62)
    tb.step(
        "No payment without consent before the later of Normal Retirement and age 62",
        section="Fairport ESOP §10.1; SPEC GAP D1.9",
        result=not_before,
        age_62_on=age62,
    )
    small = small_balance_route(vested_balance, termination_date.year, settings)
    tb.include(small.trace)
    age65_year = add_years(birth_date, settings.normal_retirement_age).year
    tenth = participation_start_year + 10
    latest_close = max(age65_year, tenth, termination_date.year)
    latest_default = days_after(year_end(latest_close), 60)
    tb.step(
        "Unless he elects otherwise, payment starts by the 60th day after the latest close of the Plan Year of "
        "age 65, the 10th anniversary of the year participation began, and termination",
        section="Fairport ESOP §10.2-2; SPEC GAP D1.29",
        result=latest_default,
        age_65_year=age65_year,
        tenth_anniversary_year=tenth,
        termination_year=termination_date.year,
    )
    default_date = None
    if small.consent_needed:
        default_date = not_before if settings.deferred_payment_at_nrd else latest_default
        default_date = min(default_date, latest_default)
        tb.step(
            "Without an election the payment is deferred (deemed election to defer)",
            section="Fairport ESOP §10.1; SPEC GAP D1.16(b)",
            result=default_date,
        )
    earliest = None
    if election_delivered is not None:
        earliest = max(days_after(election_delivered, 30), termination_date)
        tb.step(
            "An elected payment date is at least 30 days after the election is delivered (and the claim "
            "is filed at least 30 days before it)",
            section="Fairport ESOP §10.1, §11.1",
            result=earliest,
            election_delivered=election_delivered,
        )
    if termination_reason in NRA_DISABILITY_DEATH:
        outer = add_years(year_end(termination_date.year), 1)
        tb.step(
            "If elected, payment starts no later than one year after the close of the Plan Year of "
            "separation by Normal Retirement Age, Disability or death",
            section="Fairport ESOP §10.2-1",
            result=outer,
        )
    elif settings.enforce_409o_outer_limit:
        outer = add_years(year_end(termination_date.year + 5), 1)
        tb.step(
            "If elected, payment starts no later than one year after the close of the 5th Plan Year after "
            "the year of separation (unless rehired first)",
            section="STATUTE IRC §409(o)(1)(A)(ii)",
            result=outer,
        )
    else:
        outer = None
    seventy_half = age_70_half(birth_date)
    rbd_year = (
        seventy_half.year + 1 if five_percent_owner else max(seventy_half.year, termination_date.year) + 1
    )
    rbd = date(rbd_year, 4, 1)
    tb.step(
        "Required beginning date as the plan states it (age 70½); current law differs, counsel to supply",
        section="Fairport ESOP §10.2-3; SPEC GAP D3.2",
        result=rbd,
        age_70_half_on=seventy_half,
    )
    spousal = married and settings.spousal_consent_for_distribution
    tb.step(
        "Spouse's consent to the Participant's own lump sum" + (" required" if spousal else " not required"),
        section="Fairport ESOP §10.2-1, §10.10; SPEC GAP D1.19",
        result=spousal,
    )
    return Timing(
        nrd, not_before, default_date, latest_default, earliest, outer, rbd, small, spousal, tb.build()
    )


@dataclass(frozen=True)
class PaymentForm:
    whole_shares: int
    cash: Decimal
    fraction_paid_in_cash: Decimal
    trace: Trace


def payment_form(
    *,
    vested_shares: Decimal,
    vested_cash: Decimal,
    share_value: Decimal,
    without_consent: bool,
    all_in_stock: bool = False,
    ownership_restricted: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> PaymentForm:
    """Stock Fund in shares, Investment Fund in cash (F §10.6); all in Stock on request unless the charter
    restricts ownership; all cash when paid without consent at $5,000 or less (§10.1)."""
    tb = TraceBuilder()
    shares, cash, v = to_decimal(vested_shares), to_decimal(vested_cash), to_decimal(share_value)
    if without_consent:
        total = to_money(shares * v + cash)
        tb.step(
            "Paid without consent ($5,000 or less): all in cash",
            section="Fairport ESOP §10.1",
            result=money(total),
        )
        return PaymentForm(0, total, ZERO, tb.build())
    if all_in_stock and not ownership_restricted:
        shares = shares + cash / v
        cash = ZERO
        tb.step(
            "Participant asked for his whole vested interest in Stock: the Investment Fund buys Stock",
            section="Fairport ESOP §10.6",
            result=money(shares),
        )
    else:
        tb.step(
            "Stock Fund paid in shares, Investment Fund in cash",
            section="Fairport ESOP §10.6",
            result=money({"shares": shares, "cash": cash}),
        )
    whole = int(shares.to_integral_value(rounding=ROUND_DOWN))
    fraction = shares - whole
    frac_cash = to_money(fraction * v) if settings.fraction_in_cash else ZERO
    tb.step(
        "Whole shares paid; the fraction of a share paid in cash",
        section="SPEC GAP D1.13",
        result=money({"whole_shares": whole, "fraction_cash": frac_cash}),
    )
    return PaymentForm(whole, to_money(cash) + frac_cash, frac_cash, tb.build())


@dataclass(frozen=True)
class PutWindows:
    applies: bool
    window1: tuple[date, date] | None
    window2: tuple[date, date] | None
    trace: Trace


def put_windows(
    *,
    distributed_on: date,
    fmv_communicated_on: date | None = None,
    tradable_on_established_market: bool = False,
    diversified_portion: bool = False,
    bank_exception: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> PutWindows:
    """Put right windows: 60 days after distribution, then 60 days in the following Plan Year after the
    Committee communicates the fair market value (F §10.6; GAP D1.17 on when Window 2 starts)."""
    tb = TraceBuilder()
    sec = "Fairport ESOP §10.6"
    if tradable_on_established_market or diversified_portion or bank_exception:
        tb.step(
            "No put right: the Stock is tradable on an established market, or was diversified under "
            "§401(a)(28)(B), or the bank exception applies",
            section=sec,
            result=False,
            applied=False,
        )
        return PutWindows(False, None, None, tb.build())
    w1 = (distributed_on, days_after(distributed_on, 60))
    tb.step("Window 1: the first 60 days after the Stock is distributed", section=sec, result=w1)
    w2 = None
    if fmv_communicated_on is not None:
        start = fmv_communicated_on
        if settings.put_window2_from == "plan_year_start":
            start = max(start, date(distributed_on.year + 1, 1, 1))
        w2 = (start, days_after(start, 60))
        tb.step(
            "Window 2: the first 60 days in the following Plan Year after the Committee communicates the "
            "fair market value",
            section=sec + "; SPEC GAP D1.17",
            result=w2,
        )
    return PutWindows(True, w1, w2, tb.build())


@dataclass(frozen=True)
class Installment:
    number: int
    due: date
    principal: Decimal
    interest: Decimal
    total: Decimal
    balance_after: Decimal


@dataclass(frozen=True)
class PutPayment:
    price: Decimal
    installments: tuple[Installment, ...]
    total_interest: Decimal
    trace: Trace


def put_installments(
    *,
    shares: Decimal,
    fair_market_value: Decimal,
    exercised_on: date,
    years: int = 5,
    first_payment_on: date | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> PutPayment:
    """Equal periodic (annual) installments over at most five years, the first within 30 days of exercise,
    with interest at a reasonable rate on the unpaid balance (F §10.6; GAP D1.17: method and rate)."""
    if not 1 <= years <= 5:
        raise ValueError("installments run over at most five years")
    tb = TraceBuilder()
    price = to_money(to_decimal(shares) * to_decimal(fair_market_value))
    latest_first = days_after(exercised_on, 30)
    first = first_payment_on or latest_first
    if first > latest_first:
        raise ValueError("the first installment is due within 30 days after the put is exercised")
    tb.step("Price = shares × current fair market value", section="Fairport ESOP §10.6", result=money(price))
    rate = to_decimal(settings.put_interest_rate)
    rows: list[Installment] = []
    balance = price
    if settings.put_installment_method == "equal_principal":
        base = to_money(price / years)
        for k in range(years):
            interest = ZERO if k == 0 else to_money(balance * rate)
            principal = base if k < years - 1 else balance
            balance = balance - principal
            rows.append(
                Installment(k + 1, add_years(first, k), principal, interest, principal + interest, balance)
            )
        rule = "Equal annual principal; interest on the balance outstanding for the prior year"
    elif settings.put_installment_method == "level_payment":
        v = Decimal(1) / (1 + rate)
        annuity_due = (1 - v**years) / (rate * v) if rate else Decimal(years)
        level = to_money(price / annuity_due)
        for k in range(years):
            interest = ZERO if k == 0 else to_money(balance * rate)
            total = level if k < years - 1 else balance + interest
            principal = total - interest
            balance = balance - principal
            rows.append(Installment(k + 1, add_years(first, k), principal, interest, total, balance))
        rule = "Level annual payments (annuity-due); the last absorbs rounding"
    else:
        raise ValueError(f"unknown put_installment_method {settings.put_installment_method!r}")
    total_interest = sum((r.interest for r in rows), ZERO)
    tb.step(
        rule,
        section="Fairport ESOP §10.6; SPEC GAP D1.17",
        result=money([r.total for r in rows]),
        rate=rate_of(rate),
        first_due=first,
    )
    return PutPayment(price, tuple(rows), total_interest, tb.build())


@dataclass(frozen=True)
class FirstRefusal:
    applies: bool
    price: Decimal | None
    accept_by: date | None
    trace: Trace


def right_of_first_refusal(
    *,
    fair_market_value: Decimal,
    third_party_offer: Decimal,
    offer_delivered: date,
    traded_on_market: bool = False,
) -> FirstRefusal:
    """Before selling distributed Stock the holder offers it to the Employer and the Plan at the greater of
    fair market value and a good-faith third-party price; they may accept within 14 days (F §10.7)."""
    if traded_on_market:
        t = Trace().add(
            "No right of first refusal for Stock traded on an established market",
            section="Fairport ESOP §10.7",
            result=False,
            applied=False,
        )
        return FirstRefusal(False, None, None, t)
    price = to_money(max(to_decimal(fair_market_value), to_decimal(third_party_offer)))
    accept_by = days_after(offer_delivered, 14)
    t = Trace().add(
        "Offer first to the Employer and the Plan at the greater of fair market value and the "
        "third-party offer; they may accept within 14 days",
        section="Fairport ESOP §10.7",
        result=money({"price": price, "accept_by": accept_by}),
    )
    return FirstRefusal(True, price, accept_by, t)


def max_installment_years_409o(balance: Decimal, threshold: Decimal, step: Decimal) -> tuple[int, Trace]:
    """STATUTE §409(o)(1)(C): 5 years, plus 1 per ``step`` (or part) above ``threshold``, at most 5 more.
    Fairport pays lump sums only; this is the statutory illustration (E6c)."""
    over = to_decimal(balance) - to_decimal(threshold)
    extra = min(5, math.ceil(over / to_decimal(step))) if over > 0 else 0
    t = Trace().add(
        "Longest installment period: 5 years plus one year per increment above the threshold, at most 10",
        section="STATUTE IRC §409(o)(1)(C)",
        result=5 + extra,
    )
    return 5 + extra, t


def share_installments(shares: Decimal, n: int, places: int = 4) -> list[Decimal]:
    """Each year pay the remaining shares ÷ installments left (E6c); they add up exactly."""
    left = to_decimal(shares)
    out = []
    q = Decimal(1).scaleb(-places)
    for k in range(n, 0, -1):
        part = (left / k).quantize(q, rounding=ROUND_DOWN) if k > 1 else left
        out.append(part)
        left -= part
    return out
