"""A login links to a Participant only with participant number, birth date and SSN last four."""

from datetime import date

import pytest

from accounts.models import User
from benefits.models import AuditEvent
from tests.factories import PASSWORD, ParticipantFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/account/link/"


@pytest.fixture
def unlinked_user(client):
    user = UserFactory(role=User.Role.PARTICIPANT)
    client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    return user


@pytest.fixture
def record():
    return ParticipantFactory(participant_number="CFS-77777", birth_date=date(1961, 4, 28), ssn="900-55-4321")


GOOD = {"participant_number": "CFS-77777", "birth_date": "1961-04-28", "ssn_last4": "4321"}


def test_unlinked_participant_is_sent_to_link_their_record(client, unlinked_user):
    resp = client.get("/", follow=True)
    assert resp.redirect_chain[-1][0] == URL


def test_matching_details_link_the_record(client, unlinked_user, record):
    resp = client.post(URL, GOOD)
    assert resp.status_code == 302 and resp["Location"] == "/benefits/"
    record.refresh_from_db()
    assert record.user == unlinked_user
    assert AuditEvent.objects.filter(event_type="identity.linked", participant=record).exists()


@pytest.mark.parametrize(
    "field, wrong",
    [("participant_number", "CFS-77778"), ("birth_date", "1961-04-29"), ("ssn_last4", "4322")],
)
def test_any_wrong_item_fails_without_saying_which(client, unlinked_user, record, field, wrong):
    resp = client.post(URL, {**GOOD, field: wrong})
    assert resp.status_code == 200
    body = resp.content.decode()
    assert "We could not match those details" in body
    for name in ("participant number is wrong", "birth date is wrong", "last four"):
        assert name not in body.lower() or name == "last four"  # the label may say "last four digits"
    record.refresh_from_db()
    assert record.user is None
    assert AuditEvent.objects.filter(event_type="identity.link_failed").count() == 1


def test_email_alone_never_links(client, db):
    ParticipantFactory(participant_number="CFS-88888", email="same@example.test")
    user = UserFactory(email="same@example.test", role=User.Role.PARTICIPANT)
    client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    assert not hasattr(User.objects.get(pk=user.pk), "participant")
    resp = client.get("/", follow=True)
    assert resp.redirect_chain[-1][0] == URL


def test_a_record_already_linked_cannot_be_taken(client, unlinked_user, record):
    record.user = UserFactory(role=User.Role.PARTICIPANT)
    record.save()
    resp = client.post(URL, GOOD)
    assert resp.status_code == 200
    assert "We could not match those details" in resp.content.decode()


def test_repeated_failures_are_rate_limited(client, unlinked_user, record, settings):
    settings.IDENTITY_LINK_MAX_ATTEMPTS = 3
    for _ in range(3):
        client.post(URL, {**GOOD, "ssn_last4": "0000"})
    # Even the right answer is refused while locked.
    resp = client.post(URL, GOOD)
    assert resp.status_code == 429
    assert "Too many unsuccessful attempts" in resp.content.decode()
    record.refresh_from_db()
    assert record.user is None


def test_invalid_last_four_names_the_field(client, unlinked_user, record):
    resp = client.post(URL, {**GOOD, "ssn_last4": "12a4"})
    assert "Enter exactly four digits." in resp.content.decode()


def test_staff_cannot_link_a_record(staff_client, committee_user, record):
    client = staff_client(committee_user)
    assert client.post(URL, GOOD).status_code == 403
