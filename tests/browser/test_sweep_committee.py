"""The accessibility sweep (tests/browser/sweep.py) of a committee member's pages, and of the enrolment a
staff login without MFA is sent to."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from accounts.models import User
from benefits.demo.loader import COMMITTEE_TOTP_SECRET
from tests.browser.conftest import login
from tests.browser.sweep import Sweep, staff_login, staff_mfa_pages, staff_pages, verified_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_committee_pages(page, sweep_data):
    sweep = Sweep(page)
    staff_login(sweep, "committee@demo.test", COMMITTEE_TOTP_SECRET, check_prompt=True)
    pages = staff_pages(sweep_data) + [
        ("queue", reverse("elections:committee_queue")),
        ("queue with closed", reverse("elections:committee_queue") + "?all=1"),
    ]
    # The claim page is where the committee decides: each state shows its own actions.
    for state in ("received", "under_review", "info_requested", "denied"):
        pages.append((f"claim {state}", reverse("elections:claim_detail", args=[getattr(sweep_data, state)])))
    pages += [("403", reverse("benefits:admin_plans")), ("404", reverse("elections:claim_detail", args=[0]))]
    for label, url in pages:
        sweep.check(url, f"committee {label}")
    staff_mfa_pages(sweep, "committee")
    sweep.report()


def test_staff_without_mfa_is_sent_to_an_accessible_enrolment(page, sweep_data):
    verified_user("nomfa@sweep.test", User.Role.COMMITTEE)
    sweep = Sweep(page)
    login(page, "nomfa@sweep.test")
    page.goto(reverse("elections:committee_queue"))
    # The MFA middleware sends them to enrolment, and allauth asks for the password first.
    assert urlsplit(page.url).path in (reverse("mfa_activate_totp"), reverse("account_reauthenticate")), (
        page.url
    )
    sweep.reauthenticate("no-mfa staff")
    sweep.check(reverse("mfa_activate_totp"), "no-mfa staff totp activate")
    sweep.report()
