"""Each role logs in through the real pages (staff with TOTP) and lands on its own home page."""

from datetime import date

import pytest
from django.core.management import call_command

from benefits.demo.loader import ADMIN_TOTP_SECRET, COMMITTEE_TOTP_SECRET
from tests.browser.conftest import assert_accessible, login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(db):
    call_command("load_demo", as_of=date(2026, 11, 21))


def test_login_page_is_accessible(page, demo):
    page.goto("/accounts/login/")
    assert_accessible(page)
    screenshot(page, "login")


def test_participant_lands_on_their_plans(page, demo):
    login(page, "pat@demo.test")
    assert page.url.endswith("/benefits/")
    assert page.get_by_role("heading", name="Welcome, Pat").is_visible()
    assert_accessible(page)


def test_committee_member_needs_totp_and_lands_on_the_claims_queue(page, demo):
    login(page, "committee@demo.test", totp_secret=COMMITTEE_TOTP_SECRET)
    assert page.url.endswith("/claims/committee/")  # the committee starts with its work (issue 14)
    assert_accessible(page)


def test_administrator_needs_totp_and_lands_on_plans(page, demo):
    login(page, "admin@demo.test", totp_secret=ADMIN_TOTP_SECRET)
    assert page.url.endswith("/benefits/staff/plans/")
    assert_accessible(page)
