"""Issue 26, item 1: no write in the Django admin without its audit event, whatever the door.

The walk takes every model registered in the Django admin and tries every write path it could offer:
add, change, delete, the bulk delete action and each inline (a row added, changed, deleted). After each
try either nothing changed in the database, or an audit event names the model with the values written.
A model registered without a sample row here fails the walk, so a new registration is walked too.
"""

from __future__ import annotations

import time
from datetime import date
from decimal import Decimal

import pytest
from django.contrib import admin
from django.forms.models import model_to_dict
from django.test import Client

from accounts.models import SubmissionToken, User
from benefits.audit import AuditEventType, audit_record
from benefits.models import (
    AccountBalance,
    AccountTransaction,
    AuditEvent,
    Compensation,
    EmploymentPeriod,
    HoursOfService,
    MarketRate,
)
from tests.conftest import TOTP_SECRET, enroll_totp, login_with_totp, totp_now
from tests.factories import MembershipFactory, ParticipantFactory, UserFactory

pytestmark = pytest.mark.django_db

# The only write the Django admin keeps: an administrator verifies a beneficiary (audited, never deleted).
AUDITED_WRITES = {"elections.BeneficiaryLink": {"add", "change"}}


@pytest.fixture
def superuser(db):
    user = UserFactory(role=User.Role.ADMINISTRATOR, is_staff=True, is_superuser=True)
    enroll_totp(user)
    return user


@pytest.fixture
def client_as(superuser):
    c = Client()
    resp = login_with_totp(c, superuser)
    if resp.status_code != 302:  # a code read at the edge of its window
        time.sleep(31 - time.time() % 30)
        resp = c.post("/accounts/2fa/authenticate/", {"code": totp_now(TOTP_SECRET)})
    assert resp.status_code == 302
    return c


@pytest.fixture
def samples(superuser):
    """One row of every registered model (and of every inline's model)."""
    from elections.models import BeneficiaryLink

    participant = ParticipantFactory()
    membership = MembershipFactory(participant=participant)
    EmploymentPeriod.objects.create(participant=participant, start=date(1990, 1, 2))
    HoursOfService.objects.create(membership=membership, period_year=2020, hours=2000)
    Compensation.objects.create(membership=membership, year=2020, amount=Decimal("50000.00"))
    AccountBalance.objects.create(
        membership=membership, source="employer", as_of=date(2020, 12, 31), balance=1
    )
    AccountTransaction.objects.create(
        membership=membership,
        source="employer",
        date=date(2020, 6, 30),
        kind="employer",
        amount=Decimal("10"),
    )
    MarketRate.objects.create(
        series="treasury_10y_november", period=date(2020, 11, 1), percent=Decimal("0.8700"), source="test"
    )
    SubmissionToken.objects.create(token="12345678-1234-5678-1234-567812345678", user=superuser, purpose="t")
    BeneficiaryLink.objects.create(
        user=UserFactory(), participant=participant, beneficiary_name="Ann Heir", relationship="child"
    )
    audit_record(event_type=AuditEventType.QUOTE_SAVED, summary="sample", actor=superuser)
    return participant


def _snapshot() -> dict[str, list[dict]]:
    models = set(admin.site._registry)
    for model_admin in admin.site._registry.values():
        models |= {inline.model for inline in model_admin.inlines}
    return {
        m._meta.label: sorted(m.objects.values(), key=lambda row: str(row["pk" if "pk" in row else "id"]))
        for m in models
        if m is not AuditEvent  # it grows: what is read here is audited
    }


def _form_data(obj) -> dict[str, str]:
    data = {}
    for name, value in model_to_dict(obj).items():
        if value is None:
            continue
        if isinstance(value, list):
            continue
        data[name] = str(value.pk if hasattr(value, "pk") else value)
    for field in obj._meta.fields:  # a text field changed, so a change is a change
        if field.get_internal_type() == "CharField" and not field.choices and field.name in data:
            data[field.name] = (data[field.name] + "x")[: field.max_length]
            break
    return data


def _inline_data(model_admin, obj) -> dict[str, str]:
    """Each inline's management form plus one new row, one changed row, one deleted row."""
    data: dict[str, str] = {}
    for inline in model_admin.inlines:
        formset_class = inline(model_admin.model, admin.site).get_formset(None, obj)
        prefix = formset_class.get_default_prefix()
        rows = list(inline.model.objects.filter(**{formset_class.fk.name: obj})[:1])
        data[f"{prefix}-TOTAL_FORMS"] = str(len(rows) + 1)
        data[f"{prefix}-INITIAL_FORMS"] = str(len(rows))
        for i, row in enumerate(rows):
            for k, v in _form_data(row).items():
                data[f"{prefix}-{i}-{k}"] = v
            data[f"{prefix}-{i}-id"] = str(row.pk)
            data[f"{prefix}-{i}-DELETE"] = "on"
        if rows:
            for k, v in _form_data(rows[0]).items():
                data[f"{prefix}-{len(rows)}-{k}"] = v
    return data


