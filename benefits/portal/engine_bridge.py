"""Engine Python APIs for what the contract result does not carry (service rows, schedules, ledgers).

The same request as ``membership_calculate`` is parsed by the engine's own parser, so the
participant, settings and assumptions are exactly those of the numbers on the page.
"""

from __future__ import annotations

import dataclasses
from datetime import date

from benefits.calculations import CalculationError, membership_request
from benefits.engine.plans import Plan, get_plan
from benefits.engine.request import parse_request


@dataclasses.dataclass(frozen=True)
class EngineInputs:
    module: Plan  # the plan (benefits.engine.plans.base.Plan)
    participant: object
    core: object
    assumptions: dict
    settings: dict


def engine_inputs(membership, *, as_of: date) -> EngineInputs:
    """The parsed participant and the plan's core result (service, vesting) for one membership."""
    parsed = parse_request(membership_request(membership, as_of=as_of))
    item = parsed.participants[0]
    if isinstance(item, tuple):
        raise CalculationError(item[1].field, str(item[1]))
    module = get_plan(parsed.plan)
    core = module.core_result(item, as_of, parsed.settings)
    return EngineInputs(module, item, core, dict(parsed.assumptions), dict(parsed.settings))
