"""Issue 15, items 5 and 6: identity-link failures are limited per account and per client address
(the real client's, behind ALLAUTH_TRUSTED_PROXY_COUNT proxies), so no one locks out others; and
every page for a logged-in person is sent with Cache-Control: no-store."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from accounts.models import User
from benefits.models import AuditEvent
from tests.factories import PASSWORD, ParticipantFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/account/link/"
GOOD = {"participant_number": "CFS-77777", "birth_date": "1961-04-28", "ssn_last4": "4321"}
WRONG = {**GOOD, "ssn_last4": "0000"}
PROXY = "10.0.0.1"  # the load balancer: every request reaches the app from this address


@pytest.fixture
def record():
    return ParticipantFactory(participant_number="CFS-77777", birth_date=date(1961, 4, 28), ssn="900-55-4321")


def _client(client_address: str) -> tuple[Client, User]:
    user = UserFactory(role=User.Role.PARTICIPANT)
    c = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)
    c.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    return c, user


def test_behind_a_proxy_one_person_cannot_lock_linking_for_everyone(settings, record):
    """The reproduction: failures were counted per REMOTE_ADDR, i.e. per proxy, so one person's five
    wrong tries locked identity linking for every user for 15 minutes."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    attacker, _ = _client("203.0.113.9")
    for _ in range(settings.IDENTITY_LINK_MAX_ATTEMPTS + 3):
        attacker.post(URL, WRONG)
    assert attacker.post(URL, GOOD).status_code == 429  # the attacker's account is locked
    victim, victim_user = _client("198.51.100.4")
    resp = victim.post(URL, GOOD)
    assert resp.status_code == 302, resp.content.decode()[:500]
    record.refresh_from_db()
    assert record.user == victim_user
    # Audit events name the real client address, not the proxy's.
    assert AuditEvent.objects.get(event_type="identity.linked").ip_address == "198.51.100.4"


def test_one_account_cannot_lock_its_address_for_others(settings, record):
    """Same client address (say an office behind NAT): one account's failures lock that account only."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    first, _ = _client("203.0.113.9")
    for _ in range(settings.IDENTITY_LINK_MAX_ATTEMPTS * 3):
        first.post(URL, WRONG)
    colleague, colleague_user = _client("203.0.113.9")
    assert colleague.post(URL, GOOD).status_code == 302
    record.refresh_from_db()
    assert record.user == colleague_user


def test_many_accounts_from_one_address_are_limited_per_address(settings, record):
    """Spraying guesses across accounts from one address stops at the address limit."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    settings.IDENTITY_LINK_MAX_ATTEMPTS = 2
    settings.IDENTITY_LINK_MAX_ATTEMPTS_PER_ADDRESS = 4
    for _ in range(2):
        c, _user = _client("203.0.113.50")
        for _ in range(2):
            c.post(URL, WRONG)
    late, _ = _client("203.0.113.50")
    assert late.post(URL, GOOD).status_code == 429
    elsewhere, _ = _client("198.51.100.77")
    assert elsewhere.post(URL, GOOD).status_code == 302


def test_a_forged_forwarded_for_is_ignored_without_trusted_proxies(settings):
    from benefits.audit import client_ip

    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    request = Client(REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.1").get("/").wsgi_request
    assert client_ip(request) == "192.0.2.1"


def test_participant_and_staff_pages_are_never_cached(participant_user, staff_client, committee_user):
    c = Client()
    c.force_login(participant_user)
    for url in ("/benefits/", "/claims/"):
        resp = c.get(url)
        assert resp.status_code == 200, url
        assert "no-store" in resp["Cache-Control"] and "private" in resp["Cache-Control"], url
    staff = staff_client(committee_user)
    resp = staff.get("/benefits/staff/participants/")
    assert resp.status_code == 200 and "no-store" in resp["Cache-Control"]
    login = Client().get("/accounts/login/")
    assert "no-store" in login["Cache-Control"]
    static = Client().get("/static/css/app.css")
    assert "no-store" not in static.get("Cache-Control", "")
