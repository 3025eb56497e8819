"""Account-plan statements for any period, from the dated transactions (issue 6, item 3): the ORM rows
become the engine's statement inputs here, beside ``engine_adapter`` (issue 23: presenters only shape).

The opening balance of each source is the stored ``AccountBalance`` on the day before the period, or,
where none is stored that day, the nearest stored balance carried to it with the transactions in
between (with no stored balance at all, the transactions from the beginning). The engine's statement
function then gives the period: the plan's ``source_accounts`` statement for the 401(k), its
``share_accounts`` statement for both ESOPs (share and cash accounts). Stored balances inside
the period are checked against opening + activity; a difference is reported, never smoothed over.

``statement_figures`` is the one read a statement page or PDF makes: the engine's result, the period
asked for, that period's engine statement and the cash balance ledger; ``benefits.presenters.statements``
turns them into words and rows.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from benefits import selectors
from benefits.engine import ENGINE_VERSION
from benefits.engine.money import ZERO, to_money
from benefits.engine.plans import get_plan
from benefits.engine_adapter import CalculationError, engine_inputs, membership_calculate
from benefits.models import AccountBalance, AccountTransaction

Kind = AccountTransaction.Kind
STOCK, FUND = "stock_fund", "investment_fund"

# Our kinds → the 401(k) engine's kinds. Outflows are stored negative; the engine wants them positive.
K401_KINDS = {
    Kind.DEFERRAL: "contribution",
    Kind.MATCH: "contribution",
    Kind.EMPLOYER: "contribution",
    Kind.ROLLOVER: "contribution",
    Kind.EARNINGS: "earnings",
    Kind.DIVIDEND: "earnings",
    Kind.FORFEITURE: "forfeiture",
    Kind.DISTRIBUTION: "distribution",
    Kind.WITHDRAWAL: "withdrawal",
    Kind.LOAN_ISSUED: "loan_issued",
    Kind.LOAN_REPAYMENT: "loan_repaid",
    Kind.LOAN_OFFSET: "loan_repaid",  # the Loan Account applied back, then distributed (issue 27)
    Kind.FEE: "fee",
}
# Our kinds → the ESOP ledger's kinds (the ESOP ledger keeps the signs as stored).
ESOP_KINDS = {
    Kind.EMPLOYER: "allocation",
    Kind.DEFERRAL: "contribution",
    Kind.MATCH: "contribution",
    Kind.ROLLOVER: "contribution",
    Kind.DIVIDEND: "dividend",
    Kind.EARNINGS: "earnings",
    Kind.FORFEITURE: "forfeiture",
    Kind.DISTRIBUTION: "distribution",
    Kind.WITHDRAWAL: "distribution",
    Kind.TRANSFER: "diversification",
}
CONTRIBUTION_KINDS = (Kind.DEFERRAL, Kind.MATCH, Kind.EMPLOYER, Kind.ROLLOVER)


# ------------------------------------------------------------------ the period asked for


class PeriodError(ValueError):
    """A period the statement cannot be given for; ``field`` names the form field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Period:
    start: date
    end: date
    year: int | None = None  # a plan year (calendar year for these plans), or None for custom dates

    @property
    def label(self) -> str:
        if self.year is not None:
            return f"Plan year {self.year}: {self.start.isoformat()} to {self.end.isoformat()}"
        return f"{self.start.isoformat()} to {self.end.isoformat()}"


def has_history(membership) -> bool:
    return selectors.membership_has_transactions(membership)


def records_begin(membership) -> date | None:
    """The first day the records can describe: the day after the earliest stored balance, or the first
    transaction when that is earlier."""
    first_tx = selectors.membership_first_transaction_date(membership)
    first_bal = selectors.membership_first_balance_date(membership)
    days = [d for d in (first_tx, first_bal + timedelta(days=1) if first_bal else None) if d]
    return min(days) if days else None


def plan_years(membership, valuation: date) -> list[int]:
    """Plan years with records, newest first (the plans' years are calendar years)."""
    begin = records_begin(membership)
    if begin is None or not has_history(membership):
        return []
    return list(range(valuation.year, begin.year - 1, -1))


def valuation_date(membership, today: date) -> date:
    """Account plans: the latest date we hold balances for (the engine uses those); else today."""
    latest = selectors.membership_latest_balance_date(membership)
    return latest or today


def account_periods(membership, today: date) -> dict:
    """What the period picker offers: plan years with records, and the dates custom periods may use."""
    as_of = valuation_date(membership, today)
    years = plan_years(membership, as_of)
    begin = records_begin(membership)
    return {"years": years, "begin": begin.isoformat() if begin else None, "valuation": as_of.isoformat()}


