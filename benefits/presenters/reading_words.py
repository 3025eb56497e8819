"""Plain words for the plan readings (the engine's named settings) and the values they take.

The engine names each reading for code (``projected_cs_mode``); people read the label here. A reading
without a label falls back to its name in words, so a new reading is never shown as a key.
"""

from __future__ import annotations

READING_LABELS = {
    # service and vesting
    "first_year_overlap_counts": "First year of employment and the next plan year both count",
    "parity_rule": "When service before a break in service is lost",
    "top_heavy_years": "Plan years in which the plan was top-heavy",
    "plan_termination_date": "Date of a plan termination or partial termination",
    "full_vesting_at": "When a participant becomes fully vested",
    "vested_keep_service_after_five_breaks": "Vested participants keep earlier service after five breaks",
    "participation_date_for_rehires": "Participation date of a rehired employee",
    "early_retirement_requires_vesting": "Early retirement requires being vested",
    "erd_after_early_termination": "Earliest retirement date after leaving early",
    "old_schedule_before_1998_09_15": "The old vesting schedule applies before September 15, 1998",
    "pre_plan_vesting_cap_years": "Most years of service before the plan that count for vesting",
    "revrul_2001_62_reading": "Which way the plan reads the 2003–2007 mortality table of Rev. Rul. 2001-62",
    "early_retirement_service": "How service toward early retirement is counted",
    "change_in_control_date": "Date of a change in control",
    "normal_retirement_age": "Normal retirement age",
    "nrd_first_of_following_month": "Normal retirement date is the first of the following month",
    "vesting_schedule": "Vesting schedule",
    "year_of_service_hours": "Hours that make a year of service",
    "break_at_most_hours": "Hours at or below which a year is a break in service",
    "early_retirement_age": "Early retirement age",
    "early_retirement_years": "Years of service needed for early retirement",
    "full_vesting_on_death_or_disability": "Full vesting on death or disability",
    # defined benefit
    "projected_cs_mode": "Credited service projected to normal retirement",
    "final_earnings_window_ends_at_freeze": "Final earnings are measured up to the plan freeze",
    "credited_service_from_participation": "Credited service counts from the participation date",
    "freeze_day_included": "The freeze date itself counts as service",
    "short_service_divide_by_years": "Average earnings with fewer years are divided by the years worked",
    "round_interpolated_factors": "Interpolated factors are rounded",
    "lrf_recursion": "How the late retirement increase is compounded",
    "spouse_benefit_projects_service": "The spouse's death benefit projects service",
    "ss_option_commencement_age": "Age at which the level income option's Social Security estimate starts",
    "cash_out_threshold_after_2023": "Automatic cash-out limit from 2024",
    "top_heavy_average_all_if_fewer_than_5": "Top-heavy average uses all years when there are fewer than five",
    "relative_value_interest": "Interest rate for relative values",
    "minimum_benefit_per_month": "Minimum monthly benefit",
    # cash balance
    "q1_2000_interest_on_beginning_balance": "First-quarter 2000 interest is credited on the beginning balance",
    "round_each_posting": "Each credit is rounded to the cent when posted",
    "interest_floor": "Minimum interest crediting rate",
    "final_year_credit": "Pay credit in the year of leaving",
    "prorate_compensation_limit": "The compensation limit is prorated for a partial year",
    "compensation_input": "How pay is supplied",
    "disability_compensation": "Pay credited while disabled",
    "form_conversion_basis": "Basis for converting the account to an annuity",
    "form_conversion_interest": "Interest rate for converting the account to an annuity",
    "pay_whipsaw_projection": "Lump sums include the projected interest credits",
    "cash_out_threshold": "Automatic cash-out limit",
    "cash_out_test_includes_floor": "The cash-out test includes the minimum benefit",
    "project_future_pay": "Estimates project future pay",
    # 401(k)
    "match_annual_true_up": "The match is trued up at year end",
    "safe_harbor_2002_adopted": "The 2002 safe harbor design was adopted",
    "nonelective_on_schedule": "Nonelective contributions vest on the schedule",
    "top_heavy_minimum_on_schedule": "The top-heavy minimum vests on the schedule",
    "loan_base_nonelective_vested": "Loans may use the vested nonelective account",
    "hardship_includes_nonelective": "Hardship withdrawals may use nonelective contributions",
    "hardship_excludes_safe_harbor": "Hardship withdrawals exclude safe harbor contributions",
    "hardship_before_tax_capped_by_net_value": "Hardship from before-tax money is capped by its net value",
    "hardship_suspends_deferrals": "A hardship withdrawal suspends contributions",
    "hardship_pre2002_match_first": "Hardship withdrawals take pre-2002 match first",
    "withdrawal_nonelective_vested_only": "Withdrawals of nonelective money are limited to the vested part",
    "loan_rate_tie_rounds_up": "A loan rate exactly halfway rounds up",
    "loan_default_capped_at_quarter_end": "A loan default is declared at the end of the quarter",
    "cash_out_counts_rollover": "The cash-out limit counts rollover money",
    "cash_out_threshold_override": "Automatic cash-out limit (if the plan's own is replaced)",
    "lump_sum_window_month_end_clamp": "A lump sum window ending on a short month ends on its last day",
    "rmd_age_rule": "Age at which required minimum distributions start",
    "section_415c_percent_from_2002": "Annual additions limit as a percentage of pay from 2002",
    "stop_deferrals_outside_quarterly_limit": "Contributions stop outside the quarterly limit",
    # ESOPs
    "share_places": "Decimal places kept for shares",
    "category_split": "How an allocation is split between account categories",
    "hours_test_for_exempt_terminations": "The hours test applies to leavers exempt from it",
    "annual_additions_basis": "What counts toward the annual additions limit",
    "post_sale_residual_basis": "How shares left after a sale are allocated",
    "break_forfeiture_on_year_end": "Forfeitures happen at the end of the year of the fifth break",
    "restoration_measure": "How a restored forfeiture is measured",
    "repayment_window_years": "Years allowed to repay a distribution to restore a forfeiture",
    "count_entry_year_as_participation": "The entry year counts as a year of participation",
    "diversification_year6_basis": "Basis of the sixth-year diversification election",
    "overlap_election_year": "Which election year applies when two overlap",
    "fraction_in_cash": "Fractional shares are paid in cash",
    "pay_small_balances_without_consent": "Small balances are paid without consent",
    "deferred_payment_at_nrd": "Deferred payments start at normal retirement",
    "enforce_409o_outer_limit": "Distributions keep to the law's outer time limit",
    "put_installment_method": "How installments for sold-back shares are figured",
    "put_interest_rate": "Interest rate on installments for sold-back shares",
    "put_window2_from": "When the second window to sell shares back opens",
    "spousal_consent_for_distribution": "Distributions need the spouse's consent",
    "threshold_before_1998": "Automatic cash-out limit before 1998",
    "threshold_from_1998": "Automatic cash-out limit from 1998",
    "statutory_thresholds": "Later changes of the law's cash-out limit",
    "direct_payment_max": "Largest amount paid directly instead of rolled over",
    "small_mandatory_paid_directly": "Small automatic distributions are paid directly",
    "mandatory_age_floor": "Age from which an automatic distribution may be made",
    "lookback_conflict": "What happens when the lookback rules conflict",
    # 401(k) annuities bought from an insurer
    "annuity_illustration_basis": "How annuities the insurer has not priced are estimated",
    "annuity_stability_period": "How long the federal interest rate for annuity estimates stays fixed",
    "annuity_lookback_months": "Months before that period whose federal rate is used",
    "annuity_period_certain_years": "Guaranteed periods offered with a life annuity",
}

