"""Quaker cash balance plan data, parsed once: the account inputs (opening balances, separations,
forfeitures) read from ``plan_data`` with JSON-pointer errors, and the settings and limits the benefit
modules share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import cast

from benefits.engine.core import CoreResult
from benefits.engine.dates import (
    first_of_next_month,
)
from benefits.engine.missing import MissingInput
from benefits.engine.money import HUNDRED, ZERO, to_decimal, to_money
from benefits.engine.parameters import current_reads, parameter
from benefits.engine.plan_support import pd_decimal, pd_text_date
from benefits.engine.service import ServiceHistory
from benefits.engine.trace import Trace
from benefits.engine.types import Participant

from .annuity import applicable_basis
from .compensation import ActivePeriod
from .ledger_entries import Forfeiture
from .lump_sum import beginning_balance, earliest_lump_sum_date
from .market import MarketData
from .settings import DEFAULT_SETTINGS, BenefitSettings

RESTATEMENT = date(2000, 1, 1)


@dataclass(frozen=True)
class AccountInputs:
    """What the ledger needs, read from the participant, the core result and the plan data."""

    account_open: date | None  # None: never an Active Participant yet (no account)
    opening_balance: Decimal
    opening_trace: Trace
    periods: tuple[ActivePeriod, ...]
    forfeitures: tuple[Forfeiture, ...]
    compensation: Mapping[int, Decimal]
    countable_override: Mapping[int, Decimal] | None
    loan_agent: bool
    separation: date | None  # the last Separation from Service, if not employed now
    # The Annuity Starting Date of the single sum the plan paid (``plan_data.distributed_on``, written when
    # the paying agent confirms it): §4.5(a) debits the account with its balance on that date and reduces
    # it to zero, so the ledger ends there.
    distributed_on: date | None = None


def _pd_money(p: Participant, key: str) -> Decimal | None:
    return pd_decimal(p, key)


def _pd_date(p: Participant, key: str) -> date | None:
    return pd_text_date(p, key, rule="must be an ISO date")


def _vested_at_separation(core: CoreResult, year: int) -> bool:
    # The rows' (year, credited, running total) alone: the usual path builds no row for them.
    rows = [r for r in cast(ServiceHistory, core.service).year_summary() if r[0] <= year]
    return bool(rows) and rows[-1][2] >= 5


def account_inputs(p: Participant, core: CoreResult, market: MarketData) -> AccountInputs:
    entry = core.participation_date
    opening = _pd_money(p, "opening_balance")
    trace = Trace()
    if entry is None and opening is None:
        return AccountInputs(None, ZERO, trace, (), (), p.compensation, None, False, None)
    if opening is None and entry is not None and entry < RESTATEMENT:
        benefit_1999 = _pd_money(p, "dec31_1999_benefit")
        if benefit_1999 is None:
            # Blocks the account and what rests on it; vesting, service and dates stay (``missing``).
            raise MissingInput(
                "/plan_data/opening_balance",
                "a participant before 2000 needs the January 1, 2000 Beginning Balance "
                "(or plan_data.dec31_1999_benefit) (§4.2, GAP-1)",
            )
        nrd_1999 = _pd_date(p, "dec31_1999_benefit_nrd") or core.normal_retirement_date
        basis = applicable_basis(RESTATEMENT, market)
        opening, trace = beginning_balance(benefit_1999, birth_date=p.birth_date, nrd=nrd_1999, basis=basis)
    account_open: date | None
    if opening is not None:
        account_open = RESTATEMENT
    else:
        account_open, opening = entry, ZERO
    # Active spans: from entry (re-entry at once on rehire, AMBIG-8) to each separation; death
    # ends the last; Disability Retirement keeps the person Active until the ASD (§1.17(a), §5.8).
    periods: list[ActivePeriod] = []
    forfeits: list[Forfeiture] = []
    spans = p.periods
    for i, span in enumerate(spans):
        start = max(span.start, entry or span.start)
        end = span.end
        if (
            p.disability_date
            and span.start <= p.disability_date
            and (end is None or p.disability_date <= end)
        ):
            end = None
        if p.death_date and (end is None or p.death_date < end):
            end = p.death_date
        if end is not None and end < start:
            continue
        periods.append(ActivePeriod(start, end))
        # §2.3(a): a non-vested Separation from Service forfeits the account; §5.14(a)(i) restores
        # it on re-entry before five consecutive One-Year Breaks.
        partly_vested = i == len(spans) - 1 and core.vesting.percent > 0  # e.g. top-heavy 40% (GAP-17)
        if (
            end is not None
            and end < core.normal_retirement_date
            and not partly_vested
            and not _vested_at_separation(core, end.year)
        ):
            restored = None
            if i + 1 < len(spans):
                nxt = spans[i + 1].start
                breaks = sum(
                    1
                    for r in cast(ServiceHistory, core.service).years
                    if end.year <= int(r.label) < nxt.year and r.is_break
                )
                if breaks < 5:
                    restored = nxt
            forfeits.append(Forfeiture(end, restored))  # a non-vested death too (§5.9(d), §5.12(a))
    last = spans[-1].end if spans else None
    override_raw = p.plan_data.get("countable_compensation")
    override = None
    if override_raw:
        override = {int(k): to_decimal(str(v)) for k, v in dict(override_raw).items()}
    return AccountInputs(
        account_open,
        opening,
        trace,
        tuple(periods),
        tuple(forfeits),
        p.compensation,
        override,
        bool(p.plan_data.get("loan_agent")),
        last if last is not None and not (p.disability_date and p.disability_date <= last) else None,
        _pd_date(p, "distributed_on"),
    )


def vested_amount(balance: Decimal, percent: Decimal) -> Decimal:
    """GAP-17: a vested percentage applies to the account proportionally (to the cent)."""
    return to_money(balance * percent / HUNDRED)


def _settings(core: CoreResult | None) -> BenefitSettings:
    if core is None:
        return DEFAULT_SETTINGS
    return core.settings.get("benefits") or DEFAULT_SETTINGS


class YearLimit:
    """A yearly limit (``_limit`` of one parameter) as a function of the year, and of a range of years."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._ranges: dict[tuple[int, int], tuple[Decimal, ...]] = {}

    def __call__(self, year: int) -> Decimal:
        return _limit(self.name, year)

    def years(self, first: int, last: int) -> tuple[Decimal, ...]:
        """Each year's value from ``first`` to ``last``, read in that order; with no read recorded,
        the range is looked up once (a census's ledgers ask for the same ranges)."""
        if current_reads() is not None:
            return tuple([_limit(self.name, y) for y in range(first, last + 1)])
        values = self._ranges.get((first, last))
        if values is None:
            values = tuple([_limit(self.name, y) for y in range(first, last + 1)])
            if len(self._ranges) >= 4096:
                self._ranges.clear()
            self._ranges[(first, last)] = values
        return values


