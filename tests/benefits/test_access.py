"""Scoping: a participant sees only their own record; staff pages are closed to participants."""

import pytest

from benefits.models import AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in_participant(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    return client


def test_participant_cannot_open_another_participants_page(logged_in_participant, other_participant):
    resp = logged_in_participant.get(f"/benefits/participants/{other_participant.pk}/")
    assert resp.status_code == 404


def test_participant_can_open_their_own_page_by_id(logged_in_participant, participant_user):
    resp = logged_in_participant.get(f"/benefits/participants/{participant_user.participant.pk}/")
    assert resp.status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/benefits/staff/participants/",
        "/benefits/staff/plans/",
        "/benefits/staff/plans/carver-db/",
        "/benefits/staff/audit/",
        "/django-admin/",
    ],
)
def test_participant_cannot_reach_staff_pages(logged_in_participant, path):
    # The Django admin first redirects to its (allauth-guarded) login, which refuses non-staff.
    assert logged_in_participant.get(path, follow=True).status_code == 403


def test_committee_cannot_reach_administrator_pages(staff_client, committee_user):
    client = staff_client(committee_user)
    assert client.get("/benefits/staff/plans/").status_code == 403
    assert client.get("/benefits/staff/audit/").status_code == 403
    assert client.post("/benefits/staff/plans/carver-db/confirm/").status_code == 403


def test_staff_view_of_a_participant_is_read_only_and_audited(
    staff_client, committee_user, other_participant
):
    client = staff_client(committee_user)
    resp = client.get(f"/benefits/participants/{other_participant.pk}/")
    assert resp.status_code == 200
    assert "Read-only view" in resp.content.decode()
    event = AuditEvent.objects.get(event_type="participant.viewed_by_staff")
    assert event.acting_user == committee_user and event.participant == other_participant


def test_anonymous_visitors_are_sent_to_login(client, other_participant):
    for path in ["/benefits/", f"/benefits/participants/{other_participant.pk}/", "/benefits/staff/plans/"]:
        resp = client.get(path)
        assert resp.status_code == 302 and resp["Location"].startswith("/accounts/login/"), path


def test_administrator_confirms_plan_readings_with_an_audit_event(staff_client, admin_user):
    from benefits.services.plan_settings import plan_update_reading
    from tests.factories import PlanFactory

    plan = PlanFactory()
    client = staff_client(admin_user)
    # Refused while a reading the plan text leaves blank is unset (the Rev. Rul. 2001-62 table's).
    client.post(f"/benefits/staff/plans/{plan.key}/confirm/")
    plan.refresh_from_db()
    assert plan.settings_confirmed_by is None
    plan_update_reading(plan=plan, name="revrul_2001_62_reading", raw="unloaded", actor=admin_user)
    resp = client.post(f"/benefits/staff/plans/{plan.key}/confirm/")
    assert resp.status_code == 302
    plan.refresh_from_db()
    assert plan.settings_confirmed_by == admin_user
    assert AuditEvent.objects.filter(event_type="plan.settings_confirmed").exists()
    page = client.get("/benefits/staff/audit/").content.decode()
    assert "plan.settings_confirmed" in page
