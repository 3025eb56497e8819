"""The participant's benefits: the accrued benefit with the §415 limit, the pre-retirement survivor
benefit, and every estimate asked for (the Python API the web app calls).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal
from typing import Any, cast

from benefits.engine.core import CoreResult
from benefits.engine.dates import (
    first_of_month_on_or_after,
    first_of_next_month,
)
from benefits.engine.missing import MissingLog, describe
from benefits.engine.money import ZERO
from benefits.engine.trace import Trace, TraceBuilder, money, percent, recording
from benefits.engine.types import Participant

from .account import participant_ledger, replay_limit_reads
from .annuity import applicable_basis, balance_to_life_annuity
from .compensation import ActivePeriod
from .death import Recipient, SurvivorAnnuity, survivor_annuity, survivor_dates
from .estimates import Account, AccruedBenefit, Estimate, QuakerBenefits, estimate
from .forms import FormAmount
from .inputs import (
    RESTATEMENT,
    AccountInputs,
    _core,
    _pd_date,
    _pd_money,
    _settings,
    account_inputs,
    earliest_commencement,
    vested_amount,
)
from .interest import interest_only_balance, shared_quarterly
from .ledger_entries import Ledger
from .limits import (
    cash_out,
    cash_out_threshold,
)
from .market import MarketData, MarketDataError


def accrued_benefit(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    inputs: AccountInputs,
    ledger: Ledger | None = None,
) -> AccruedBenefit | None:
    """The life annuity at NRD bought by today's balance with Interest Credits only to NRD (§5.3).

    ``ledger``: the participant's account ledger (no Annuity Starting Date) through ``as_of`` or
    later, if already built: up to the last December 31 the frozen account is that ledger (the same
    credits: every employment span ends by then or is still open), so it is read, not built again.
    """
    nrd = core.normal_retirement_date
    if inputs.account_open is None:
        return None
    # The account frozen at the last December 31 (``_frozen_account``), made only where it is read.
    last_dec31 = as_of if (as_of.month, as_of.day) == (12, 31) else date(as_of.year - 1, 12, 31)
    trace = Trace()  # started before the ledger, so the limits the ledger reads are in it
    quiet_after_last_dec31 = (
        nrd > last_dec31
        and inputs.account_open <= last_dec31
        and not inputs.forfeitures
        # every span of the frozen account (``_frozen_account``) ends by the last December 31
        and all(x.end is None or x.end <= last_dec31 or x.end < x.start for x in inputs.periods)
    )
    if quiet_after_last_dec31:
        # After the last December 31 the frozen account only earns interest: post to that day,
        # then carry the balance to NRD with the Interest Credits alone (no entries to build).
        if ledger is None:
            frozen = _frozen_account(inputs, last_dec31)
            ledger = participant_ledger(p, as_of, market, core, through=last_dec31, inputs=frozen)
        balance = interest_only_balance(
            ledger.balance_at(last_dec31),
            year_end=last_dec31,
            before=nrd,
            treasury_rate=lambda y: market.treasury_rate(y, allow_estimate=y > as_of.year),
            settings=_settings(core),
            quarterly=shared_quarterly(market, as_of, _settings(core)),
        )
    elif ledger is not None and nrd <= last_dec31:
        # NRD has passed: before it the frozen account is the participant's own ledger (the same
        # credits up to the last December 31), so its balance is read, not built again.
        replay_limit_reads(_frozen_account(inputs, last_dec31), nrd.year)
        balance = ledger.balance_before(nrd)
    elif not recording() and _quiet_after(frozen := _frozen_account(inputs, last_dec31), last_dec31, nrd):
        # No trace (which would list the limits of every year to NRD): post to the last
        # December 31 only; after it the account earns the Interest Credits alone, or, left
        # forfeited, nothing (its credits count only toward a restoration), the same Treasury
        # Rates read either way. The participant's own ledger, if given, is the frozen account's
        # to that day (the same postings: every span ends by then or is still open), and stands
        # forfeited at its end exactly when it did then (no forfeiture or restoration after it).
        to_dec31 = ledger
        if to_dec31 is None:
            to_dec31 = participant_ledger(p, as_of, market, core, through=last_dec31, inputs=frozen)
        carried = interest_only_balance(
            to_dec31.balance_at(last_dec31),
            year_end=last_dec31,
            before=nrd,
            treasury_rate=lambda y: market.treasury_rate(y, allow_estimate=y > as_of.year),
            settings=_settings(core),
            quarterly=shared_quarterly(market, as_of, _settings(core)),
        )
        balance = to_dec31.balance_at(last_dec31) if to_dec31.forfeited_at_end else carried
    else:
        frozen = _frozen_account(inputs, last_dec31)
        balance = participant_ledger(p, as_of, market, core, through=nrd, inputs=frozen).balance_before(nrd)
    pct = core.vesting.percent
    basis = applicable_basis(nrd, market)
    sla = balance_to_life_annuity(
        balance, birth_date=p.birth_date, start=nrd, basis=basis, section="§1.2(g), §5.3"
    )
    trace = trace.add(
        "Accrued benefit: the balance earned so far with Interest Credits only to NRD",
        section="§5.3(a),(b), §5.9(c)",
        result=money(balance),
        as_of=as_of,
        normal_retirement_date=nrd,
        vested_percent=percent(pct),
    ).extend(sla.trace)
    return AccruedBenefit(nrd, balance, sla.monthly, nrd > as_of, trace)


def _frozen_account(inputs: AccountInputs, last_dec31: date) -> AccountInputs:
    """The account ``accrued_benefit`` prices: no pay credits after the last December 31 for someone
    still working (each open span ends that day; one not begun by then is left out); a separated
    person's final-year credit is earned (it posts on December 31, §4.3(b))."""
    spans = tuple(ActivePeriod(x.start, x.end or last_dec31) for x in inputs.periods)
    return AccountInputs(
        inputs.account_open, inputs.opening_balance, inputs.opening_trace,
        tuple(x for x in spans if cast(date, x.end) >= x.start),
        inputs.forfeitures, inputs.compensation, inputs.countable_override, inputs.loan_agent,
        inputs.separation, inputs.distributed_on,
    )  # fmt: skip


