"""Hardship distributions (§7.4) and what follows them for deferrals (§3.3).

The plan's deemed reasons (§7.4(b)), the amount available in the §7.4(e) order, the tax gross-up the
Participant may elect (A14), the conditions of the deemed test (§7.4(c)(iii)), the 12-month
suspension and the next year's §402(g) reduction and rate cap (§3.3(A), (B)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from enum import StrEnum

from benefits.engine.dates import add_months
from benefits.engine.money import ZERO, to_decimal, to_money
from benefits.engine.plans.base import HardshipReason as PlanHardshipReason
from benefits.engine.plans.base import HardshipRules
from benefits.engine.trace import Trace, TraceBuilder, money, percent, rate, recording

from .accounts import AccountVesting
from .draws import draw_in_order
from .limits import deferral_limit_402g
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
from .withdrawals import age_59_half


class HardshipReason(StrEnum):
    """§7.4(b): the needs deemed immediate and heavy."""

    MEDICAL = "medical"  # (i) Code §213(d) medical care, Participant, Spouse or dependents
    PRINCIPAL_RESIDENCE = "principal_residence"  # (ii) purchase, not mortgage payments
    TUITION = "tuition"  # (iii) next 12 months of post-secondary education
    EVICTION_OR_FORECLOSURE = "eviction_or_foreclosure"  # (iv) on the principal residence
    IRS_DEEMED = "irs_deemed"  # (v) any other need the Commissioner deems (OUTSIDE)


REASON_SECTIONS = {
    HardshipReason.MEDICAL: "§7.4(b)(i)",
    HardshipReason.PRINCIPAL_RESIDENCE: "§7.4(b)(ii)",
    HardshipReason.TUITION: "§7.4(b)(iii)",
    HardshipReason.EVICTION_OR_FORECLOSURE: "§7.4(b)(iv)",
    HardshipReason.IRS_DEEMED: "§7.4(b)(v)",
}

# The plan names no documents (GAP-34): this is the app's checklist for the Committee (§9.6(b)), built
# from the words of each reason, plus the §7.4(c)(ii) representation every applicant signs.
EVIDENCE = {
    HardshipReason.MEDICAL: (
        "bills or estimates for medical care described in Code §213(d), incurred or needed",
        "who received the care: the Participant, the Spouse or a dependent (Code §152)",
    ),
    HardshipReason.PRINCIPAL_RESIDENCE: (
        "purchase contract for the dwelling",
        "statement that it will be the Participant's principal residence (mortgage payments do not qualify)",
    ),
    HardshipReason.TUITION: (
        "tuition and fee statement for the next 12 months of post-secondary education",
        "who is the student: the Participant, the Spouse, a child or a dependent",
    ),
    HardshipReason.EVICTION_OR_FORECLOSURE: (
        "eviction notice or notice of foreclosure on the mortgage of the principal residence",
    ),
    HardshipReason.IRS_DEEMED: ("the IRS ruling or notice that deems the need immediate and heavy",),
}
REPRESENTATION = (
    "the need cannot be relieved through reimbursement or compensation by insurance or otherwise",
    "nor by reasonable liquidation of the Participant's assets (including the Spouse's and minor "
    "children's reasonably available assets)",
    "nor by stopping Before-Tax Contributions",
    "nor by other distributions or nontaxable loans from plans of the Employer or any other employer, "
    "or by borrowing from commercial sources on reasonable terms",
)

# Plain words for the claim form.
REASON_LABELS = {
    HardshipReason.MEDICAL: "Medical care",
    HardshipReason.PRINCIPAL_RESIDENCE: "Purchase of your principal residence",
    HardshipReason.TUITION: "Tuition for the next 12 months of post-secondary education",
    HardshipReason.EVICTION_OR_FORECLOSURE: "Preventing eviction or foreclosure on your principal residence",
    HardshipReason.IRS_DEEMED: "Another need the IRS deems immediate and heavy",
}

# The plan's hardship rules as the web app asks for them (``Plan.hardship``).
HARDSHIP = HardshipRules(
    reasons=tuple(
        PlanHardshipReason(r.value, REASON_LABELS[r], REASON_SECTIONS[r], EVIDENCE[r]) for r in HardshipReason
    ),
    reasons_section="§7.4(b)",
)


def gross_up(need: object, tax_rate: object = ZERO) -> tuple[Decimal, Trace]:
    """§7.4(c)(i)(A)(2) / A14: the need plus the taxes and penalties the Participant elects to cover,
    need ÷ (1 − t), with t the anticipated combined rate the Participant enters."""
    t = to_decimal(tax_rate)
    if not ZERO <= t < 1:
        raise ValueError("the anticipated tax rate must be at least 0 and less than 1")
    gross = to_money(to_decimal(need) / (1 - t))
    return gross, Trace().add(
        "Amount needed, increased for the income taxes and penalties the distribution is expected to cause",
        section="§7.4(c)(i) (A14)",
        result=money(gross),
        need=money(to_money(need)),
        tax_rate=rate(t),
    )


@dataclass(frozen=True)
class HardshipAvailable:
    by_source: Mapping[str, Decimal]  # in §7.4(e) order
    trace: Trace

    @property
    def total(self) -> Decimal:
        return sum(self.by_source.values(), ZERO)


def hardship_available(
    vesting: AccountVesting,
    *,
    before_tax_contributions_made: object,
    prior_hardship_from_before_tax: object = ZERO,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> HardshipAvailable:
    """§7.4(d)-(e): Before-Tax *Contributions* (not earnings), Rollover at Net Value, vested Matching,
    vested Discretionary; Nonelective and the safe-harbor sources by setting (GAP-8, GAP-9)."""
    tb = TraceBuilder()
    out: dict[str, Decimal] = {}
    contrib = to_money(before_tax_contributions_made) - to_money(prior_hardship_from_before_tax)
    bt_nv = vesting.balance_of(BEFORE_TAX)
    bt = min(contrib, bt_nv) if settings.hardship_before_tax_capped_by_net_value else contrib
    if not recording():  # the same amounts without the steps' words (a census asks for everyone's)
        return HardshipAvailable(_available_untraced(vesting, max(ZERO, bt), settings), tb.build())
    out[BEFORE_TAX] = tb.step(
        "Before-Tax Contributions made, less earlier hardship withdrawals of them (earnings are not "
        "available), and no more than the account's Net Value",
        section="§7.4(d)(i) (A15)",
        result=money(max(ZERO, bt)),
        contributions=money(contrib),
        net_value=money(bt_nv),
    )
    if SPECIAL in vesting.by_source:
        if settings.hardship_excludes_safe_harbor:
            tb.step(
                "Special Contributions (QNECs) are not available for hardship",
                section="§7.4(d) (GAP-9)",
                result=money(ZERO),
                applied=False,
            )
        else:
            out[SPECIAL] = tb.step(
                "Special Contributions, literal plan text",
                section="§7.4(d)(i) (GAP-9)",
                result=money(vesting.balance_of(SPECIAL)),
            )
    if ROLLOVER in vesting.by_source:
        out[ROLLOVER] = tb.step(
            f"{LABELS[ROLLOVER]} at Net Value",
            section="§7.4(d)(ii)",
            result=money(vesting.balance_of(ROLLOVER)),
        )
    for src in (MATCHING_PRE2002, TOP_HEAVY):
        if src in vesting.by_source:
            out[src] = tb.step(
                f"{LABELS[src]}, vested part",
                section="§7.4(d)(iii), §4.1(d)",
                result=money(vesting.vested(src)),
            )
    if MATCHING_2002 in vesting.by_source:
        if settings.hardship_excludes_safe_harbor:
            tb.step(
                "Safe-harbor Matching Contributions from 2002 are not available for hardship",
                section="§7.4(d)(iii) (GAP-9)",
                result=money(ZERO),
                applied=False,
            )
        else:
            out[MATCHING_2002] = tb.step(
                f"{LABELS[MATCHING_2002]}, literal plan text",
                section="§7.4(d)(iii) (GAP-9)",
                result=money(vesting.vested(MATCHING_2002)),
            )
    if DISCRETIONARY in vesting.by_source:
        out[DISCRETIONARY] = tb.step(
            f"{LABELS[DISCRETIONARY]}, vested part",
            section="§7.4(d)(iv), §4.1(d)",
            result=money(vesting.vested(DISCRETIONARY)),
        )
    if NONELECTIVE in vesting.by_source:
        if settings.hardship_includes_nonelective:
            out[NONELECTIVE] = tb.step(
                f"{LABELS[NONELECTIVE]}, vested part",
                section="§7.4(e)(v) (GAP-8)",
                result=money(vesting.vested(NONELECTIVE)),
            )
        else:
            tb.step(
                "The Nonelective account is not a hardship source in §7.4(d)",
                section="§7.4(d) (GAP-8)",
                result=money(ZERO),
                applied=False,
            )
    total = sum(out.values(), ZERO)
    tb.step("Total available for a hardship distribution", section="§7.4(d), (e)", result=money(total))
    return HardshipAvailable(out, tb.build())


def _available_untraced(
    vesting: AccountVesting, before_tax: Decimal, settings: BenefitSettings
) -> dict[str, Decimal]:
    """``hardship_available``'s amounts, source by source in the same order."""
    by = vesting.by_source
    out = {BEFORE_TAX: before_tax}
    if SPECIAL in by and not settings.hardship_excludes_safe_harbor:
        out[SPECIAL] = by[SPECIAL].balance
    if ROLLOVER in by:
        out[ROLLOVER] = by[ROLLOVER].balance
    for src in (MATCHING_PRE2002, TOP_HEAVY):
        if src in by:
            out[src] = by[src].vested_balance
    if MATCHING_2002 in by and not settings.hardship_excludes_safe_harbor:
        out[MATCHING_2002] = by[MATCHING_2002].vested_balance
    if DISCRETIONARY in by:
        out[DISCRETIONARY] = by[DISCRETIONARY].vested_balance
    if NONELECTIVE in by and settings.hardship_includes_nonelective:
        out[NONELECTIVE] = by[NONELECTIVE].vested_balance
    return out


