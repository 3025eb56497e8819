"""Carver 401(k) plan settings: every reading of an ambiguous rule that changes a number.

Each field is a SPEC GAP or ASSUMPTION (SPEC §14.2, §14.4; docs/plan-notes/carver-401k/) with the SPEC's
default; the alternative reading is one switch away. Each field's ``setting(...)`` metadata carries
the plan section, GAP number and alternative for the web app. Documented in
docs/plan-notes/carver-401k/benefits.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from benefits.engine.settings import setting


@dataclass(frozen=True)
class BenefitSettings:
    """GAP readings that change Carver 401(k) account, contribution, loan and distribution figures."""

    match_annual_true_up: bool = setting(
        False,
        section="§3.4(a), (c)",
        gap="GAP-6, assumption A6",
        alternative="true: the 4% cap is applied to the Plan Year's totals, a year-end true-up "
        "(Example 1: $2,080 instead of $1,820)",
        help="The 2002+ match is computed each payroll period on that period's pay, with no year-end true-up.",
    )
    safe_harbor_2002_adopted: bool = setting(
        True,
        section="Intro, §3.4, §4.1(a)",
        gap="GAP-1",
        alternative="false: the 50% uncapped match continues after 2001 and vests on the schedule",
        help='"Proposed Amendment Number One" (the 2002 safe-harbor match, 100% vested) is treated as adopted.',
    )
    nonelective_on_schedule: bool = setting(
        True,
        section="§4.1(b), (d), §4.3",
        gap="GAP-8, assumption A9",
        alternative="false: a 401(k)(12) safe-harbor contribution, always 100% vested (Example 3: $30,430)",
        help="The Nonelective Employer Contribution account vests on the plan's vesting schedule.",
    )
    top_heavy_minimum_on_schedule: bool = setting(
        True,
        section="§12.3(a)",
        gap="GAP-10",
        alternative="false: the top-heavy minimum sub-account is always 100% vested",
        help="Top-heavy minimum contributions vest on the schedule, like the pre-2002 match.",
    )
    loan_base_nonelective_vested: bool = setting(
        True,
        section="§8.2 vs §8.4(b)(v)",
        gap="GAP-8, assumption A17",
        alternative="false: literal §8.2, the full Nonelective Net Value counts (Example 7: base "
        "$57,700, maximum $28,850)",
        help="Only the vested part of the Nonelective account counts toward the amount a participant may borrow.",
    )
    hardship_includes_nonelective: bool = setting(
        False,
        section="§7.4(d) vs §7.4(e)(v)",
        gap="GAP-8",
        alternative="true: the vested Nonelective balance is available for hardship, as §7.4(e)(v) lists it "
        "(Example 8 literal: $20,980)",
        help="The Nonelective account cannot be used for a hardship withdrawal (pending counsel's advice).",
    )
    hardship_excludes_safe_harbor: bool = setting(
        True,
        section="§7.4(d)",
        gap="GAP-9",
        alternative="false: the literal plan text, which allows them (Example 8: $20,500 instead of $18,500)",
        help="Special Contributions (QNECs) and the 2002+ safe-harbor match cannot be used for a hardship "
        "withdrawal, as Code §401(k)(2)(B) requires.",
    )
    hardship_before_tax_capped_by_net_value: bool = setting(
        True,
        section="§7.4(d)(i)",
        gap="assumption A15",
        alternative="false: the Before-Tax Contributions made, whatever the account is worth today",
        help="Before-Tax money available for hardship is the contributions made less earlier hardship "
        "withdrawals of them, but never more than the account's current value.",
    )
    hardship_suspends_deferrals: bool = setting(
        True,
        section="§3.3, §7.4(c)(iii)",
        gap="GAP-11, GAP-37",
        alternative="false: current regulations, no suspension for hardships from 2020",
        help="After a hardship withdrawal under the deemed test, the participant's deferrals stop for 12 months.",
    )
    hardship_pre2002_match_first: bool = setting(
        True,
        section="§7.4(e)",
        gap="GAP-28, assumption A24",
        alternative="false: the pre-2002 and 2002+ match are drawn pro rata",
        help="A hardship withdrawal takes the vested pre-2002 match before the 2002+ match.",
    )
    withdrawal_nonelective_vested_only: bool = setting(
        True,
        section="§7.3(a)(v)",
        gap="GAP-8",
        alternative="false: literal clause (v), the full Nonelective Net Value",
        help='An age 59½ withdrawal takes only the vested Nonelective balance (lead-in words "his vested '
        'interest").',
    )
    loan_rate_tie_rounds_up: bool = setting(
        True,
        section="§8.3",
        gap="GAP-29, assumption A18",
        alternative="false: a tie rounds down (prime 4.125% gives 5.00%)",
        help="A loan rate of prime + 1% that falls exactly halfway between quarter points rounds up "
        "(prime 4.125% gives 5.25%).",
    )
    loan_default_capped_at_quarter_end: bool = setting(
        True,
        section="§8.6(a)",
        gap="assumption A20",
        alternative="false: a plain 90 days after the missed due date",
        help="A loan defaults 90 days after a missed payment, but no later than the end of the next calendar "
        "quarter (Treas. Reg. §1.72(p)-1 Q&A-10).",
    )
    cash_out_counts_rollover: bool = setting(
        True,
        section="§7.5(g)",
        gap="assumption A13",
        alternative="false: Rollover Accounts are left out of the cash-out test",
        help="Rollover Accounts count toward the balance compared with the cash-out threshold.",
    )
    cash_out_threshold_override: Decimal | None = setting(
        None,
        section="§7.5(g)",
        gap="GAP-15",
        alternative="an amount, e.g. 7000 if the sponsor adopted the SECURE 2.0 limit",
        help="Leave empty to use the plan's own cash-out threshold ($3,500, $5,000 from 1998); an amount "
        "here replaces it.",
    )
    lump_sum_window_month_end_clamp: bool = setting(
        True,
        section="§7.6(c)",
        gap="GAP-5",
        alternative="false: the window ends on the 1st of the following month",
        help="When 13 months after termination falls on a day the month lacks (Jan 31 → Feb 31), the "
        "lump-sum window ends on that month's last day.",
    )
    rmd_age_rule: Literal["current_law", "plan_text"] = setting(
        "current_law",
        section="§7.11(b)-(c)",
        gap="GAP-16",
        alternative="plan_text: age 70½ for everyone (Example 9: RBD 2034-04-01 instead of 2038-04-01)",
        help="Required distributions start at the current-law age: 70½ for births before 7/1/1949, 72 before "
        "1951, 73 before 1960, 75 after (SECURE, SECURE 2.0).",
    )
    section_415c_percent_from_2002: Decimal = setting(
        Decimal("100"),
        section="§3.12(d)(ii)",
        gap="GAP-3",
        alternative="25: the plan text's percentage",
        help="From 2002, annual additions may not exceed this percentage of compensation (100% under EGTRRA).",
    )
    stop_deferrals_outside_quarterly_limit: bool = setting(
        True,
        section="§3.3",
        gap="GAP-23",
        alternative="false: stopping deferrals uses the quarter's one change too",
        help="A participant may stop deferrals at any time without using the quarter's one change; "
        "resuming does use it.",
    )

    annuity_illustration_basis: Literal["417e", "insurer_quotes_only"] = setting(
        "417e",
        section="§7.1(d), §7.5(a)-(b), §7.6(a)-(b)",
        gap="OUTSIDE (insurer pricing); the plan states no conversion basis",
        alternative="insurer_quotes_only: annuity amounts only from an insurer's quote entered for the "
        "date; without one the explanation cannot state the joint and survivor amounts",
        help="An annuity the insurer has not quoted is illustrated on the §417(e)(3) applicable mortality "
        "table and interest rate for the starting date, so the payment-options explanation can state "
        "amounts and relative values. The insurer's price on the purchase date governs.",
    )
    annuity_stability_period: Literal["plan_year", "month"] = setting(
        "plan_year",
        section="§7.1(d); Treas. Reg. §1.417(e)-1(d)(4)",
        gap="OUTSIDE: the plan names no stability period",
        alternative="month: the rate changes every calendar month",
        help="The §417(e)(3) rate used for an annuity illustration is fixed for the Plan Year (the calendar "
        "year) containing the starting date.",
    )
    annuity_lookback_months: Literal[1, 2, 3, 4, 5] = setting(
        2,
        section="§7.1(d); Treas. Reg. §1.417(e)-1(d)(4)",
        gap="OUTSIDE: the plan names no look-back month",
        alternative="1 to 5: another full calendar month before the stability period begins",
        help="The §417(e)(3) rate is that of the second full calendar month before the stability period "
        "begins (November for a calendar-year period).",
    )
    annuity_period_certain_years: tuple[int, ...] = setting(
        (),
        section="§7.1(a)(vi), §7.6(a)",
        gap="GAP-26",
        alternative="the lengths the sponsor offers, e.g. [5, 10, 15, 20]",
        help="The plan does not state the length of the period certain; only lengths listed here (or "
        "quoted by the insurer) are shown as payment options.",
    )


DEFAULT_SETTINGS = BenefitSettings()
