"""The Cash Balance Account as a dated ledger (Article 4).

Every posting is an entry with its date, amount, the balance after it, and its basis in plain words:
the opening balance (§4.1, §4.2), Contribution Credits of 5% of countable Compensation at each
December 31 (§4.3), quarterly Interest Credits of one quarter of the lesser of the Treasury Rate and
12% on the prior quarter-end balance (§4.4(a),(c)) with none for the quarter in which the Annuity
Starting Date falls (§4.4(b)), the debit to zero at the ASD (§4.5), forfeiture at a non-vested
separation (§2.3(a)) and restoration with the interest it would have earned (§5.14(a)(i)).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.money import ZERO, to_money

from .compensation import ActivePeriod, CountableCompensation, countable_compensation
from .market import MarketData, Rate
from .settings import BenefitSettings

PAY_CREDIT_RATE = Decimal("0.05")  # §4.3(b)
INTEREST_CAP = Decimal("0.12")  # §4.4(a)(i)(b)
FOUR = Decimal(4)

OPENING = "opening"
PAY_CREDIT = "pay_credit"
INTEREST_CREDIT = "interest_credit"
FORFEITURE = "forfeiture"
RESTORATION = "restoration"
DISTRIBUTION = "distribution"


@dataclass(frozen=True)
class LedgerEntry:
    date: date
    kind: str  # one of the constants above
    amount: Decimal  # signed: credits positive, debits negative
    balance: Decimal  # after this entry
    why: str | tuple[Any, ...]  # plain words, or (format string, *values) formatted on demand (see ``basis``)
    section: str
    estimate: bool = False  # uses projected pay or rates (GAP-4)
    residual: bool = False  # posted after the ASD (GAP-2 work item)

    @property
    def basis(self) -> str:
        """Plain words with the inputs used (formatted lazily: a grid posts thousands of entries)."""
        if isinstance(self.why, str):
            return self.why
        return str(self.why[0]).format(*self.why[1:])


@dataclass(frozen=True)
class Statement:
    """One statement period: opening, credits by kind, other movements, closing."""

    start: date
    end: date
    opening: Decimal
    pay_credits: Decimal
    interest_credits: Decimal
    other: Decimal  # forfeitures, restorations, distributions
    closing: Decimal
    entries: tuple[LedgerEntry, ...]


@dataclass(frozen=True)
class Ledger:
    entries: tuple[LedgerEntry, ...]
    _dates: tuple[date, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_dates", tuple(e.date for e in self.entries))

    def balance_at(self, on: date) -> Decimal:
        """The balance at the end of ``on`` (every entry dated on or before it)."""
        i = bisect.bisect_right(self._dates, on)
        return self.entries[i - 1].balance if i else ZERO

    def balance_before(self, on: date) -> Decimal:
        """The balance at the start of ``on`` (entries dated strictly before it)."""
        i = bisect.bisect_left(self._dates, on)
        return self.entries[i - 1].balance if i else ZERO

    def statement(self, start: date, end: date) -> Statement:
        picked = tuple(e for e in self.entries if start <= e.date <= end)
        pay = sum((e.amount for e in picked if e.kind == PAY_CREDIT), ZERO)
        interest = sum((e.amount for e in picked if e.kind == INTEREST_CREDIT), ZERO)
        other = sum((e.amount for e in picked if e.kind not in (PAY_CREDIT, INTEREST_CREDIT)), ZERO)
        opening = self.balance_before(start)
        return Statement(start, end, opening, pay, interest, other, self.balance_at(end), picked)

    @property
    def estimated_from(self) -> date | None:
        """The first entry that rests on projected pay or rates, if any."""
        return next((e.date for e in self.entries if e.estimate), None)


@dataclass(frozen=True)
class Forfeiture:
    """§2.3(a) debit at a non-vested separation; ``restored_on`` when §5.14(a)(i) restores it."""

    on: date
    restored_on: date | None = None


def quarter_of(d: date) -> tuple[int, int]:
    return d.year, (d.month - 1) // 3 + 1


def quarter_end(year: int, q: int) -> date:
    return date(year, 3 * q, 31 if q in (1, 4) else 30)


def _next_quarter(year: int, q: int) -> tuple[int, int]:
    return (year + 1, 1) if q == 4 else (year, q + 1)


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


def build_ledger(
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
        y, q = _next_quarter(y, q)
    return Ledger(tuple(entries))


def account_ledger(
    *,
    account_open: date,
    opening_balance: Decimal,
    periods: Sequence[ActivePeriod],
    compensation: Mapping[int, Decimal],
    comp_limit: Callable[[int], Decimal],
    market: MarketData,
    as_of: date,
    through: date,
    settings: BenefitSettings,
    asd: date | None = None,
    forfeitures: Sequence[Forfeiture] = (),
    disability_date: date | None = None,
    countable_override: Mapping[int, Decimal] | None = None,
    loan_agent_limit: Callable[[int], Decimal] | None = None,
) -> Ledger:
    """The ledger of one participant from the account's opening through ``through``.

    Market data and pay after ``as_of``'s year are projections (GAP-4), flagged on each entry.
    """
    last_known_pay = compensation[max(compensation)] if compensation else None
    pay: dict[int, CountableCompensation] = {}
    last_year = through.year if asd is None else min(through.year, asd.year)
    for year in range(account_open.year, last_year + 1):
        projected = last_known_pay if (settings.project_future_pay and year >= as_of.year) else None
        comp = countable_compensation(
            year=year,
            periods=periods,
            compensation=compensation,
            comp_limit=comp_limit(year),
            settings=settings,
            override=countable_override,
            disability_date=disability_date,
            loan_agent_limit=loan_agent_limit(year) if loan_agent_limit else None,
            projected_rate=projected,
        )
        if comp is not None:
            pay[year] = comp
    credit_dates: dict[int, date] = {}
    if settings.final_year_credit == "separation":
        for p in periods:
            if p.end is not None and p.end.year in pay:
                credit_dates[p.end.year] = p.end
    return build_ledger(
        account_open=account_open,
        opening_balance=opening_balance,
        pay_credits=pay,
        treasury_rate=lambda y: market.treasury_rate(y, allow_estimate=y > as_of.year),
        through=through,
        settings=settings,
        asd=asd,
        forfeitures=forfeitures,
        credit_dates=credit_dates,
    )
