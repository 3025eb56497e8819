"""Hostile inputs of issue 26 outside the imports: an e-mail over 254 characters at sign-up, a forged
or 5,001-digit id on the committee's "assign": a message naming the field, never a 500, no write."""

from __future__ import annotations

import pytest

from benefits.form_ids import bounded_id
from benefits.models import AuditEvent
from tests.test_access_matrix import _client_for, demo  # noqa: F401, F811 (fixture)

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------------------------ e-mail


@pytest.mark.parametrize("length", [255, 300, 5000])
def test_sign_up_with_an_email_over_254_characters_names_the_field(client, length):
    from accounts.models import User

    email = "a" * (length - len("@example.test")) + "@example.test"
    for _ in range(2):  # the reproduction: the second try answered 500
        resp = client.post(
            "/accounts/signup/",
            {"email": email, "password1": "a-long-password-77", "password2": "a-long-password-77"},
        )
        assert resp.status_code == 200
        text = resp.content.decode()
        assert "at most 254 characters" in text or "valid email address" in text  # past 320: not an address
    assert not User.objects.filter(email__startswith="aaaa").exists()


# ------------------------------------------------------------------------------------ ids


@pytest.mark.parametrize(
    ("raw", "value"),
    [("12", 12), (" 7 ", 7), ("", None), ("0", None), ("-3", None), ("+3", None), ("²", None), ("٣", None),
     ("9" * 18, int("9" * 18)), ("9" * 19, None), ("9" * 5001, None), (None, None)],
)  # fmt: skip
def test_ids_from_forms_are_bounded(raw, value):
    assert bounded_id(raw) == value


@pytest.mark.parametrize("raw", ["9" * 5001, "9" * 25, "²", "-1", "1e3"])
def test_committee_assign_with_a_forged_id_answers_400_and_writes_nothing(demo, client, raw):  # noqa: F811
    """The reproduction: the committee's "assign" with a 5,001-digit id answered 500."""
    [committee] = _client_for("committee", client)
    before = AuditEvent.objects.filter(event_type="claim.assigned").count()
    resp = committee.post(f"/claims/{demo.under_review}/assign/", {"assignee": raw})
    assert resp.status_code == 400
    assert "Assign to: choose a member of the plan committee." in resp.content.decode()
    assert AuditEvent.objects.filter(event_type="claim.assigned").count() == before
