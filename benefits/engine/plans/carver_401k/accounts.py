"""Balances by source and what is vested in them (§4.1), forfeiture at termination and its restoration
on reemployment (§4.2).

The vested percentage of the scheduled sources comes from the service rules (rules.py / CoreResult);
this module applies it to balances, including the §4.1(d) rule for accounts that have paid out a
withdrawal or lent money: X = P × (AB + D) − D.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property

from benefits.engine.dates import add_years
from benefits.engine.money import CENT, HUNDRED, ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money, percent, recording

from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import ALL_SOURCES, LABELS, scheduled_sources, section_for

NO_D = Decimal("0.00")  # the §4.1(d) D of an account nothing was withdrawn or lent from


def vested_amount(balance: Decimal, percent: Decimal, d: Decimal = ZERO) -> Decimal:
    """§4.1(d): X = P(AB + D) − D, to the cent, never below zero (A10).

    `percent` is 0–100; `d` is what the account paid out under §7.3/§7.4 plus loan principal drawn
    from it and not yet credited back.
    """
    p = to_decimal(percent) / HUNDRED
    x = to_money(p * (to_decimal(balance) + to_decimal(d)) - to_decimal(d))
    return max(ZERO, min(x, to_decimal(balance))) if balance >= ZERO else ZERO


def _vested_decimal(balance: Decimal, percent: Decimal, d: Decimal) -> Decimal:
    """``vested_amount`` of Decimals (all ``vest_accounts`` has): the same steps, without converting
    what is already a Decimal (a census vests every source of every participant)."""
    x = (percent / HUNDRED * (balance + d) - d).quantize(CENT, ROUND_HALF_UP)
    return max(ZERO, min(x, balance)) if balance >= ZERO else ZERO


@dataclass(frozen=True)
class SourceVesting:
    source: str
    balance: Decimal
    vested_percent: Decimal
    d: Decimal  # §4.1(d) add-back: withdrawals + outstanding loan principal from this source
    vested_balance: Decimal

    @property
    def nonvested(self) -> Decimal:
        return self.balance - self.vested_balance


@dataclass(frozen=True)
class AccountVesting:
    by_source: Mapping[str, SourceVesting]
    trace: Trace

    # Summed once when first asked (the contract, loans, hardship and cash-out each ask): the sources
    # are fixed when ``vest_accounts`` makes the instance.
    @cached_property
    def balance(self) -> Decimal:
        return sum((s.balance for s in self.by_source.values()), ZERO)

    @cached_property
    def vested_balance(self) -> Decimal:
        return sum((s.vested_balance for s in self.by_source.values()), ZERO)

    def vested(self, source: str) -> Decimal:
        s = self.by_source.get(source)
        return s.vested_balance if s else ZERO

    def balance_of(self, source: str) -> Decimal:
        s = self.by_source.get(source)
        return s.balance if s else ZERO


def vest_accounts(
    balances: Mapping[str, object],
    scheduled_percent: object,
    *,
    percent_by_source: Mapping[str, object] | None = None,
    withdrawn: Mapping[str, object] | None = None,
    loaned_out: Mapping[str, object] | None = None,
    fully_vested: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> AccountVesting:
    """Vested balance of every source.

    `scheduled_percent` is the §4.1(c) percentage (from the service rules); `percent_by_source`
    overrides it source by source (e.g. a pre-break sub-account frozen under §4.3(b)(ii)).
    `fully_vested` is a §4.1(b)/§11.1 event (NRA, death, Disability, Retirement Date, plan termination).
    """
    withdrawn = withdrawn or {}
    loaned_out = loaned_out or {}
    percent_by_source = percent_by_source or {}
    scheduled = scheduled_sources(settings)
    tb = TraceBuilder()
    traced = recording()  # without a trace, no step's words (a census vests every participant)
    out: dict[str, SourceVesting] = {}
    for source in ALL_SOURCES:
        if source not in balances:
            continue
        balance = to_money(balances[source])
        if source in percent_by_source:
            pct = to_decimal(percent_by_source[source])
        elif source not in scheduled or fully_vested:
            pct = HUNDRED
        else:
            pct = to_decimal(scheduled_percent)
        if source in withdrawn or source in loaned_out:
            d = to_money(withdrawn.get(source, ZERO)) + to_money(loaned_out.get(source, ZERO))
        else:
            d = NO_D  # to_money(ZERO) + to_money(ZERO), without the two roundings
        sv = out[source] = SourceVesting(source, balance, pct, d, _vested_decimal(balance, pct, d))
        if traced:
            _vesting_step(tb, sv, scheduled, fully_vested, settings)
    return AccountVesting(out, tb.build())


def _vesting_step(
    tb: TraceBuilder,
    sv: SourceVesting,
    scheduled: frozenset[str],
    fully_vested: bool,
    settings: BenefitSettings,
) -> None:
    source, balance, pct, d, vested = sv.source, sv.balance, sv.vested_percent, sv.d, sv.vested_balance
    if d > ZERO:
        tb.step(
            f"{LABELS[source]}: vested part is P × (balance + D) − D, where D is what this account "
            "paid out in withdrawals and lent to a loan still outstanding",
            section="§4.1(d)",
            result=money(vested),
            balance=money(balance),
            vested_percent=percent(pct),
            d=money(d),
        )
    else:
        why = (
            "always fully vested"
            if pct == HUNDRED and source not in scheduled
            else ("fully vested by a §4.1(b) event" if fully_vested else "vested by the schedule")
        )
        tb.step(
            f"{LABELS[source]}: {why}; vested part is {pct}% of the balance",
            section=section_for(source, settings),
            result=money(vested),
            balance=money(balance),
            vested_percent=percent(pct),
        )


@dataclass(frozen=True)
class Forfeiture:
    termination_date: date
    by_source: Mapping[str, Decimal]
    trace: Trace

    @property
    def total(self) -> Decimal:
        return sum(self.by_source.values(), ZERO)


def forfeiture_at_termination(vesting: AccountVesting, termination_date: date) -> Forfeiture:
    """§4.2: the nonvested Units become Forfeitures at termination, whether paid, deferred or in
    installments (they reduce later employer contributions; they are not reallocated)."""
    tb = TraceBuilder()
    by_source: dict[str, Decimal] = {}
    for source, sv in vesting.by_source.items():
        if sv.nonvested > ZERO:
            by_source[source] = sv.nonvested
            tb.step(
                f"{LABELS[source]}: the nonvested part is forfeited at termination",
                section="§4.2",
                result=money(sv.nonvested),
                balance=money(sv.balance),
                vested_balance=money(sv.vested_balance),
            )
    if not by_source:
        tb.step(
            "Nothing is forfeited: every account is fully vested",
            section="§4.2",
            result=money(ZERO),
            applied=False,
        )
    return Forfeiture(termination_date, by_source, tb.build())


def consecutive_severance_periods(termination_date: date, rehire_date: date | None) -> int:
    """A2 (§1.45): whole 12-month periods, from the day after termination, that end before rehire.

    The service module's count wins when it is available; this one is for tests and standalone use.
    """
    if rehire_date is None:
        return 10**6
    n = 0
    while add_years(termination_date, n + 1) < rehire_date:
        n += 1
    return n


@dataclass(frozen=True)
class Restoration:
    restored: bool
    by_source: Mapping[str, Decimal]  # the additional Employer contribution, by source
    repayment_required: Decimal
    repayment_deadline: date | None  # repay *before* this date (A23)
    trace: Trace

    @property
    def total(self) -> Decimal:
        return sum(self.by_source.values(), ZERO)


def restoration_on_rehire(
    forfeiture: Forfeiture,
    *,
    rehire_date: date,
    severance_periods: int,
    distribution_paid: Decimal = ZERO,
    distribution_date: date | None = None,
    repaid: Decimal = ZERO,
    repayment_date: date | None = None,
) -> Restoration:
    """§4.2, third and fourth paragraphs: reinstating a forfeiture when the former Participant returns.

    Paid out: the Net Value at termination is reinstated, unadjusted for later gains or losses, only
    if the *whole* distribution is repaid in cash before the deadline (A23: five years after
    reemployment, since severance periods cannot run while employed; GAP-14). Deferred or in
    installments: reinstated in its entirety, no repayment. Either way only if rehired before five
    consecutive One Year Periods of Severance.
    """
    tb = TraceBuilder()
    none: dict[str, Decimal] = {}
    if severance_periods >= 5:
        tb.step(
            "Rehired after five consecutive One Year Periods of Severance: the forfeiture is not restored",
            section="§4.2",
            result=False,
            severance_periods=severance_periods,
        )
        return Restoration(False, none, ZERO, None, tb.build())
    tb.step(
        "Rehired before five consecutive One Year Periods of Severance",
        section="§4.2",
        result=True,
        severance_periods=severance_periods,
    )
    if distribution_paid <= ZERO:
        tb.step(
            "Payment had been deferred (or taken in installments): the nonvested part is reinstated "
            "in its entirety, unadjusted by gains or losses, without repayment",
            section="§4.2",
            result=money(forfeiture.total),
        )
        return Restoration(True, dict(forfeiture.by_source), ZERO, None, tb.build())
    deadline = add_years(rehire_date, 5)
    tb.step(
        "The distribution must be repaid in full, in cash, before five years after reemployment",
        section="§4.2 (GAP-14, A23)",
        result=deadline,
        distribution=money(distribution_paid),
        rehire_date=rehire_date,
        distribution_date=distribution_date,
    )
    ok = to_money(repaid) >= to_money(distribution_paid) and (
        repayment_date is not None and repayment_date < deadline
    )
    tb.step(
        "Full repayment received in time: the forfeiture is restored by an additional Employer contribution"
        if ok
        else "No full repayment before the deadline (a partial repayment does not qualify): nothing restored",
        section="§4.2",
        result=money(forfeiture.total if ok else ZERO),
        applied=ok,
        repaid=money(to_money(repaid)),
        repayment_date=repayment_date,
    )
    return Restoration(
        ok, dict(forfeiture.by_source) if ok else none, distribution_paid, deadline, tb.build()
    )
