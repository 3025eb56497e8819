"""Issue 15, item 1: the Django admin cannot go around the product's rules.

Roles change only through ``user_change_role`` (an MFA-authenticated administrator, never on
themselves, audited with old and new role); plan readings only on the readings page; MFA secrets are
encrypted at rest and never shown; claims are absent from the admin; what staff open there is
audited; a user who has acted is deactivated, never deleted."""

from __future__ import annotations

import time

import pytest
from allauth.mfa.models import Authenticator
from django.db.models import ProtectedError
from django.test import Client

from accounts import services
from accounts.mfa_secrets import PREFIX, MFAAdapter, seal_authenticator_data, unseal
from accounts.models import User
from benefits.models import AuditEvent, Plan
from tests.conftest import PASSWORD, TOTP_SECRET, enroll_totp, login_with_totp, totp_now
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(db):
    user = UserFactory(role=User.Role.ADMINISTRATOR, is_staff=True, is_superuser=True)
    enroll_totp(user)
    return user


@pytest.fixture
def admin_client(admin):
    c = Client()
    resp = login_with_totp(c, admin)
    if resp.status_code != 302:  # a code read at the edge of its 30-second window: use the next one
        time.sleep(31 - time.time() % 30)
        resp = c.post("/accounts/2fa/authenticate/", {"code": totp_now(TOTP_SECRET)})
    assert resp.status_code == 302
    return c


def _post_user_change(client, user, **fields):
    data = {
        "email": user.email,
        "role": fields.get("role", user.role),
        "is_active": "on",
        "is_staff": "on",
        "is_superuser": "on",
        "last_login_0": "",
        "last_login_1": "",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
    }
    return client.post(f"/django-admin/accounts/user/{user.pk}/change/", data)


def test_an_administrator_cannot_make_themselves_committee_in_the_django_admin(admin, admin_client):
    """The reproduction: an administrator changed their own role to committee in the Django admin."""
    page = admin_client.get(f"/django-admin/accounts/user/{admin.pk}/change/")
    assert page.status_code == 200
    assert 'name="role"' not in page.text  # shown read-only, never as an input
    _post_user_change(admin_client, admin, role="committee")
    admin.refresh_from_db()
    assert admin.role == User.Role.ADMINISTRATOR


def test_roles_change_only_through_the_service_by_an_mfa_administrator(admin, admin_client):
    """A staff role is asked for here and approved by a second person (issue 26); taking it away is
    immediate. Both are audited with the old and the new role."""
    target = UserFactory(role=User.Role.COMMITTEE)
    request = admin_client.get("/account/users/").wsgi_request
    assert services.mfa_authenticated(request)
    resp = admin_client.post(f"/account/users/{target.pk}/role/", {f"u{target.pk}-role": "participant"})
    assert resp.status_code == 302
    target.refresh_from_db()
    assert target.role == User.Role.PARTICIPANT
    event = AuditEvent.objects.get(event_type="account.role_changed")
    assert event.acting_user == admin
    assert event.extra_data["old"] == "committee" and event.extra_data["new"] == "participant"
    admin_client.post(f"/account/users/{target.pk}/role/", {f"u{target.pk}-role": "committee"})
    target.refresh_from_db()
    assert target.role == User.Role.PARTICIPANT  # asked for, not given
    asked = AuditEvent.objects.get(event_type="account.role_requested")
    assert asked.acting_user == admin and asked.extra_data["new"] == "committee"


def test_no_one_grants_a_role_to_themselves(admin, admin_client):
    resp = admin_client.post(f"/account/users/{admin.pk}/role/", {f"u{admin.pk}-role": "committee"})
    assert resp.status_code == 302
    admin.refresh_from_db()
    assert admin.role == User.Role.ADMINISTRATOR
    assert not AuditEvent.objects.filter(event_type="account.role_changed").exists()


def test_a_role_change_without_an_mfa_login_is_refused(admin):
    """force_login skips the second factor: the service refuses, and nothing is written."""
    c = Client()
    c.force_login(admin)
    target = UserFactory(role=User.Role.PARTICIPANT)
    request = c.get("/account/users/").wsgi_request
    with pytest.raises(services.PermissionDenied):
        services.user_change_role(actor=admin, user=target, role="committee", request=request)
    c.post(f"/account/users/{target.pk}/role/", {f"u{target.pk}-role": "administrator"})
    target.refresh_from_db()
    assert target.role == User.Role.PARTICIPANT
    assert not AuditEvent.objects.filter(event_type="account.role_changed").exists()


def test_a_committee_member_cannot_change_roles(committee_user):
    c = Client()
    assert login_with_totp(c, committee_user).status_code == 302
    target = UserFactory(role=User.Role.PARTICIPANT)
    assert c.post(f"/account/users/{target.pk}/role/", {f"u{target.pk}-role": "committee"}).status_code == 403
    target.refresh_from_db()
    assert target.role == User.Role.PARTICIPANT


def test_mfa_secrets_are_encrypted_at_rest_and_never_displayed(admin, admin_client):
    stored = Authenticator.objects.get(user=admin, type=Authenticator.Type.TOTP).data["secret"]
    assert stored.startswith(PREFIX) and TOTP_SECRET not in stored
    assert unseal(stored) == TOTP_SECRET
    authenticator = Authenticator.objects.get(user=admin)
    for url in (
        "/django-admin/mfa/authenticator/",
        f"/django-admin/mfa/authenticator/{authenticator.pk}/change/",
    ):
        page = admin_client.get(url)
        assert page.status_code == 200, url
        assert TOTP_SECRET not in page.text and stored not in page.text and "secret" not in page.text.lower()