def _quiet_after(frozen: AccountInputs, last_dec31: date, nrd: date) -> bool:
    """Whether nothing but Interest Credits posts to the frozen account after ``last_dec31`` (before
    NRD): opened by then, every span, forfeiture and restoration on or before it, never paid out."""
    return (
        nrd > last_dec31
        and frozen.account_open is not None
        and frozen.account_open <= last_dec31
        and frozen.distributed_on is None
        and all(cast(date, x.end) <= last_dec31 for x in frozen.periods)
        and all(
            f.on <= last_dec31 and (f.restored_on is None or f.restored_on <= last_dec31)
            for f in frozen.forfeitures
        )
    )


def survivor_benefit(
    p: Participant, as_of: date, market: MarketData, core: CoreResult, inputs: AccountInputs,
    start: date | None = None,
) -> SurvivorAnnuity | None:  # fmt: skip
    """§5.12 for a participant who died vested before his ASD (start: the earliest, or ``start``)."""
    if p.death_date is None or core.vesting.percent <= 0 or inputs.account_open is None:
        return None
    if p.is_married and p.spouse_birth_date and not p.plan_data.get("qpsa_waived"):
        recipient: Recipient = "spouse"
        who: date | None = p.spouse_birth_date
    else:
        who = _pd_date(p, "beneficiary_birth_date")
        if who is None:
            return None
        recipient = "beneficiary"
    dates = survivor_dates(death_date=p.death_date, birth_date=p.birth_date, recipient=recipient)
    begin = first_of_month_on_or_after(start) if start else dates.earliest_start
    ledger = participant_ledger(p, as_of, market, core, through=begin, inputs=inputs)
    balance = vested_amount(ledger.balance_before(begin), core.vesting.percent)
    threshold, _ = cash_out_threshold(begin, _settings(core))
    return survivor_annuity(
        balance, recipient=recipient, start=begin, survivor_birth_date=cast(date, who), dates=dates,
        basis=applicable_basis(begin, market), cash_out_threshold=threshold,
    )  # fmt: skip


