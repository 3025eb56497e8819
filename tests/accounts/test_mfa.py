"""Committee members and administrators reach no page of their role until MFA is enrolled."""

import pytest

from accounts.models import User
from tests.conftest import TOTP_SECRET, enroll_totp, totp_now
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", [User.Role.COMMITTEE, User.Role.ADMINISTRATOR])
def test_staff_without_mfa_are_sent_to_enrol(client, role):
    user = UserFactory(role=role, is_staff=role == User.Role.ADMINISTRATOR)
    client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    for path in ["/benefits/staff/participants/", "/benefits/staff/plans/", "/django-admin/"]:
        resp = client.get(path)
        assert resp.status_code == 302, path
        assert resp["Location"] == "/accounts/2fa/totp/activate/", path
    # The enrolment page is reachable; allauth first asks for the password again (reauthentication).
    resp = client.get("/accounts/2fa/totp/activate/")
    assert resp.status_code == 302 and resp["Location"].startswith("/accounts/reauthenticate/")
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    page = client.get("/accounts/2fa/totp/activate/")
    assert page.status_code == 200
    assert 'name="code"' in page.content.decode()  # the code from the authenticator app


def test_staff_with_totp_must_give_a_code_to_log_in(client):
    user = UserFactory(role=User.Role.COMMITTEE)
    enroll_totp(user)
    resp = client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    assert resp["Location"] == "/accounts/2fa/authenticate/"
    assert "_auth_user_id" not in client.session
    bad = client.post(
        "/accounts/2fa/authenticate/", {"code": "000000" if totp_now(TOTP_SECRET) != "000000" else "111111"}
    )
    assert bad.status_code == 200 and "_auth_user_id" not in client.session
    good = client.post("/accounts/2fa/authenticate/", {"code": totp_now(TOTP_SECRET)})
    assert good.status_code == 302
    assert client.get("/benefits/staff/participants/").status_code == 200


def test_participants_are_not_forced_into_mfa(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    assert client.get("/benefits/").status_code == 200


def test_django_admin_login_goes_through_allauth(client):
    resp = client.get("/django-admin/login/")
    assert resp.status_code == 302
    assert resp["Location"].startswith("/accounts/login/")


def test_administrator_reaches_django_admin_after_mfa(staff_client, admin_user):
    client = staff_client(admin_user)
    assert client.get("/django-admin/").status_code == 200
