"""The year's elective deferral dollar limit for one person: Code §402(g)(1) plus the §414(v) catch-up
where the plan offers it (age 50 by the end of the year; SECURE 2.0 §109's higher amount for ages 60
to 63 from 2025). The dollar figures are the dated parameters in ``benefits/engine/parameters``; for a
year not published yet the latest published figure is used and the limit says it is projected.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import age_on
from benefits.engine.money import ZERO
from benefits.engine.parameters import ParameterNotInForce, parameter

CATCH_UP_AGE = 50  # §414(v)(5)(A): attains age 50 by the end of the taxable year
ENHANCED_CATCH_UP_AGES = range(60, 64)  # §414(v)(2)(E)(i): attains 60, 61, 62 or 63 in the year


@dataclass(frozen=True)
class DeferralLimit:
    """The §402(g) limit plus any catch-up the plan allows at the person's age, each with its source."""

    year: int
    base: Decimal
    catch_up: Decimal
    total: Decimal
    sources: tuple[str, ...]
    catch_up_note: str  # plain words: whether and why catch-up applies
    projected: bool = False  # the year's figures are not published yet: the latest published are used


def _value(name: str, year: int) -> tuple[Decimal | None, bool]:
    """The parameter for the year (None before it existed), or the latest published one, projected."""
    p = parameter(name)
    on = date(year, 1, 1)
    try:
        return p.at_or_none(on), False
    except ParameterNotInForce:
        if on < p.first_date:
            return None, False
        return p.latest_published(on).value, True


def elective_deferral_limit(
    year: int,
    birth_date: date,
    *,
    catch_up_offered: bool,
    plan_base: Decimal | None = None,
    why_not: str = "",
) -> DeferralLimit:
    """The year's limit. ``plan_base`` is a §402(g) figure the plan states for the year (else the
    parameter); ``why_not`` is the plain-words reason when the plan offers no catch-up."""
    projected = False
    if plan_base is not None:
        base = plan_base
    else:
        found, projected = _value("irs_402g_elective_deferral_limit", year)
        if found is None:
            raise ValueError(f"no §402(g) limit is known for {year}")
        base = found
    if projected:
        first = (
            f"Internal Revenue Code §402(g)(1): ${base:,.0f}, the latest published limit "
            f"(the {year} limit is not published yet)"
        )
    else:
        first = f"Internal Revenue Code §402(g)(1): ${base:,.0f} for {year}"
    sources = [first]
    age = age_on(birth_date, date(year, 12, 31))  # the age attained by the end of the year
    if age < CATCH_UP_AGE:
        return DeferralLimit(year, base, ZERO, base, tuple(sources), "", projected)
    if not catch_up_offered:
        return DeferralLimit(year, base, ZERO, base, tuple(sources), why_not, projected)
    regular, catch_up_projected = _value("irs_414v_catch_up_limit", year)
    catch_up, rule = regular or ZERO, "§414(v)(2)(B)"
    if age in ENHANCED_CATCH_UP_AGES:
        enhanced, enhanced_projected = _value("irs_414v_catch_up_limit_age_60_63", year)
        if enhanced is not None:
            catch_up = enhanced
            rule = "§414(v)(2)(E), added by the SECURE 2.0 Act §109, for ages 60 to 63"
            catch_up_projected = enhanced_projected
    if catch_up == ZERO:
        return DeferralLimit(year, base, ZERO, base, tuple(sources), "", projected)
    sources.append(f"Internal Revenue Code {rule}: ${catch_up:,.0f} catch-up for {year}")
    note = f"You reach age {age} by the end of {year}, so you may add a catch-up of ${catch_up:,.0f}."
    return DeferralLimit(
        year, base, catch_up, base + catch_up, tuple(sources), note, projected or catch_up_projected
    )
