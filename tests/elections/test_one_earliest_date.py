"""One earliest date: the claim form, the modeler and the election use the engine's earliest start for
every plan and every demo participant (Quaker §5.9(e): the immediate vested annuity after a separation
starts before any Early Retirement Date, so the claim form may not refuse it)."""

from __future__ import annotations

from datetime import date

import pytest

from benefits.engine.dates import first_of_next_month
from benefits.engine.elections import election_rules
from benefits.engine_adapter import membership_calculate
from benefits.forms import earliest_date
from benefits.models import PlanMembership
from elections.benefit_elections.presenters import electable_dates
from elections.claims import checks
from tests.elections.conftest import AS_OF

pytestmark = pytest.mark.django_db


def _claim_refuses_as_too_early(membership, start: date) -> bool:
    try:
        checks._commencement_checks(membership, {"commencement_date": start, "form": ""}, AS_OF)
    except checks.ClaimInvalid as exc:
        return "earliest date the plan allows" in exc.errors.get("commencement_date", "")
    return False


def _month_before(d: date) -> date:
    return date(d.year - (d.month == 1), (d.month - 2) % 12 + 1, 1)


def test_the_claim_form_the_modeler_and_the_election_agree_on_the_earliest_start(demo):
    compared = 0
    for m in PlanMembership.objects.select_related("participant", "plan").filter(
        participant__death_date__isnull=True
    ):
        if m.plan.is_account_plan and m.plan.kind != m.plan.Kind.CASH_BALANCE:
            continue  # 401(k) and ESOP claims have no commencement date to compare
        result = membership_calculate(m, as_of=AS_OF)
        if not (result.get("earliest_commencement_date") or result.get("earliest_retirement_date")):
            continue
        first = earliest_date(m, AS_OF)  # the modeler's first date
        assert not _claim_refuses_as_too_early(m, first), (m.participant.participant_number, first)
        before = _month_before(first)
        if before >= first_of_next_month(AS_OF):
            assert _claim_refuses_as_too_early(m, before), (m.participant.participant_number, before)
        # The election offers the modeler's dates: never one the claim form would refuse as too early.
        priced = membership_calculate(m, as_of=AS_OF, commencement_dates=[first])
        for iso, _ in electable_dates(election_rules(m.plan.key), priced):
            assert not _claim_refuses_as_too_early(m, date.fromisoformat(iso))
        compared += 1
    assert compared >= 5


def test_quaker_offers_the_immediate_vested_annuity_on_the_claim_form(demo):
    quaker = [
        m
        for m in PlanMembership.objects.filter(
            plan__key="quaker-cash-balance", participant__death_date__isnull=True
        )
        if (r := membership_calculate(m, as_of=AS_OF)).get("earliest_retirement_date")
        and r.get("earliest_commencement_date")
        and r["earliest_commencement_date"] < r["earliest_retirement_date"]
    ]
    assert quaker, "a demo Quaker participant separated before the Early Retirement Date"
    for m in quaker:
        first = earliest_date(m, AS_OF)
        assert first < date.fromisoformat(membership_calculate(m, as_of=AS_OF)["earliest_retirement_date"])
        assert not _claim_refuses_as_too_early(m, first)
