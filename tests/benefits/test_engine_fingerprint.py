"""The web app never shows a figure an older engine computed (issue 12 item 6).

The engine's fingerprint (``ENGINE_VERSION``: its code and data files) is stored on every
CalculationResult, GeneratedDocument and ModelerRun and is part of the stored result's key, so an
engine change recomputes instead of serving old numbers.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command
from django.urls import reverse

import benefits.engine_adapter as adapter
from accounts.models import User
from benefits.engine import ENGINE_VERSION
from benefits.models import CalculationResult, MarketRate, ModelerRun, PlanMembership

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", verbosity=0)
    return User.objects.get(email="pat@demo.test")


def _membership(user) -> PlanMembership:
    return PlanMembership.objects.get(participant=user.participant, plan__key="carver-db")


def test_a_stored_result_from_an_older_engine_is_recomputed(demo, monkeypatch):
    membership = _membership(demo)
    CalculationResult.objects.filter(membership=membership).delete()  # only this test's rows below
    as_of = date(2026, 6, 30)
    first = adapter.membership_calculate(membership, as_of=as_of)
    stored = CalculationResult.objects.get(membership=membership)
    assert stored.engine_version == ENGINE_VERSION
    # Tamper with the stored figures: the same engine serves them (they are its cache) ...
    stored.result = {**stored.result, "vesting": {**stored.result["vesting"], "vested_percent": "1"}}
    stored.save(update_fields=["result"])
    membership = _membership(demo)  # a fresh object: no figures remembered in memory
    assert adapter.membership_calculate(membership, as_of=as_of)["vesting"]["vested_percent"] == "1"
    # ... but once the engine's code or data change, the old row is never served: recomputed.
    monkeypatch.setattr(adapter, "ENGINE_VERSION", "0.1.0+000000000000")
    again = adapter.membership_calculate(membership, as_of=as_of)
    assert again["vesting"] == first["vesting"]
    assert set(
        CalculationResult.objects.filter(membership=membership).values_list("engine_version", flat=True)
    ) == {
        ENGINE_VERSION,
        "0.1.0+000000000000",
    }


def test_a_modeler_run_from_an_older_engine_is_not_shown(client, demo):
    client.force_login(demo)
    membership = _membership(demo)
    run = ModelerRun.objects.create(
        membership=membership,
        as_of=date(2026, 6, 30),
        inputs={"commencement_dates": ["2027-04-01"]},
        result={
            "estimates": [{"commencement_date": "2027-04-01", "forms": {"life": {"monthly": "9999.99"}}}]
        },
        engine_version="0.1.0+000000000000",
        status=ModelerRun.Status.DONE,
    )
    pid = demo.participant.pk
    html = client.get(reverse("benefits:modeler_run", args=[pid, run.pk])).content.decode()
    assert "9,999.99" not in html and "needs to be run again" in html
    response = client.get(reverse("benefits:modeler_estimate", args=[pid, run.pk, 0]))
    assert response.status_code == 302 and response["Location"].endswith(
        reverse("benefits:modeler_run", args=[pid, run.pk])
    )


def test_segment_rates_kept_by_administrators_reach_the_engine(demo):
    plan = _membership(demo).plan
    # The demo loads its own segment rates; this test states exactly which months exist.
    MarketRate.objects.filter(series__startswith="417e_segment_").delete()
    for i, pct in enumerate(("4.91", "5.42", "5.87"), start=1):
        MarketRate.objects.create(
            series=f"417e_segment_{i}", period=date(2026, 1, 1), percent=pct, source="test"
        )
    MarketRate.objects.create(series="417e_segment_1", period=date(2026, 2, 1), percent="4.9", source="test")
    rates = adapter.plan_assumptions(plan)["segment_rates"]
    assert rates == {"2026-01": ["4.9100", "5.4200", "5.8700"]}  # February lacks two segments