def hardship_sources(
    amount: object, available: HardshipAvailable, settings: BenefitSettings = DEFAULT_SETTINGS
) -> tuple[dict[str, Decimal], Trace]:
    """§7.4(e): Before-Tax, Rollover, vested Matching (pre-2002 first, A24), vested Discretionary,
    vested Nonelective."""
    a = available.by_source

    def g(*srcs: str) -> list[tuple[str, Decimal]]:
        return [(s, a[s]) for s in srcs if s in a]

    if settings.hardship_pre2002_match_first:
        match_groups = [g(MATCHING_PRE2002), g(TOP_HEAVY), g(MATCHING_2002)]
    else:
        match_groups = [g(MATCHING_PRE2002, TOP_HEAVY, MATCHING_2002)]
    groups = [g(BEFORE_TAX), g(SPECIAL), g(ROLLOVER), *match_groups, g(DISCRETIONARY), g(NONELECTIVE)]
    taken, short, t = draw_in_order(amount, groups, section="§7.4(e) (A24)")
    if short > ZERO:
        raise ValueError("the hardship amount exceeds what is available")
    return taken, t


@dataclass(frozen=True)
class HardshipCheck:
    allowed: bool
    reasons: tuple[str, ...]
    spousal_consent_required: bool
    trace: Trace


