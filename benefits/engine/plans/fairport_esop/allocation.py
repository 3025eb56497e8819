"""Allocation of a Plan Year's released shares, contributions and forfeitures (F §8.1, §2, §4.1).

Category 1 (shares released by dividends used on the loan, §8.1-1): (i) shares worth at least the
dividends used to each account whose dividends were used, (ii) reinstatements under §9.5, (iii) the
rest to Active Participants by shares held. Category 2 (Employer contributions, shares released by
them, forfeitures, §8.1-2): to Active Participants by capped 415 Compensation earned while a
Participant. Pools are split by largest remainder (shares to 4 places, cash to cents), so the
allocations add up exactly to what was released.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from benefits.engine.money import CENT, ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money, price, shares
from benefits.engine.trace import factor as factor_of

from .apportion import largest_remainder, quantum_for, round_shares
from .settings import DEFAULT_SETTINGS, BenefitSettings

# Terminations that keep Active Participant status (F §2 "Active Participant" (iii)).
EXEMPT_TERMINATIONS = frozenset({"disability", "death", "early_retirement", "normal_retirement"})


@dataclass(frozen=True)
class YearStatus:
    """What decides Active Participant status for one Plan Year (F §2)."""

    id: str
    satisfied_eligibility: bool  # F §3
    hours: int  # Hours of Service in the Plan Year
    # On December 31: "employed", "recognized_absence", or how Service ended during the year:
    # "disability", "death", "early_retirement", "normal_retirement", "quit" (any other reason).
    status_on_dec31: str = "employed"
    compensation: Decimal = ZERO  # 415 Compensation earned in the Plan Year while a Participant
    shares_held: Decimal = ZERO  # Stock Fund Account shares at the last Valuation Date of the year


def is_active_participant(s: YearStatus, settings: BenefitSettings = DEFAULT_SETTINGS) -> tuple[bool, Trace]:
    tb = TraceBuilder()
    sec = 'Fairport ESOP §2 "Active Participant"'
    tb.step(
        "Satisfied the eligibility requirements of Section 3", section=sec, result=s.satisfied_eligibility
    )
    exempt = s.status_on_dec31 in EXEMPT_TERMINATIONS
    hours_ok = s.hours >= 1000 or (exempt and not settings.hours_test_for_exempt_terminations)
    tb.step(
        "At least 1,000 Hours of Service in the Plan Year"
        + (
            ""
            if settings.hours_test_for_exempt_terminations
            else " (waived for death, disability, retirement)"
        ),
        section=sec + "; SPEC GAP D1.4",
        result=hours_ok,
        hours=s.hours,
    )
    last_day_ok = s.status_on_dec31 in {"employed", "recognized_absence"} or exempt
    tb.step(
        "In active Service or on a Recognized Absence on December 31, or Service ended during the year by "
        "Disability, death, Early or Normal Retirement",
        section=sec,
        result=last_day_ok,
        status=s.status_on_dec31,
    )
    active = s.satisfied_eligibility and hours_ok and last_day_ok
    tb.step("Active Participant for the Plan Year", section=sec, result=active)
    return active, tb.build()


@dataclass(frozen=True)
class Category2Share:
    id: str
    active: bool
    eligible_compensation: Decimal
    shares: Decimal
    cash: Decimal
    trace: Trace


@dataclass(frozen=True)
class Category2Allocation:
    shares_pool: Decimal
    cash_pool: Decimal
    total_compensation: Decimal
    by_participant: dict[str, Category2Share]
    trace: Trace


def allocate_category2(
    people: Sequence[YearStatus],
    *,
    shares_pool: Decimal,
    cash_pool: Decimal,
    comp_limit: Decimal,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Category2Allocation:
    """Released contribution shares, forfeited shares and cash, by capped compensation (F §8.1-2)."""
    sec = "Fairport ESOP §8.1-2"
    tb = TraceBuilder()
    comp_limit = to_decimal(comp_limit)
    eligible: dict[str, Decimal] = {}
    own: dict[str, TraceBuilder] = {}
    flags: dict[str, bool] = {}
    for p in people:
        ptb = TraceBuilder()
        active, atrace = is_active_participant(p, settings)
        ptb.include(atrace)
        comp = min(to_decimal(p.compensation), comp_limit) if active else ZERO
        ptb.step(
            "Compensation counted: 415 Compensation earned while a Participant, capped at the "
            "§401(a)(17) limit (0 when not an Active Participant)",
            section='Fairport ESOP §8.1-2; §2 "415 Compensation"',
            result=money(comp),
            compensation=money(p.compensation),
            limit=money(comp_limit),
        )
        eligible[p.id] = comp
        own[p.id] = ptb
        flags[p.id] = active
    total = sum(eligible.values(), ZERO)
    shares_pool = round_shares(to_decimal(shares_pool), settings.share_places)
    cash_pool = to_money(cash_pool)
    shares = largest_remainder(shares_pool, eligible, quantum_for(settings.share_places))
    cash = largest_remainder(cash_pool, eligible, CENT)
    tb.step(
        "Pool split in proportion to each Active Participant's compensation over the total, "
        "largest remainder so the parts add up exactly",
        section=sec,
        result=money({"shares": shares_pool, "cash": cash_pool}),
        total_compensation=money(total),
    )
    out = {}
    for pid, ptb in own.items():
        ptb.step(
            "Share of the second-category pool",
            section=sec,
            result=money({"shares": shares[pid], "cash": cash[pid]}),
            ratio=factor_of((eligible[pid] / total) if total else ZERO, 6),
        )
        out[pid] = Category2Share(pid, flags[pid], eligible[pid], shares[pid], cash[pid], ptb.build())
    return Category2Allocation(shares_pool, cash_pool, total, out, tb.build())


@dataclass(frozen=True)
class Category1Allocation:
    dividend_replacement: dict[str, Decimal]  # step (i)
    reinstatement: dict[str, Decimal]  # step (ii)
    general_gain: dict[str, Decimal]  # step (iii)
    unallocated_left: Decimal  # 0 unless there are no Active Participants holding shares
    trace: Trace
    totals: dict[str, Decimal] = field(default_factory=dict)


def allocate_category1(
    pool_shares: Decimal,
    *,
    dividends_used: Mapping[str, Decimal],
    fmv_at_payment: Decimal,
    people: Sequence[YearStatus],
    reinstatements: Mapping[str, Decimal] | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Category1Allocation:
    """Shares released by dividends (F §8.1-1 (i)-(iii), §7.2-2(i)(A))."""
    tb = TraceBuilder()
    places = settings.share_places
    pool = round_shares(to_decimal(pool_shares), places)
    fmv = to_decimal(fmv_at_payment)
    step1 = {}
    for pid, amount in dividends_used.items():
        # "at least equals the amount of dividends so used": round up at the 4th place.
        step1[pid] = round_shares(to_decimal(amount) / fmv, places, up=True)
    used1 = sum(step1.values(), ZERO)
    if used1 > pool:
        raise ValueError("dividend shares released do not cover the dividends used: check the split")
    tb.step(
        "First, to each account whose dividends paid the loan: shares worth at least those dividends "
        "(rounded up at the 4th place)",
        section="Fairport ESOP §8.1-1(i), §7.2-2(i)(A)",
        result=step1,
        fair_market_value=price(fmv),
    )
    left = pool - used1
    step2: dict[str, Decimal] = {}
    for pid, want in (reinstatements or {}).items():
        give = min(round_shares(to_decimal(want), places), left)
        step2[pid] = give
        left -= give
    tb.step(
        "Second, to reinstate forfeitures owed under Section 9.5",
        section="Fairport ESOP §8.1-1(ii)",
        result=shares(step2),
    )
    weights = {}
    for p in people:
        active, _ = is_active_participant(p, settings)
        if active:
            weights[p.id] = to_decimal(p.shares_held)
    step3 = largest_remainder(left, weights, quantum_for(places)) if weights else {}
    given3 = sum(step3.values(), ZERO)
    tb.step(
        "Finally, the rest as a general investment gain to Active Participants by shares held at the last "
        "Valuation Date of the Plan Year",
        section="Fairport ESOP §8.1-1(iii)",
        result=shares(step3),
        remaining_shares=shares(left),
    )
    totals: dict[str, Decimal] = {}
    for part in (step1, step2, step3):
        for k, v in part.items():
            totals[k] = totals.get(k, ZERO) + v
    return Category1Allocation(step1, step2, step3, left - given3, tb.build(), totals)


def allocate_by_shares(
    pool_shares: Decimal, people: Sequence[YearStatus], settings: BenefitSettings = DEFAULT_SETTINGS
) -> dict[str, Decimal]:
    """Stock left after a sale repays the loan, "as earnings ... in proportion to the number of shares
    held in Active Participants' Stock Fund Accounts" (F §8.3, second paragraph; GAP D1.32)."""
    weights = {p.id: to_decimal(p.shares_held) for p in people if is_active_participant(p, settings)[0]}
    return largest_remainder(
        round_shares(to_decimal(pool_shares), settings.share_places),
        weights,
        quantum_for(settings.share_places),
    )


def allocate_post_sale_residual(
    pool_shares: Decimal,
    people: Sequence[YearStatus],
    *,
    comp_limit: Decimal,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> dict[str, Decimal]:
    """Shares left in suspense after a sale repaid the loan in full: by compensation (§8.1, second
    category) or by shares held (§8.3); the plan says both (GAP D1.32, ``post_sale_residual_basis``)."""
    if settings.post_sale_residual_basis == "compensation":
        a = allocate_category2(
            people, shares_pool=pool_shares, cash_pool=ZERO, comp_limit=comp_limit, settings=settings
        )
        return {k: v.shares for k, v in a.by_participant.items()}
    if settings.post_sale_residual_basis == "shares":
        return allocate_by_shares(pool_shares, people, settings)
    raise ValueError(f"unknown post_sale_residual_basis {settings.post_sale_residual_basis!r}")