# The values a reading with a fixed set of choices takes, in words.
VALUE_LABELS = {
    "erisa_parity": "lost only if not vested and the breaks outnumber the earlier years (ERISA rule of parity)",
    "five_breaks_only": "lost after five breaks in a row",
    "freeze_capped": "capped at the plan freeze",
    "unfrozen_projection": "projected to normal retirement as if there were no freeze",
    "R1": "compounded year by year",
    "plan_rate": "the plan's own rate",
    "nra": "at normal retirement age",
    "original": "the original participation date",
    "dec31": "through December 31",
    "annual_rate": "an annual rate of pay",
    "section_5_8": "as the plan's disability section says",
    "up84_8pct": "UP-84 mortality and 8% interest",
    "sixtieth_birthday": "the 60th birthday",
    "current_law": "as the law now says",
    "elapsed": "elapsed time",
    "proportional_dollars": "in proportion to dollars",
    "contributions": "contributions",
    "compensation": "pay",
    "dollars": "in dollars",
    "shares": "in shares",
    "earlier": "the earlier year",
    "equal_principal": "equal principal payments",
    "communication": "from the notice of the share value",
    "six_year_graded": "six-year graded",
    "escalate": "sent to the committee to decide",
    "417e": "the federal interest rates and mortality table for the starting date",
    "insurer_quotes_only": "only from an insurer's quote",
    "true": "yes",
    "false": "no",
}


def humanize(key: str) -> str:
    """Words for a key nobody has labelled yet (never shown with its underscores)."""
    return key.replace("_", " ").strip().capitalize()


def reading_label(name: str) -> str:
    return READING_LABELS.get(name) or humanize(name)


def value_label(value: str) -> str:
    return VALUE_LABELS.get(value) or value.replace("_", " ")
