"""In a browser: Sam, in the last year of his diversification period, reads the window, the maximum and
how the plan carries out an election, asks for more than the maximum and is told the rule, elects, and
replaces the election; Pat changes his 401(k) contribution rate. Every page is checked with axe, at
desktop and phone width."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core.management import call_command

from elections.account_elections.models import DeferralElection, DiversificationElection
from tests.browser.conftest import assert_accessible, login, screenshot
from tests.browser.sweep import OVERFLOW_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date.today())  # noqa: DTZ011 - the demo's own "today"


def confirm(page) -> None:
    """Tick the confirmation as a person does (USWDS hides the input: click its label), once."""
    if not page.locator("input[name=confirm]").is_checked():
        page.locator("label", has_text="I elect to diversify").click()


def checked(page, name: str) -> None:
    assert_accessible(page)
    screenshot(page, name)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(OVERFLOW_JS) == [], name
    assert_accessible(page)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_sam_elects_to_diversify_and_replaces_the_election(page, demo):
    facts_today = date.today()  # noqa: DTZ011
    login(page, "sam@demo.test")
    page.get_by_role("link", name=re.compile("Diversification election")).first.click()
    page.wait_for_load_state("networkidle")
    body = page.locator("main").inner_text()
    if "Your election period is open" not in body:
        pytest.skip(f"Sam's diversification period is not open on {facts_today} (it ends March 31, 2027)")
    max_text = page.locator('[data-figure="max-shares"]').inner_text().strip()
    assert max_text == "1,575.0000"
    assert "worth $17,955.00 at $11.40 a share" in page.locator("main").inner_text()  # in dollars too
    assert "distribution" in body and "June 29, 2027" in body
    checked(page, "diversification-open")

    page.fill("input[name=shares]", "1600")
    confirm(page)
    page.get_by_role("button", name="Elect to diversify").click()
    page.wait_for_load_state("networkidle")
    assert "at most 1,575.0000 shares" in page.locator("main").inner_text()
    assert not DiversificationElection.objects.exists()
    checked(page, "diversification-refused")

    page.fill("input[name=shares]", "800")
    confirm(page)
    page.get_by_role("button", name="Elect to diversify").click()
    page.wait_for_load_state("networkidle")
    assert "is recorded" in page.locator("main").inner_text()
    page.fill("input[name=shares]", "900")
    confirm(page)
    page.get_by_role("button", name="Elect to diversify").click()
    page.wait_for_load_state("networkidle")
    rows = page.locator("table.usa-table--stacked tbody tr")
    assert rows.count() == 2
    assert [e.state for e in DiversificationElection.objects.order_by("version")] == ["superseded", "current"]
    checked(page, "diversification-replaced")


def test_pat_changes_his_contribution_rate(page, demo):
    login(page, "pat@demo.test")
    page.get_by_role("link", name=re.compile("^Contribution rate")).first.click()
    page.wait_for_load_state("networkidle")
    assert page.locator('[data-figure="current-rate"]').inner_text().startswith("9%")
    checked(page, "contribution-rate")
    page.fill("input[name=percent]", "16")
    page.get_by_role("button", name="Change my rate").click()
    page.wait_for_load_state("networkidle")
    assert "§3.1" in page.locator("main").inner_text()
    checked(page, "contribution-rate-refused")
    page.fill("input[name=percent]", "6")
    page.get_by_role("button", name="Change my rate").click()
    page.wait_for_load_state("networkidle")
    assert "changes to 6%" in page.locator("main").inner_text()
    assert DeferralElection.objects.filter(from_payroll_record=False).get().percent == 6
