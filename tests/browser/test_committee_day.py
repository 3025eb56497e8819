"""The committee's day in a browser (issue 14 item 6): the login lands on the claims queue with the
demo's plan year of claims, the filters narrow it, and a member assigns a claim to themselves and
keeps an internal note; axe-core on each page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from benefits.demo.loader import COMMITTEE_TOTP_SECRET
from tests.browser.conftest import assert_accessible, login
from tests.browser.test_portal_flow import _shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def plan_year(db, settings, tmp_path):
    from django.core.management import call_command

    from benefits.services import today

    settings.PRIVATE_STORAGE_ROOT = tmp_path
    settings.DEMO_PLAN_YEAR_CLAIMS = True
    call_command("load_demo", as_of=today(), verbosity=0)


def test_committee_lands_on_its_queue_filters_it_assigns_and_notes(page, plan_year):
    login(page, "committee@demo.test", totp_secret=COMMITTEE_TOTP_SECRET)
    assert page.url.endswith(reverse("elections:committee_queue"))
    rows = page.locator("table.app-queue-table tbody tr")
    assert rows.count() >= 7
    assert page.locator(".app-due--overdue").count() >= 1 and page.locator(".app-due--due_soon").count() >= 1
    assert_accessible(page)
    _shot(page, "committee-queue", full=False)

    page.get_by_label("Decision due").select_option("7")
    page.get_by_role("button", name="Show claims").click()
    page.wait_for_load_state("networkidle")
    assert 1 <= rows.count() < 7
    assert "due_within=7" in page.url

    page.get_by_role("link", name="Clear the filters").click()
    page.locator("table.app-queue-table tbody tr").filter(has_text="Received").first.get_by_role(
        "link"
    ).click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("heading", name="The participant").is_visible()
    page.get_by_label("Assigned to").select_option(label="committee@demo.test (you)")
    page.get_by_role("button", name="Save the assignment").click()
    page.wait_for_load_state("networkidle")
    page.get_by_label("Add a note").fill("Asked payroll for the 1982 hire records.")
    page.get_by_role("button", name="Save the note").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("Asked payroll for the 1982 hire records.").is_visible()
    assert_accessible(page)
    _shot(page, "committee-claim", full=False)

    page.goto(reverse("elections:committee_queue") + "?mine=1")
    assert page.locator("table.app-queue-table tbody tr").count() >= 1
