"""Issue 29: the web modeler prices its dates on the plan's one-pass grid path.

Every demo membership of a plan with a commencement grid, every month from its earliest date to age
70 with the demo's market data, gives the same result on the one-pass path as on the scalar path
(the traced result without its ``traces``), and the modeler's job never sends a grid date through
the scalar ``estimate()``.
"""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import User
from benefits.engine.plans import get_plan
from benefits.engine.plans.carver_db import results as scalar_results
from benefits.engine.plans.quaker_cash_balance import results as quaker_scalar_results
from benefits.engine.request import calculate_request
from benefits.engine_adapter import membership_request
from benefits.forms import every_month
from benefits.models import ModelerRun, PlanMembership
from benefits.services import today
from benefits.services.modeler import modeler_run_execute
from tests.conftest import token

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", verbosity=0)
    return User.objects.get(email="pat@demo.test")


def test_demo_grids_are_byte_identical_and_the_job_never_takes_the_scalar_path(client, demo, monkeypatch):
    as_of = today()
    compared, plans = 0, set()
    for membership in PlanMembership.objects.select_related("plan", "participant"):
        plan = get_plan(membership.plan.key)
        if plan.grid is None or plan.grid.outputs is None:
            continue
        dates = every_month(membership, as_of)
        request = membership_request(membership, as_of=as_of, commencement_dates=dates)
        fast = calculate_request({**request, "options": {"traces": False}})
        scalar = calculate_request(request)
        for result in scalar["results"]:
            result.pop("traces", None)
        assert json.dumps(fast) == json.dumps(scalar), membership.participant.participant_number
        compared += len(dates)
        plans.add(membership.plan.key)
    assert compared > 100 and plans >= {"carver-db", "quaker-cash-balance"}

    def refuse(*args, **kwargs):
        raise AssertionError("a grid date went through the scalar estimate()")

    monkeypatch.setattr(scalar_results, "estimate", refuse)
    monkeypatch.setattr(quaker_scalar_results, "estimate", refuse)
    client.force_login(demo)
    response = client.post(
        reverse("benefits:plan_modeler", args=[demo.participant.pk, "carver-db"]),
        {"mode": "every_month", "spouse_birth_date": "1964-09-02", "submission_token": token()},
    )
    assert response.status_code == 302
    run = ModelerRun.objects.latest("pk")
    assert run.status == ModelerRun.Status.DONE, run.error
    assert run.progress_done == len(run.result["estimates"]) == len(run.inputs["commencement_dates"]) > 12
    assert not [e for e in run.result["estimates"] if "error" in e]
    assert run.request["options"] == {"traces": False} and "traces" not in run.result

    # Quaker cash balance: the job of a run of a married active employee's every month (the demo's
    # participants have no login of their own, so the run is made as the modeler's view makes it).
    membership = PlanMembership.objects.get(
        participant__participant_number="QCB-20006", plan__key="quaker-cash-balance"
    )
    dates = every_month(membership, as_of)
    quaker = ModelerRun.objects.create(
        membership=membership,
        as_of=as_of,
        inputs={"mode": "every_month", "commencement_dates": [d.isoformat() for d in dates]},
        progress_total=len(dates),
    )
    quaker = modeler_run_execute(quaker.pk)
    assert quaker.status == ModelerRun.Status.DONE, quaker.error
    assert quaker.progress_done == len(quaker.result["estimates"]) == len(dates) > 12
    assert not [e for e in quaker.result["estimates"] if "error" in e]
    assert quaker.request["options"] == {"traces": False} and "traces" not in quaker.result
