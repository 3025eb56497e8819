"""Carver 401(k) plan settings: every reading of an ambiguous rule that changes a number.

Each field is a SPEC GAP or ASSUMPTION with the SPEC's default; the alternative reading is one switch
away. Documented in docs/plan-notes/carver-401k/benefits.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class BenefitSettings:
    # GAP-6 / A6, §3.4(a),(c): the 2002+ match is computed per payroll period with no year-end true-up.
    # True: the 4% cap is applied to the Plan Year's totals (Example 1: $2,080 instead of $1,820).
    match_annual_true_up: bool = False

    # GAP-1, Intro/§3.4: "Proposed Amendment Number One" (2002 safe harbor) treated as adopted.
    # False: the 50% uncapped match and the schedule on all match continue after 2001.
    safe_harbor_2002_adopted: bool = True

    # GAP-8 / A9, §4.1(b),(d), §4.3: the Nonelective account follows the vesting schedule.
    # False: treated as a 401(k)(12) safe-harbor contribution, 100% vested (Example 3: $30,430).
    nonelective_on_schedule: bool = True

    # GAP-10, §12.3(a): top-heavy minimums (source "top_heavy") follow the schedule like pre-2002 match.
    top_heavy_minimum_on_schedule: bool = True

    # GAP-8 / A17, §8.2 vs §8.4(b)(v): the loan base counts the *vested* Nonelective balance.
    # False: literal §8.2, the full Net Value (Example 7: base 57,700, maximum 28,850).
    loan_base_nonelective_vested: bool = True

    # GAP-8, §7.4(d) vs §7.4(e)(v): Nonelective is excluded from hardship (pending counsel).
    hardship_includes_nonelective: bool = False

    # GAP-9, §7.4(d): exclude Special Contributions (QNECs) and the 2002+ safe-harbor match from hardship,
    # as Code §401(k)(2)(B) requires. False: the literal plan text (Example 8: 20,500 instead of 18,500).
    hardship_excludes_safe_harbor: bool = True

    # A15, §7.4(d)(i): Before-Tax available for hardship = contributions made, net of earlier hardship
    # withdrawals of them, but never more than the current Before-Tax Net Value.
    hardship_before_tax_capped_by_net_value: bool = True

    # GAP-11 / GAP-37, §3.3, §7.4(c)(iii): the 12-month deferral suspension after a deemed-test hardship.
    # False: current regulations (no suspension for hardships from 2020).
    hardship_suspends_deferrals: bool = True

    # GAP-28 / A24: hardship takes vested pre-2002 match before the 2002+ match. False: pro rata.
    hardship_pre2002_match_first: bool = True

    # GAP-8, §7.3(a)(v): the 59½ withdrawal takes only the vested Nonelective balance (lead-in words
    # "his vested interest"). False: literal clause (v), the full Net Value.
    withdrawal_nonelective_vested_only: bool = True

    # A18 / GAP-29, §8.3: a prime + 1 exactly halfway between quarters rounds up. False: rounds down.
    loan_rate_tie_rounds_up: bool = True

    # A20, §8.6(a): default 90 days after the missed due date, never later than the end of the calendar
    # quarter after the quarter of the missed payment (Treas. Reg. §1.72(p)-1 Q&A-10).
    loan_default_capped_at_quarter_end: bool = True

    # A13, §7.5(g): Rollover Accounts count toward the cash-out threshold. False: excluded.
    cash_out_counts_rollover: bool = True

    # GAP-15, §7.5(g): the plan's own threshold ($3,500, $5,000 from 1998). A sponsor that adopted the
    # SECURE 2.0 limit enters it here (e.g. Decimal("7000")) with the date it took effect.
    cash_out_threshold_override: Decimal | None = None

    # GAP-5, §7.6(c): 13 months after termination lands on a missing day → the month's last day.
    lump_sum_window_month_end_clamp: bool = True

    # GAP-16, §7.11(b)-(c): the required-beginning age. "current_law": 70½ for births before 7/1/1949,
    # 72 before 1951, 73 before 1960, 75 after (SECURE, SECURE 2.0); "plan_text": 70½ for everyone.
    rmd_age_rule: str = "current_law"

    # GAP-3, §3.12(d)(ii): the percentage-of-compensation 415(c) limit from 2002 (EGTRRA 100%).
    # The plan text says 25%; set to Decimal("25") for the literal reading.
    section_415c_percent_from_2002: Decimal = Decimal("100")

    # GAP-23, §3.3: stopping deferrals ("terminate") is allowed at any time and does not use the
    # quarter's one change; resuming does. False: a stop counts as the quarter's change too.
    stop_deferrals_outside_quarterly_limit: bool = True


DEFAULT_SETTINGS = BenefitSettings()
