"""The participant's Cash Balance Account: the ledger from the plan's credits (Art. 4) and a statement for
any period.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.parameters import current_reads
from benefits.engine.types import Participant

from .inputs import AccountInputs, _comp_limit, _core, _loan_limit, _settings, account_inputs
from .ledger import account_ledger
from .ledger_entries import Ledger, Statement
from .market import MarketData


def participant_ledger(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    *,
    through: date | None = None,
    asd: date | None = None,
    inputs: AccountInputs | None = None,
) -> Ledger:
    """The account ledger through ``through`` (default ``as_of``); after ``as_of`` it is a projection."""
    settings = _settings(core)
    inputs = inputs or account_inputs(p, core, market)
    if inputs.account_open is None:
        return Ledger(())
    paid = inputs.distributed_on
    if paid is not None and (asd is None or paid < asd):
        asd = paid  # §4.5(a): the account was paid out and reduced to zero on that date
    return account_ledger(
        account_open=inputs.account_open,
        opening_balance=inputs.opening_balance,
        periods=inputs.periods,
        compensation=inputs.compensation,
        comp_limit=_comp_limit,
        market=market,
        as_of=as_of,
        through=through or as_of,
        settings=settings,
        asd=asd,
        forfeitures=inputs.forfeitures,
        disability_date=p.disability_date,
        countable_override=inputs.countable_override,
        loan_agent_limit=_loan_limit if inputs.loan_agent else None,
    )


def replay_limit_reads(inputs: AccountInputs, last_year: int) -> None:
    """Read the limits ``participant_ledger`` reads for each Plan Year from the account's opening
    through ``last_year`` (the §401(a)(17) limit, then a loan agent's §414(q) amount), in its order:
    a figure that takes its balance from a ledger already built lists them in its trace as building
    that ledger would have. With no read recorded there is nothing to list: the ledger already read
    them all (and raised for any missing)."""
    if inputs.account_open is None or current_reads() is None:
        return
    for year in range(inputs.account_open.year, last_year + 1):
        _comp_limit(year)
        if inputs.loan_agent:
            _loan_limit(year)


def statement(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    start: date,
    end: date,
    core: CoreResult | None = None,
) -> Statement:
    """The ledger for a statement period: opening, pay credits, interest credits, closing."""
    core = _core(p, as_of, core)
    market = MarketData.from_assumptions(assumptions)
    return participant_ledger(p, as_of, market, core, through=end).statement(start, end)
