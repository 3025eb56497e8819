"""Readings of the Carver ESOP Sixth Amendment (§10.6) the text leaves open (SPEC Part B, D2).

Only §10.6 of this plan is known (GAP D2.1): the Normal Retirement Age is an input, not a default.
Each field's ``setting(...)`` metadata gives the section, GAP and alternative reading for the web app;
docs/plan-notes/carver-esop/benefits.md lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

from benefits.engine.settings import setting


@dataclass(frozen=True)
class BenefitSettings:
    """Readings of the Carver ESOP's amended §10.6 cash-out and automatic-rollover rules."""

    threshold_before_1998: Decimal = setting(
        Decimal("3500.00"),
        section="C §10.6(a)",
        alternative="none: the amount is printed in the plan text",
        help="Accounts worth this much or less are cashed out when the distribution is made before January 1, "
        "1998.",
    )
    threshold_from_1998: Decimal = setting(
        Decimal("5000.00"),
        section="C §10.6(a)",
        alternative="none: the amount is printed in the plan text (see statutory_thresholds for later law)",
        help="Accounts worth this much or less are cashed out when the distribution is made on or after "
        "January 1, 1998.",
    )
    statutory_thresholds: tuple[tuple[date, Decimal], ...] = setting(
        (),
        section='C §10.6(a) "(or such other amount as may be permitted under section 417(e))"',
        gap="D2.2",
        alternative="follow the statute, e.g. $7,000 from 2024-01-01 (SECURE 2.0 §304), only once counsel "
        "confirms the plan adopts it",
        help="Later cash-out thresholds by effective date; empty means the printed $5,000 stays.",
    )
    direct_payment_max: Decimal = setting(
        Decimal("1000.00"),
        section="C §10.6(b)",
        alternative="none: the amount is printed in the plan text",
        help="A Mandatory Distribution of this much or less may be paid directly to the participant instead "
        "of rolled over to an IRA.",
    )
    small_mandatory_paid_directly: bool = setting(
        True,
        section="C §10.6(b)",
        gap="D2.8",
        alternative="false: roll it over to the IRA the Plan Administrator designates",
        help="A Mandatory Distribution of $1,000 or less with no participant election is paid directly to the "
        "participant in cash.",
    )
    mandatory_age_floor: int = setting(
        62,
        section="C §10.6(b)(ix)",
        gap="D2.14",
        alternative="none: the age is printed in the plan text",
        help="A cash-out is a Mandatory Distribution only before the later of the Normal Retirement Age and "
        "this age.",
    )
    lookback_conflict: Literal["escalate", "current_value", "lookback"] = setting(
        "escalate",
        section="C §10.6(a) vs §10.6(c)",
        gap="D2.3",
        alternative="current_value: use today's value with no flag; lookback: any prior Valuation Date value "
        "over the threshold means no cash-out",
        help="When the value is now under the threshold but was over it on a prior Valuation Date, report the "
        "§10.6(a) cash-out and refer the case to the Committee.",
    )


DEFAULT_SETTINGS = BenefitSettings()

AMENDMENT_EFFECTIVE = date(2005, 3, 28)  # Amendment 1; first date of a Mandatory Distribution (b)(ix)
THRESHOLD_CHANGE = date(1998, 1, 1)


def statute_following_settings(adopted_from: date = THRESHOLD_CHANGE) -> BenefitSettings:
    """The GAP D2.2 alternative: the threshold follows "such other amount as may be permitted under
    section 417(e)", read from the dated parameter ``irs_411a11_cash_out_limit`` for changes on or
    after ``adopted_from`` (e.g. $7,000 from 2024-01-01). Only once counsel confirms it."""
    from benefits.engine.parameters import parameter

    entries = parameter("irs_411a11_cash_out_limit").entries
    amounts = tuple(
        (e.effective, e.value)
        for e in entries
        if e.value is not None and e.effective > adopted_from and e.value != Decimal("5000")
    )
    return BenefitSettings(statutory_thresholds=amounts)