def yearly_trace(ledger: Ledger, as_of: date) -> Trace:
    """One plain-words step per Plan Year of the ledger up to ``as_of`` (the statement summary)."""
    if not recording():  # ``options.traces`` false: only the trace needs these sums
        return Trace()
    steps: dict[int, list[Decimal]] = {}  # year → [opening, interest, pay, other, closing]
    balance = ZERO
    for e in ledger.entries:
        if e.date > as_of:
            break
        row = steps.get(e.date.year)
        if row is None:
            row = steps[e.date.year] = [balance, ZERO, ZERO, ZERO, balance]
        row[1 if e.kind == "interest_credit" else 2 if e.kind == "pay_credit" else 3] += e.amount
        row[4] = balance = e.balance
    tb = TraceBuilder()  # no regulatory value is read here: the same steps ``Trace.add`` would give
    for year, (opening, interest, pay, other, closing) in steps.items():
        words = (
            f"Plan Year {year}: opening {opening:,.2f} + Interest Credits {interest:,.2f} "
            f"+ Contribution Credit {pay:,.2f}"
        )
        if other:
            words += f" + other movements {other:,.2f}"
        partial = year == as_of.year and (as_of.month, as_of.day) != (12, 31)
        tb.step(
            words + f" = {closing:,.2f}" + (" (to date)" if partial else ""),
            section="§4.3, §4.4" + (", §2.3(a), §4.5, §5.14" if other else ""),
            result=money(closing),
        )
    return tb.build()


def survivor_estimate(
    p: Participant, as_of: date, market: MarketData, core: CoreResult, inputs: AccountInputs, start: date
) -> Estimate:
    """For a participant who died before his ASD, a commencement date prices the §5.12 Survivor
    Annuity (``life`` = the survivor's monthly life annuity) and its lump sum (§5.12(e))."""
    d = first_of_month_on_or_after(start)
    s = survivor_benefit(p, as_of, market, core, inputs, start=d)
    if s is None:
        return Estimate(d, "no_survivor_benefit", ZERO, ZERO, {}, None, None, False, d > as_of,
                        ("no §5.12 benefit: not vested at death, or no spouse/beneficiary data",), Trace())  # fmt: skip
    notes = []
    if d < s.dates.earliest_start or d > s.dates.latest_start:
        notes.append(f"outside the §5.12 start window {s.dates.earliest_start} – {s.dates.latest_start}")
    forms = {
        "life": FormAmount("life", f"Survivor Annuity to the {s.recipient}", monthly=s.monthly, trace=s.trace),
        "lump_sum": FormAmount("lump_sum", "Lump sum instead of the Survivor Annuity", lump_sum=s.lump_sum,
                               trace=s.trace),
    }  # fmt: skip
    default = "life"
    if s.lump_sum_automatic:  # §5.12(e): paid in a lump sum in lieu of the annuity
        forms, default = {"lump_sum": forms["lump_sum"]}, "lump_sum"
    return Estimate(d, "survivor", s.balance, s.balance, forms, default, None, s.lump_sum_automatic,
                    d > as_of, tuple(notes), s.trace)  # fmt: skip


def _attempt[T](log: MissingLog, path: str, compute: Callable[[], T]) -> T | None:
    """``log.attempt`` for a missing regulatory value or rate; malformed market data (a value given
    but unreadable) still raises, to be reported as the participant's error."""
    try:
        return compute()
    except MarketDataError as exc:
        if "missing" not in exc.message:
            raise
        log.block(exc, path)
        return None
    except Exception as exc:
        if describe(exc) is None:
            raise
        log.block(exc, path)
        return None


# (participant, as_of, market, core, ledger, inputs, assumptions) → every commencement date's estimate
PriceDates = Callable[
    [Participant, date, MarketData, CoreResult, Ledger, AccountInputs, Mapping[str, Any]],
    tuple[Estimate, ...],
]


def scalar_estimates(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    ledger: Ledger,
    inputs: AccountInputs,
    assumptions: Mapping[str, Any],
) -> tuple[Estimate, ...]:
    """``estimate`` for each commencement date, one at a time (with its traces when recording)."""
    return tuple(estimate(p, as_of, market, core, d, ledger=ledger, inputs=inputs, with_whipsaw=True,
                          assumptions=assumptions) for d in p.commencement_dates)  # fmt: skip