def check_hardship_application(
    *,
    birth_date: date,
    applied: date,
    payment_date: date,
    married: bool,
    prior_hardship_dates: Sequence[date] = (),
    section_73_exhausted: bool = False,
    loan_available: object = ZERO,
    other_plan_distributions_available: bool = False,
) -> HardshipCheck:
    """§7.4(d): once a Plan Year, in writing at least 10 days before payment, with spousal consent;
    at 59½ only after the §7.3 withdrawal is used up; §7.4(c)(iii)(A)(II): every nontaxable loan and
    non-hardship distribution currently available must have been taken."""
    tb = TraceBuilder()
    reasons: list[str] = []
    if payment_date - applied < timedelta(days=10):
        reasons.append("§7.4(d): apply in writing at least 10 days before the requested payment date")
    tb.step(
        "Applied at least 10 days before payment",
        section="§7.4(d)",
        result=payment_date - applied >= timedelta(days=10),
    )
    if any(d.year == payment_date.year for d in prior_hardship_dates):
        reasons.append("§7.4(d): only one hardship distribution in a Plan Year")
    if payment_date >= age_59_half(birth_date) and not section_73_exhausted:
        reasons.append("§7.4(d): at 59½ the §7.3 withdrawal must be taken first")
    if to_decimal(loan_available) > ZERO:
        reasons.append("§7.4(c)(iii)(A)(II): the plan loan currently available must be taken first")
    if other_plan_distributions_available:
        reasons.append("§7.4(c)(iii)(A)(II): other non-hardship distributions available must be taken first")
    tb.step(
        "Hardship application conditions",
        section="§7.4(c)(iii), §7.4(d)",
        result=not reasons,
        problems=list(reasons),
    )
    if married:
        tb.step("Spousal consent is required", section="§7.2(a)(iii), §7.4(d)", result=True)
    return HardshipCheck(not reasons, tuple(reasons), married, tb.build())


