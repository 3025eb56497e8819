"""Interest Credits (§4.4): the plan's quarters, the quarterly credit rate (one quarter of the lesser of
the Treasury Rate and 12%, §4.4(a)(i)) with its plain words, and a balance carried with Interest
Credits alone (the accrued benefit and the whipsaw projection need only that balance)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache

from benefits.engine.money import CENT, ZERO

from .cents import CentsRate, Unusual, cents_of, cents_rate, default_context
from .market import MarketData, Rate
from .settings import BenefitSettings

INTEREST_CAP = Decimal("0.12")  # §4.4(a)(i)(b)
FOUR = Decimal(4)


def quarter_of(d: date) -> tuple[int, int]:
    return d.year, (d.month - 1) // 3 + 1


@cache  # a ledger asks for every quarter's end, and every ledger for the same quarters
def quarter_end(year: int, q: int) -> date:
    return date(year, 3 * q, 31 if q in (1, 4) else 30)


def next_quarter(year: int, q: int) -> tuple[int, int]:
    return (year + 1, 1) if q == 4 else (year, q + 1)


def to_cents(amount: Decimal) -> Decimal:
    """``money.to_money`` for a Decimal (half up to the cent), without its conversion step."""
    return amount.quantize(CENT, ROUND_HALF_UP)


def unrounded(amount: Decimal) -> Decimal:
    return amount


def quarterly_rate(rate: Rate, settings: BenefitSettings) -> Decimal:
    """One quarter of the lesser of the Treasury Rate and 12% (§4.4(a)(i)); GAP-13 floor if set."""
    return _quarterly(rate.value, settings.interest_floor)


def _quarterly(value: Decimal, floor: Decimal | None) -> Decimal:
    annual = min(value, INTEREST_CAP)
    if floor is not None and annual < floor:
        annual = floor
    return annual / FOUR


def credit_rate(rate: Rate, settings: BenefitSettings) -> tuple[Decimal, str]:
    """``quarterly_rate`` with its plain words."""
    return credit_rate_in_percent(rate, settings.interest_floor)[:2]


def credit_rate_in_percent(rate: Rate, floor: Decimal | None) -> tuple[Decimal, str, Decimal]:
    """``credit_rate`` and the quarterly rate in percent (the words of each Interest Credit)."""
    # Cached by the exact digits too: equal Decimals (0.04, 0.0400) give quotients that print apart.
    exact = (rate.value.as_tuple(), None if floor is None else floor.as_tuple())
    return _credit_rate_of(rate, floor, exact)


@lru_cache(maxsize=1024)  # every ledger of a census asks for the same few years' rates
def _credit_rate_of(rate: Rate, floor: Decimal | None, _exact: object) -> tuple[Decimal, str, Decimal]:
    note = f"one quarter of the Treasury Rate {rate.value * 100:.2f}% ({rate.source})"
    if rate.value > INTEREST_CAP:
        note += ", capped at 12%"
    if floor is not None and min(rate.value, INTEREST_CAP) < floor:
        note += f", floored at {floor * 100:.2f}% (GAP-13 setting)"
    quarterly = _quarterly(rate.value, floor)
    return quarterly, note, quarterly * 100


def interest_only_balance(
    balance: Decimal,
    *,
    year_end: date,
    before: date,
    treasury_rate: Callable[[int], Rate],
    settings: BenefitSettings,
    quarterly: dict[int, Decimal] | None = None,
) -> Decimal:
    """The balance at the start of ``before``, carried from ``balance`` (the balance after every
    posting of December 31 ``year_end``) with the quarterly Interest Credits alone: what
    ``build_ledger`` posts, quarter by quarter, when nothing else is due (no pay credit, forfeiture,
    restoration or Annuity Starting Date after ``year_end``); the same Decimal steps, without the
    entries (the accrued benefit needs only the balance at Normal Retirement Date). ``quarterly``:
    each Plan Year's quarterly rate, if the caller keeps them (``shared_quarterly``)."""
    first = (year_end.year + 1, 1)
    return _interest_only(balance, balance, first, before, treasury_rate, settings, quarterly)


def shared_quarterly(market: MarketData, as_of: date, settings: BenefitSettings) -> dict[int, Decimal]:
    """The quarterly rate of each Plan Year read with ``as_of``'s estimates allowed after its year,
    one table for the market data (filled as years are asked for): every participant's carry to NRD
    reads the same years."""
    floor = settings.interest_floor
    key = ("quarterly rates", as_of.year, None if floor is None else floor.as_tuple())
    return market.derived(key, dict)


def projected_balance_before(
    opening: Decimal,
    *,
    start: date,
    before: date,
    treasury_rate: Callable[[int], Rate],
    settings: BenefitSettings,
    quarterly: dict[int, Decimal] | None = None,
) -> Decimal:
    """The balance at the start of ``before`` of an account opened with ``opening`` on ``start``
    (the first day of a quarter, earlier than ``before``'s quarter) that earns the quarterly
    Interest Credits alone, the opening included from its first quarter: what
    ``build_ledger(account_open=start, opening_balance=opening, pay_credits={}, through=before,
    asd=before, opening_earns_first_quarter=True).balance_before(before)`` gives, with the same
    Decimal steps and the same rate lookups in the same order, without the entries (the whipsaw
    projection, GAP-3, needs only the balance at Normal Retirement Date, for every modeled date).
    ``quarterly``: each Plan Year's quarterly rate, shared by the calls of one participant's dates."""
    # The ledger posts the opening onto a zero balance and credits its first quarter on the opening.
    return _interest_only(
        ZERO + opening, opening, quarter_of(start), before, treasury_rate, settings, quarterly
    )


