"""A participant record with a date of death: no login links to it (the survivor is pointed to the
beneficiary path), and only a plan administrator changes how its documents are delivered."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied

from accounts import services as account_services
from accounts.models import User
from benefits.delivery import services as delivery
from benefits.models import AuditEvent
from tests.factories import PASSWORD, ParticipantFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/account/link/"
GOOD = {"participant_number": "CFS-77777", "birth_date": "1961-04-28", "ssn_last4": "4321"}


@pytest.fixture
def record():
    return ParticipantFactory(
        participant_number="CFS-77777",
        birth_date=date(1961, 4, 28),
        ssn="900-55-4321",
        death_date=date(2026, 3, 2),
    )


def test_linking_a_deceased_participants_record_is_refused_and_points_to_the_beneficiary_path(client, record):
    user = UserFactory(role=User.Role.PARTICIPANT)
    client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    resp = client.post(URL, GOOD)
    assert resp.status_code == 200
    text = resp.content.decode()
    assert "participant who has died" in text and "as the beneficiary" in text
    record.refresh_from_db()
    assert record.user is None
    event = AuditEvent.objects.get(event_type="identity.link_failed", participant=record)
    assert "beneficiary path" in event.summary


def test_the_same_details_link_while_no_date_of_death_is_recorded(record):
    record.death_date = None
    record.save(update_fields=["death_date"])
    user = UserFactory(role=User.Role.PARTICIPANT)
    linked = account_services.participant_link_identity(
        user=user, participant_number="CFS-77777", birth_date=date(1961, 4, 28), ssn_last4="4321"
    )
    assert linked.pk == record.pk


def test_a_wrong_detail_on_a_deceased_record_gets_the_generic_answer(record):
    user = UserFactory(role=User.Role.PARTICIPANT)
    with pytest.raises(account_services.IdentityLinkError) as exc:
        account_services.participant_link_identity(
            user=user, participant_number="CFS-77777", birth_date=date(1961, 4, 28), ssn_last4="4322"
        )
    assert str(exc.value) == account_services.GENERIC_FAILURE


def test_only_an_administrator_changes_a_deceased_participants_delivery():
    owner = UserFactory(role=User.Role.PARTICIPANT)
    admin = UserFactory(role=User.Role.ADMINISTRATOR)
    participant = ParticipantFactory(user=owner, death_date=date(2026, 3, 2))
    with pytest.raises(PermissionDenied, match="only a plan administrator"):
        delivery.delivery_consent_withdraw(participant=participant, actor=owner)
    with pytest.raises(PermissionDenied, match="only a plan administrator"):
        delivery.delivery_test_start(participant=participant, actor=owner)
    # The administrator passes the permission check (and is told there is no consent to withdraw).
    with pytest.raises(delivery.DeliveryInvalid):
        delivery.delivery_consent_withdraw(participant=participant, actor=admin)
    # While alive, the participant alone decides (an administrator may not).
    participant.death_date = None
    participant.save(update_fields=["death_date"])
    with pytest.raises(delivery.DeliveryInvalid):
        delivery.delivery_consent_withdraw(participant=participant, actor=owner)
    with pytest.raises(PermissionDenied):
        delivery.delivery_consent_withdraw(participant=participant, actor=admin)