def test_a_secret_in_clear_authenticates_nobody(admin):
    """A TOTP key written in clear into the database (bypassing the adapter) never opens a login."""
    Authenticator.objects.filter(user=admin).update(data={"secret": TOTP_SECRET})
    c = Client()
    resp = c.post("/accounts/login/", {"login": admin.email, "password": PASSWORD})
    assert resp["Location"] == "/accounts/2fa/authenticate/"
    resp = c.post("/accounts/2fa/authenticate/", {"code": totp_now(TOTP_SECRET)})
    assert resp.status_code == 200  # the form again, "incorrect code": no session, no 500
    assert "_auth_user_id" not in c.session


def test_the_data_migration_seals_secrets_stored_in_clear():
    key = "a-migration-test-key"
    data = {"secret": TOTP_SECRET, "seed": "abc123", "migrated_codes": ["11112222"]}
    sealed = seal_authenticator_data(data, key)
    assert all(v.startswith(PREFIX) for v in (sealed["secret"], sealed["seed"], *sealed["migrated_codes"]))
    assert unseal(sealed["secret"], key) == TOTP_SECRET
    assert seal_authenticator_data(sealed, key) == sealed  # running it twice changes nothing
    assert MFAAdapter().decrypt(MFAAdapter().encrypt("x")) == "x"


def test_plan_readings_are_read_only_in_the_django_admin(admin_client):
    """The reproduction: an unknown reading saved in the admin made every page of the plan answer 500."""
    plan = Plan.objects.create(
        key="carver-db", name="Carver DB", kind=Plan.Kind.FINAL_AVERAGE_PAY, employer=_employer()
    )
    page = admin_client.get(f"/django-admin/benefits/plan/{plan.pk}/change/")
    assert page.status_code == 200 and 'name="settings"' not in page.text
    admin_client.post(
        f"/django-admin/benefits/plan/{plan.pk}/change/",
        {"name": plan.name, "employer": plan.employer_id, "settings": '{"no_such_reading": 1}'},
    )
    plan.refresh_from_db()
    assert plan.settings == {}


def _employer():
    from benefits.models import Employer

    return Employer.objects.create(name="Carver Manufacturing", ein="12-3456789")


def test_claims_are_absent_from_the_django_admin(admin_client):
    for url in ("/django-admin/elections/claim/", "/django-admin/elections/claimdocument/"):
        assert admin_client.get(url).status_code == 404, url


def test_what_staff_open_in_the_django_admin_is_audited(admin, admin_client, participant_user):
    participant = participant_user.participant
    page = admin_client.get(f"/django-admin/benefits/participant/{participant.pk}/change/")
    assert page.status_code == 200
    event = AuditEvent.objects.get(event_type="admin.viewed")
    assert event.acting_user == admin and event.participant == participant


def test_users_who_acted_are_deactivated_not_deleted(admin, admin_client):
    """The reproduction: deleting a user in the Django admin blanked acting_user on their audit events."""
    actor = UserFactory(role=User.Role.PARTICIPANT)
    AuditEvent.objects.create(
        event_time="2026-11-21T12:00:00Z",
        event_type="identity.link_failed",
        summary="acted",
        acting_user=actor,
    )
    assert admin_client.get(f"/django-admin/accounts/user/{actor.pk}/delete/").status_code == 403
    admin_client.post(f"/django-admin/accounts/user/{actor.pk}/delete/", {"post": "yes"})
    with pytest.raises(ProtectedError):
        actor.delete()
    assert AuditEvent.objects.get(event_type="identity.link_failed").acting_user_id == actor.pk
    admin_client.post(f"/account/users/{actor.pk}/access/", {"active": "0"})
    actor.refresh_from_db()
    assert not actor.is_active
    event = AuditEvent.objects.get(event_type="account.deactivated")
    assert event.acting_user == admin and event.extra_data["old"] is True and event.extra_data["new"] is False


@pytest.mark.parametrize(
    ("field", "value"),
    [("birth_date", "1800-01-01"), ("birth_date", "2200-01-01"), ("spouse_birth_date", "2200-01-01")],
)
def test_participant_dates_edited_in_the_admin_keep_their_window(participant_user, field, value):
    """The Django admin validates models with full_clean: the engine's windows hold there too."""
    from datetime import date

    from django.core.exceptions import ValidationError

    participant = participant_user.participant
    setattr(participant, field, date.fromisoformat(value))
    with pytest.raises(ValidationError) as exc:
        participant.full_clean()
    assert field in exc.value.message_dict


def test_hours_past_a_leap_year_are_refused_by_the_database(participant_user):
    from django.db import IntegrityError, transaction

    from benefits.models import HoursOfService

    membership = participant_user.participant.memberships.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        HoursOfService.objects.create(membership=membership, period_year=2020, hours=8785)
    HoursOfService.objects.create(membership=membership, period_year=2020, hours=8784)


def test_no_claim_election_consent_or_document_model_is_in_the_django_admin():
    """Claims, elections, consents and documents are read and changed only on their audited pages: a
    model of the elections app (other than the beneficiary verification) or a generated document
    registered in the Django admin would go around them."""
    from django.contrib import admin

    from benefits.models import GeneratedDocument

    registered = {m._meta.label for m in admin.site._registry}
    elections = {label for label in registered if label.startswith("elections.")}
    assert elections <= {"elections.BeneficiaryLink"}, elections
    assert GeneratedDocument._meta.label not in registered
