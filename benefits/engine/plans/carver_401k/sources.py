"""The plan's Accounts (sources) and the orders in which the plan draws on them (§1.1, §4.1, §7.3, §7.4,
§8.4(b)).

The Matching Contribution Account is split at 1/1/2002 because the two parts vest differently
(§4.1(a), (b)); Special Contributions sit inside the Before-Tax Account (§1.1) but are kept apart
because the law treats them differently for hardships (GAP-9).
"""

from __future__ import annotations

from .settings import BenefitSettings

BEFORE_TAX = "before_tax"
SPECIAL = "special"
MATCHING_PRE2002 = "matching_pre2002"
MATCHING_2002 = "matching_2002"
ROLLOVER = "rollover"
DISCRETIONARY = "discretionary"
NONELECTIVE = "nonelective"
TOP_HEAVY = "top_heavy"  # §12.3(a) minimum, a sub-account of Matching (GAP-10); not a contract key

# The contract's source keys (engine-cli.md), in statement order.
CONTRACT_SOURCES = (
    BEFORE_TAX,
    MATCHING_PRE2002,
    MATCHING_2002,
    ROLLOVER,
    DISCRETIONARY,
    NONELECTIVE,
    SPECIAL,
)
ALL_SOURCES = CONTRACT_SOURCES + (TOP_HEAVY,)

LABELS = {
    BEFORE_TAX: "Before-Tax Contribution Account",
    SPECIAL: "Special Contributions (in the Before-Tax Contribution Account)",
    MATCHING_PRE2002: "Matching Contribution Account, contributions before 2002",
    MATCHING_2002: "Matching Contribution Account, contributions from 2002",
    ROLLOVER: "Rollover Contribution Account",
    DISCRETIONARY: "Discretionary Employer Contribution Account",
    NONELECTIVE: "Nonelective Employer Contribution Account",
    TOP_HEAVY: "Matching Contribution Account, top-heavy minimum",
}

# Employer sources that can have forfeitures (§4.2) and a §4.1(d) "D".
EMPLOYER_SOURCES = (MATCHING_PRE2002, MATCHING_2002, DISCRETIONARY, NONELECTIVE, TOP_HEAVY, SPECIAL)


def scheduled_sources(settings: BenefitSettings) -> frozenset[str]:
    """Sources vested by the §4.1(c) schedule; every other source is always 100% vested (§4.1(a)).

    The answer for the settings last asked about is kept (frozen settings, so it cannot change): a
    census asks several times a participant with the request's one settings object."""
    global _last_scheduled
    last = _last_scheduled  # one tuple, read once (another thread may replace it)
    if last is not None and last[0] is settings:
        return last[1]
    out = _scheduled(settings)
    _last_scheduled = (settings, out)
    return out


_last_scheduled: tuple[BenefitSettings, frozenset[str]] | None = None


def _scheduled(settings: BenefitSettings) -> frozenset[str]:
    out = {MATCHING_PRE2002, DISCRETIONARY}
    if settings.nonelective_on_schedule:
        out.add(NONELECTIVE)
    if settings.top_heavy_minimum_on_schedule:
        out.add(TOP_HEAVY)
    if not settings.safe_harbor_2002_adopted:
        out.add(MATCHING_2002)  # without the amendment the 2002+ match vests like the old match
    return frozenset(out)


def section_for(source: str, settings: BenefitSettings) -> str:
    if source in scheduled_sources(settings):
        return "§4.1(b)-(d)"
    return "§4.1(a)"


# §7.3(a) / §7.4(e) / §8.4(b) order: Before-Tax (with Special), Rollover, Matching, Discretionary,
# Nonelective. Within Matching, pre-2002 first for hardship (A24); the top-heavy minimum is "deemed a
# Matching Contribution ... for withdrawals" (§12.3(a)) and follows the match.
DRAW_ORDER = (
    BEFORE_TAX,
    SPECIAL,
    ROLLOVER,
    MATCHING_PRE2002,
    TOP_HEAVY,
    MATCHING_2002,
    DISCRETIONARY,
    NONELECTIVE,
)
