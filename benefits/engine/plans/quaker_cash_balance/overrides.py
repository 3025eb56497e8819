"""Quaker cash balance: the plan's pre-PPA "Applicable Interest Rate" and the statute (issue 12)."""

from __future__ import annotations

from benefits.engine.overrides import StatutoryOverride

STATUTORY_OVERRIDES = (
    StatutoryOverride(
        plan_words=(
            "Applicable Interest Rate: the annual rate of interest on 30-year Treasury securities for the "
            "second month before the date of distribution."
        ),
        section="§1.2(e), §1.2(d), §5.11(b)",
        law=(
            "For plan years beginning in 2008 and later, the minimum value of a lump sum is set by the "
            "corporate-bond segment rates of that month (phased in over 2008-2011, in full from 2012), "
            "not by the 30-year Treasury rate."
        ),
        citation="IRC §417(e)(3) as amended by the Pension Protection Act of 2006 §302",
        effective="plan years beginning on or after January 1, 2008",
        engine=(
            "Values the grandfathered minimum lump sum of §5.11(b) on the law's basis for the distribution "
            "date; the account balance and the plan's own annuity conversion keep the plan's rate."
        ),
    ),
)