def _parse_date(raw: str, field: str, words: str) -> date:
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise PeriodError(
            field,
            f"{words} must be a real date written as YYYY-MM-DD, for example 2025-01-31 (not {raw[:20]!r}).",
        ) from None


def period_from_input(data, *, years: list[int], valuation: date, begin: date) -> Period:
    """The period asked for: custom ``start``/``end`` dates when either is given, else plan ``year``."""
    raw_start, raw_end = (data.get("start") or "").strip(), (data.get("end") or "").strip()
    if raw_start or raw_end:
        if not raw_start:
            raise PeriodError("start", "Start date is required when you give an end date.")
        if not raw_end:
            raise PeriodError("end", "End date is required when you give a start date.")
        start = _parse_date(raw_start, "start", "Start date")
        end = _parse_date(raw_end, "end", "End date")
        if start > end:
            raise PeriodError("start", "Start date must be on or before the end date.")
        if start < begin:
            raise PeriodError(
                "start", f"Start date cannot be before {begin.isoformat()}, when the plan's records begin."
            )
        if end > valuation:
            raise PeriodError(
                "end", f"End date cannot be after {valuation.isoformat()}, the latest valuation date."
            )
        return Period(start, end)
    raw_year = (data.get("year") or "").strip()
    if not raw_year:
        year = years[0]
    else:
        try:
            year = int(raw_year)
        except ValueError:
            year = None
        if year not in years:
            listed = ", ".join(str(y) for y in sorted(years))
            raise PeriodError("year", f"Plan year must be one of the years with records: {listed}.")
    return Period(max(date(year, 1, 1), begin), min(date(year, 12, 31), valuation), year)


# ------------------------------------------------------------------ balances from the records


@dataclass
class Position:
    amount: dict[str, Decimal]
    shares: dict[str, Decimal]


def _sum(txs, after: date | None, through: date) -> Position:
    amount: dict[str, Decimal] = defaultdict(lambda: ZERO)
    shares: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for t in txs:
        if (after is None or t.date > after) and t.date <= through:
            amount[t.source] += t.amount
            shares[t.source] += t.shares or ZERO
    return Position(amount, shares)


def _stored(membership) -> dict[date, dict[str, AccountBalance]]:
    out: dict[date, dict[str, AccountBalance]] = defaultdict(dict)
    for b in selectors.membership_balances(membership):
        out[b.as_of][b.source] = b
    return out


def position_on(stored, txs, on: date) -> tuple[Position, str]:
    """Each source's balance (and shares) at the end of ``on``, and where it came from."""
    if on in stored:
        rows = stored[on]
        return (
            Position({s: b.balance for s, b in rows.items()}, {s: b.shares or ZERO for s, b in rows.items()}),
            f"stored balances on {on.isoformat()}",
        )
    before = [d for d in stored if d < on]
    after = [d for d in stored if d > on]
    if before:
        anchor = max(before)
        base = stored[anchor]
        moved = _sum(txs, anchor, on)
        sign = 1
        how = f"stored balances on {anchor.isoformat()} plus the transactions to {on.isoformat()}"
    elif after:
        anchor = min(after)
        base = stored[anchor]
        moved = _sum(txs, on, anchor)
        sign = -1
        how = f"stored balances on {anchor.isoformat()} less the transactions after {on.isoformat()}"
    else:
        p = _sum(txs, None, on)
        return p, "the transactions from the beginning of the records"
    sources = set(base) | set(moved.amount)
    amount = {s: (base[s].balance if s in base else ZERO) + sign * moved.amount.get(s, ZERO) for s in sources}
    shares = {
        s: ((base[s].shares or ZERO) if s in base else ZERO) + sign * moved.shares.get(s, ZERO)
        for s in sources
    }
    return Position(amount, shares), how


@dataclass(frozen=True)
class Difference:
    """A stored balance inside the period that opening + activity does not reach: ``what`` is
    ``"balance"`` (dollars) or ``"shares"`` (the Stock Fund's share count)."""

    source: str
    on: date
    what: str
    stored: Decimal
    expected: Decimal


