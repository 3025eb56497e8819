"""Authentication events are audit events with time, account and client address (issue 26, ASVS V7.2),
shown on the audit page and in its CSV, filterable by who and by what."""

import pytest

from accounts.models import User
from benefits.models import AuditEvent
from tests.conftest import PASSWORD, TOTP_SECRET, enroll_totp, post_totp_code, totp_now
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _events(event_type):
    return list(AuditEvent.objects.filter(event_type=event_type).order_by("pk"))


def test_sign_in_and_sign_out_are_recorded_with_account_and_address(client, participant_user, password):
    client.post(
        "/accounts/login/", {"login": participant_user.email, "password": password}, REMOTE_ADDR="203.0.113.7"
    )
    [signed_in] = _events("auth.signed_in")
    assert signed_in.acting_user == participant_user
    assert signed_in.ip_address == "203.0.113.7"
    assert signed_in.event_time is not None
    client.post("/accounts/logout/")
    [signed_out] = _events("auth.signed_out")
    assert signed_out.acting_user == participant_user


def test_failed_sign_in_names_the_account_only_when_it_exists(client, participant_user):
    client.post("/accounts/login/", {"login": participant_user.email, "password": "wrong-password-1"})
    client.post("/accounts/login/", {"login": "nobody@example.test", "password": "wrong-password-1"})
    known, unknown = _events("auth.sign_in_failed")
    assert known.extra_data["email"] == participant_user.email
    assert known.extra_data["account_exists"] is True
    assert known.acting_user is None  # whoever typed it is not known to be the owner
    assert unknown.extra_data == {"account_exists": False}
    assert "nobody@example.test" not in unknown.summary


def test_wrong_totp_code_and_staff_sign_in_are_recorded(client, committee_user):
    client.post("/accounts/login/", {"login": committee_user.email, "password": PASSWORD})
    wrong = "000000" if totp_now(TOTP_SECRET) != "000000" else "111111"
    client.post("/accounts/2fa/authenticate/", {"code": wrong})
    [failed] = _events("auth.mfa_failed")
    assert failed.extra_data["email"] == committee_user.email
    assert not _events("auth.signed_in")  # the password alone is not a sign-in
    post_totp_code(client)
    [signed_in] = _events("auth.signed_in")
    assert signed_in.acting_user == committee_user


def test_mfa_enrolment_is_recorded(client, django_capture_on_commit_callbacks):
    user = UserFactory(role=User.Role.COMMITTEE)
    client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    client.get("/accounts/2fa/totp/activate/")
    secret = client.session["mfa.totp.secret"]
    with django_capture_on_commit_callbacks(execute=True):  # allauth signals enrolment on commit
        resp = client.post("/accounts/2fa/totp/activate/", {"code": totp_now(secret)})
    assert resp.status_code == 302, resp
    methods = {e.extra_data["method"] for e in _events("auth.mfa_enrolled")}
    assert "totp" in methods
    assert all(e.acting_user == user for e in _events("auth.mfa_enrolled"))


def test_recovery_code_use_is_recorded(client):
    from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes

    user = UserFactory(role=User.Role.COMMITTEE)
    enroll_totp(user)
    codes = RecoveryCodes.activate(user)
    code = codes.get_unused_codes()[0]
    client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    resp = client.post("/accounts/2fa/authenticate/", {"code": code})
    assert resp.status_code == 302
    [used] = _events("auth.recovery_code_used")
    assert used.acting_user == user


def test_password_change_is_recorded(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    resp = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": password,
            "password1": "a-new-long-password-42",
            "password2": "a-new-long-password-42",
        },
    )
    assert resp.status_code == 302
    [changed] = _events("auth.password_changed")
    assert changed.acting_user == participant_user


def test_password_reset_is_recorded(client, participant_user, django_capture_on_commit_callbacks):
    from django.core import mail

    with django_capture_on_commit_callbacks(execute=True):  # the reset e-mail is a job sent on commit
        client.post("/accounts/password/reset/", {"email": participant_user.email})
    body = mail.outbox[-1].body
    link = next(w for w in body.split() if "/accounts/password/reset/key/" in w)
    path = link[link.index("/accounts/") :]
    resp = client.get(path)
    form_url = resp["Location"] if resp.status_code == 302 else path
    resp = client.post(
        form_url, {"password1": "a-new-long-password-42", "password2": "a-new-long-password-42"}
    )
    assert resp.status_code == 302, resp
    [reset] = _events("auth.password_reset")
    assert reset.acting_user == participant_user


def test_authentication_events_are_filterable_on_the_audit_page_and_its_csv(
    client, staff_client, admin_user, participant_user, password
):
    from django.test import Client

    other = Client()
    other.post("/accounts/login/", {"login": participant_user.email, "password": "wrong-password-1"})
    other.post("/accounts/login/", {"login": participant_user.email, "password": password})
    staff_client(admin_user)
    page = client.get("/benefits/staff/audit/", {"what": "auth.sign_in_failed"})
    text = page.content.decode()
    assert "Sign-in failed" in text and participant_user.email in text
    by_who = client.get("/benefits/staff/audit/", {"who": participant_user.email, "format": "csv"})
    csv_text = by_who.content.decode()
    assert "Sign-in failed" in csv_text and "Signed in" in csv_text
    assert "Signed in" in client.get("/benefits/staff/audit/", {"what": "auth.signed_in"}).content.decode()


def test_an_email_change_is_recorded_with_old_and_new(participant_user, rf):
    """allauth sends ``email_changed`` when a login's primary address changes (its e-mail page)."""
    from allauth.account.models import EmailAddress
    from allauth.account.signals import email_changed

    old = EmailAddress.objects.get(user=participant_user)
    new = EmailAddress.objects.create(user=participant_user, email="pat.new@example.test", verified=True)
    request = rf.post("/accounts/email/", REMOTE_ADDR="198.51.100.4")
    request.user = participant_user
    email_changed.send(
        sender=EmailAddress,
        request=request,
        user=participant_user,
        from_email_address=old,
        to_email_address=new,
    )
    [changed] = _events("auth.email_changed")
    assert changed.extra_data["old"] == old.email and changed.extra_data["new"] == "pat.new@example.test"
    assert changed.ip_address == "198.51.100.4" and changed.acting_user == participant_user
