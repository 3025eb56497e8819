"""Demo data for account elections (demo data only): each employed 401(k) member's contribution rate on
the payroll record, so the contribution-rate page has a rate to change. The rate is the latest demo
year's deferrals as a whole percentage of that year's pay (§3.1 allows whole percentages, 1% to 15%)."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from benefits.engine.plans import get_plan
from benefits.models import PlanMembership


def load_demo_account_elections(*, as_of: date) -> int:
    from elections.account_elections.models import DeferralElection

    made = 0
    for m in PlanMembership.objects.select_related("participant", "plan"):
        program = get_plan(m.plan.key).deferrals
        p = m.participant
        if program is None or (p.termination_date is not None and p.termination_date <= as_of):
            continue
        deferrals = m.plan_data.get("deferrals") or {}
        if not deferrals or DeferralElection.objects.filter(membership=m).exists():
            continue
        year = max(int(y) for y in deferrals)
        pay = m.compensation.filter(year=year).first()
        if pay is None or pay.amount <= 0:
            continue
        pct = (Decimal(deferrals[str(year)]) / pay.amount * 100).quantize(Decimal(1), ROUND_HALF_UP)
        pct = min(max(pct, Decimal(program.min_percent)), Decimal(program.max_percent))
        DeferralElection.objects.create(
            participant=p,
            membership=m,
            kind=program.kinds[0].value,
            percent=pct,
            filed_on=date(as_of.year - 1, 12, 1),
            effective_on=date(as_of.year, 1, 1),
            from_payroll_record=True,
        )
        made += 1
    return made
