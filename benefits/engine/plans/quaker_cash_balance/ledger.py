"""The Cash Balance Account as a dated ledger (Article 4).

Every posting is an entry with its date, amount, the balance after it, and its basis in plain words:
the opening balance (§4.1, §4.2), Contribution Credits of 5% of countable Compensation at each
December 31 (§4.3), quarterly Interest Credits of one quarter of the lesser of the Treasury Rate and
12% on the prior quarter-end balance (§4.4(a),(c)) with none for the quarter in which the Annuity
Starting Date falls (§4.4(b)), the debit to zero at the ASD (§4.5), forfeiture at a non-vested
separation (§2.3(a)) and restoration with the interest it would have earned (§5.14(a)(i)).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, cast

from benefits.engine.money import CENT, ZERO
from benefits.engine.parameters import current_reads
from benefits.engine.trace import recording

from .cents import BOUND, CentsRate, Unusual, cents_rate
from .compensation import (
    TWELVE,
    ActivePeriod,
    CountableCompensation,
    countable_amount,
    countable_compensation,
    paydays_by_year,
)
from .interest import credit_rate_in_percent, quarter_end, quarter_of, to_cents, unrounded
from .ledger_entries import (
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
from .ledger_quick import quick_ledger
from .market import MarketData, Rate
from .settings import BenefitSettings

PAY_CREDIT_RATE = Decimal("0.05")  # §4.3(b)
# A LedgerEntry from a tuple of all its fields, without the named tuple's Python-level ``__new__``.
new_entry = tuple.__new__


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
    credit_rate: Callable[[int], tuple[Rate, Decimal, str, Decimal]] | None = None,
) -> Ledger:
    """Post every credit and debit dated on or before ``through``.

    ``pay_credits`` maps Plan Years to their countable Compensation; each credit posts on Dec 31 (or
    on ``credit_dates[year]`` under the GAP-2 "separation" setting). ``asd`` is the Annuity Starting
    Date (of the participant, or of a survivor under §5.12(d)): no interest for its quarter, and
    the account is debited to zero on it. A credit due after the ASD is posted as a residual.
    ``credit_rate``: a year's ``treasury_rate`` with ``credit_rate_in_percent`` of it, if the caller
    keeps them (the same values, made once for every ledger of the same market data).
    """
    rnd = to_cents if settings.round_each_posting else unrounded
    credit_dates = credit_dates or {}
    entries: list[LedgerEntry] = []
    balance = ZERO  # what the account shows
    shadow = ZERO  # the balance as if no forfeiture had been debited (§5.14(a)(i))
    debited = False
    distributed = False

    def post(
        d: date,
        kind: str,
        amount: Decimal,
        basis: str | tuple[Any, ...],
        section: str,
        estimate: bool = False,
        residual: bool = False,
    ) -> None:
        nonlocal balance, shadow
        balance = balance + amount
        entries.append(LedgerEntry(d, kind, amount, balance, basis, section, estimate, residual))
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
    rates: dict[int, tuple[Rate, Decimal, str, Decimal]] = {}

    def year_rate(year: int) -> tuple[Rate, Decimal, str, Decimal]:
        """The year's rate, its quarterly credit rate, the words, and that rate in percent."""
        if year not in rates:
            if credit_rate is not None:
                rates[year] = credit_rate(year)
            else:
                rate = treasury_rate(year)
                rates[year] = (rate, *credit_rate_in_percent(rate, settings.interest_floor))
        return rates[year]

    # What each kind of event posts, given the account's state (debited, distributed).
    def restore(when: date, f: Forfeiture) -> None:
        nonlocal debited
        if debited:
            debited = False
            post(
                when,
                RESTORATION,
                shadow,
                f"amount debited at the {f.on.isoformat()} forfeiture plus the Interest Credits "
                "it would have earned to the restoration date",
                "§5.14(a)(i)",
            )

    def distribute(when: date) -> None:
        nonlocal distributed
        if not distributed:
            post(when, DISTRIBUTION, -balance, "debited to zero at the Annuity Starting Date", "§4.5")
            distributed = True

    def credit_interest(when: date, year: int) -> None:
        nonlocal shadow
        if distributed:
            return
        # §4.4(a): a quarter of min(Treasury Rate, 12%) on the prior quarter-end balance.
        rate, quarterly, note, in_percent = rates.get(year) or year_rate(year)
        ic = rnd(base * quarterly)
        if debited:
            shadow += ic  # earns only toward a later restoration
        else:
            text = ("{:.2f} × {:.4f}% ({})", base, in_percent, note)
            post(when, INTEREST_CREDIT, ic, text, "§4.4", rate.estimate)

    def credit_pay(when: date, year: int) -> None:
        comp = pay_credits[year]
        if comp.amount <= 0:
            return
        cc = rnd(comp.amount * PAY_CREDIT_RATE)
        text = ("5% × {:.2f} ({}){}", comp.amount, comp.basis, "")
        if distributed:
            post(when, PAY_CREDIT, cc, (*text[:3], "; due after the ASD"), "§4.3; GAP-2", residual=True)
        elif debited:
            # Due after a non-vested forfeiture: never debited, so not restorable
            # (§5.14(a)(i)); shown and forfeited at once, a GAP-2 work item.
            post(
                when, PAY_CREDIT, cc, (*text[:3], "; due after the forfeiture"), "§4.3; GAP-2", residual=True
            )
            post(when, FORFEITURE, -cc, "credit due after a non-vested separation forfeited", "§2.3(a)")
        else:
            post(when, PAY_CREDIT, cc, text, "§4.3", estimate=comp.estimate)

    def forfeit(when: date) -> None:
        nonlocal debited
        if not debited and not distributed:
            debited = True  # first, so the shadow keeps the debited amount
            post(
                when,
                FORFEITURE,
                -balance,
                "non-vested Separation from Service: account debited to zero, a deemed distribution",
                "§2.3(a)",
            )

    # Quarters with anything besides the Interest Credit and a December 31 Contribution Credit.
    unusual = {quarter_of(f.on) for f in forfeitures}
    unusual |= {quarter_of(f.restored_on) for f in forfeitures if f.restored_on}
    unusual |= {quarter_of(when) for when in credit_dates.values()}
    if asd_q:
        unusual.add(asd_q)

    rounding = settings.round_each_posting
    append = entries.append
    y, q = quarter_of(account_open)
    while True:
        q_end = quarter_end(y, q)
        pay_due = q == 4 and y in pay_credits and y not in credit_dates
        if (y, q) not in unusual:
            # The usual quarter: its Interest Credit, then (Q4) the year's Contribution Credit, both
            # on its last day (the order the general path below sorts them in).
            if q_end <= through:
                if debited or distributed:
                    credit_interest(q_end, y)
                else:
                    # ``credit_interest`` and ``post`` inlined: a census posts about 80 of these a
                    # participant (the same Decimal steps, entry and words).
                    rate, quarterly, note, in_percent = rates.get(y) or year_rate(y)
                    ic = (base * quarterly).quantize(CENT, ROUND_HALF_UP) if rounding else base * quarterly
                    shadow = balance = balance + ic
                    why = ("{:.2f} × {:.4f}% ({})", base, in_percent, note)
                    fields = (q_end, INTEREST_CREDIT, ic, balance, why, "§4.4", rate.estimate, False)
                    append(new_entry(LedgerEntry, fields))
                if pay_due:
                    credit_pay(q_end, y)
        else:
            q_start = date(y, 3 * q - 2, 1)
            events: list[tuple[date, int, str, Any]] = []
            for f in forfeitures:
                if q_start <= f.on <= q_end:
                    events.append((f.on, 5, FORFEITURE, f))
                if f.restored_on and q_start <= f.restored_on <= q_end:
                    events.append((f.restored_on, 0, RESTORATION, f))
            for year, when in credit_dates.items():
                if q_start <= when <= q_end and year in pay_credits:
                    events.append((when, 1 if when != date(year, 12, 31) else 4, PAY_CREDIT, year))
            if pay_due:
                events.append((q_end, 4, PAY_CREDIT, y))
            if asd and asd_q == (y, q):
                events.append((asd, 2, DISTRIBUTION, None))
            else:
                events.append((q_end, 3, INTEREST_CREDIT, None))
            events.sort(key=lambda e: (e[0], e[1]))
            for when, _, kind, payload in events:
                if when > through:
                    break
                if kind == RESTORATION:
                    restore(when, payload)
                elif kind == DISTRIBUTION:
                    distribute(when)
                elif kind == INTEREST_CREDIT:
                    credit_interest(when, y)
                elif kind == PAY_CREDIT:
                    credit_pay(when, payload)
                elif kind == FORFEITURE:
                    forfeit(when)
        if q_end >= through or (distributed and asd is not None and y > asd.year) or (distributed and q == 4):
            break
        base = shadow
        if q == 4:  # ``next_quarter``, inlined
            y, q = y + 1, 1
        else:
            q += 1
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
    Without traces its balances alone, in whole cents (``ledger_quick``), the entries built the
    general way only if read; input that path does not take goes the general way.
    """
    args: dict[str, Any] = dict(
        account_open=account_open, opening_balance=opening_balance, periods=periods,
        compensation=compensation, comp_limit=comp_limit, market=market, as_of=as_of,
        through=through, settings=settings, asd=asd, forfeitures=forfeitures,
        disability_date=disability_date, countable_override=countable_override,
        loan_agent_limit=loan_agent_limit,
    )  # fmt: skip
    if settings.round_each_posting and not recording() and current_reads() is None:
        try:
            return _quick_account_ledger(**args)
        except Exception:  # noqa: BLE001, S110 - unusual input (or an error): the general path meets it
            pass
    return _account_ledger(**args)


def _account_ledger(
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
    """``account_ledger`` on the general path: every entry with its words."""
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
    treasury_rate, credit_rate = _rates(market, as_of, settings)
    return build_ledger(
        account_open=account_open,
        opening_balance=opening_balance,
        pay_credits=pay,
        treasury_rate=treasury_rate,
        through=through,
        settings=settings,
        asd=asd,
        forfeitures=forfeitures,
        credit_dates=credit_dates,
        credit_rate=credit_rate,
    )


def _rates(
    market: MarketData, as_of: date, settings: BenefitSettings
) -> tuple[Callable[[int], Rate], Callable[[int], tuple[Rate, Decimal, str, Decimal]]]:
    """Each Plan Year's Treasury Rate, and its quarterly credit rate with words (made once for the
    market data)."""
    floor = settings.interest_floor
    # Equal floors that print apart (0.02, 0.020) give words apart: keyed by their exact digits.
    floor_digits = None if floor is None else floor.as_tuple()

    def treasury_rate(y: int) -> Rate:
        return market.treasury_rate(y, allow_estimate=y > as_of.year)

    def credit_rate(y: int) -> tuple[Rate, Decimal, str, Decimal]:
        def compute() -> tuple[Rate, Decimal, str, Decimal]:
            rate = treasury_rate(y)
            return (rate, *credit_rate_in_percent(rate, floor))

        return market.derived(("quarterly credit", y, y > as_of.year, floor_digits), compute)

    return treasury_rate, credit_rate


def _cents_rates(
    market: MarketData, as_of: date, settings: BenefitSettings
) -> tuple[Callable[[int], CentsRate], Mapping[int, CentsRate]]:
    """Each Plan Year's quarterly credit rate in whole numbers, from ``credit_rate``, and the table of
    those asked for so far: one for the market data, the as-of year and the floor (all the lookup
    reads of ``as_of`` and ``settings``), made once with its lookup."""
    floor = settings.interest_floor
    key = ("cents rates", as_of.year, None if floor is None else floor.as_tuple())

    def make() -> tuple[Callable[[int], CentsRate], Mapping[int, CentsRate]]:
        table: dict[int, CentsRate] = {}
        credit_rate = _rates(market, as_of, settings)[1]

        def rate_of(year: int) -> CentsRate:
            rate = table.get(year)
            if rate is None:
                r, quarterly, _, _ = credit_rate(year)
                rate = table[year] = cents_rate(quarterly, r.estimate)
            return rate

        return rate_of, table

    return market.derived(key, make)


def _year_values(limit: Callable[[int], Decimal], first: int, last: int) -> tuple[Decimal, ...]:
    """``limit(year)`` for each year from ``first`` to ``last``, in order (a range at once if it can)."""
    years = getattr(limit, "years", None)
    if years is not None:
        return cast(tuple[Decimal, ...], years(first, last))
    return tuple([limit(year) for year in range(first, last + 1)])


def _ratios(values: tuple[Decimal, ...]) -> tuple[tuple[int, int], ...]:
    """Each value as a fraction, kept for the very tuple (``YearLimit.years`` hands out the same one
    for the same years: a census asks for the same few ranges)."""
    kept = _RATIOS.get(id(values))
    if kept is not None and kept[0] is values:
        return kept[1]
    ratios = tuple([v.as_integer_ratio() for v in values])
    if len(_RATIOS) >= 4096:
        _RATIOS.clear()
    _RATIOS[id(values)] = (values, ratios)  # the tuple kept alive with its id
    return ratios


_RATIOS: dict[int, tuple[tuple[Decimal, ...], tuple[tuple[int, int], ...]]] = {}


def _plain_credit(
    rate: Decimal, paydays: int, limit: tuple[int, int], estimate: bool
) -> tuple[int, bool] | None:
    """The Contribution Credit in cents of pay at ``rate`` (× ``paydays`` / 12 if given), capped at
    ``limit`` (as a fraction): ``to_cents(min(amount, limit) × 5%)``, on exact fractions. The Decimal steps round the
    amount to 28 digits before the cap and the credit; a fraction with a denominator this small is a
    half cent exactly or at least 1/(24 × denominator) from one, and from the limit, far beyond
    that rounding, so both give the same cents. None for no credit (not positive)."""
    num, den = rate.as_integer_ratio()
    if paydays:
        num, den = num * paydays, den * 12
    cap_num, cap_den = limit
    if num * cap_den > cap_num * den:  # over the limit: the limit is the amount
        num, den = cap_num, cap_den
    if num <= 0:
        return None
    if den > 10**8 or num > den * 10**12:  # not pay in cents or a few digits more
        raise Unusual("pay outside the exact fractions")
    return (10 * num + den) // (2 * den), estimate  # 5% of the amount in cents, half up


def _quick_account_ledger(**args: Any) -> Ledger:
    """``_account_ledger``'s balances (``ledger_quick``): each year's Contribution Credit in cents
    (``_plain_credit`` for pay alone, else ``countable_amount``), the limits of the years read as a
    range. Any error is met again on the general path, where that path meets it."""
    settings: BenefitSettings = args["settings"]
    account_open: date = args["account_open"]
    through: date = args["through"]
    asd: date | None = args["asd"]
    periods: Sequence[ActivePeriod] = args["periods"]
    compensation: Mapping[int, Decimal] = args["compensation"]
    comp_limit, loan_limit = args["comp_limit"], args["loan_agent_limit"]
    as_of: date = args["as_of"]
    last_known_pay = compensation[max(compensation)] if compensation else None
    last_year = through.year if asd is None else min(through.year, asd.year)
    first = account_open.year
    project = settings.project_future_pay
    limits = _year_values(comp_limit, first, last_year)
    loans = _year_values(loan_limit, first, last_year) if loan_limit else None
    override, disability = args["countable_override"], args["disability_date"]
    plain = override is None and disability is None and loans is None
    annual, prorate = settings.compensation_input == "annual_rate", settings.prorate_compensation_limit
    pay: dict[int, tuple[int, bool] | None] = {}
    ratios: tuple[tuple[int, int], ...] = ()
    for i, paydays in enumerate(paydays_by_year(periods, first, last_year)):
        year = first + i
        if not paydays:  # never Active that year: no countable Compensation
            continue
        if plain:  # ``countable_amount`` of pay alone, inline (the census's usual participant)
            estimate = False
            if year in compensation:
                rate = compensation[year]
            elif project and year >= as_of.year and last_known_pay is not None:
                rate, estimate = last_known_pay, True
            else:
                pay[year] = None  # no Compensation given: a zero credit, not posted
                continue
            if not prorate:
                ratios = ratios or _ratios(limits)
                pay[year] = _plain_credit(rate, paydays if annual else 0, ratios[i], estimate)
                continue
            amount = rate * paydays / TWELVE if annual else rate
            limit = limits[i] * paydays / TWELVE
            if amount > limit:
                amount = limit
        else:
            comp = countable_amount(
                year=year,
                paydays=paydays,
                compensation=compensation,
                comp_limit=limits[i],
                settings=settings,
                override=override,
                disability_date=disability,
                loan_agent_limit=None if loans is None else loans[i],
                projected_rate=last_known_pay if (project and year >= as_of.year) else None,
            )
            assert comp is not None  # paydays > 0
            amount, estimate = comp
        credit = None
        if amount > 0:  # the Decimal credit's cents (``build_ledger`` posts none otherwise)
            credit = int(to_cents(amount * PAY_CREDIT_RATE).scaleb(2))
            if not -BOUND < credit < BOUND:
                raise Unusual("too large")
        pay[year] = None if credit is None else (credit, estimate)
    credit_dates: dict[int, date] = {}
    if settings.final_year_credit == "separation":
        for p in periods:
            if p.end is not None and p.end.year in pay:
                credit_dates[p.end.year] = p.end
    return quick_ledger(
        account_open=account_open,
        opening_balance=args["opening_balance"],
        pay_cents=pay,
        rates=_cents_rates(args["market"], as_of, settings),
        through=through,
        q1_2000_interest=settings.q1_2000_interest_on_beginning_balance,
        asd=asd,
        forfeitures=args["forfeitures"],
        credit_dates=credit_dates,
        full=lambda: _account_ledger(**args),
    )
