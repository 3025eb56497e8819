"""The claim pages a participant and a committee member reach, checked with axe at desktop and 375px."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command

from benefits.demo.loader import load_demo_prime_rates
from elections.claims.services import today
from tests.browser.conftest import assert_accessible, login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date(2026, 11, 21))
    load_demo_prime_rates(as_of=today())


def test_loan_request_over_the_limit_is_refused_with_the_rule(page, demo):
    login(page, "pat@demo.test")
    page.goto("/claims/")
    page.get_by_role("link", name="Loan (401(k)) in Carver Federal Savings Bank 401(k) Savings Plan").click()
    assert page.get_by_text("Most you can borrow (§8.2)").is_visible()
    page.get_by_label("Amount (dollars)").fill("75000")
    page.get_by_label("Term (months)").fill("72")
    page.get_by_role("button", name="Submit the claim").click()
    page.wait_for_load_state("networkidle")
    # Each message twice: in the error summary at the top (a link to the field) and beside the field.
    summary = page.locator(".app-error-summary")
    assert summary.get_by_role(
        "link", name="Loan amount: the most you can borrow is $50,000.00 (§8.2"
    ).is_visible()
    assert page.locator("#id_amount-error").get_by_text("the most you can borrow is $50,000.00").is_visible()
    assert (
        page.locator("#id_term_months-error")
        .get_by_text("Term: §8.3: the term must be more than 0 and at most 5 years.")
        .is_visible()
    )
    summary.get_by_role("link", name="Term: §8.3", exact=False).click()
    assert page.evaluate("document.activeElement.id") == "id_term_months" or page.url.endswith(
        "#id_term_months"
    )
    assert page.get_by_label("Amount (dollars)").input_value() == "75000"
    assert_accessible(page)
    screenshot(page, "claims-loan-refused")
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto("/claims/")
    assert_accessible(page)
    screenshot(page, "claims-home-375")
