"""The account's balances without its entries: ``build_ledger``'s postings in whole cents (the untraced
census, issue 29).

The same steps in the same order as ``build_ledger`` (its events, its quarters, its rate lookups), each
posting kept as its date and the balance after it, in cents: an Interest Credit is the product of the
base in cents and the quarterly rate's digits, rounded half up (away from zero) to the cent, which is
``quantize(CENT, ROUND_HALF_UP)`` of the Decimal product whenever that product is exact (fewer than 28
digits, checked). A ``BalanceLedger`` gives each balance as the Decimal the entry would hold, and builds
the entries on the general path only if they are read.

Anything else raises ``Unusual`` and the caller takes the general path: unrounded postings (GAP-15),
an opening balance finer than a cent, amounts too large for the exact products, a Decimal context
other than the default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Any

from benefits.engine.money import ZERO

from .cents import BOUND, CentsRate, Unusual, cents_of, default_context, interest_cents
from .interest import quarter_end, quarter_of
from .ledger_entries import BalanceLedger, Forfeiture, Ledger


def quick_ledger(
    *,
    account_open: date,
    opening_balance: Decimal,
    pay_cents: Mapping[int, tuple[int, bool] | None],
    rates: tuple[Callable[[int], CentsRate], Mapping[int, CentsRate]],
    through: date,
    q1_2000_interest: bool,
    asd: date | None,
    forfeitures: Sequence[Forfeiture],
    credit_dates: Mapping[int, date],
    full: Callable[[], Ledger],
) -> BalanceLedger:
    """``build_ledger`` with ``round_each_posting``, as balances. ``pay_cents``: each Plan Year with a
    countable Compensation, its Contribution Credit in cents and whether it is an estimate (None when
    the Compensation is not positive: no credit posts); ``rates``: each Plan Year's quarterly credit
    rate, looked up where ``build_ledger`` looks up ``credit_rate``, and a table of those it has
    given (read first: the same rate, without the call)."""
    rate_of, known = rates
    if not default_context():
        raise Unusual("another Decimal context")
    start = ZERO + opening_balance  # the opening entry's balance
    opening, unit = cents_of(start)
    dates: list[date] = []
    cents: list[int] = []
    append_date, append_cents = dates.append, cents.append
    first_cents = 0 if unit <= -2 else -1  # the first posting whose balance has the cent exponent
    balance = shadow = 0
    shadow_in_cents = False  # whether a rounded credit went into the shadow balance
    debited = distributed = False
    forfeited = residual = False
    estimated_from: date | None = None

    def post(d: date, amount: int, rounded: bool) -> None:
        """A posting: ``rounded`` when its amount has the cent exponent (a credit, or a balance that has)."""
        nonlocal balance, shadow, first_cents, shadow_in_cents
        balance += amount
        append_date(d)
        append_cents(balance)
        if rounded and first_cents < 0:
            first_cents = len(cents) - 1
        if not debited:
            shadow = balance
            shadow_in_cents = first_cents >= 0

    def note_estimate(d: date) -> None:
        nonlocal estimated_from
        if estimated_from is None:
            estimated_from = d

    post(account_open, opening, False)
    q1_2000 = account_open == date(2000, 1, 1) and q1_2000_interest
    base = opening if q1_2000 else 0
    asd_q = quarter_of(asd) if asd else None

    def in_cents() -> bool:
        return first_cents >= 0

    def restore(when: date) -> None:
        nonlocal debited, forfeited
        if debited:
            debited = False
            post(when, shadow, shadow_in_cents)
            forfeited = False

    def distribute(when: date) -> None:
        nonlocal distributed
        if not distributed:
            post(when, -balance, in_cents())
            distributed = True

    def credit_interest(when: date, year: int) -> None:
        nonlocal shadow, shadow_in_cents
        if distributed:
            return
        rate = rate_of(year)
        ic = interest_cents(base, rate)
        if debited:
            shadow += ic
            shadow_in_cents = True
        else:
            post(when, ic, True)
            if rate.estimate:
                note_estimate(when)

    def credit_pay(when: date, year: int) -> None:
        nonlocal residual, forfeited
        credit = pay_cents[year]
        if credit is None:
            return
        cc, estimate = credit
        if distributed:
            post(when, cc, True)
            residual = True
        elif debited:
            post(when, cc, True)
            post(when, -cc, True)
            residual = forfeited = True
        else:
            post(when, cc, True)
            if estimate:
                note_estimate(when)

    def forfeit(when: date) -> None:
        nonlocal debited, forfeited
        if not debited and not distributed:
            debited = forfeited = True
            post(when, -balance, in_cents())

    unusual = {quarter_of(f.on) for f in forfeitures}
    unusual |= {quarter_of(f.restored_on) for f in forfeitures if f.restored_on}
    unusual |= {quarter_of(when) for when in credit_dates.values()}
    if asd_q:
        unusual.add(asd_q)
    # The years a run of usual years stops at (an event in one of its quarters, a separation credit).
    unusual_years = {year for year, _ in unusual} | set(credit_dates)
    pay_get = pay_cents.get
    y, q = quarter_of(account_open)
    while True:
        if q == 1 and base == balance and not (debited or distributed):
            done = False
            # A run of usual years, each at once: four Interest Credits, each on the balance before
            # it (the shadow is the balance), then the year's Contribution Credit on December 31.
            while y not in unusual_years:
                ends = year_ends(y)
                if ends[0] > through:  # no quarter of the year ends by then: nothing posts
                    break
                rate = known.get(y) or rate_of(y)
                limit = rate.limit
                if limit is None or not 0 <= balance < limit:
                    break
                m, d, h = rate.m, rate.d, rate.h
                if ends[3] > through:
                    # The last year, in part: the Interest Credit of each quarter ending by
                    # ``through`` (its Contribution Credit would post on December 31).
                    for end in ends:
                        if end > through:
                            break
                        balance += (balance * m + h) // d
                        append_date(end)
                        append_cents(balance)
                        if first_cents < 0:
                            first_cents = len(cents) - 1
                        if rate.estimate and estimated_from is None:
                            estimated_from = end
                    shadow = base = balance
                    shadow_in_cents = True
                    done = True
                    break
                # ``interest_cents`` four times, unrolled (the limit keeps each product exact and
                # not negative).
                b1 = balance + (balance * m + h) // d
                b2 = b1 + (b1 * m + h) // d
                b3 = b2 + (b2 * m + h) // d
                balance = b3 + (b3 * m + h) // d
                dates += ends
                cents += (b1, b2, b3, balance)
                if first_cents < 0:
                    first_cents = len(cents) - 4
                if rate.estimate and estimated_from is None:
                    estimated_from = ends[0]
                credit = pay_get(y)
                if credit is not None:
                    balance += credit[0]
                    append_date(ends[3])
                    append_cents(balance)
                    if credit[1] and estimated_from is None:
                        estimated_from = ends[3]
                shadow = base = balance
                shadow_in_cents = True
                if ends[3] >= through:
                    done = True
                    break
                y += 1
            if done:  # the run posted through ``through``
                break
        elif q == 1 and base == shadow and debited and not distributed:
            done = False
            # A run of usual years of a forfeited account, each at once: the Interest Credits go to
            # the shadow balance (what a restoration restores), none posted (``credit_interest``);
            # a Contribution Credit posts and is forfeited at once (``credit_pay``).
            while y not in unusual_years:
                ends = year_ends(y)
                if ends[3] > through:
                    break
                rate = known.get(y) or rate_of(y)
                limit = rate.limit
                if limit is None or not 0 <= shadow < limit or not -BOUND < balance < BOUND:
                    break
                m, d, h = rate.m, rate.d, rate.h
                s1 = shadow + (shadow * m + h) // d
                s2 = s1 + (s1 * m + h) // d
                s3 = s2 + (s2 * m + h) // d
                shadow = base = s3 + (s3 * m + h) // d
                shadow_in_cents = True
                credit = pay_get(y)
                if credit is not None:
                    post(ends[3], credit[0], True)
                    post(ends[3], -credit[0], True)
                    residual = forfeited = True
                if ends[3] >= through:
                    done = True
                    break
                y += 1
            if done:
                break
        q_end = quarter_end(y, q)
        pay_due = q == 4 and y in pay_cents and y not in credit_dates
        if (y, q) not in unusual:
            if q_end <= through:
                if debited or distributed:
                    credit_interest(q_end, y)
                else:  # ``credit_interest`` and ``post`` inlined (the shadow is the balance)
                    rate = rate_of(y)
                    balance += interest_cents(base, rate)
                    shadow = balance
                    append_date(q_end)
                    append_cents(balance)
                    if first_cents < 0:
                        first_cents = len(cents) - 1
                    shadow_in_cents = True
                    if rate.estimate and estimated_from is None:
                        estimated_from = q_end
                if pay_due:
                    credit_pay(q_end, y)
        else:
            q_start = date(y, 3 * q - 2, 1)
            events: list[tuple[date, int, Any]] = []
            for f in forfeitures:
                if q_start <= f.on <= q_end:
                    events.append((f.on, 5, None))
                if f.restored_on and q_start <= f.restored_on <= q_end:
                    events.append((f.restored_on, 0, None))
            for year, when in credit_dates.items():
                if q_start <= when <= q_end and year in pay_cents:
                    events.append((when, 1 if when != date(year, 12, 31) else 4, year))
            if pay_due:
                events.append((q_end, 4, y))
            if asd and asd_q == (y, q):
                events.append((asd, 2, None))
            else:
                events.append((q_end, 3, None))
            events.sort(key=lambda e: (e[0], e[1]))
            for when, order, payload in events:
                if when > through:
                    break
                if order == 0:
                    restore(when)
                elif order == 2:
                    distribute(when)
                elif order == 3:
                    credit_interest(when, y)
                elif order in (1, 4):
                    credit_pay(when, payload)
                else:
                    forfeit(when)
        if q_end >= through or (distributed and asd is not None and y > asd.year) or (distributed and q == 4):
            break
        if not (-BOUND < balance < BOUND and -BOUND < shadow < BOUND):
            raise Unusual("too large")
        base = shadow
        if q == 4:
            y, q = y + 1, 1
        else:
            q += 1
    flags = (forfeited, estimated_from, residual)
    return BalanceLedger(
        tuple(dates), cents, len(cents) if first_cents < 0 else first_cents, unit, flags, full
    )


@cache
def year_ends(year: int) -> tuple[date, date, date, date]:
    """The four quarter ends of a Plan Year."""
    return quarter_end(year, 1), quarter_end(year, 2), quarter_end(year, 3), quarter_end(year, 4)
