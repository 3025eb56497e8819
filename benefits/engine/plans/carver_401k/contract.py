"""Carver 401(k) results for the engine contract (docs/engine-cli.md). ``plan_outputs(participant, as_of,
assumptions, core)`` returns the contract keys as nested objects (``{"account": {"balance": ...}}``)
plus ``traces``: for each key, the list of trace steps behind it (plan sections in plain words);
contributions and estimates have one trace per year / date (``"contributions.2002"``,
``"estimates.2027-09-01"``). Inputs and shape: docs/plan-notes/carver-401k/benefits.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from benefits.engine import statement_input as si
from benefits.engine.core import ParticipantError
from benefits.engine.money import ZERO, money_str, percent_str, to_decimal
from benefits.engine.plan_support import termination
from benefits.engine.trace import TraceBuilder

from .accounts import AccountVesting, vest_accounts
from .contributions import match_for_periods, year_contributions
from .distributions import cash_out, estimate_forms, forms_offered, lump_sum_window
from .hardship import hardship_available
from .inputs import _money, _money_map, _payroll, _percents, _quotes, _settings, _year_map
from .limits import LimitUnavailable
from .loans import maximum_new_loan
from .rules import core as core_fn
from .settings import BenefitSettings
from .sources import ALL_SOURCES, BEFORE_TAX, ROLLOVER
from .statement import Kind, Transaction, account_statement
from .withdrawals import withdrawal_at_59_half


def _source_out(v: AccountVesting) -> dict[str, Any]:
    return {
        s.source: {
            "balance": money_str(s.balance),
            "vested_percent": percent_str(s.vested_percent),
            "vested_balance": money_str(s.vested_balance),
        }
        for s in v.by_source.values()
    }


def plan_outputs(
    participant: Any,
    as_of: date,
    assumptions: Mapping[str, Any] | None,
    core: Any,
) -> dict[str, Any]:
    settings = _settings(core)
    assumptions = assumptions or {}
    pd = participant.plan_data or {}
    traces: dict[str, list[Any]] = {}
    out: dict[str, Any] = {}

    # Accounts and vesting (§1.1, §4.1).
    balances = _money_map(pd.get("balances"), "/plan_data/balances", ALL_SOURCES)
    withdrawn = _money_map(pd.get("withdrawn"), "/plan_data/withdrawn", ALL_SOURCES)
    loaned_out = _money_map(pd.get("loaned_out"), "/plan_data/loaned_out", ALL_SOURCES)
    overall, by_pct = _percents(core, settings)
    vesting = vest_accounts(
        balances,
        overall,
        percent_by_source=by_pct,
        withdrawn=withdrawn,
        loaned_out=loaned_out,
        settings=settings,
    )
    out["account"] = {
        "balance": money_str(vesting.balance),
        "vested_balance": money_str(vesting.vested_balance),
        "by_source": _source_out(vesting),
    }
    traces["account"] = vesting.trace.as_list()

    # Loans (§8.1, §8.2, §8.4(f)).
    loans = pd.get("loans") or {}
    if not isinstance(loans, Mapping):
        raise ParticipantError("/plan_data/loans", "must be an object")
    outstanding = _money(loans.get("outstanding_balance", "0"), "/plan_data/loans/outstanding_balance")
    highest = _money(
        loans.get("highest_balance_last_12_months", "0"), "/plan_data/loans/highest_balance_last_12_months"
    )
    lm = maximum_new_loan(
        vesting,
        highest_balance_last_12_months=highest,
        outstanding_balance=outstanding,
        in_installment_or_annuity_pay=bool(pd.get("in_pay_status", False)),
        settings=settings,
    )
    out["loan"] = {
        "maximum_new_loan": money_str(lm.amount),
        "eligible": lm.eligible,
        "reasons": list(lm.reasons),
    }
    traces["loan"] = lm.trace.as_list()

    # Hardship (§7.4).
    deferrals = _year_map(pd.get("deferrals"), "/plan_data/deferrals")
    if "before_tax_contributions" in pd:
        made = _money(pd["before_tax_contributions"], "/plan_data/before_tax_contributions")
    elif deferrals:
        made = sum(deferrals.values(), ZERO)
    else:
        made = balances.get(BEFORE_TAX, ZERO)
    prior_hs = _money(pd.get("prior_hardship_before_tax", "0"), "/plan_data/prior_hardship_before_tax")
    ha = hardship_available(
        vesting,
        before_tax_contributions_made=made,
        prior_hardship_from_before_tax=prior_hs,
        settings=settings,
    )
    out["hardship"] = {"maximum_available": money_str(ha.total)}
    traces["hardship"] = ha.trace.as_list()

    # In-service withdrawal at 59½ (§7.3).
    w = withdrawal_at_59_half(
        vesting,
        birth_date=participant.birth_date,
        on=as_of,
        married=participant.is_married,
        settings=settings,
    )
    out["withdrawal"] = {
        "eligible_from": w.eligible_from.isoformat(),
        "maximum": money_str(w.maximum),
        "spousal_consent_required": w.spousal_consent_required,
    }
    traces["withdrawal"] = w.trace.as_list()

    # Contributions by year (§3.1, §3.4, §3.6, §3.13).
    comp = dict(participant.compensation or {})
    employer = pd.get("employer_contributions") or {}
    term = termination(participant, as_of)
    contributions: dict[str, dict[str, Any]] = {}
    for year in sorted(set(comp) | set(deferrals)):
        ec = employer.get(str(year)) or {}
        if not isinstance(ec, Mapping):
            raise ParticipantError(f"/plan_data/employer_contributions/{year}", "must be an object")
        employed_last_day = term is None or term >= date(year, 12, 31)
        try:
            yc = year_contributions(
                year,
                comp.get(year, ZERO),
                deferrals.get(year, ZERO),
                employed_last_day=employed_last_day,
                nonelective_made=bool(ec.get("nonelective", False)),
                discretionary_percent=ec.get("discretionary_percent"),
                special=ec.get("special"),
                settings=settings,
            )
        except (LimitUnavailable, ValueError) as exc:
            raise ParticipantError(f"/plan_data/employer_contributions/{year}", str(exc)) from None
        amounts = dict(yc.amounts)
        year_trace = yc.trace.as_list()
        periods = _payroll(pd, year)
        if periods:
            mr = match_for_periods(periods, settings=settings)
            amounts[mr.source] = amounts["matching"] = mr.match
            year_trace += mr.trace.as_list()
        contributions[str(year)] = {k: money_str(v) for k, v in amounts.items()}
        if yc.excess_deferrals > ZERO:
            contributions[str(year)]["excess_deferrals"] = money_str(yc.excess_deferrals)
        traces[f"contributions.{year}"] = year_trace
    if contributions:
        out["contributions"] = contributions

    # Cash-out (§7.5(g)) and the distribution timing (§7.5(a), §7.6(c)).
    co = cash_out(
        vesting.vested_balance,
        terminated=term is not None,
        on=term or as_of,
        rollover_balance=balances.get(ROLLOVER, ZERO),
        settings=settings,
    )
    out["cash_out"] = {
        "required": co.required,
        "threshold": money_str(co.threshold),
        "mandatory_distribution": co.required,
        "automatic_rollover": False,  # the plan has no automatic IRA rollover (GAP-15)
    }
    traces["cash_out"] = co.trace.as_list()
    if term is not None:
        win = lump_sum_window(term, settings)
        out["distribution"] = {
            "normal_form": "js50" if participant.is_married else "life",
            "lump_sum_last_valuation_date": win.last_valuation_date.isoformat(),
        }
        traces["distribution"] = win.trace.as_list()

    # Estimates for the commencement dates asked (§7.5, §7.6), priced from insurer quotes.
    estimates = []
    for cd in participant.commencement_dates or ():
        offered = forms_offered(
            married=participant.is_married,
            commencement_date=cd,
            # an active participant is modelled as leaving the day before the commencement date
            termination_date=term or cd - timedelta(days=1),
            normal_retirement_date=core.normal_retirement_date,
            early_retirement_date=core.earliest_retirement_date,
            disability_date=participant.disability_date,
            period_certain_years=tuple(
                int(f[2:]) for f in _quotes(assumptions, cd) if f.startswith("cc") and f[2:].isdigit()
            ),
            settings=settings,
        )
        # At NRD the scheduled accounts are fully vested (§4.1(b)): X = 100% × (AB + D) − D = AB.
        vested = vesting.balance if cd >= core.normal_retirement_date else vesting.vested_balance
        forms, t = estimate_forms(vested, offered, _quotes(assumptions, cd))
        estimates.append(
            {
                "commencement_date": cd.isoformat(),
                "forms": {f: {k: money_str(v) for k, v in amt.items()} for f, amt in forms.items()},
            }
        )
        traces[f"estimates.{cd.isoformat()}"] = t.as_list()
    if estimates:
        out["estimates"] = estimates

    # Account statement for a period (GAP-35; project-added ``plan_data.statement``).
    raw_statement = si.section(pd)
    if raw_statement is not None:
        out["statement"], traces["statement"] = _statement(participant, as_of, core, raw_statement, settings)

    out["traces"] = traces
    return out


# Movement columns of the statement, with the sign that makes opening + movements = closing.
STATEMENT_MOVEMENTS = (
    ("contributions", 1),
    ("earnings", 1),
    ("forfeitures", -1),
    ("distributions", -1),
    ("fees", -1),
    ("loan_activity", 1),
)


def _signed(sign: int, value: Decimal) -> Decimal:
    return value if sign > 0 else ZERO - value  # ZERO - 0 is 0, where -0 would print "-0.00"


def statement_transactions(raw: Mapping[str, Any]) -> list[Transaction]:
    """``plan_data.statement.transactions``: [{date, source, kind, amount}]; amounts positive except
    earnings (a loss is negative), as ``statement.account_statement`` takes them."""
    out = []
    for ptr, item in si.get_items(raw, "transactions", si.BASE):
        on = si.get_date(item, "date", ptr)
        source = si.get_choice(item, "source", ptr, ALL_SOURCES)
        kind = Kind(si.get_choice(item, "kind", ptr, tuple(Kind)))
        amount = si.get_money(item, "amount", ptr)
        if amount < ZERO and kind is not Kind.EARNINGS:
            raise ParticipantError(f"{ptr}/amount", f"a {kind} is given as a positive amount")
        out.append(Transaction(on, source, kind, amount))
    return out


def _statement(
    participant: Any, as_of: date, core: Any, raw: Mapping[str, Any], settings: BenefitSettings
) -> tuple[dict[str, Any], list[Any]]:
    start, end = si.get_period(raw, as_of)
    transactions = statement_transactions(raw)
    opening = si.get_money_map(raw, "opening", si.BASE, ALL_SOURCES)
    at_end = si.core_at(core, participant, as_of, end, core_fn, uses_benefit_settings=True)
    tb = TraceBuilder()
    tb.step(
        "The vesting percentage on the last day of the period, from the service rules",
        section="§4.1(c)",
        result=to_decimal(at_end.vesting.percent),
        on=end,
    )
    st = account_statement(
        start=start,
        end=end,
        opening=opening,
        transactions=transactions,
        scheduled_percent=at_end.vesting.percent,
        loan_opening=si.get_money(raw, "loan_opening", si.BASE, ZERO),
        withdrawn_before=si.get_money_map(raw, "withdrawn_before", si.BASE, ALL_SOURCES),
        loaned_out_before=si.get_money_map(raw, "loaned_out_before", si.BASE, ALL_SOURCES),
        settings=settings,
    )
    tb.include(st.trace)
    lines = st.lines
    result = {
        "start": start.isoformat(),
        "end": end.isoformat(),
        "opening": {ln.source: money_str(ln.opening) for ln in lines},
        "movements": {
            name: {ln.source: money_str(_signed(sign, getattr(ln, name))) for ln in lines}
            for name, sign in STATEMENT_MOVEMENTS
        },
        "closing": {ln.source: money_str(ln.closing) for ln in lines},
        "vested_percent": {ln.source: percent_str(ln.vested_percent) for ln in lines},
        "vested_balance": {ln.source: money_str(ln.vested_balance) for ln in lines},
        "totals": {
            "opening": money_str(st.total("opening")),
            **{name: money_str(_signed(sign, st.total(name))) for name, sign in STATEMENT_MOVEMENTS},
            "closing": money_str(st.closing),
            "vested_balance": money_str(st.vested_balance),
        },
        "loan": {"opening": money_str(st.loan_opening), "closing": money_str(st.loan_closing)},
    }
    return result, tb.build().as_list()
