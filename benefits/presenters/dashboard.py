"""One card per plan: the headline figure, vesting, the next milestone, or why it cannot be shown."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from benefits.engine_adapter import CalculationError, PlanOffers

from .labels import field_words
from .missing import missing_sentences
from .traces import presented, trace_steps


@dataclass
class PlanSummary:
    membership: object
    plan: object
    result: dict | None = None
    error_field: str = ""
    error_message: str = ""
    headline_label: str = ""
    headline_value: str = ""
    headline_trace: list = field(default_factory=list)
    secondary: list[tuple[str, str]] = field(default_factory=list)
    vested_percent: str = ""
    years_of_service: int | None = None
    next_milestone: dict | None = None
    normal_retirement_date: str = ""
    has_estimates: bool = False
    missing: list[str] = field(default_factory=list)  # plain sentences: what cannot be shown yet
    diversification: dict | None = None  # the engine's diversification block (an ESOP that has one)
    offers_deferrals: bool = False  # the plan takes contributions from pay and the person is employed
    payment_words: str = ""  # the benefit's payment record in words ("In pay since ...", "Scheduled for ...")

    @property
    def ok(self) -> bool:
        return self.result is not None


def _headline(summary: PlanSummary, result: dict) -> None:
    plan = summary.plan
    accrued = result.get("accrued_benefit") or {}
    account = result.get("account") or {}
    if plan.kind == plan.Kind.FINAL_AVERAGE_PAY and accrued:
        summary.headline_label = "Monthly benefit at normal retirement (vested)"
        summary.headline_value = accrued.get("vested_monthly_at_nrd") or accrued.get("monthly_at_nrd", "")
        summary.headline_trace = presented(trace_steps(result, "accrued_benefit.monthly_at_nrd"))
        summary.secondary.append(
            ("Accrued benefit, monthly at normal retirement", accrued.get("monthly_at_nrd", ""))
        )
    elif account:
        summary.headline_label = "Vested balance"
        summary.headline_value = account.get("vested_balance", "")
        steps = trace_steps(result, "account.vested_balance") or trace_steps(result, "account")
        summary.headline_trace = presented(steps)
        summary.secondary.append(("Account balance", account.get("balance", "")))
        if accrued.get("monthly_at_nrd"):
            summary.secondary.append(("Monthly benefit at normal retirement", accrued["monthly_at_nrd"]))
    summary.has_estimates = plan.kind in (plan.Kind.FINAL_AVERAGE_PAY, plan.Kind.CASH_BALANCE)


def plan_summary(
    membership, *, as_of: date, result: dict | CalculationError, offers: PlanOffers
) -> PlanSummary:
    """One plan's card from its engine result (or the error that stopped it) and what the plan offers."""
    summary = PlanSummary(membership=membership, plan=membership.plan)
    if isinstance(result, CalculationError):
        summary.error_field = field_words(result.field)
        summary.error_message = str(result)
        return summary
    summary.result = result
    vesting = result.get("vesting") or {}
    summary.vested_percent = vesting.get("vested_percent", "")
    summary.years_of_service = vesting.get("years_of_vesting_service")
    summary.next_milestone = vesting.get("next_milestone")
    summary.normal_retirement_date = result.get("normal_retirement_date") or ""
    _headline(summary, result)
    summary.missing = missing_sentences(result)
    if offers.diversification_key is not None:
        summary.diversification = result.get(offers.diversification_key)
    term = membership.participant.termination_date
    summary.offers_deferrals = offers.deferrals and (term is None or term > as_of)
    return summary


def plan_summaries(memberships, results, offers, *, as_of: date) -> list[PlanSummary]:
    """Every plan's card from one batch of engine results (``engine_adapter.memberships_calculate``:
    a fixed number of queries for any number of plans) and what each plan offers (``plan_offers``)."""
    return [
        plan_summary(m, as_of=as_of, result=r, offers=o)
        for m, r, o in zip(memberships, results, offers, strict=True)
    ]


def totals(summaries: list[PlanSummary]) -> dict:
    """What the plans add up to, kept in their own units: vested account balances (dollars now) and
    monthly pensions at normal retirement (dollars a month later); never one mixed figure."""
    from decimal import Decimal, InvalidOperation

    def dec(value) -> Decimal | None:
        try:
            return Decimal(str(value)) if value not in (None, "") else None
        except InvalidOperation:
            return None

    balances = [
        d
        for s in summaries
        if s.ok and s.headline_label == "Vested balance"
        for d in [dec(s.headline_value)]
        if d
    ]
    pensions = [
        d
        for s in summaries
        if s.ok and s.plan.kind == s.plan.Kind.FINAL_AVERAGE_PAY
        for d in [dec(s.headline_value)]
        if d is not None
    ]
    years = {s.years_of_service for s in summaries if s.ok and s.years_of_service is not None}
    return {
        "show": len([s for s in summaries if s.ok]) > 1,
        "balance": sum(balances, Decimal(0)) if balances else None,
        "balance_plans": len(balances),
        "pension": sum(pensions, Decimal(0)) if pensions else None,
        "pension_plans": len(pensions),
        "service_differs": len(years) > 1,
    }
