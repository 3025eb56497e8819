"""The Quaker ledger as it was built before the census fast path (issue 17): every quarter lists its
events, sorts them and posts them one by one. Kept only for ``test_census_fast_paths.py``, which
holds ``ledger.build_ledger`` (the usual quarter posted without an event list) equal to it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.money import ZERO, to_money
from benefits.engine.plans.quaker_cash_balance.compensation import CountableCompensation
from benefits.engine.plans.quaker_cash_balance.interest import (
    INTEREST_CAP,
    next_quarter,
    quarter_end,
    quarter_of,
)
from benefits.engine.plans.quaker_cash_balance.ledger import PAY_CREDIT_RATE
from benefits.engine.plans.quaker_cash_balance.ledger_entries import (
    DISTRIBUTION,
    FORFEITURE,
    INTEREST_CREDIT,
    OPENING,
    PAY_CREDIT,
    RESTORATION,
    Forfeiture,
    Ledger,
    LedgerEntry,
)
from benefits.engine.plans.quaker_cash_balance.market import Rate
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings

FOUR = Decimal(4)


def credit_rate(rate: Rate, settings: BenefitSettings) -> tuple[Decimal, str]:
    """One quarter of the lesser of the Treasury Rate and 12% (§4.4(a)(i)); GAP-13 floor if set."""
    annual = min(rate.value, INTEREST_CAP)
    note = f"one quarter of the Treasury Rate {rate.value * 100:.2f}% ({rate.source})"
    if rate.value > INTEREST_CAP:
        note += ", capped at 12%"
    if settings.interest_floor is not None and annual < settings.interest_floor:
        annual = settings.interest_floor
        note += f", floored at {settings.interest_floor * 100:.2f}% (GAP-13 setting)"
    return annual / FOUR, note


def build_ledger_reference(
    *,
    account_open: date,
    opening_balance: Decimal,
    pay_credits: Mapping[int, CountableCompensation],
    treasury_rate: Callable[[int], Rate],
    through: date,
    settings: BenefitSettings,
    asd: date | None = None,
    forfeitures: Sequence[Forfeiture] = (),
    credit_dates: Mapping[int, date] | None = None,
    opening_basis: str = "",
    opening_earns_first_quarter: bool = False,
) -> Ledger:
    """Post every credit and debit dated on or before ``through``.

    ``pay_credits`` maps Plan Years to their countable Compensation; each credit posts on Dec 31 (or
    on ``credit_dates[year]`` under the GAP-2 "separation" setting). ``asd`` is the Annuity Starting
    Date (of the participant, or of a survivor under §5.12(d)): no interest for its quarter, and
    the account is debited to zero on it. A credit due after the ASD is posted as a residual.
    """
    rnd = to_money if settings.round_each_posting else (lambda x: x)
    credit_dates = credit_dates or {}
    entries: list[LedgerEntry] = []
    balance = ZERO  # what the account shows
    shadow = ZERO  # the balance as if no forfeiture had been debited (§5.14(a)(i))
    debited = False
    distributed = False

    def post(
        d: date, kind: str, amount: Decimal, basis: str | tuple[Any, ...], section: str, **flags: bool
    ) -> None:
        nonlocal balance, shadow
        balance = balance + amount
        entries.append(LedgerEntry(d, kind, amount, balance, basis, section, **flags))
        if not debited:
            shadow = balance

    if not opening_basis:
        opening_basis = (
            "January 1, 2000 Beginning Balance (plan_data.opening_balance)"
            if opening_balance
            else "account established on the first day as an Active Participant"
        )
    post(
        account_open, OPENING, opening_balance, opening_basis, "§4.1, §4.2" if opening_balance else "§4.1(b)"
    )
    # GAP-14: whether the Beginning Balance is the Q1-2000 interest base (it did not exist on 12/31/1999).
    q1_2000 = account_open == date(2000, 1, 1) and settings.q1_2000_interest_on_beginning_balance
    base = opening_balance if (q1_2000 or opening_earns_first_quarter) else ZERO
    asd_q = quarter_of(asd) if asd else None
    rates: dict[int, tuple[Rate, Decimal, str]] = {}

    def year_rate(year: int) -> tuple[Rate, Decimal, str]:
        if year not in rates:
            rate = treasury_rate(year)
            rates[year] = (rate, *credit_rate(rate, settings))
        return rates[year]

    y, q = quarter_of(account_open)
    while True:
        q_start, q_end = date(y, 3 * q - 2, 1), quarter_end(y, q)
        events: list[tuple[date, int, str, Any]] = []
        for f in forfeitures:
            if q_start <= f.on <= q_end:
                events.append((f.on, 5, FORFEITURE, f))
            if f.restored_on and q_start <= f.restored_on <= q_end:
                events.append((f.restored_on, 0, RESTORATION, f))
        for year, when in credit_dates.items():
            if q_start <= when <= q_end and year in pay_credits:
                events.append((when, 1 if when != date(year, 12, 31) else 4, PAY_CREDIT, year))
        if q == 4 and y in pay_credits and y not in credit_dates:
            events.append((q_end, 4, PAY_CREDIT, y))
        if asd and asd_q == (y, q):
            events.append((asd, 2, DISTRIBUTION, None))
        else:
            events.append((q_end, 3, INTEREST_CREDIT, None))
        events.sort(key=lambda e: (e[0], e[1]))
        for when, _, kind, payload in events:
            if when > through:
                break
            if kind == RESTORATION and debited:
                debited = False
                post(
                    when,
                    RESTORATION,
                    shadow,
                    f"amount debited at the {payload.on.isoformat()} forfeiture plus the Interest Credits "
                    "it would have earned to the restoration date",
                    "§5.14(a)(i)",
                )
            elif kind == DISTRIBUTION and not distributed:
                post(when, DISTRIBUTION, -balance, "debited to zero at the Annuity Starting Date", "§4.5")
                distributed = True
            elif kind == INTEREST_CREDIT and not distributed:
                # §4.4(a): a quarter of min(Treasury Rate, 12%) on the prior quarter-end balance.
                rate, quarterly, note = year_rate(y)
                ic = rnd(base * quarterly)
                text: tuple[Any, ...] = ("{:.2f} × {:.4f}% ({})", base, quarterly * 100, note)
                if debited:
                    shadow += ic  # earns only toward a later restoration
                else:
                    post(when, INTEREST_CREDIT, ic, text, "§4.4", estimate=rate.estimate)
            elif kind == PAY_CREDIT:
                comp = pay_credits[payload]
                if comp.amount <= 0:
                    continue
                cc = rnd(comp.amount * PAY_CREDIT_RATE)
                text = ("5% × {:.2f} ({}){}", comp.amount, comp.basis, "")
                if distributed:
                    post(
                        when, PAY_CREDIT, cc, (*text[:3], "; due after the ASD"), "§4.3; GAP-2", residual=True
                    )
                elif debited:
                    # Due after a non-vested forfeiture: never debited, so not restorable
                    # (§5.14(a)(i)); shown and forfeited at once, a GAP-2 work item.
                    post(
                        when,
                        PAY_CREDIT,
                        cc,
                        (*text[:3], "; due after the forfeiture"),
                        "§4.3; GAP-2",
                        residual=True,
                    )
                    post(
                        when, FORFEITURE, -cc, "credit due after a non-vested separation forfeited", "§2.3(a)"
                    )
                else:
                    post(when, PAY_CREDIT, cc, text, "§4.3", estimate=comp.estimate)
            elif kind == FORFEITURE and not debited and not distributed:
                debited = True  # first, so the shadow keeps the debited amount
                post(
                    when,
                    FORFEITURE,
                    -balance,
                    "non-vested Separation from Service: account debited to zero, a deemed distribution",
                    "§2.3(a)",
                )
        if q_end >= through or (distributed and asd is not None and y > asd.year) or (distributed and q == 4):
            break
        base = shadow
        y, q = next_quarter(y, q)
    return Ledger(tuple(entries))
