"""The plan-agnostic result of a plan's service/vesting core: what every plan's ``core()`` returns.

``CoreResult`` holds the service history, vesting (overall and by account source), the Normal and
Earliest Retirement Dates, the participation date, the settings used and a trace. Plan benefit
modules (``outputs.py``) receive it and build their own figures on top of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType
from typing import Any

from .money import percent_str
from .service import ElapsedServiceHistory, ServiceHistory
from .trace import Trace
from .types import Participant
from .vesting import VestingResult


class ParticipantError(ValueError):
    """One participant cannot be calculated; ``field`` is a JSON pointer within the participant."""

    def __init__(self, field: str, message: str, *, absolute: bool = False) -> None:
        super().__init__(message)
        self.field = field
        self.absolute = absolute  # True: ``field`` points into the request, not the participant


@dataclass(frozen=True)
class CoreResult:
    plan: str
    as_of: date
    service: ServiceHistory | ElapsedServiceHistory
    vesting: VestingResult
    by_source: Mapping[str, VestingResult]
    normal_retirement_date: date
    earliest_retirement_date: date | None
    participation_date: date | None
    settings: Mapping[str, Any]
    trace: Trace
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def years_of_vesting_service(self) -> int:
        return self.service.total_years

    def contract(self) -> dict[str, Any]:
        """The contract keys every plan returns (engine-cli.md)."""
        out: dict[str, Any] = {
            "vesting": {
                "years_of_vesting_service": self.service.total_years,
                "vested_percent": percent_str(self.vesting.percent),
            },
            "normal_retirement_date": self.normal_retirement_date.isoformat(),
            "earliest_retirement_date": (
                self.earliest_retirement_date.isoformat() if self.earliest_retirement_date else None
            ),
        }
        if self.by_source:
            out["vesting"]["by_source"] = {k: percent_str(v.percent) for k, v in self.by_source.items()}
        m = self.vesting.next_milestone
        if m is not None:
            out["vesting"]["next_milestone"] = {
                "years": m.years,
                "vested_percent": percent_str(m.percent),
                "date": m.on.isoformat() if m.on else None,
            }
        return out


def core_with_settings(
    core_fn: Callable[..., CoreResult],
    participant: Participant,
    as_of: date,
    settings: Mapping[str, Any],
    *,
    uses_benefit_settings: bool = False,
) -> CoreResult:
    """A plan's service/vesting core with its resolved settings groups attached.

    ``uses_benefit_settings``: the core also reads the ``benefits`` group (the 401(k)'s vesting
    depends on which sources are scheduled).
    """
    if uses_benefit_settings:
        core = core_fn(participant, as_of, settings["service_vesting"], settings.get("benefits"))
    else:
        core = core_fn(participant, as_of, settings["service_vesting"])
    return with_settings(core, dict(settings))


def with_settings(core: CoreResult, settings: Mapping[str, Any]) -> CoreResult:
    """``dataclasses.replace(core, settings=settings)`` without its field-by-field init (a census makes
    one a participant): a new instance with the same fields (every field is an init field, and there
    is no ``__post_init__``), ``settings`` replaced."""
    new = object.__new__(type(core))
    new.__dict__.update(core.__dict__)
    new.__dict__["settings"] = settings
    return new


def history_dict(core: CoreResult) -> dict[str, Any]:
    """The service breakdown as JSON (for ``options.detail`` and the web app)."""
    return {
        "rows": [
            _plain(dataclasses.asdict(r))
            for r in getattr(core.service, "years", ()) or getattr(core.service, "periods", ())
        ],
        "events": [_plain(dataclasses.asdict(e)) for e in core.service.events],
    }


def _plain(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, date) else v) for k, v in d.items()}
