"""Readings of the Fairport ESOP that the plan text leaves open (SPEC Part D), as named settings.

Every field changes a number somewhere. The default is the SPEC's recommended reading; the
alternative is named in the comment and in docs/plan-notes/fairport-esop/benefits.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class BenefitSettings:
    # A4.3 rounding (ASSUMPTION): shares to 4 places, cash to cents, pools split by largest remainder.
    share_places: int = 4
    # D1.26 / E1b: released shares split between dividend (Category 1) and contribution (Category 2)
    # sources in proportion to dollars paid on the loan. Alternative: "dividends_first".
    category_split: str = "proportional_dollars"
    # D1.4 / §2 "Active Participant": the 1,000-hour test applies even to death, disability and
    # retirement during the year (literal reading). False waives it for those three.
    hours_test_for_exempt_terminations: bool = True
    # D1.8 / §5.1-3: value of released shares for §415: "contributions" (loan contribution used) or "fmv".
    annual_additions_basis: str = "contributions"
    # D1.32 / §8.1 vs §8.3: shares left after a sale repays the loan: "compensation" (§8.1-2) or "shares" (§8.3).
    post_sale_residual_basis: str = "compensation"
    # D1.5 / §9.5: a Break forfeiture becomes certain on 12/31 of the first Break year. Alternative: later.
    break_forfeiture_on_year_end: bool = True
    # D1.6 / §9.5: restoration measured in "dollars" forfeited, or the same "shares" revalued.
    restoration_measure: str = "dollars"
    # D1.6: repayment window, in years after the return to Service (§9.5 "within five years").
    repayment_window_years: int = 5
    # D1.9: Normal Retirement Age, undefined in the plan; the NRD is at 65.
    normal_retirement_age: int = 65
    # D1.10 / §6.4: "years of participation" = Plan Years as a Participant, counting the entry year.
    count_entry_year_as_participation: bool = True
    # D1.11 / §6.4: the last QEP year's 50% limit read in "shares" (default) or by "value".
    diversification_year6_basis: str = "shares"
    # D1.12: an election in the overlap (Jan 1 - 90th day) applies to the "earlier" year's quota.
    overlap_election_year: str = "earlier"
    # D1.13: distributions pay whole shares and cash for the fraction.
    fraction_in_cash: bool = True
    # D1.16(a): a vested balance over $1,000 and up to $5,000 is paid without consent (by rollover).
    pay_small_balances_without_consent: bool = True
    # D1.16(b): a deferred balance (> $5,000, no election) is paid at the NRD (else the §10.2-2 date).
    deferred_payment_at_nrd: bool = True
    # A7.4 STATUTE: enforce §409(o)(1)(A)(ii) (5th Plan Year after separation) as an outer limit.
    enforce_409o_outer_limit: bool = True
    # D1.17 / E7: put installments "equal_principal" (default) or "level_payment".
    put_installment_method: str = "equal_principal"
    # D1.17 / E7 ASSUMPTION: the "reasonable rate" of interest on the unpaid balance.
    put_interest_rate: Decimal = Decimal("0.06")
    # D1.17: put Window 2 counted from the Committee's communication ("communication") or from the
    # later of that and January 1 of the following Plan Year ("plan_year_start").
    put_window2_from: str = "communication"
    # D1.19: spousal consent to a Participant's own lump sum (off: no annuity form exists).
    spousal_consent_for_distribution: bool = False


DEFAULT_SETTINGS = BenefitSettings()

# Fixed plan figures (F §10.1): not indexed, not GAPs.
SMALL_BALANCE_LIMIT = Decimal("1000.00")
NO_CONSENT_LIMIT = Decimal("5000.00")
# Printed placeholders (F §2 "415 Compensation", §5.1-2): production reads the indexed parameters.
PLAN_PRINTED_COMP_LIMIT = Decimal("225000")
PLAN_PRINTED_415C_LIMIT = Decimal("45000")
