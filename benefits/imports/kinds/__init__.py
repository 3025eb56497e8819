"""The kinds of import files, by name (the command's KIND and the file names under docs/import/)."""

from __future__ import annotations

from benefits.imports.kinds import (
    compensation,
    contributions,
    esop,
    hours,
    loans,
    market_rates,
    participants,
    tables,
    valuations,
)
from benefits.imports.kinds.base import Kind

KINDS: dict[str, Kind] = {
    k.KIND.name: k.KIND
    for k in (participants, hours, compensation, contributions, valuations, esop, loans, market_rates)
}
KINDS[tables.MORTALITY_417E.name] = tables.MORTALITY_417E
KINDS[tables.SINGLE_LIFE.name] = tables.SINGLE_LIFE


def register(kind: Kind) -> None:
    """A kind defined by a layer above benefits (payments' confirmation file), added at start-up."""
    KINDS[kind.name] = kind


def get_kind(name: str) -> Kind:
    return KINDS[name]
