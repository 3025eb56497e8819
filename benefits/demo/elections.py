"""Demo data for benefit elections: a married Carver DB participant (pat@demo.test) whose approved
claim waits for an election, inside the explanation window and without an explanation, so the first
``issue_notices carver-db`` issues one; and the market rate the relative values need. Idempotent.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from benefits.models import MarketRate, PlanMembership

# DEMO ONLY: months after the last hand-entered 30-year Treasury rate repeat it, so the Carver DB
# relative values (the rate of the third month before the start date) exist for near start dates.
DEMO_30Y_SOURCE = "DEMO ONLY: the last entered 30-year Treasury rate carried forward, not the published rate"
ELECTION_LEAD_DAYS = 35
DEMO_CLAIM_STATEMENT = "I would like my pension to start."  # the demo start date: the first of a month at least this far ahead (> 30 days)


def _first_of_month_on_or_after(d: date) -> date:
    return d if d.day == 1 else date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def _carry_rates_forward(as_of: date) -> None:
    last = MarketRate.objects.filter(series="treasury_30y").order_by("-period").first()
    if last is None:
        return
    month = date(last.period.year + (last.period.month == 12), last.period.month % 12 + 1, 1)
    while month <= as_of:
        MarketRate.objects.get_or_create(
            series="treasury_30y",
            period=month,
            defaults={"percent": Decimal(last.percent), "source": DEMO_30Y_SOURCE},
        )
        month = date(month.year + (month.month == 12), month.month % 12 + 1, 1)


def load_demo_elections(*, as_of: date) -> None:
    from accounts.models import User
    from elections.claims.decisions import claim_decide, claim_start_review
    from elections.claims.services import claim_file
    from elections.models import ClaimType

    _carry_rates_forward(as_of)
    pat = User.objects.filter(email="pat@demo.test").first()
    committee = User.objects.filter(email="committee@demo.test").first()
    membership = PlanMembership.objects.filter(participant__user=pat, plan__key="carver-db").first()
    if pat is None or committee is None or membership is None:
        return
    from elections.claims.one_benefit import commencement_claim

    if commencement_claim(membership) is not None:  # the benefit starts once (issue 22): rerun safely
        return
    asd = _first_of_month_on_or_after(as_of + timedelta(days=ELECTION_LEAD_DAYS))
    claim = claim_file(
        filer=pat,
        membership=membership,
        claim_type=ClaimType.COMMENCEMENT,
        details={"commencement_date": asd, "form": "js50"},
        statement=DEMO_CLAIM_STATEMENT,
        on=as_of,
    )
    claim_start_review(claim=claim, actor=committee, on=as_of)
    claim_decide(
        claim=claim,
        actor=committee,
        outcome="approved",
        reasons="Eligible for an early retirement benefit from the requested date.",
        provisions="Plan §4.3, §7.1",
        on=as_of,
    )
