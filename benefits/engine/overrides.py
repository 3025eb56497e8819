"""Where the statute overrides a plan's own words, for the plan readings page.

A plan document written before the Pension Protection Act of 2006 says "the 30-year Treasury rate"
for its lump sums and small-benefit cash-outs. For plan years from 2008 the law's minimum present
value basis governs (§417(e)(3) as amended by PPA 2006 §302; ``minimum_present_value``), whatever
the plan's words. Each plan package that has such words lists them in ``overrides.py`` as
``STATUTORY_OVERRIDES``; this module reads them for any plan, so nothing outside the engine names a
plan.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class StatutoryOverride:
    plan_words: str  # what the plan document says
    section: str  # where it says it
    law: str  # what governs instead, in plain words
    citation: str  # the statute / regulation
    effective: str  # from when, in plain words
    engine: str  # what the engine does


def statutory_overrides(plan_key: str) -> tuple[StatutoryOverride, ...]:
    """The statutory overrides of a plan's words (empty when the plan has none)."""
    from benefits.engine.plans import get_plan

    outputs = getattr(get_plan(plan_key), "outputs", None)  # get_plan raises UnknownPlan
    if outputs is None:
        return ()
    package = outputs.__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.overrides")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(module, "STATUTORY_OVERRIDES", ()))


__all__ = ["StatutoryOverride", "statutory_overrides"]
