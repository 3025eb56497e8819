"""Lookups shared by the kinds that name a participant's membership in a plan."""

from __future__ import annotations

from decimal import Decimal

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column
from benefits.imports.parsing import Table
from benefits.models import Participant, Plan, PlanMembership

PARTICIPANT = Column("participant_number", True, "The participant's number, as on the Participants page.")
PLAN = Column("plan", True, "The plan's key, as on the Plans page (for example carver-401k).")

# Account sources by plan kind: the engine contract's source keys (shared contract, plan_data.balances).
# A source already stored for the plan is known too.
SOURCES_BY_KIND: dict[str, tuple[str, ...]] = {
    Plan.Kind.SAVINGS_401K: (
        "before_tax",
        "matching_pre2002",
        "matching_2002",
        "rollover",
        "discretionary",
        "nonelective",
        "special",
        "top_heavy",
    ),
    Plan.Kind.ESOP: ("stock_fund", "investment_fund"),
}

MONEY_MAX = Decimal("9999999999.99")  # the largest amount the money columns hold (12 digits, 2 places)
SHARES_MAX = Decimal("999999999999.9999")


def membership_context(table: Table) -> dict:
    numbers = {cells.get("participant_number", "") for _, cells in table.rows}
    memberships = PlanMembership.objects.filter(participant__participant_number__in=numbers).select_related(
        "participant", "plan"
    )
    return {
        "plans": {p.key: p for p in Plan.objects.all()},
        "participants": set(
            Participant.objects.filter(participant_number__in=numbers).values_list(
                "participant_number", flat=True
            )
        ),
        "memberships": {(m.participant.participant_number, m.plan.key): m for m in memberships},
    }


def membership(row: Cells, ctx: dict) -> PlanMembership | None:
    """The row's membership, or None with the reason recorded on the row."""
    number = row.get("participant_number", c.text, max_length=20)
    plan_key = row.get("plan", c.text, max_length=40)
    if number is None or plan_key is None:
        return None
    if plan_key not in ctx["plans"]:
        row.fail("plan", f"plan: no plan has the key {plan_key!r}.")
        return None
    found = ctx["memberships"].get((number, plan_key))
    if found is None:
        if number not in ctx["participants"]:
            row.fail(
                "participant_number",
                f"participant_number: no participant {number} (import participants first).",
            )
        else:
            row.fail("plan", f"plan: participant {number} is not a member of {plan_key}.")
    return found


def known_sources(plan: Plan, ctx: dict) -> set[str]:
    cache = ctx.setdefault("sources", {})
    if plan.pk not in cache:
        from benefits.models import AccountBalance, AccountTransaction

        stored = set(AccountBalance.objects.filter(membership__plan=plan).values_list("source", flat=True))
        stored |= set(
            AccountTransaction.objects.filter(membership__plan=plan).values_list("source", flat=True)
        )
        cache[plan.pk] = set(SOURCES_BY_KIND.get(plan.kind, ())) | stored
    return cache[plan.pk]


def source(row: Cells, m: PlanMembership | None, ctx: dict, column: str = "source") -> str | None:
    value = row.get(column, c.text, max_length=40)
    if value is None or m is None:
        return value
    if not m.plan.is_account_plan:
        row.fail("plan", f"plan: {m.plan.key} has no accounts, so it takes no {column} rows.")
        return None
    known = known_sources(m.plan, ctx)
    if value not in known:
        row.fail(
            column,
            f"{column}: {value!r} is not a source of {m.plan.key} (known: {', '.join(sorted(known))}).",
        )
        return None
    return value


def label(m: PlanMembership, *rest: object) -> str:
    return " ".join([m.participant.participant_number, m.plan.key, *(str(r) for r in rest)])
