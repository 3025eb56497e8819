"""Sessions and enumeration (issue 26): an idle timeout for every role beside the absolute expiry,
with a warning before it; sign-up and password reset answer the same words in the same time whether
or not the address has a login; cache keys from request input stay bounded."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from accounts.middleware import IdleTimeoutMiddleware
from benefits.models import AuditEvent
from tests.conftest import login_with_totp

pytestmark = pytest.mark.django_db


def _age_session(client, seconds: int) -> None:
    session = client.session
    session[IdleTimeoutMiddleware.KEY] = int(time.time()) - seconds
    session.save()


def test_the_idle_limits_are_settings_15_minutes_for_staff_and_30_for_participants(settings):
    assert settings.SESSION_IDLE_TIMEOUT_STAFF == 15 * 60
    assert settings.SESSION_IDLE_TIMEOUT_PARTICIPANT == 30 * 60
    assert settings.SESSION_COOKIE_AGE == 8 * 60 * 60  # the absolute expiry stays


def test_a_participant_idle_for_35_minutes_is_signed_out(client, participant_user, password):
    """The reproduction: a session idle for 35 minutes was still live."""
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    assert client.get("/benefits/").status_code == 200
    _age_session(client, 35 * 60)
    resp = client.get("/benefits/")
    assert resp.status_code == 302 and resp["Location"].startswith("/accounts/login/")
    assert "_auth_user_id" not in client.session
    assert client.get("/benefits/").status_code == 302
    assert AuditEvent.objects.filter(event_type="auth.signed_out", acting_user=participant_user).exists()


def test_a_participant_idle_for_29_minutes_stays_signed_in(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    _age_session(client, 29 * 60)
    assert client.get("/benefits/").status_code == 200


@pytest.mark.parametrize(("idle_minutes", "signed_in"), [(14, True), (16, False)])
def test_staff_are_signed_out_after_15_idle_minutes(client, committee_user, idle_minutes, signed_in):
    login_with_totp(client, committee_user)
    _age_session(client, idle_minutes * 60)
    resp = client.get("/benefits/staff/participants/")
    assert (resp.status_code == 200) is signed_in
    assert ("_auth_user_id" in client.session) is signed_in


def test_an_htmx_request_after_the_limit_is_sent_to_sign_in(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    _age_session(client, 31 * 60)
    resp = client.get("/benefits/", headers={"HX-Request": "true"})
    assert resp["HX-Redirect"].startswith("/accounts/login/")


def test_a_progress_bars_polling_is_not_activity(client, participant_user, password):
    """A page left open on a running batch polls every second or two: those polls must not keep the
    session alive (they carry X-Progress-Poll), while a request the person makes does."""
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    _age_session(client, 20 * 60)
    stamp = client.session[IdleTimeoutMiddleware.KEY]
    poll = {"HX-Request": "true", "X-Progress-Poll": "true"}
    assert client.get("/benefits/", headers=poll).status_code == 200
    assert client.session[IdleTimeoutMiddleware.KEY] == stamp  # not renewed by the poll
    _age_session(client, 31 * 60)
    resp = client.get("/benefits/", headers=poll)
    assert resp["HX-Redirect"].startswith("/accounts/login/")  # the poll itself ends the idle session


def test_every_polling_element_marks_its_requests_as_polls():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    polling = [p for p in root.rglob("*.html") if 'hx-trigger="every' in p.read_text()]
    assert polling, "no polling element found"
    for path in polling:
        text = path.read_text()
        assert text.count('hx-trigger="every') == text.count('"X-Progress-Poll": "true"'), path


def test_the_page_carries_the_warning_and_stay_signed_in_counts_as_activity(
    client, participant_user, password
):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    page = client.get("/benefits/").content.decode()
    assert (
        'id="idle-warning"' in page
        and 'data-idle-seconds="1800"' in page
        and 'data-warn-seconds="120"' in page
    )
    assert "js/idle-warning.js" in page and "Stay signed in" in page
    _age_session(client, 20 * 60)
    assert client.post("/account/session/keepalive/").status_code == 204
    assert int(time.time()) - client.session[IdleTimeoutMiddleware.KEY] < 5


def _signup(client, email):
    return client.post(
        "/accounts/signup/",
        {"email": email, "password1": "a-long-password-77", "password2": "a-long-password-77"},
    )


def _words(response, client) -> str:
    if response.status_code == 302:
        return f"302 {response['Location']}"
    return response.content.decode()


def test_sign_up_answers_the_same_words_whether_or_not_the_address_is_registered(
    client, participant_user, django_capture_on_commit_callbacks
):
    from django.core import mail
    from django.test import Client

    with django_capture_on_commit_callbacks(execute=True):  # each e-mail is a job sent on commit
        taken = _signup(client, participant_user.email)
        fresh_client = Client()
        fresh = _signup(fresh_client, "brand.new@example.test")
    assert _words(taken, client) == _words(fresh, fresh_client)
    assert len(mail.outbox) == 2  # the e-mail that follows says which


def test_password_reset_answers_the_same_words_whether_or_not_the_address_is_registered(
    client, participant_user
):
    known = client.post("/accounts/password/reset/", {"email": participant_user.email})
    unknown = client.post("/accounts/password/reset/", {"email": "nobody@example.test"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]


@override_settings(ACCOUNT_ENUMERATION_MIN_SECONDS=0.6)
def test_sign_up_and_reset_take_at_least_the_same_floor_registered_or_not(
    client, participant_user, monkeypatch
):
    """The reproduction: a registered address answered in under half a second and a new one in 8-12 s.
    Both answers are held to the same floor (measured with a recording sleep, not a timed test)."""
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    _signup(client, participant_user.email)
    _signup(client, "another.new@example.test")
    client.post("/accounts/password/reset/", {"email": "nobody@example.test"})
    assert len(slept) == 3 and all(0 < s <= 0.6 for s in slept)


def test_the_modeler_grid_cache_key_takes_only_forms_the_page_offers(rf):
    from benefits.views import _chosen_form

    assert _chosen_form(rf.get("/", {"form": "js50"})) == "js50"
    assert _chosen_form(rf.get("/", {"form": "lump_sum"})) == "lump_sum"
    for hostile in ("abc", "js50x", "a" * 20, "", "../etc"):
        assert _chosen_form(rf.get("/", {"form": hostile})) == ""
