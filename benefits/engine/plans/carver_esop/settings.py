"""Readings of the Carver ESOP Sixth Amendment (§10.6) the text leaves open (SPEC Part B, D2).

Only §10.6 of this plan is known (GAP D2.1): the Normal Retirement Age is an input, not a default.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class BenefitSettings:
    # C §10.6(a): "$3,500 ... prior to January 1, 1998 and $5,000 ... on or after January 1, 1998".
    threshold_before_1998: Decimal = Decimal("3500.00")
    threshold_from_1998: Decimal = Decimal("5000.00")
    # D2.2: "(or such other amount as may be permitted under section 417(e))". Default: the printed
    # $5,000 stays. Alternative: follow the statute, e.g. ((date(2024, 1, 1), Decimal("7000.00")),)
    # (SECURE 2.0 §304), only once counsel confirms the plan adopts it.
    statutory_thresholds: tuple[tuple[date, Decimal], ...] = ()
    # C §10.6(b): "any Mandatory Distribution not in excess of $1,000 may be distributed directly".
    direct_payment_max: Decimal = Decimal("1000.00")
    # D2.8: the Plan Administrator's choice for a Mandatory Distribution of $1,000 or less with no
    # election: pay directly (default) or roll over to the designated IRA.
    small_mandatory_paid_directly: bool = True
    # C §10.6(b)(ix): the age after which a cash-out is not a Mandatory Distribution is the later of
    # the Normal Retirement Age and this age (D2.14).
    mandatory_age_floor: int = 62
    # D2.3: current value (§10.6(a)) vs look-back to a prior Valuation Date (§10.6(c)). Default
    # "escalate": report the §10.6(a) result and flag the case for the Committee. Alternatives:
    # "current_value" (no flag) or "lookback" (any prior value over the threshold means no cash-out).
    lookback_conflict: str = "escalate"


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
