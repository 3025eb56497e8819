"""Which market rates each plan needs for a calculation date, and why (pure Python: no Django).

The web app uses this to flag a series an administrator has not loaded yet, before a participant
meets a figure that cannot be computed. Each need cites the plan section that asks for the rate.
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


def _month_before(on: date, months: int) -> date:
    return add_months(date(on.year, on.month, 1), -months)


def _readings(defaults: Any, settings: Mapping[str, object]) -> Any:
    """The plan's settings group with the administrator's readings applied (a reading that does not
    convert leaves the default: the readings page refuses such values before they are stored)."""
    mine = {k: v for k, v in settings.items() if k in field_names(type(defaults))}
    try:
        return override(defaults, mine)
    except SettingError:
        return defaults


def market_needs(plan_key: str, on: date, settings: Mapping[str, object] | None = None) -> tuple[Need, ...]:
    settings = settings or {}
    needs: list[Need] = []
    lookback: date | None = None
    if plan_key == "quaker-cash-balance":
        needs.append(
            Need(
                "treasury_10y_november",
                date(on.year - 1, 11, 1),
                f"the interest credited for the {on.year} Plan Year (§4.4(c))",
            )
        )
        lookback = _month_before(on, 2)
        needs.append(Need("treasury_30y", lookback, f"lump sums paid in {on:%B %Y} (§1.2(e))"))
    elif plan_key == "carver-db":
        lookback = _month_before(on, 3)
        needs.append(Need("treasury_30y", lookback, f"small-benefit cash-outs in {on:%B %Y} (§13.7(G))"))
    elif plan_key == "carver-401k":
        needs.append(
            Need(
                "prime_rate", date(on.year, on.month, 1), f"the rate of loans requested in {on:%B %Y} (§8.3)"
            )
        )
        from benefits.engine.plans.carver_401k.annuities import illustration_lookback_month
        from benefits.engine.plans.carver_401k.settings import DEFAULT_SETTINGS as K_DEFAULTS

        readings = _readings(K_DEFAULTS, settings)
        if readings.annuity_illustration_basis == "417e":
            # Annuities without an insurer quote are illustrated on the §417(e)(3) basis of the look-back
            # month before the stability period (the plan's own rule, docs/plan-notes/carver-401k/benefits.md).
            month = date.fromisoformat(illustration_lookback_month(on, readings) + "-01")
            needs.extend(
                Need(
                    s,
                    month,
                    f"annuity amounts and relative values for starts in {on:%B %Y} (§7.1(d), §417(e)(3))",
                )
                for s in SEGMENTS
            )
    # Relative values are on the §417(e)(3) basis for the date unless the plan's reading chooses its
    # own rate (Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)); segment rates exist from 2008 plan years.
    if lookback is not None and on.year >= 2008 and settings.get("relative_value_interest") != "plan_rate":
        needs.extend(
            Need(s, lookback, f"relative values of payment forms in {on:%B %Y} (§417(e)(3) segment rates)")
            for s in SEGMENTS
        )
    return tuple(needs)