# Projected pay years beyond the last published limit use it as a traced estimate.
_comp_limit = YearLimit("irs_401a17_compensation_limit")
_loan_limit = YearLimit("irs_414q_hce_compensation_threshold")


def _limit(name: str, year: int) -> Decimal:
    """The value in force on January 1 of ``year``, or the latest published. With no read recorded
    (no trace kept) each is looked up once: a parameter file is loaded once a process and never
    changes, and a census's ledgers ask for every year's limit for every participant."""
    if current_reads() is None:
        key = (name, year)
        value = _UNRECORDED.get(key)
        if value is None:
            value = _UNRECORDED[key] = _latest(name, year)
        return value
    return _latest(name, year)


_UNRECORDED: dict[tuple[str, int], Decimal] = {}


def _latest(name: str, year: int) -> Decimal:
    value = parameter(name).latest_published(date(year, 1, 1)).value
    assert value is not None
    return value


def _core(p: Participant, as_of: date, core: CoreResult | None) -> CoreResult:
    if core is not None:
        return core
    from .rules import ServiceVestingSettings
    from .rules import core as rules_core

    return rules_core(p, as_of, ServiceVestingSettings())


def entry_before_2000(core: CoreResult) -> bool:
    return core.participation_date is not None and core.participation_date < RESTATEMENT


def earliest_commencement(p: Participant, as_of: date, core: CoreResult, inputs: AccountInputs) -> date:
    """The first date a benefit could start: §5.11(a)(iv) after a separation, else the next month
    (for someone still working, assuming a separation then), never before the next month."""
    floor = first_of_next_month(as_of)
    if inputs.separation is not None:
        retired = _retirement_separation(p, core, inputs)
        return max(floor, earliest_lump_sum_date(inputs.separation, retirement=retired))
    return floor


def _retirement_separation(p: Participant, core: CoreResult, inputs: AccountInputs) -> bool:
    """Whether the separation was "on account of his Early, Normal, Late or Disability Retirement"
    (§5.11(a)(iv)): an ERD or NRD on the first of the month after it, or a disability."""
    sep = inputs.separation
    if sep is None:
        return False
    if p.disability_date is not None and p.disability_date <= sep:
        return True
    erd = core.earliest_retirement_date
    return first_of_next_month(sep) >= min(erd or core.normal_retirement_date, core.normal_retirement_date)
