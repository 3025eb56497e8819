"""Readings of the Quaker plan that change a benefit number: named settings with the SPEC's default.

The plan text wins; where it is silent (GAP) or unclear (AMBIG) the SPEC recommends an interim
reading. Each such reading is a field here, so the Committee can adopt another one as a Rule of the
Plan (§1.47) without a code change. docs/plan-notes/quaker-cash-balance/benefits.md lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from benefits.engine.settings import setting


@dataclass(frozen=True)
class BenefitSettings:
    revrul_2001_62_reading: Literal["unloaded", "loaded"] | None = setting(
        None,
        section="§1.2(f) Applicable Mortality Table",
        gap="Rev. Rul. 2001-62",
        alternative="loaded: the 94 GAR's loaded 1994 GAM static rates projected to 2002 (q65 .010641) "
        "instead of the unloaded basic rates (q65 .011441)",
        required=True,
        help="Which way the plan reads Rev. Rul. 2001-62's §417(e)(3) table (annuity starting dates "
        "from December 31, 2002 in plan years before 2008). Until an administrator sets it, the "
        "unloaded reading stands in and each figure says the reading is unconfirmed.",
    )
    q1_2000_interest_on_beginning_balance: bool = setting(
        True,
        section="§4.4(a)(ii), §4.1(a)",
        gap="GAP-14",
        alternative="false: the Beginning Balance did not exist on 12/31/1999, so Q1 2000 earns nothing",
    )
    round_each_posting: bool = setting(
        True,
        section="§4.3, §4.4",
        gap="GAP-15",
        alternative="false: keep credits unrounded (full precision) and round only what is shown",
    )
    interest_floor: Decimal | None = setting(
        None,
        section="§4.4(c)",
        gap="GAP-13",
        alternative="an annual floor (e.g. 0) on the Treasury Rate before the 12% cap",
    )
    final_year_credit: Literal["dec31", "separation"] = setting(
        "dec31",
        section="§4.3(b)",
        gap="GAP-2",
        alternative="separation: post the final-year credit on the Separation from Service date, so it "
        "is in the balance paid at the ASD",
        help="dec31 posts it on December 31 (after most ASDs) as a residual work item.",
    )
    prorate_compensation_limit: bool = setting(
        False,
        section="§1.12",
        gap="GAP-9",
        alternative="true: prorate the 401(a)(17) limit by the months of participation in the year",
    )
    compensation_input: Literal["annual_rate", "paid_while_active"] = setting(
        "annual_rate",
        section="§4.3(a), §1.12",
        gap="AMBIG-3, assumption A6",
        alternative="paid_while_active: the yearly figure is already the pay paid on Paydays while "
        "an Active Participant",
        help="annual_rate: countable = rate × monthly Paydays while Active / 12.",
    )
    disability_compensation: Literal["section_5_8", "rate_at_disability"] = setting(
        "section_5_8",
        section="§5.8, §1.17(a)",
        gap="AMBIG-7",
        alternative="rate_at_disability: §1.17(a)'s rate of Compensation when disability began",
    )
    form_conversion_basis: Literal["up84_8pct", "applicable"] = setting(
        "up84_8pct",
        section="§1.2, §5.10(c), §5.11(b)",
        gap="AMBIG-12",
        alternative="applicable: convert the life annuity to other forms on AIR and the Applicable "
        "Mortality Table",
    )
    form_conversion_interest: Decimal = setting(
        Decimal("0.08"), section="§1.2", help="The general basis rate (plan text: 8%)."
    )
    pay_whipsaw_projection: bool = setting(
        False,
        section="§1.2(d), §5.11(b)",
        gap="GAP-3",
        alternative="true: pay the greater of the balance and the PV of the projected NRD annuity",
    )
    cash_out_threshold: Decimal | None = setting(
        Decimal("5000"),
        section="§5.16, §5.10(a)(iii)",
        gap="GAP-6",
        alternative="none: the law's threshold in force on the ASD ($7,000 from 2024)",
    )
    cash_out_test_includes_floor: bool = setting(
        True,
        section="§5.16, §1.2(d)",
        gap="AMBIG-18",
        alternative="false: test the account balance alone",
    )
    relative_value_interest: Literal["plan_rate", "segment_rates"] = setting(
        "segment_rates",
        section="§5.10(d)(i), §1.2(e); Treas. Reg. §1.417(a)(3)-1(c)(2)",
        gap="GAP-6",
        alternative="plan_rate: the Applicable Interest Rate (30-year Treasury, 2nd month before the "
        "ASD) for every date",
        help="The relative values in the QJSA explanation compare every form on the §417(e)(3) basis "
        "for the ASD (Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)): the Applicable Mortality Table and, for "
        "ASDs in plan years from 2008, the segment rates of the 2nd month before the ASD (PPA phase-in "
        "2008-2011); before 2008 the Applicable Interest Rate (30-year Treasury). When the segment "
        "rates of the month are not loaded the values use the plan's Applicable Interest Rate and say "
        "so.",
    )
    project_future_pay: bool = setting(
        True,
        section="modeler",
        gap="GAP-4",
        alternative="false: estimates add no future Contribution Credits",
        help="Projections hold the last known pay and November Treasury Rate flat (an estimate).",
    )


DEFAULT_SETTINGS = BenefitSettings()