def _admin_events(label: str, before: int) -> list[AuditEvent]:
    return [
        e
        for e in AuditEvent.objects.order_by("pk")[before:]
        if e.event_type in (AuditEventType.ADMIN_ADDED, AuditEventType.ADMIN_CHANGED)
        and e.extra_data.get("model") in {label, *_inline_labels(label)}
    ]


def _inline_labels(label: str) -> set[str]:
    for model, model_admin in admin.site._registry.items():
        if model._meta.label == label:
            return {inline.model._meta.label for inline in model_admin.inlines}
    return set()


def test_every_write_path_of_every_registered_model_is_refused_or_audited(client_as, samples):
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label
        obj = model.objects.order_by("pk").first()
        assert obj is not None, f"{label}: add a sample row to this test's `samples`"
        base = f"/django-admin/{model._meta.app_label}/{model._meta.model_name}"
        data = {**_form_data(obj), **_inline_data(model_admin, obj)}
        attempts = {
            "add": (f"{base}/add/", data),
            "change": (f"{base}/{obj.pk}/change/", data),
            "delete": (f"{base}/{obj.pk}/delete/", {"post": "yes"}),
            "bulk delete": (
                f"{base}/",
                {"action": "delete_selected", "_selected_action": str(obj.pk), "post": "yes", "index": "0"},
            ),
        }
        for door, (url, payload) in attempts.items():
            before_rows = _snapshot()
            before_events = AuditEvent.objects.count()
            response = client_as.post(url, payload)
            assert response.status_code < 500, f"{label} {door}: {response.status_code}"
            if _snapshot() == before_rows:
                continue
            assert door in AUDITED_WRITES.get(label, set()), f"{label}: {door} wrote through the Django admin"
            events = _admin_events(label, before_events)
            assert events, f"{label}: {door} wrote without an audit event"
            assert all(e.extra_data.get("changes") for e in events), f"{label}: {door} without old/new values"


def test_the_admin_offers_no_write_but_the_audited_ones(superuser):
    """The permission checks themselves, for every registered model and inline."""
    from django.test import RequestFactory

    request = RequestFactory().get("/django-admin/")
    request.user = superuser
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label
        allowed = AUDITED_WRITES.get(label, set())
        assert model_admin.has_add_permission(request) == ("add" in allowed), label
        assert model_admin.has_change_permission(request) == ("change" in allowed), label
        assert not model_admin.has_delete_permission(request), label
        assert "delete_selected" not in model_admin.get_actions(request), label
        for inline in model_admin.get_inline_instances(request):
            assert not inline.has_add_permission(request, None), f"{label} inline {inline.model._meta.label}"
            assert not inline.has_change_permission(request), f"{label} inline {inline.model._meta.label}"
            assert not inline.has_delete_permission(request), f"{label} inline {inline.model._meta.label}"


def test_a_beneficiary_verified_in_the_admin_is_audited_with_old_and_new_values(client_as, samples):
    from elections.models import BeneficiaryLink

    link = BeneficiaryLink.objects.get()
    data = _form_data(link)
    data["relationship"] = "spouse"
    assert (
        client_as.post(f"/django-admin/elections/beneficiarylink/{link.pk}/change/", data).status_code == 302
    )
    event = AuditEvent.objects.filter(event_type=AuditEventType.ADMIN_CHANGED).latest("pk")
    assert event.extra_data["changes"]["relationship"] == {"old": "child", "new": "spouse"}


def test_logins_cannot_be_changed_or_added_in_the_admin(client_as, superuser, participant_user):
    """The reproduction: the user form set a participant's e-mail and password, unrecorded."""
    old_hash = participant_user.password
    client_as.post(
        f"/django-admin/accounts/user/{participant_user.pk}/change/",
        {"email": "mine@example.test", "role": "committee", "is_staff": "on"},
    )
    client_as.post(
        f"/django-admin/accounts/user/{participant_user.pk}/password/",
        {"password1": "an-attacker-password-1", "password2": "an-attacker-password-1"},
    )
    client_as.post(
        "/django-admin/accounts/user/add/",
        {"email": "new@example.test", "password1": "a-long-password-77", "password2": "a-long-password-77"},
    )
    participant_user.refresh_from_db()
    assert participant_user.email != "mine@example.test" and participant_user.role == User.Role.PARTICIPANT
    assert participant_user.password == old_hash
    assert not User.objects.filter(email="new@example.test").exists()


def test_a_long_membership_history_is_shown_without_the_field_limit(client_as, samples):
    """The reproduction: two years of monthly transactions made a form of 1,196 fields (limit 1,000)."""
    membership = samples.memberships.get()
    AccountTransaction.objects.bulk_create(
        AccountTransaction(
            membership=membership,
            source="deferral",
            date=date(2019 + i // 300, 1 + (i // 25) % 12, 1 + i % 25),
            kind="deferral",
            amount=Decimal("100.00"),
        )
        for i in range(600)
    )
    page = client_as.get(f"/django-admin/benefits/planmembership/{membership.pk}/change/")
    assert page.status_code == 200
    # Shown read-only: no form to send back, so Django's limit on a request's fields never applies.
    assert 'name="_save"' not in page.text
    assert page.text.count("Before-tax deferral") >= 600
