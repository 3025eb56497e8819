"""Readings of the Fairport ESOP that the plan text leaves open (SPEC Part D), as named settings.

Every field changes a number somewhere. The default is the SPEC's recommended reading; the
alternative is in each field's ``setting(...)`` metadata (plan section, GAP number, alternative) and in
docs/plan-notes/fairport-esop/benefits.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from benefits.engine.settings import setting


@dataclass(frozen=True)
class BenefitSettings:
    """GAP readings that change Fairport ESOP allocation, forfeiture, diversification and payout figures."""

    share_places: int = setting(
        4,
        section='F §2 "Stock", §8.1',
        gap="A4.3 ASSUMPTION",
        alternative="another number of decimal places for shares",
        help="Shares are kept to 4 decimal places (cash to cents) and each pool is split so the parts add up "
        "exactly.",
    )
    category_split: Literal["proportional_dollars"] = setting(
        "proportional_dollars",
        section="F §8.1, §4.2",
        gap="D1.26, E1b",
        alternative="dividends_first: released shares count first toward the dividend source (not implemented)",
        help="Released shares are split between the dividend (Category 1) and contribution (Category 2) pools "
        "in proportion to the dollars each paid on the loan.",
    )
    hours_test_for_exempt_terminations: bool = setting(
        True,
        section='F §2 "Active Participant"',
        gap="D1.4",
        alternative="false: the 1,000-hour test is waived for death, disability and retirement during the year",
        help="To share in the year's allocation a participant needs 1,000 hours, even one who died, became "
        "disabled or retired during the year (literal reading).",
    )
    annual_additions_basis: Literal["contributions", "fmv"] = setting(
        "contributions",
        section="F §5.1-3",
        gap="D1.8",
        alternative="fmv: released shares count at their fair market value",
        help="For the §415 limit, released shares count at the loan contributions used to release them.",
    )
    post_sale_residual_basis: Literal["compensation", "shares"] = setting(
        "compensation",
        section="F §8.1-2 vs §8.3",
        gap="D1.32",
        alternative="shares: allocated in proportion to shares held, as §8.3 says",
        help="Shares left after a sale of suspense shares repays the loan are allocated by compensation, as "
        "§8.1-2 says.",
    )
    break_forfeiture_on_year_end: bool = setting(
        True,
        section="F §9.5, §9.6",
        gap="D1.5",
        alternative="false: a later date (not implemented)",
        help="A forfeiture caused by a Break in Service becomes certain on December 31 of the first Plan Year "
        "with 500 hours or fewer.",
    )
    restoration_measure: Literal["dollars", "shares"] = setting(
        "dollars",
        section="F §9.5",
        gap="D1.6",
        alternative="shares: the same shares forfeited, at today's value",
        help="A restored forfeiture is the dollar amount forfeited.",
    )
    repayment_window_years: int = setting(
        5,
        section="F §9.5",
        gap="D1.6",
        alternative="another number of years, or the statute's earlier of 5 years after reemployment and 5 "
        "consecutive Breaks (Code §411(a)(7)(C), not implemented)",
        help="A returning employee must repay a distribution within this many years after the return to "
        'Service to have the forfeiture restored ("within five years").',
    )
    normal_retirement_age: int = setting(
        65,
        section="F §10.1, §10.2-1, §10.2-2",
        gap="D1.9",
        alternative="another age, if the Committee reads Normal Retirement Age differently",
        help="The Normal Retirement Age the plan leaves undefined, used for the latest payment date of "
        "§10.2-2; the Normal Retirement Date itself is at 65.",
    )
    count_entry_year_as_participation: bool = setting(
        True,
        section="F §6.4",
        gap="D1.10",
        alternative="false: only full Plan Years as a Participant count (a July 1 entry year does not)",
        help='For diversification, "years of participation" count the Plan Year in which the participant '
        "entered the plan.",
    )
    diversification_year6_basis: Literal["shares", "value"] = setting(
        "shares",
        section="F §6.4",
        gap="D1.11",
        alternative="value: 50% of the Account's value less shares already diversified, at value",
        help="The 50% diversification limit in the last election year is measured in shares.",
    )
    overlap_election_year: Literal["earlier", "later"] = setting(
        "earlier",
        section="F §6.4",
        gap="D1.12",
        alternative="later: the election counts toward the later year's quota",
        help="A diversification election made in the overlap (January 1 to the 90th day) counts toward the "
        "earlier year's quota.",
    )
    fraction_in_cash: bool = setting(
        True,
        section="F §10.6",
        gap="D1.13",
        alternative="false: the fraction of a share is dropped",
        help="Distributions pay whole shares and pay any fraction of a share in cash.",
    )
    pay_small_balances_without_consent: bool = setting(
        True,
        section="F §10.1",
        gap="D1.16(a)",
        alternative="false: the participant's consent is required above $1,000",
        help="A vested balance over $1,000 and up to $5,000 is paid without consent, by direct rollover to an "
        "IRA the plan administrator designates.",
    )
    deferred_payment_at_nrd: bool = setting(
        True,
        section="F §10.1, §10.2-2",
        gap="D1.16(b)",
        alternative="false: pay at the §10.2-2 date (60 days after the latest Plan Year close of age 65, the "
        "10th participation anniversary and termination)",
        help="A balance over $5,000 with no election is paid at the later of the Normal Retirement Date and "
        "age 62, but never after the §10.2-2 date.",
    )
    enforce_409o_outer_limit: bool = setting(
        True,
        section="F §10.2-1; Code §409(o)(1)(A)(ii)",
        gap="A7.4 STATUTE, D1.16(d)",
        alternative="false: no outer limit beyond the plan text",
        help="If elected, payment starts no later than one year after the close of the 5th Plan Year after "
        "separation, as the Code requires.",
    )
    put_installment_method: Literal["equal_principal", "level_payment"] = setting(
        "equal_principal",
        section="F §10.6",
        gap="D1.17, E7",
        alternative="level_payment: equal total payments, an annuity-due (E7: $7,793.77 a year)",
        help="When the Employer pays for put shares in installments, each installment repays an equal part of "
        "the price plus interest on the unpaid balance.",
    )
    put_interest_rate: Decimal = setting(
        Decimal("0.06"),
        section="F §10.6",
        gap="D1.17, E7 ASSUMPTION",
        alternative="any other reasonable rate the Committee sets",
        help='The "reasonable rate" of interest on the unpaid balance of a put paid in installments (6%).',
    )
    put_window2_from: Literal["communication", "plan_year_start"] = setting(
        "communication",
        section="F §10.6",
        gap="D1.17",
        alternative="plan_year_start: from the later of that communication and January 1 of the following "
        "Plan Year",
        help="The second 60-day put window runs from the day the Committee communicates the share's fair "
        "market value.",
    )
    spousal_consent_for_distribution: bool = setting(
        False,
        section="F §10.2-1",
        gap="D1.19",
        alternative="true: a married participant needs the spouse's consent",
        help="No spousal consent is needed for a participant's own lump sum (the plan offers no annuity form).",
    )


DEFAULT_SETTINGS = BenefitSettings()

# Fixed plan figures (F §10.1): not indexed, not GAPs.
SMALL_BALANCE_LIMIT = Decimal("1000.00")
NO_CONSENT_LIMIT = Decimal("5000.00")
