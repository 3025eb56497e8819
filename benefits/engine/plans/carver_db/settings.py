"""Plan settings for the Carver Federal Savings Bank Retirement Income Plan (the GAP readings).

Where the plan text is silent or ambiguous, the SPEC (§16; docs/plan-notes/carver-db/) proposes a
DEFAULT that the Plan Administrator must confirm (§13.2(D)). Each reading that changes a benefit
number is a field here, with the SPEC's default; docs/plan-notes/carver-db/benefits.md lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

from benefits.engine.settings import setting

# The Plan Freeze Date (Foreword, §1.1(PP)): no Credited Service, Earnings or accrual after it.
PLAN_FREEZE_DATE = date(2000, 12, 31)

FREEZE_CAPPED = "freeze_capped"
UNFROZEN_PROJECTION = "unfrozen_projection"


@dataclass(frozen=True)
class BenefitSettings:
    """GAP readings that change Carver DB benefit amounts."""

    revrul_2001_62_reading: Literal["unloaded", "loaded"] | None = setting(
        None,
        section='Table A (GATT Applicable Mortality Table "or such other table")',
        gap="Rev. Rul. 2001-62",
        alternative="loaded: the 94 GAR's loaded 1994 GAM static rates projected to 2002 (q65 .010641) "
        "instead of the unloaded basic rates (q65 .011441)",
        required=True,
        help="Which way the plan reads Rev. Rul. 2001-62's §417(e)(3) table (annuity starting dates "
        "from December 31, 2002 in plan years before 2008). Until an administrator sets it, the "
        "unloaded reading stands in and each figure says the reading is unconfirmed.",
    )

    projected_cs_mode: Literal["freeze_capped", "unfrozen_projection"] = setting(
        FREEZE_CAPPED,
        section="§3.1(A)(2)(b), §1.1(H), Foreword",
        gap="GAP-1",
        alternative="unfrozen_projection: for someone employed at the freeze who leaves before NRD, "
        "the Credited Service he 'would have had on his Normal Retirement Date' runs from hire to NRD "
        "as if there were no freeze (Example 3: $109.87 instead of $285.05 a month)",
        help="Interpretation I: no Credited Service accrues after 12/31/2000, so the projection "
        "equals the frozen Credited Service and the ratio is min(CS, 15)/15.",
    )
    final_earnings_window_ends_at_freeze: bool = setting(
        True,
        section="§1.1(P), Foreword",
        gap="GAP-2",
        alternative="false: the literal 10-year window before a post-freeze termination, whose years "
        "after 2000 have no countable Earnings (Final Earnings fall toward $0)",
        help="For anyone employed on 12/31/2000 the window is 1991-2000, 2000 counted as a full year.",
    )
    credited_service_from_participation: bool = setting(
        False,
        section="§1.1(H)",
        gap="GAP-19",
        alternative="true: Credited Service counts from the participation (Entry) date",
        help="Credited Service counts from the employment date ('employment ... corresponding with "
        "Service').",
    )
    freeze_day_included: bool = setting(
        True,
        section="§1.1(H), §4.2, §5.2",
        gap="GAP-19",
        alternative="false: 12/31/2000 itself is not counted (§1.1(HH)(8) 'on or after')",
        help="Employment through 12/31/2000 counts up to 1/1/2001 ('but not later than December 31, 2000').",
    )
    short_service_divide_by_years: bool = setting(
        True,
        section="§1.1(P)",
        gap="GAP-22",
        alternative="false: total Earnings ÷ 3",
        help="With fewer than 3 years of Service, Final Earnings = total Earnings ÷ years of Service.",
    )
    round_interpolated_factors: bool = setting(
        True,
        section="Table A, §4.2, §4.4, §5.2",
        gap="GAP-6",
        alternative="false: keep the monthly-interpolated factor unrounded (Example 4: $26,392.50 "
        "instead of $26,450)",
        help="Early and late factors are interpolated by month and rounded half up to .01.",
    )
    lrf_recursion: Literal["R1", "R2"] = setting(
        "R1",
        section="§4.2(C)(3)(c)",
        gap="GAP-6",
        alternative="R2: the prior Plan Year's result is rescaled by LRF(PYE_k)/LRF(PYE_k-1)",
        help="R1: the prior year's greatest amount is carried forward unscaled, as written.",
    )
    spouse_benefit_projects_service: bool = setting(
        False,
        section="§9.2(B)(1)",
        gap="GAP-8",
        alternative="true: Credited Service 'remained uninterrupted' to NRD despite the freeze "
        "(Example 5: $7,872.00 instead of $7,828.27 a year)",
        help="Credited Service and Final Earnings stay frozen at 12/31/2000.",
    )
    ss_option_commencement_age: int = setting(
        65,
        section="§8.3(A)(2)",
        gap="GAP-10",
        alternative="62: Social Security assumed to start at the earliest claiming age",
        help="Age at which the Social Security Option assumes Social Security starts.",
    )
    cash_out_threshold_after_2023: Decimal = setting(
        Decimal("5000"),
        section="§13.7(G)",
        gap="GAP-12",
        alternative="7000: the SECURE 2.0 limit, if a later amendment adopted it",
        help="The plan text's $5,000 (from 1/1/1998); $3,500 before.",
    )
    top_heavy_average_all_if_fewer_than_5: bool = setting(
        True,
        section="§6.2(B)",
        gap="GAP-17",
        alternative="false: divide by 5 even when fewer years are available",
        help="The top-heavy compensation average uses all years when fewer than 5 exist.",
    )
    relative_value_interest: Literal["plan_rate", "segment_rates"] = setting(
        "segment_rates",
        section="§7.4(E), Table A (GATT Applicable Interest Rate); Treas. Reg. §1.417(a)(3)-1(c)(2)",
        gap="GAP-11, GAP-13",
        alternative="plan_rate: the GATT Applicable Interest Rate (30-year Treasury, third full "
        "calendar month before the Retirement Date) for every date, a reasonable single basis for the "
        "annuity forms (Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)(B))",
        help="The §7.4(E) relative values compare every form on the §417(e)(3) basis for the "
        "Retirement Date (Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)): the applicable mortality table and, "
        "for plan years from 2008, the segment rates of the look-back month (PPA phase-in 2008-2011 "
        "blended with the 30-year Treasury rate); before 2008 the 30-year Treasury rate, which is "
        "also the plan's GATT rate. When the segment rates of the month are not loaded the values "
        "use the plan's GATT rate and say so. The plan's 1990s words (the 30-year Treasury rate) are "
        "overridden by the statute for later dates.",
    )
    minimum_benefit_per_month: Decimal = setting(
        Decimal("25"),
        section="§3.1(B)",
        alternative="a reading of $25 a month per month of Credited Service payable monthly ($300 a "
        "month per year), which the SPEC rejects as implausible",
        help="$25 × months of Credited Service, an annual amount.",
    )


DEFAULT_SETTINGS = BenefitSettings()