@dataclass(frozen=True)
class Suspension:
    suspended: bool
    twelve_months_end: date | None  # received + 12 months
    resume_on: date | None  # first payroll period Before-Tax Contributions may start again
    next_year: int
    next_year_limit: Decimal | None  # §3.3(A)
    rate_cap: Decimal | None  # §3.3(B)
    rate_cap_until: date | None  # last day of the rate cap
    trace: Trace


def hardship_suspension(
    *,
    received: date,
    deferrals_in_hardship_year: object,
    last_rate: object,
    new_agreement_filed: date | None = None,
    payroll_period_starts: Sequence[date] = (),
    next_year_402g_limit: object | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Suspension:
    """§3.3: after a deemed-test hardship the Compensation Reduction Agreement is void; deferrals stop
    until the later of 12 months after receipt and the first payroll period 10 days after a new
    agreement is filed; next year's deferrals are capped at the §402(g) limit less this year's
    deferrals; for 12 months after the suspension the rate may not exceed the last rate."""
    tb = TraceBuilder()
    ny = received.year + 1
    if not settings.hardship_suspends_deferrals:
        tb.step("No suspension after a hardship (current regulations)", section="§3.3 (GAP-11)", result=False)
        return Suspension(False, None, None, ny, None, None, None, tb.build())
    end12 = tb.step(
        "Twelve months after the hardship distribution is received",
        section="§3.3(i)",
        result=add_months(received, 12),
        received=received,
    )
    resume = None
    if new_agreement_filed is not None:
        earliest = max(end12, new_agreement_filed + timedelta(days=10))
        starts = [d for d in sorted(payroll_period_starts) if d >= earliest]
        resume = tb.step(
            "Resume with the first payroll period on or after both the end of the 12 months and "
            "10 days after the new Compensation Reduction Agreement is filed",
            section="§3.3(ii)",
            result=starts[0] if starts else earliest,
            filed=new_agreement_filed,
        )
    try:
        lim, sec = deferral_limit_402g(ny, next_year_402g_limit)
        cap = tb.step(
            f"Before-Tax Contributions for {ny} may not exceed the §402(g) limit less the "
            f"deferrals made in {received.year}",
            section=f"§3.3(A), {sec}",
            result=money(max(ZERO, lim - to_money(deferrals_in_hardship_year))),
            limit=money(lim),
            deferrals=money(to_money(deferrals_in_hardship_year)),
        )
    except LookupError:
        cap = None
    rate = to_decimal(last_rate)
    until = add_months(end12, 12) - timedelta(days=1)
    tb.step(
        "For the 12 months after the suspension the rate may not exceed the last rate before the hardship",
        section="§3.3(B)",
        result=percent(rate),
        until=until,
    )
    return Suspension(True, end12, resume, ny, cap, rate, until, tb.build())