def ledger_differences(stored, txs, period: Period, opening: Position) -> list[Difference]:
    """Stored balances inside the period against opening + the transactions to that date."""
    found = []
    for on in sorted(d for d in stored if period.start <= d <= period.end):
        moved = _sum(txs, period.start - timedelta(days=1), on)
        for source, row in sorted(stored[on].items()):
            expected = opening.amount.get(source, ZERO) + moved.amount.get(source, ZERO)
            # Stock is revalued at each valuation: its dollar balance moves without transactions, so
            # the share count is what must agree.
            if source != STOCK and row.balance != expected:
                found.append(Difference(source, on, "balance", row.balance, expected))
            if row.shares is not None and source == STOCK:
                shares = opening.shares.get(source, ZERO) + moved.shares.get(source, ZERO)
                if row.shares != shares:
                    found.append(Difference(source, on, "shares", row.shares, shares))
    return found


# ------------------------------------------------------------------ the engine's statements


@dataclass(frozen=True)
class SourceStatement:
    """The 401(k)'s statement of the period (``source_accounts.statement``) and what it was built on."""

    statement: Any
    opening_from: str
    vested_percent: Decimal
    contributions_by_kind: dict[str, dict[str, Decimal]]  # source → our kind → amount in the period


@dataclass(frozen=True)
class ShareStatement:
    """An ESOP's statement of the period (``share_accounts.statement``) and what it was built on."""

    statement: Any
    opening_from: str
    opening_share_value: Decimal
    closing_share_value: Decimal
    # The administrator's vested value when the plan's vesting rules are not in the records:
    # (valuation date, the value given, the percent of the account it is).
    vested_given: tuple[date, Decimal, Decimal] | None = None


@dataclass(frozen=True)
class PeriodFigures:
    period: Period
    accounts: SourceStatement | ShareStatement
    differences: list[Difference]
    transaction_count: int


def _k401_statement(membership, period: Period, txs, stored) -> SourceStatement:
    k401 = get_plan(membership.plan.key).source_accounts
    day_before = period.start - timedelta(days=1)
    opening, opening_how = position_on(stored, txs, day_before)
    transactions = []
    for t in txs:
        if t.kind == Kind.TRANSFER:
            raise CalculationError(
                "/transactions/transfer",
                "a transfer between 401(k) accounts is recorded, and the plan's statement has no such movement",
            )
        transactions.append(
            k401.transaction(
                t.date,
                t.source,
                k401.kinds(K401_KINDS[t.kind]),
                abs(t.amount) if t.kind in AccountTransaction.OUTFLOWS else t.amount,
            )
        )
    before = [t for t in transactions if t.on < period.start]
    loaned: dict[str, Decimal] = defaultdict(lambda: ZERO)
    withdrawn: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for t in before:
        if t.kind == "loan_issued":
            loaned[t.source] += t.amount
        elif t.kind == "loan_repaid":
            loaned[t.source] -= t.amount
        elif t.kind == "withdrawal":
            withdrawn[t.source] += t.amount
    core = engine_inputs(membership, as_of=period.end).core
    settings = (getattr(core, "settings", None) or {}).get("benefits")
    st = k401.statement(
        start=period.start,
        end=period.end,
        opening={s: v for s, v in opening.amount.items()},
        transactions=transactions,
        scheduled_percent=core.vesting.percent,
        loan_opening=sum(loaned.values(), ZERO),
        withdrawn_before=dict(withdrawn),
        loaned_out_before={s: max(v, ZERO) for s, v in loaned.items()},
        settings=settings if isinstance(settings, k401.settings_class) else k401.default_settings,
    )
    by_kind: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(lambda: ZERO))
    for t in txs:
        if period.start <= t.date <= period.end and t.kind in CONTRIBUTION_KINDS:
            by_kind[t.source][t.kind] += t.amount
    return SourceStatement(st, opening_how, core.vesting.percent, by_kind)


def _share_value(membership, on: date) -> Decimal:
    """The share value in force on ``on``: the plan's latest Stock Fund valuation on or before it (the
    same stock for every participant, so any account holding shares that day gives it)."""
    row = selectors.plan_share_valuation(membership.plan, source=STOCK, on=on)
    if row is None:
        raise CalculationError(
            "/balances/stock_fund", f"no share valuation is recorded on or before {on.isoformat()}"
        )
    return row.balance / row.shares


