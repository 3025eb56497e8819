"""Four eyes on power (issue 26): a staff role or a staff login takes a request by one administrator
and the approval of a different person; until then the grantee cannot act in the role."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from accounts.models import RoleRequest, User
from benefits.models import AuditEvent
from tests.conftest import TOTP_SECRET, enroll_totp, login_with_totp, totp_now
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def _staff(role: str) -> User:
    user = UserFactory(role=role, is_staff=role == User.Role.ADMINISTRATOR)
    enroll_totp(user)
    return user


def _client(user: User) -> Client:
    c = Client()
    resp = login_with_totp(c, user)
    if resp.status_code != 302:  # a code read at the edge of its window
        time.sleep(31 - time.time() % 30)
        resp = c.post("/accounts/2fa/authenticate/", {"code": totp_now(TOTP_SECRET)})
    assert resp.status_code == 302
    return c


@pytest.fixture
def asker():
    return _staff(User.Role.ADMINISTRATOR)


@pytest.fixture
def asker_client(asker):
    return _client(asker)


def _ask_role(client, user, role):
    return client.post(f"/account/users/{user.pk}/role/", {f"u{user.pk}-role": role})


def _decide(client, made, decision="approve"):
    return client.post(f"/account/role-requests/{made.pk}/decide/", {"decision": decision})


def test_the_one_administrator_takeover_needs_a_second_person(asker, asker_client):
    """The reproduction: one administrator gave a login of theirs the committee role and denied a claim."""
    mine = UserFactory(role=User.Role.PARTICIPANT)
    _ask_role(asker_client, mine, "committee")
    mine.refresh_from_db()
    assert mine.role == User.Role.PARTICIPANT
    made = RoleRequest.objects.get(user=mine)
    assert made.status == RoleRequest.Status.PENDING
    # The asker cannot approve it, and the grantee (still a participant) cannot reach the page.
    _decide(asker_client, made)
    made.refresh_from_db()
    mine.refresh_from_db()
    assert made.status == RoleRequest.Status.PENDING and mine.role == User.Role.PARTICIPANT
    grantee = Client()
    grantee.post("/accounts/login/", {"login": mine.email, "password": PASSWORD})
    assert grantee.get("/claims/committee/").status_code == 403
    assert (
        grantee.post(f"/account/role-requests/{made.pk}/decide/", {"decision": "approve"}).status_code == 403
    )


def test_a_sitting_committee_member_approves_a_committee_role(asker, asker_client):
    target = UserFactory(role=User.Role.PARTICIPANT)
    _ask_role(asker_client, target, "committee")
    made = RoleRequest.objects.get(user=target)
    member = _staff(User.Role.COMMITTEE)
    member_client = _client(member)
    page = member_client.get("/account/role-requests/")
    assert page.status_code == 200 and target.email in page.text
    assert _decide(member_client, made).status_code == 302
    target.refresh_from_db()
    assert target.role == User.Role.COMMITTEE
    approved = AuditEvent.objects.get(event_type="account.role_request_approved")
    assert approved.acting_user == member
    assert approved.extra_data["requested_by"] == asker.email
    assert approved.extra_data["old"] == "participant" and approved.extra_data["new"] == "committee"
    assert AuditEvent.objects.get(event_type="account.role_requested").acting_user == asker


def test_only_an_administrator_approves_the_administrator_role(asker_client):
    target = UserFactory(role=User.Role.PARTICIPANT)
    _ask_role(asker_client, target, "administrator")
    made = RoleRequest.objects.get(user=target)
    member_client = _client(_staff(User.Role.COMMITTEE))
    assert _decide(member_client, made).status_code == 404  # not among the requests a member sees
    target.refresh_from_db()
    assert target.role == User.Role.PARTICIPANT
    second = _staff(User.Role.ADMINISTRATOR)
    _decide(_client(second), made)
    target.refresh_from_db()
    assert target.role == User.Role.ADMINISTRATOR


def test_nobody_approves_a_request_about_themselves(asker_client):
    member = _staff(User.Role.COMMITTEE)
    _ask_role(asker_client, member, "administrator")
    made = RoleRequest.objects.get(user=member)
    # Even an administrator-to-be cannot see it as decidable; a committee member never sees admin ones.
    from accounts import services

    assert not services.may_decide(member, made)
    other_admin = _staff(User.Role.ADMINISTRATOR)
    assert services.may_decide(other_admin, made)
    assert not services.may_decide(made.requested_by, made)


def test_a_new_staff_login_exists_only_once_approved(asker, asker_client):
    resp = asker_client.post("/account/users/new/", {"email": "new.member@example.test", "role": "committee"})
    assert resp.status_code == 302
    assert not User.objects.filter(email="new.member@example.test").exists()
    made = RoleRequest.objects.get(email="new.member@example.test")
    assert AuditEvent.objects.get(event_type="account.staff_login_requested").acting_user == asker
    _decide(asker_client, made)  # the asker's own approval does nothing
    assert not User.objects.filter(email="new.member@example.test").exists()
    second = _staff(User.Role.ADMINISTRATOR)
    _decide(_client(second), made)
    user = User.objects.get(email="new.member@example.test")
    assert user.role == User.Role.COMMITTEE and not user.has_usable_password()
    assert AuditEvent.objects.get(event_type="account.role_request_approved").acting_user == second


def test_a_refusal_and_a_withdrawal_are_audited(asker, asker_client):
    one, two = UserFactory(), UserFactory()
    _ask_role(asker_client, one, "committee")
    _ask_role(asker_client, two, "committee")
    second = _staff(User.Role.ADMINISTRATOR)
    _decide(_client(second), RoleRequest.objects.get(user=one), "refuse")
    _decide(asker_client, RoleRequest.objects.get(user=two), "refuse")
    assert RoleRequest.objects.get(user=one).status == RoleRequest.Status.REFUSED
    assert RoleRequest.objects.get(user=two).status == RoleRequest.Status.WITHDRAWN
    refused, withdrawn = AuditEvent.objects.filter(event_type="account.role_request_refused").order_by("pk")
    assert refused.acting_user == second and "withdrawn" not in refused.extra_data
    assert withdrawn.acting_user == asker and withdrawn.extra_data["withdrawn"] is True
    one.refresh_from_db()
    assert one.role == User.Role.PARTICIPANT


def test_one_pending_request_per_address_is_a_database_constraint(asker):
    from django.db import IntegrityError, transaction

    target = UserFactory()
    RoleRequest.objects.create(user=target, email=target.email, role="committee", requested_by=asker)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoleRequest.objects.create(user=target, email=target.email, role="administrator", requested_by=asker)


def test_a_new_staff_login_form_names_the_field_for_a_bad_address(asker_client):
    resp = asker_client.post(
        "/account/users/new/", {"email": "x" * 250 + "@example.test", "role": "committee"}
    )
    assert resp.status_code == 302
    page = asker_client.get("/account/users/").text
    assert "Email address" in page
    assert not RoleRequest.objects.exists()