def _interest_only(
    balance: Decimal,
    base: Decimal,
    first: tuple[int, int],
    before: date,
    treasury_rate: Callable[[int], Rate],
    settings: BenefitSettings,
    quarterly: dict[int, Decimal] | None = None,
) -> Decimal:
    """``balance`` after the Interest Credit of every quarter from ``first`` to the last one ending
    before ``before`` (the first credited on ``base``, each later one on the balance before it)."""
    quarterly = {} if quarterly is None else quarterly
    if settings.round_each_posting and quarter_end(*first) < before:
        carried = _in_cents(balance, base, first, before, treasury_rate, settings, quarterly)
        if carried is not None:
            return carried
    return _in_decimal(balance, base, first, before, treasury_rate, settings, quarterly)


def _in_decimal(
    balance: Decimal,
    base: Decimal,
    first: tuple[int, int],
    before: date,
    treasury_rate: Callable[[int], Rate],
    settings: BenefitSettings,
    quarterly: dict[int, Decimal],
) -> Decimal:
    """``_interest_only`` in Decimal steps."""
    rounding = settings.round_each_posting
    y, q = first
    # Year by year (the rate is the year's), each quarter rounded on its own: the accrued benefit
    # and the whipsaw carry a balance this way over decades of quarters.
    while quarter_end(y, q) < before:  # no Interest Credit for the quarter of ``before``
        if y not in quarterly:
            quarterly[y] = quarterly_rate(treasury_rate(y), settings)  # no words needed
        rate = quarterly[y]
        while True:
            credit = base * rate
            balance = balance + (credit.quantize(CENT, ROUND_HALF_UP) if rounding else credit)
            base = balance
            if q == 4:
                y, q = y + 1, 1
                break
            q += 1
            if quarter_end(y, q) >= before:
                return balance
    return balance


def _in_cents(
    balance: Decimal,
    base: Decimal,
    first: tuple[int, int],
    before: date,
    treasury_rate: Callable[[int], Rate],
    settings: BenefitSettings,
    quarterly: dict[int, Decimal],
) -> Decimal | None:
    """``_interest_only`` (rounded, at least one quarter) in whole cents: each credit the base in cents
    times the rate's digits, rounded half up to the cent, which is the Decimal step whenever the
    product is exact (checked); the same rate lookups in the same order. None (the Decimal steps
    then) for a balance or base finer than a cent, or anything ``ledger_quick`` does not take."""
    try:
        if not default_context():
            return None
        cents = cents_of(balance)[0]
        base_cents = cents_of(base)[0]
    except Unusual:
        return None
    y, q = first
    end_y, end_q = quarter_of(before)  # credited: every quarter before ``before``'s own
    known = _CENTS_RATES.get
    while (y, q) < (end_y, end_q):
        if q == 1 and base_cents == cents:
            # Whole years while the balance is under the year's limit, each unrolled:
            # ``interest_cents`` four times, each product exact and not negative (the limit).
            while y < end_y:
                year_rate = quarterly.get(y)
                if year_rate is None:
                    year_rate = quarterly[y] = quarterly_rate(treasury_rate(y), settings)
                try:
                    rate = known(year_rate) or _cents_rate_of(year_rate)
                except Unusual:
                    return None
                limit = rate.limit
                if limit is None or not 0 <= cents < limit:
                    break
                m, d, h = rate.m, rate.d, rate.h
                cents += (cents * m + h) // d
                cents += (cents * m + h) // d
                cents += (cents * m + h) // d
                cents += (cents * m + h) // d
                y += 1
            base_cents = cents
            if (y, q) >= (end_y, end_q):
                break
        if y not in quarterly:
            quarterly[y] = quarterly_rate(treasury_rate(y), settings)
        try:
            rate = known(quarterly[y]) or _cents_rate_of(quarterly[y])
        except Unusual:
            return None
        m, d, h, bound = rate.m, rate.d, rate.h, rate.bound
        last_q = 4 if y < end_y else end_q - 1
        while q <= last_q:
            t = base_cents * m
            if not -bound < t < bound:
                return None  # too large for an exact product: the Decimal steps
            cents += (t + h) // d if t >= 0 else -((h - t) // d)
            base_cents = cents
            q += 1
        y, q = y + 1, 1
    return Decimal(cents).scaleb(-2)


_CENTS_RATES: dict[Decimal, CentsRate] = {}


def _cents_rate_of(quarterly: Decimal) -> CentsRate:
    """The rate's whole-number form (equal rates, by value, have equal products), kept."""
    rate = cents_rate(quarterly, False)
    if len(_CENTS_RATES) < 1024:
        _CENTS_RATES[quarterly] = rate
    return rate
