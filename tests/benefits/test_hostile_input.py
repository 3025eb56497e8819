"""Issue 15: the portal's reproductions. A NUL byte in the staff search, a quote saved before its
model finishes, a spouse born in 2200, readings of NaN, infinity and 10^26: each answers with a clear
message and writes nothing, never a 500 or a negative benefit."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from benefits.models import AuditEvent, ModelerRun, PlanMembership, SavedQuote
from benefits.services import modeler as portal_services
from benefits.services import today
from tests.conftest import login_with_totp, token

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", verbosity=0)
    return User.objects.get(email="pat@demo.test")


@pytest.fixture
def pat_client(client, demo):
    client.force_login(demo)
    return client


def _staff(email: str, secret: str) -> Client:
    c = Client()
    user = User.objects.get(email=email)
    assert login_with_totp(c, user, password="demo-pass-2026", secret=secret).status_code == 302
    return c


def test_a_nul_byte_in_the_staff_participant_search_is_not_a_500(demo):
    """The reproduction: a NUL byte in the search answered 500 on PostgreSQL."""
    from benefits.demo.loader import COMMITTEE_TOTP_SECRET

    staff = _staff("committee@demo.test", COMMITTEE_TOTP_SECRET)
    resp = staff.get("/benefits/staff/participants/", {"q": "Pat\x00ricia"})
    assert resp.status_code == 200
    resp = staff.get("/benefits/staff/participants/", {"q": "\x00" * 5000})
    assert resp.status_code == 200


def test_saving_a_model_before_it_finishes_is_refused_with_a_message(pat_client, demo):
    """The reproduction: saving a modeler run before it finished answered 500."""
    membership = PlanMembership.objects.get(participant=demo.participant, plan__key="carver-db")
    run = portal_services.modeler_run_create(  # its task runs after commit: the run stays pending here
        membership=membership, actor=demo, inputs={"commencement_dates": ["2027-04-01"]}, as_of=today()
    )
    assert run.status != ModelerRun.Status.DONE
    url = reverse("benefits:quote_save", args=[demo.participant.pk, run.pk])
    resp = pat_client.post(url, {"submission_token": token()}, follow=True)
    assert resp.status_code == 200
    assert "This model is not finished yet" in resp.text
    assert not SavedQuote.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("spouse_birth_date", "2200-01-01", "Spouse&#x27;s birth date: before today"),
        ("spouse_birth_date", "1800-01-01", "Spouse&#x27;s birth date: before today"),
        ("dates", "2200-01-01", "the modeler goes up to age 70"),
        ("future_hours", "1e30", "Enter a whole number"),
        ("future_hours", "9000", "less than or equal to 4000"),
    ],
)
def test_modeler_inputs_outside_their_window_are_refused(pat_client, demo, field, value, message):
    url = reverse("benefits:plan_modeler", args=[demo.participant.pk, "carver-db"])
    data = {"mode": "dates", "dates": "2027-04-01", "submission_token": token(), field: value}
    resp = pat_client.post(url, data)
    assert resp.status_code == 400, resp.status_code
    assert message in resp.text
    assert not ModelerRun.objects.exists()


@pytest.mark.parametrize(
    ("raw", "rule"),
    [
        ("NaN", "must be a finite number"),
        ("Infinity", "must be a finite number"),
        ("-Infinity", "must be a finite number"),
        ("100000000000000000000000000", "must be a number from 0 to 10,000,000"),
        ("1e26", "must be a number from 0 to 10,000,000"),
        ("-0.01", "must be a number from 0 to 10,000,000"),
        ("9" * 4301, "A reading is at most 2,000 characters"),
        ("9" * 50, "must be a number from 0 to 10,000,000"),
    ],
)
def test_readings_refuse_nan_infinity_and_out_of_range_values(demo, raw, rule):
    """The reproduction: readings accepted NaN, Infinity and 10^26."""
    from benefits.demo.loader import ADMIN_TOTP_SECRET
    from benefits.models import Plan

    admin = _staff("admin@demo.test", ADMIN_TOTP_SECRET)
    plan = Plan.objects.get(key="fairport-esop")
    before = dict(plan.settings)
    url = "/benefits/staff/plans/fairport-esop/readings/put_interest_rate/"
    resp = admin.post(url, {"value": raw}, follow=True)
    assert resp.status_code == 200
    # The message names the reading by its label (plain words), then the rule it broke.
    assert "Interest rate on installments for sold-back shares was not changed" in resp.text
    assert rule in resp.text
    plan.refresh_from_db()
    assert plan.settings == before
    assert not AuditEvent.objects.filter(event_type="plan.reading_changed").exists()
    # Every page of the plan still answers.
    assert admin.get("/benefits/staff/plans/fairport-esop/").status_code == 200


def test_identity_link_refuses_an_implausible_birth_date(db):
    from tests.factories import PASSWORD, UserFactory

    user = UserFactory(role=User.Role.PARTICIPANT)
    c = Client()
    c.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    for born in ("1800-01-01", "2200-01-01"):
        resp = c.post(
            "/account/link/", {"participant_number": "X-1", "birth_date": born, "ssn_last4": "1234"}
        )
        assert resp.status_code == 200 and "a plan member is between 15 and 110 years old" in resp.text
    assert not AuditEvent.objects.filter(event_type="identity.link_failed").exists()
