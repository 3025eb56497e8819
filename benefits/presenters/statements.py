"""Statements per plan, as one JSON payload that both the page and the PDF render.

What each statement can show is what the records support: account plans hold balances by source on
valuation dates and, where recorded, the dated transactions; with transactions the statement gives
any period by source (``account_statements``, the engine's statement functions), and it always gives
the balances on the latest valuation date, the vested part and the contributions the plan's formula
gives for each year of recorded pay; the cash balance plan's
ledger is rebuilt by the engine from pay and interest credits; the DB plan shows the accrued benefit
with its inputs. The payload holds every number shown, so a PDF can be checked against the engine.
"""

from __future__ import annotations

from datetime import date

from benefits import formatting
from benefits.engine.money import money_str
from benefits.statement_inputs import StatementFigures

from .account_statements import period_statement
from .labels import source_label
from .traces import presented, trace_steps


def _base(membership, as_of: date, result: dict, kind: str, engine_version: str) -> dict:
    plan = membership.plan
    vesting = result.get("vesting") or {}
    return {
        "kind": kind,
        "plan_key": plan.key,
        "plan_name": plan.name,
        "employer": plan.employer.name,
        "as_of": as_of.isoformat(),
        "engine_version": engine_version,
        "years_of_service": vesting.get("years_of_vesting_service"),
        "vested_percent": vesting.get("vested_percent"),
        "normal_retirement_date": result.get("normal_retirement_date"),
        "notes": list(result.get("notes") or []),
    }


def _account_statement(figures: StatementFigures) -> dict:
    membership, as_of, result, activity = figures.membership, figures.as_of, figures.result, figures.activity
    payload = _base(membership, as_of, result, "account", figures.engine_version)
    account = result.get("account") or {}
    payload["period"] = f"Balances on the valuation date {as_of.isoformat()}"
    if activity is not None:
        payload["activity"] = period_statement(activity)
        payload["period"] = activity.period.label
        payload["period_note"] = ""
    else:
        payload["period_note"] = (
            "The plan's records hold your balance in each account on the valuation date. They do not "
            "hold the contributions, earnings, forfeitures, distributions and loan movements of a "
            "period, so this statement does not show them; ask the plan administrator for a full "
            "period statement."
        )
    payload["sources"] = [
        {
            "source": key,
            "label": source_label(key),
            "balance": line.get("balance"),
            "vested_percent": line.get("vested_percent"),
            "vested_balance": line.get("vested_balance"),
        }
        for key, line in (account.get("by_source") or {}).items()
    ]
    payload["balance"] = account.get("balance")
    payload["vested_balance"] = account.get("vested_balance")
    pd = membership.plan_data or {}
    if "shares" in pd:
        count, price = formatting.to_decimal(pd.get("shares")), formatting.to_decimal(pd.get("share_value"))
        # One figure a row (a phone's width holds a short cell): the shares, their dollar value, the price.
        payload["holdings"] = [("Shares of company stock", formatting.shares(pd.get("shares")))]
        if count is not None and price is not None:
            payload["holdings"].append(("Value of the shares", formatting.money(count * price)))
        payload["holdings"] += [
            ("Price per share", formatting.share_price(pd.get("share_value"))),
            ("Other investments (cash)", formatting.money(pd.get("cash"))),
        ]
    contributions = []
    for year, by_source in sorted((result.get("contributions") or {}).items()):
        amounts = {k: v for k, v in by_source.items() if k != "matching"}
        if any(v not in ("0.00", "0") for v in amounts.values()):
            contributions.append({"year": year, "lines": [(source_label(k), v) for k, v in amounts.items()]})
    payload["contributions"] = contributions
    loan = result.get("loan") or {}
    if loan:
        payload["loan"] = {
            "outstanding": (pd.get("loans") or {}).get("outstanding_balance"),
            "maximum_new_loan": loan.get("maximum_new_loan"),
            # a loan approved and not yet paid out: counted as outstanding by the engine (the plan's loan section)
            "approved_not_disbursed": loan.get("approved_not_disbursed")
            if loan.get("approved_not_disbursed") not in (None, "0.00")
            else None,
        }
    payload["trace"] = presented(trace_steps(result, "account"))
    return payload


def _cash_balance_statement(figures: StatementFigures) -> dict:
    membership, as_of, result = figures.membership, figures.as_of, figures.result
    payload = _base(membership, as_of, result, "cash_balance", figures.engine_version)
    st, year = figures.ledger, figures.year
    start, end = figures.ledger_period
    payload["period"] = f"{start.isoformat()} to {end.isoformat()}"
    payload["year"] = year
    payload["ledger"] = {
        "opening": money_str(st.opening),
        "pay_credits": money_str(st.pay_credits),
        "interest_credits": money_str(st.interest_credits),
        "other": money_str(st.other),
        "closing": money_str(st.closing),
        "entries": [
            {
                "date": e.date.isoformat(),
                "kind": e.kind.replace("_", " "),
                "amount": money_str(e.amount),
                "balance": money_str(e.balance),
                "basis": e.basis,
                "section": e.section,
                "estimate": e.estimate,
            }
            for e in st.entries
        ],
    }
    account = result.get("account") or {}
    payload["balance"] = account.get("balance")
    payload["vested_balance"] = account.get("vested_balance")
    accrued = result.get("accrued_benefit") or {}
    payload["monthly_at_nrd"] = accrued.get("monthly_at_nrd")
    payload["trace"] = presented(trace_steps(result, "account"))
    return payload


def _db_statement(figures: StatementFigures) -> dict:
    membership, as_of, result = figures.membership, figures.as_of, figures.result
    payload = _base(membership, as_of, result, "db", figures.engine_version)
    accrued = result.get("accrued_benefit") or {}
    payload["period"] = f"Accrued benefit as of {as_of.isoformat()}"
    payload["monthly_at_nrd"] = accrued.get("monthly_at_nrd")
    payload["annual_at_nrd"] = accrued.get("annual_at_nrd")
    payload["vested_monthly_at_nrd"] = accrued.get("vested_monthly_at_nrd")
    payload["earliest_commencement_date"] = result.get("earliest_commencement_date")
    pd = membership.plan_data or {}
    payload["inputs"] = [
        (label, pd[key])
        for key, label in (
            ("social_security_amount", "Social Security Amount (annual, frozen at the Plan Freeze Date)"),
            ("benefit_at_1997_12_31", "Frozen benefit at December 31, 1997 (annual)"),
            ("prior_plan_benefit", "Prior plan benefit (annual)"),
        )
        if pd.get(key) not in (None, "")
    ]
    payload["trace"] = presented(trace_steps(result, "accrued_benefit.monthly_at_nrd"))
    return payload


def statement_payload(figures: StatementFigures) -> dict:
    """The statement of one membership as the page and the PDF show it, from its figures
    (``benefits.statement_inputs.statement_figures``)."""
    plan = figures.membership.plan
    if plan.is_account_plan:
        return _account_statement(figures)
    if plan.kind == plan.Kind.CASH_BALANCE:
        return _cash_balance_statement(figures)
    return _db_statement(figures)
