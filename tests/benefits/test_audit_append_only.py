"""The audit table refuses UPDATE and DELETE in PostgreSQL itself, whatever sends them (issue 26)."""

import pytest
from django.db import IntegrityError, InternalError, ProgrammingError, connection, transaction
from django.db.models import ProtectedError

from benefits.audit import AuditEventType, audit_record
from benefits.models import AuditEvent
from tests.factories import ParticipantFactory, UserFactory

pytestmark = pytest.mark.django_db

REFUSED = (InternalError, ProgrammingError, IntegrityError)


def _event():
    return audit_record(
        event_type=AuditEventType.QUOTE_SAVED, summary="a quote was saved", actor=UserFactory()
    )


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE benefits_auditevent SET summary = 'rewritten' WHERE id = %s",
        "UPDATE benefits_auditevent SET acting_user_id = NULL WHERE id = %s",
        "DELETE FROM benefits_auditevent WHERE id = %s",
    ],
)
def test_raw_sql_cannot_change_or_delete_an_audit_row(sql):
    event = _event()
    with pytest.raises(REFUSED, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [event.pk])
    event.refresh_from_db()
    assert event.summary == "a quote was saved" and event.acting_user_id is not None


def test_the_orm_cannot_change_or_delete_an_audit_row_either():
    event = _event()
    event.summary = "rewritten"
    with pytest.raises(REFUSED), transaction.atomic():
        event.save()
    with pytest.raises(REFUSED), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).update(summary="rewritten")
    with pytest.raises(REFUSED), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).delete()
    assert AuditEvent.objects.filter(pk=event.pk, summary="a quote was saved").exists()


def test_new_events_are_still_written():
    before = AuditEvent.objects.count()
    _event()
    assert AuditEvent.objects.count() == before + 1


def test_deleting_someone_in_the_log_is_refused_rather_than_rewriting_the_log():
    """The foreign keys are PROTECT: no SET NULL that would update audit rows behind the trigger."""
    user = UserFactory()
    participant = ParticipantFactory()
    audit_record(event_type=AuditEventType.QUOTE_SAVED, summary="x", actor=user, participant=participant)
    with pytest.raises(ProtectedError):
        user.delete()
    with pytest.raises(ProtectedError):
        participant.delete()
    for field in ("acting_user", "participant"):
        assert AuditEvent._meta.get_field(field).remote_field.on_delete.__name__ == "PROTECT"
