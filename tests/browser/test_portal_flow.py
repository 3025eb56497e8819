"""Pat logs in, sees every plan, the vesting history, a statement and its PDF, models retirement
dates (every form side by side, a chart) and saves and prints a quote; axe checks every page."""

from __future__ import annotations

import io
import os
import shutil
from datetime import date
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect
from pypdf import PdfReader

from benefits.models import SavedQuote
from tests.browser.conftest import assert_accessible, login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date(2026, 11, 21))


def _shot(page, name: str, *, full: bool = True) -> None:
    """A screenshot for the test run; with UPDATE_DOCS_SCREENSHOTS=1 also written to docs/screenshots
    for the README (long pages: the first screen only, so the README stays light)."""
    path = screenshot(page, name)
    if os.environ.get("UPDATE_DOCS_SCREENSHOTS") != "1":
        return
    DOCS.mkdir(parents=True, exist_ok=True)
    if full:
        shutil.copy(path, DOCS / path.name)
    else:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(DOCS / path.name))


def _pdf_text(page, link) -> str:
    """Fetch the linked PDF with the browser's session (the same request a click makes)."""
    response = page.context.request.get(link.get_attribute("href"))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    data = response.body()
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def test_pat_sees_plans_vesting_statement_and_models_retirement(page, demo):
    login(page, "pat@demo.test")
    for name in (
        "Carver Federal Savings Bank Retirement Income Plan",
        "Carver Federal Savings Bank 401(k) Savings Plan",
        "Carver Bancorp, Inc. Employee Stock Ownership Plan",
    ):
        expect(page.get_by_role("heading", name=name)).to_be_visible()
    page.get_by_text("How was this calculated?").first.click()  # opens with the keyboard too (summary)
    assert_accessible(page)
    _shot(page, "portal-dashboard")

    db_card = page.locator("#plan-carver-db")
    db_card.get_by_role("link", name="Vesting").click()
    expect(
        page.get_by_role("heading", name="Vesting in the Carver Federal Savings Bank Retirement Income Plan")
    ).to_be_visible()
    # Pat is fully vested: the page says so first and folds the year-by-year table (issue 14).
    expect(page.get_by_text("You are fully vested", exact=True)).to_be_visible()
    expect(page.get_by_role("rowheader", name="1987")).not_to_be_visible()
    page.get_by_text("Your service, year by year").click()
    expect(page.get_by_role("rowheader", name="1987")).to_be_visible()
    assert_accessible(page)
    _shot(page, "portal-vesting", full=False)

    page.get_by_role("link", name="Statement").click()
    assert_accessible(page)
    page.get_by_role("button", name="Create a PDF of this statement").click()
    page.wait_for_load_state("networkidle")
    page.wait_for_url("**/statement/")
    link = page.get_by_role(
        "link", name="Statement — Carver Federal Savings Bank Retirement Income Plan", exact=False
    )
    text = _pdf_text(page, link.first)
    assert "Accrued benefit" in text and "1,321.93" in text
    assert_accessible(page)
    _shot(page, "portal-statement-db")

    page.get_by_role("link", name="Retirement modeler").click()
    page.get_by_text("Every month from the earliest date to age 70").click()  # the USWDS label is the target
    assert page.get_by_label("Every month from the earliest date to age 70").is_checked()
    page.get_by_role("button", name="Calculate").click()
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("heading", name="Every form of payment, side by side")).to_be_visible()
    assert page.locator("svg[role=img] title").text_content().startswith("Monthly benefit by age")
    expect(page.get_by_role("columnheader", name="50% joint and survivor")).to_be_visible()
    assert_accessible(page)
    _shot(page, "portal-modeler", full=False)

    # One start date: each form explained, its calculation loaded only when asked for (htmx).
    run_url = page.url
    page.locator("#grid-table tbody th a").first.click()
    page.wait_for_load_state("networkidle")
    assert page.locator(".app-trace").count() == 0  # nothing repeated up front
    page.locator("#form-js50 .app-trace-link").click()
    expect(page.locator("#trace-js50 .app-trace")).to_be_visible()
    assert page.locator(".app-trace").count() == 1
    assert "Your spouse receives 50% of your payment" in page.locator("#form-js50").text_content()
    assert_accessible(page)
    _shot(page, "portal-estimate", full=False)
    page.goto(run_url)

    page.get_by_role("button", name="Save as a dated quote").click()
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("heading", name="Retirement quote of", exact=False)).to_be_visible()
    page.get_by_role("button", name="Print as a PDF").click()
    page.wait_for_load_state("networkidle")
    quote = SavedQuote.objects.get()
    text = _pdf_text(page, page.get_by_role("link", name="Download the quote PDF", exact=False))
    first = quote.result["estimates"][0]["forms"]["js50"]
    assert first["monthly"] in text and f"engine {quote.engine_version}" not in text  # metadata only
    assert_accessible(page)
    _shot(page, "portal-quote", full=False)


def test_phone_width_dashboard_and_modeler_form(browser, live_server, demo):
    context = browser.new_context(viewport={"width": 375, "height": 800}, base_url=live_server.url)
    page = context.new_page()
    try:
        login(page, "pat@demo.test")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        assert_accessible(page)
        _shot(page, "portal-dashboard-phone")
        page.goto(
            page.locator("#plan-carver-db")
            .get_by_role("link", name="Model retirement dates")
            .get_attribute("href")
        )
        page.get_by_role("textbox", name="Start dates").fill("2027-01-15")
        page.get_by_role("button", name="Calculate").click()
        expect(page.get_by_text("must be the first day of a month")).to_be_visible()
        assert_accessible(page)
    finally:
        context.close()
