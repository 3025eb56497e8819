"""Email login and logout through allauth; each role lands on its own home page."""

import pytest

from tests.conftest import login_with_totp

pytestmark = pytest.mark.django_db


def test_participant_logs_in_by_email_and_lands_on_their_dashboard(client, participant_user, password):
    resp = client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    assert resp.status_code == 302
    resp = client.get(resp["Location"], follow=True)
    assert resp.redirect_chain[-1][0] == "/benefits/"
    assert "Welcome, Test" in resp.content.decode()


def test_wrong_password_is_refused_without_saying_whether_the_email_exists(client, participant_user):
    resp = client.post("/accounts/login/", {"login": participant_user.email, "password": "wrong-password-1"})
    assert resp.status_code == 200
    assert "_auth_user_id" not in client.session
    unknown = client.post(
        "/accounts/login/", {"login": "nobody@example.test", "password": "wrong-password-1"}
    )
    assert unknown.status_code == 200
    assert "_auth_user_id" not in client.session


def test_logout_ends_the_session(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    assert "_auth_user_id" in client.session
    resp = client.post("/accounts/logout/")
    assert resp.status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get("/benefits/").status_code == 302  # back to login


def test_committee_member_lands_on_the_claims_queue(client, committee_user):
    """The committee's day starts with its work (issue 14), not a participant lookup."""
    resp = login_with_totp(client, committee_user)
    resp = client.get(resp["Location"], follow=True)
    assert resp.redirect_chain[-1][0] == "/claims/committee/"


def test_administrator_lands_on_the_plans_page(client, admin_user):
    resp = login_with_totp(client, admin_user)
    resp = client.get(resp["Location"], follow=True)
    assert resp.redirect_chain[-1][0] == "/benefits/staff/plans/"


def test_unverified_email_cannot_log_in(client, db):
    from accounts.models import User

    user = User.objects.create_user("new@example.test", "a-long-password-77")
    resp = client.post("/accounts/login/", {"login": user.email, "password": "a-long-password-77"})
    assert "_auth_user_id" not in client.session
    assert resp.status_code == 302 and "confirm-email" in resp["Location"]
