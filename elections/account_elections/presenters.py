"""Shape the services' facts for the pages: dates as dates, shares and money as Decimals, reasons in
plain words. No figures are made here."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from benefits.presenters.plain import people_date

if TYPE_CHECKING:
    from elections.account_elections.services import Deferrals, Diversification


def _d(raw: str | None) -> date | None:
    return date.fromisoformat(raw) if raw else None


def why_not_eligible(facts: Diversification) -> list[str]:
    """Plain sentences: why no election can be made today, and when one can."""
    r = facts.result
    qep = r.get("qualified_election_period") or {}
    age55 = _d(qep.get("age_55_on"))
    tenth = qep.get("tenth_year_of_participation")
    out = [
        "You may diversify part of your account once you have both reached age 55 and completed 10 years "
        "of participation in the plan. From the plan year in which you first have both, you have six "
        "plan years in which to elect."
    ]
    opens = _d(r.get("next_window_opens"))
    closed = _d(r.get("last_window_closed"))
    if opens:
        facts_line = []
        if age55:
            facts_line.append(f"you reach age 55 on {people_date(age55)}")
        if tenth:
            facts_line.append(f"your 10th year of participation is the plan year {tenth}")
        if facts_line:
            out.append("For you, " + " and ".join(facts_line) + ".")
        out.append(f"Your first election period opens on {people_date(opens)}.")
    elif closed:
        out.append(
            f"Your six plan years were {qep.get('first_plan_year')} to {qep.get('last_plan_year')}, and the last "
            f"election period closed on {people_date(closed)}. The plan offers no further election."
        )
    return out


def diversification_context(membership, facts: Diversification | None) -> dict:
    ctx: dict = {"membership": membership, "plan": membership.plan, "facts": facts}
    if facts is None:
        return ctx
    r = facts.result
    ctx["methods"] = facts.program.methods
    ctx["completion"] = facts.program.completion
    ctx["sections"] = facts.program.election_sections
    if not facts.eligible:
        ctx["why_not"] = why_not_eligible(facts)
        return ctx
    ctx["window"] = {
        "plan_year": r["plan_year"],
        "qep_year": r["qep_year"],
        "opens": _d(r["window_opens"]),
        "closes": _d(r["window_closes"]),
        "complete_by": _d(r["complete_by"]),
        "percent": r["percent"],
        "last_year": r["last_year"],
    }
    ctx["max_shares"] = facts.max_shares
    ctx["allocated"] = Decimal(r["shares_allocated_since_inception"])
    ctx["previously_elected"] = Decimal(r["shares_already_elected"])
    ctx["gross"] = ctx["allocated"] * Decimal(r["percent"]) / 100
    ctx["current"] = facts.current
    ctx["versions"] = facts.versions
    # Shares with their dollar value at the latest valuation the plan's data gives.
    ctx["share_value"] = facts.share_value
    if facts.share_value is not None:
        ctx["max_shares_worth"] = facts.max_shares * facts.share_value
        ctx["allocated_worth"] = ctx["allocated"] * facts.share_value
        if facts.current is not None:
            ctx["current_worth"] = facts.current.shares * facts.share_value
    return ctx


def deferrals_context(membership, facts: Deferrals | None) -> dict:
    ctx: dict = {"membership": membership, "plan": membership.plan, "facts": facts}
    if facts is None:
        return ctx
    ctx["program"] = facts.program
    ctx["limit"] = facts.limit
    ctx["estimate"] = facts.estimate
    return ctx
