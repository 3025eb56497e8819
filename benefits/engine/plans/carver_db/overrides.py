"""Carver DB: the plan's pre-PPA lump-sum words and the statute that overrides them (issue 12)."""

from __future__ import annotations

from benefits.engine.overrides import StatutoryOverride

STATUTORY_OVERRIDES = (
    StatutoryOverride(
        plan_words=(
            "The small-benefit Value uses the GATT Applicable Interest Rate: the interest rate on 30-year "
            "Treasury securities for the third full calendar month preceding the termination, retirement "
            "or death."
        ),
        section="§13.7(G), Table A",
        law=(
            "For plan years beginning in 2008 and later the law sets the minimum present value: the three "
            "corporate-bond segment rates of that month, phased in over 2008-2011 (20%, 40%, 60%, 80% of "
            "the segment rates, the rest the 30-year Treasury rate), in full from 2012."
        ),
        citation="IRC §417(e)(3) as amended by the Pension Protection Act of 2006 §302; §411(a)(11)(B)",
        effective="plan years beginning on or after January 1, 2008",
        engine=(
            "Values the small-benefit cash-out and its lump sum on the law's basis for the distribution "
            "date, keeping the plan's look-back month; before 2008, the 30-year Treasury rate as the plan says."
        ),
    ),
    StatutoryOverride(
        plan_words=(
            'The 1983 Group Annuity Mortality Table, 50% male and 50% female, "or such other mortality '
            'table as may be prescribed by the Secretary of the Treasury".'
        ),
        section="Table A",
        law=(
            "The applicable mortality table the IRS prescribes for the plan year (stability period) that "
            "contains the distribution."
        ),
        citation="IRC §417(e)(3)(B); Rev. Rul. 2001-62; Rev. Rul. 2007-67; IRS notices from 2008",
        effective="annuity starting dates on or after December 31, 2002, and each later table from its year",
        engine=(
            "Uses the table in force for the plan year. The 2003-2007 table (Rev. Rul. 2001-62) is not in the "
            "engine, so a value for those years is reported as missing rather than estimated."
        ),
    ),
)