def benefits(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult | None = None,
    *,
    annuities: bool = True,
    price_dates: PriceDates | None = None,
) -> QuakerBenefits:
    """Everything the web app shows for one participant (raises MarketDataError/ParticipantError).

    ``annuities=False`` skips what needs the Applicable Interest Rate (accrued benefit, estimates,
    survivor annuity, the 1999 floor in the cash-out test): the account alone. ``price_dates``
    prices a living participant's commencement dates (by default ``scalar_estimates``; the one-pass
    path passes its own, ``dates.py``)."""
    core = _core(p, as_of, core)
    market = MarketData.from_assumptions(assumptions)
    settings = _settings(core)
    inputs = account_inputs(p, core, market)
    last = max([as_of, *p.commencement_dates])
    ledger = participant_ledger(p, as_of, market, core, through=last, inputs=inputs)
    balance = ledger.balance_at(as_of)
    pct = core.vesting.percent
    vested = vested_amount(balance, pct)
    acct_trace = inputs.opening_trace.extend(yearly_trace(ledger, as_of)).add(
        "Account balance on the as-of date, from the ledger; vested balance = vested % × balance",
        section="Art. 4; §5.9(a), §7.3 (GAP-17)",
        result=money(balance),
        as_of=as_of,
        vested_percent=percent(pct),
        vested_balance=money(vested),
        # Counted only for a trace that keeps it (``add`` keeps nothing without traces).
        entries=len([e for e in ledger.entries if e.date <= as_of]) if recording() else None,
    )
    account = Account(as_of, balance, pct, vested, acct_trace)
    notes: list[str] = []
    if ledger.has_residual:
        notes.append("a Contribution Credit falls after the ASD: residual work item (GAP-2)")
    log = MissingLog()
    # The account needs no mortality table: a table or rate the NRD conversion lacks (the Rev. Rul.
    # 2001-62 table for an NRD in 2003–2007) blocks the accrued benefit alone.
    accrued = (
        _attempt(log, "/accrued_benefit", lambda: accrued_benefit(p, as_of, market, core, inputs, ledger))
        if annuities
        else None
    )
    if not annuities:
        estimates: tuple[Estimate, ...] = ()
    elif p.death_date is not None:
        estimates = tuple(survivor_estimate(p, as_of, market, core, inputs, d) for d in p.commencement_dates)
    else:
        estimates = (price_dates or scalar_estimates)(p, as_of, market, core, ledger, inputs, assumptions)
    co = None
    if inputs.separation is not None and inputs.separation < RESTATEMENT and p.death_date is None:
        # A Separation from Service before the account existed: the small-benefit rule applied then
        # was the pre-2000 plan's (GAP-1), not this text's §5.16.
        notes.append("left before January 1, 2000: the involuntary cash-out at that separation was the "
                     "pre-2000 plan's (GAP-1), not tested under §5.16")  # fmt: skip
    elif inputs.separation is not None and p.death_date is None:
        at_sep = ledger.balance_at(inputs.separation)
        floor = None
        if annuities and _pd_money(p, "dec31_1999_benefit") is not None:
            # Nothing vested at the separation: no lump sum there, so no grandfathered floor either.
            at_first = estimate(p, as_of, market, core, first_of_next_month(inputs.separation),
                                ledger=ledger, inputs=inputs, with_relative_values=False)  # fmt: skip
            floor = at_first.lump_sum.floor if at_first.lump_sum is not None else None
        co = cash_out(
            separation=inputs.separation,
            vested_balance=vested_amount(at_sep, pct),
            settings=settings,
            as_of=as_of,
            floor=floor,
            prior_distribution_over_limit=bool(p.plan_data.get("prior_distribution_over_cash_out_limit")),
        )
    survivor = survivor_benefit(p, as_of, market, core, inputs) if annuities else None
    earliest = earliest_commencement(p, as_of, core, inputs) if p.death_date is None else None
    return QuakerBenefits(
        account, accrued, estimates, co, survivor, ledger, tuple(notes), tuple(log.items), earliest
    )
