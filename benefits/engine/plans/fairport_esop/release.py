"""Release of shares from the Unallocated Stock Fund (suspense), F §4.2.

Default: principal and interest. Principal-only only at the Committee's direction and only when the
three §4.2 conditions hold. Computed per Stock Obligation, once a Plan Year (SPEC A4.2 ASSUMPTION).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from benefits.engine.money import ZERO, to_decimal
from benefits.engine.trace import Trace, TraceBuilder, money, shares, years

from .apportion import round_shares
from .settings import DEFAULT_SETTINGS, BenefitSettings

SECTION = "Fairport ESOP §4.2"


@dataclass(frozen=True)
class LoanYear:
    """One Stock Obligation's figures for a Plan Year (loan documents, GAP D1.1)."""

    unallocated_shares: Decimal  # shares bought with this loan still in suspense, before the release
    principal_paid: Decimal
    interest_paid: Decimal
    remaining_principal: Decimal  # scheduled (or, variable rate, projected at the 12/31 rate)
    remaining_interest: Decimal
    # Sources of this year's payments (F §4.2, §7.2-2): dividends on allocated and unallocated shares,
    # employer contributions (and their earnings). They must sum to principal + interest paid.
    dividends_allocated: Decimal = ZERO
    dividends_unallocated: Decimal = ZERO
    employer_contributions: Decimal | None = None  # None: whatever the dividends do not cover

    @property
    def paid(self) -> Decimal:
        return to_decimal(self.principal_paid) + to_decimal(self.interest_paid)

    @property
    def contributions(self) -> Decimal:
        if self.employer_contributions is not None:
            return to_decimal(self.employer_contributions)
        return self.paid - self.dividends

    @property
    def dividends(self) -> Decimal:
        return to_decimal(self.dividends_allocated) + to_decimal(self.dividends_unallocated)


@dataclass(frozen=True)
class PrincipalOnlyConditions:
    """The three conditions of F §4.2 for ignoring interest."""

    not_less_rapid_than_level_10_years: bool
    interest_per_standard_amortization: bool
    term_years_from_acquisition: Decimal  # including renewals, extensions, refinancings


@dataclass(frozen=True)
class Release:
    shares_released: Decimal
    category1_dividend_shares: Decimal  # §8.1-1
    category2_contribution_shares: Decimal  # §8.1-2
    shares_remaining: Decimal
    method: str
    trace: Trace


def principal_only_allowed(conditions: PrincipalOnlyConditions) -> tuple[bool, Trace]:
    tb = TraceBuilder()
    ok1 = conditions.not_less_rapid_than_level_10_years
    ok2 = conditions.interest_per_standard_amortization
    ok3 = to_decimal(conditions.term_years_from_acquisition) <= 10
    tb.step(
        "Loan repays at least as fast as level annual payments over 10 years", section=SECTION, result=ok1
    )
    tb.step("Interest is ignored only as standard amortization tables define it", section=SECTION, result=ok2)
    tb.step(
        "Loan term, with renewals and refinancings, is no more than 10 years from the purchase",
        section=SECTION,
        result=ok3,
        term_years=years(conditions.term_years_from_acquisition),
    )
    return ok1 and ok2 and ok3, tb.build()


def release_shares(
    loan: LoanYear,
    *,
    committee_directs_principal_only: bool = False,
    conditions: PrincipalOnlyConditions | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Release:
    """Shares released this Plan Year: U × P / (P + R), split into Category 1 and Category 2."""
    tb = TraceBuilder()
    places = settings.share_places
    u = to_decimal(loan.unallocated_shares)
    method = "principal_and_interest"
    if committee_directs_principal_only:
        if conditions is None:
            raise ValueError("principal-only release needs the three §4.2 conditions")
        allowed, ctrace = principal_only_allowed(conditions)
        tb.include(ctrace)
        if allowed:
            method = "principal_only"
        else:
            tb.step(
                "Committee asked for principal-only, but a §4.2 condition fails: principal and interest used",
                section=SECTION,
                result=method,
            )
    if method == "principal_only":
        p = to_decimal(loan.principal_paid)
        r = to_decimal(loan.remaining_principal)
    else:
        p = loan.paid
        r = to_decimal(loan.remaining_principal) + to_decimal(loan.remaining_interest)
    released = ZERO if p <= 0 else round_shares(u * p / (p + r), places)
    tb.step(
        "Shares released = shares in suspense × this year's payments ÷ (this year's + remaining payments)",
        section=SECTION,
        result=shares(released),
        method=method,
        unallocated_shares=shares(u),
        paid_this_year=money(p),
        remaining=money(r),
    )
    # Category split (F §8.1; GAP D1.26): dividends vs contributions, in proportion to dollars paid.
    total_paid = loan.paid
    dividends = loan.dividends
    if settings.category_split == "proportional_dollars":
        cat1 = round_shares(released * dividends / total_paid, places) if total_paid > 0 else ZERO
    else:
        raise ValueError(f"unknown category_split {settings.category_split!r}")
    cat2 = released - cat1
    tb.step(
        "Released shares split by source of the loan payments: dividends (first category) and "
        "Employer contributions (second category), in proportion to dollars",
        section="Fairport ESOP §8.1; SPEC GAP D1.26",
        result=shares({"category1": cat1, "category2": cat2}),
        dividends_used=money(dividends),
        contributions_used=money(loan.contributions),
    )
    return Release(released, cat1, cat2, u - released, method, tb.build())