def _esop_statement(membership, period: Period, txs, stored) -> ShareStatement:
    esop = get_plan(membership.plan.key).share_accounts
    day_before = period.start - timedelta(days=1)
    opening, opening_how = position_on(stored, txs, day_before)
    entries = []
    for t in txs:
        kind = ESOP_KINDS.get(t.kind)
        if kind is None:
            raise CalculationError(
                f"/transactions/{t.kind}", f"an ESOP account has a {t.get_kind_display().lower()}"
            )
        if t.source == STOCK:
            entries.append(esop.entry(t.date, kind, shares=t.shares or ZERO))
        else:
            entries.append(esop.entry(t.date, kind, cash=t.amount))
    v1 = _share_value(membership, period.end)
    try:
        v0 = _share_value(membership, day_before)
    except CalculationError:
        if opening.shares.get(STOCK):
            raise
        v0 = v1  # no shares at the start and no valuation yet: the opening value is nil either way
    core = engine_inputs(membership, as_of=period.end).core
    pct, vested_given = core.vesting.percent, None
    given = (membership.plan_data or {}).get("vested_account_value")
    if given is not None:
        # The plan's vesting rules are not in the records (Carver ESOP, SPEC GAP D2.1): the vested value
        # is the administrator's figure on the valuation date, so its share of the account is applied.
        valuation = max(stored) if stored else period.end
        on_valuation, _ = position_on(stored, txs, valuation)
        total = to_money(
            on_valuation.shares.get(STOCK, ZERO) * _share_value(membership, valuation)
            + on_valuation.amount.get(FUND, ZERO)
        )
        pct = (Decimal(str(given)) / total * 100).quantize(Decimal("0.01")) if total else Decimal("0")
        vested_given = (valuation, Decimal(str(given)), pct)
    elected = Decimal(str((membership.plan_data or {}).get("elected_dividends") or "0"))
    st = esop.statement(
        period_start=period.start,
        period_end=period.end,
        opening_shares=opening.shares.get(STOCK, ZERO),
        opening_cash=opening.amount.get(FUND, ZERO),
        opening_share_value=v0,
        closing_share_value=v1,
        entries=entries,
        vested_percent=pct,
        elected_dividends=elected,
    )
    return ShareStatement(st, opening_how, v0, v1, vested_given)


def period_figures(membership, period: Period) -> PeriodFigures:
    """The engine's statement of ``membership`` for ``period``, and the stored balances it misses."""
    txs = selectors.membership_transactions(membership)
    stored = _stored(membership)
    if membership.plan.kind == membership.plan.Kind.ESOP:
        accounts: SourceStatement | ShareStatement = _esop_statement(membership, period, txs, stored)
    else:
        accounts = _k401_statement(membership, period, txs, stored)
    opening, _ = position_on(stored, txs, period.start - timedelta(days=1))
    return PeriodFigures(
        period=period,
        accounts=accounts,
        differences=ledger_differences(stored, txs, period, opening),
        transaction_count=sum(1 for t in txs if period.start <= t.date <= period.end),
    )


# ------------------------------------------------------------------ one statement's figures


@dataclass(frozen=True)
class StatementFigures:
    """What a statement shows, from the engine: ``result`` (the contract result on ``as_of``); for an
    account plan with transactions the period's ``activity``; for the cash balance plan the ``ledger``
    statement of ``year``."""

    membership: Any
    as_of: date
    result: dict
    activity: PeriodFigures | None = None
    ledger: Any = None
    year: int | None = None
    ledger_period: tuple[date, date] | None = None
    engine_version: str = ENGINE_VERSION


def statement_figures(
    membership, *, today: date, year: int | None = None, period_data=None, whole_year: bool = False
) -> StatementFigures:
    """The figures of one membership's statement (raises CalculationError when the engine cannot
    calculate, and ``PeriodError`` naming the field when ``period_data`` asks for an unusable period).
    ``whole_year``: the annual statement for ``year`` (a batch's): it covers that plan year and is valued
    no later than its last day, whatever later balances are on file."""
    plan = membership.plan
    if plan.is_account_plan:
        as_of = valuation_date(membership, today)
        if whole_year and year is not None:
            as_of = min(as_of, date(year, 12, 31))
            period_data = {"year": str(year)}
        years = plan_years(membership, as_of)
        period = None
        if years:
            period = period_from_input(
                period_data or {}, years=years, valuation=as_of, begin=records_begin(membership)
            )
        result = membership_calculate(membership, as_of=as_of)
        activity = period_figures(membership, period) if period is not None else None
        return StatementFigures(membership, as_of, result, activity=activity)
    result = membership_calculate(membership, as_of=today)
    if plan.kind == plan.Kind.CASH_BALANCE:
        year = year or today.year
        inputs = engine_inputs(membership, as_of=today)
        start, end = date(year, 1, 1), min(date(year, 12, 31), today)
        st = inputs.module.ledger.statement(
            inputs.participant, today, inputs.assumptions, start, end, inputs.core
        )
        return StatementFigures(membership, today, result, ledger=st, year=year, ledger_period=(start, end))
    return StatementFigures(membership, today, result)
