"""Which market rates each plan needs for a calculation date, and why (pure Python: no Django).

The web app uses this to flag a series an administrator has not loaded yet, before a participant
meets a figure that cannot be computed. Each need cites the plan section that asks for the rate. What a
plan reads is the plan's own (``Plan.market_needs``, in its package); the law's rule shared by every
plan that pays lump sums on a market rate (segment rates for relative values) is here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from benefits.engine.dates import add_months
from benefits.engine.settings import SettingError, field_names, override

SEGMENTS = ("417e_segment_1", "417e_segment_2", "417e_segment_3")


@dataclass(frozen=True)
class Need:
    series: str  # MarketRate series key
    month: date  # first of the month the rate is for
    purpose: str  # in plain words, with the plan section


# A plan's own needs for a date, and the look-back month of its lump sums (None when it pays none on
# a market rate): ``Plan.market_needs``.
PlanNeeds = tuple[tuple[Need, ...], date | None]


def month_before(on: date, months: int) -> date:
    return add_months(date(on.year, on.month, 1), -months)


def readings(defaults: Any, settings: Mapping[str, object]) -> Any:
    """The plan's settings group with the administrator's readings applied (a reading that does not
    convert leaves the default: the readings page refuses such values before they are stored)."""
    mine = {k: v for k, v in settings.items() if k in field_names(type(defaults))}
    try:
        return override(defaults, mine)
    except SettingError:
        return defaults


def market_needs(plan_key: str, on: date, settings: Mapping[str, object] | None = None) -> tuple[Need, ...]:
    """The rates ``plan_key`` reads for a calculation on ``on``: the plan's own (its package's
    ``market_needs``, citing its sections) and the law's segment rates for relative values."""
    from benefits.engine.plans import get_plan

    settings = settings or {}
    own = get_plan(plan_key).market_needs
    if own is None:
        return ()
    needs, lookback = own(on, settings)
    # Relative values are on the §417(e)(3) basis for the date unless the plan's reading chooses its
    # own rate (Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)); segment rates exist from 2008 plan years.
    if lookback is not None and on.year >= 2008 and settings.get("relative_value_interest") != "plan_rate":
        needs = (
            *needs,
            *(
                Need(
                    s, lookback, f"relative values of payment forms in {on:%B %Y} (§417(e)(3) segment rates)"
                )
                for s in SEGMENTS
            ),
        )
    return tuple(needs)


# The rates a payment's amounts rest on for its start date: monthly rates published after the month
# they are for (the IRS's §417(e)(3) segment-rate notice and the Federal Reserve's H.15 monthly average
# of the 30-year Treasury yield both appear in the following month). The November 10-year yield of the
# Quaker interest credit and the prime rate of a loan are not a start date's look-back rates: a credit
# for a later year is projected on the last published yield, and a loan is priced when it is made.
START_DATE_SERIES = frozenset({"treasury_30y", *SEGMENTS})


def start_date_needs(
    plan_key: str, on: date, settings: Mapping[str, object] | None = None
) -> tuple[Need, ...]:
    """The look-back rates that fix the amounts of a payment starting on ``on`` (its lump sum, its
    relative values, an annuity illustrated on the §417(e)(3) basis): the plan's own look-back months
    (``Plan.market_needs``), never named here."""
    return tuple(n for n in market_needs(plan_key, on, settings) if n.series in START_DATE_SERIES)


def start_date_months(
    plan_key: str, on: date, settings: Mapping[str, object] | None = None
) -> tuple[date, ...]:
    """The months whose published rates a start on ``on`` needs, earliest first."""
    return tuple(sorted({n.month for n in start_date_needs(plan_key, on, settings)}))


def published_in(month: date) -> date:
    """The month a monthly rate for ``month`` is published: the following month (IRS notice; H.15)."""
    return add_months(date(month.year, month.month, 1), 1)
