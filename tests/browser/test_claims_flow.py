"""In a browser: Pat files a claim, the committee denies it with a complete notice, Pat appeals, and the
committee approves on review; every page is checked with axe, every deadline is on the page."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.core.management import call_command

from accounts.models import User
from benefits.demo.loader import COMMITTEE_TOTP_SECRET
from elections.claims import services
from elections.models import Claim, ClaimState
from tests.browser.conftest import assert_accessible, login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date(2026, 11, 21))
    # The demo's own claim holds pat's Carver DB benefit, which starts once (issue 22): this story
    # files its own claim for it.
    from tests.elections.conftest import clear_demo_claims, membership

    clear_demo_claims(membership(User.objects.get(email="pat@demo.test"), "carver-db"))


def _start() -> date:
    d = services.today() + timedelta(days=60)
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def _login_committee(page) -> None:
    """A TOTP code is accepted once: a second login takes the next 30-second code (see TotpClock)."""
    login(page, "committee@demo.test", totp_secret=COMMITTEE_TOTP_SECRET)


def _logout(page) -> None:
    page.get_by_role("button", name="Sign out").first.click()
    page.wait_for_load_state("networkidle")


def test_file_deny_appeal_approve(page, demo, tmp_path):
    evidence = tmp_path / "birth-certificate.png"
    evidence.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)

    # Pat files a claim to start the Carver pension.
    login(page, "pat@demo.test")
    page.get_by_role("link", name="My claims").first.click()
    assert_accessible(page)
    page.get_by_role(
        "link", name=re.compile("Start of benefit payments in Carver Federal Savings Bank Retirement")
    ).click()
    page.get_by_label("Date you want payments to start").fill(_start().isoformat())
    page.get_by_label("Form of payment").select_option("js50")
    page.get_by_label("Your statement of the claim").fill("I will retire and want my pension to start.")
    page.get_by_label("Supporting documents (optional)").set_input_files(str(evidence))
    assert_accessible(page)
    screenshot(page, "claims-file")
    page.get_by_role("button", name="Submit the claim").click()
    page.wait_for_load_state("networkidle")
    claim = Claim.objects.latest("pk")
    received = claim.received_on
    assert page.get_by_text(f"{received + timedelta(days=90):%B %-d, %Y}").first.is_visible()
    assert page.get_by_role("link", name="birth-certificate.png").is_visible()
    assert_accessible(page)
    screenshot(page, "claims-filed")
    _logout(page)

    # The committee starts the review and denies it, with every element of the notice.
    _login_committee(page)
    page.get_by_role("link", name="Claims queue").first.click()
    assert_accessible(page)
    screenshot(page, "claims-queue")
    page.get_by_role("link", name=f"{claim.pk}: Start of benefit payments").click()
    page.get_by_role("button", name="Start the review").click()
    page.wait_for_load_state("networkidle")
    page.get_by_label("Decision", exact=True).select_option("denied")
    page.get_by_label("Reasons", exact=True).fill(
        "Your 1999 hours of service are missing from the payroll file."
    )
    page.get_by_label("Plan provisions relied on").fill("§1.1(H); §13.7(A)")
    page.get_by_label("Material that would perfect the claim, and why").fill(
        "Your 1999 pay stubs, because the hours decide the service credited."
    )
    assert_accessible(page)
    screenshot(page, "claims-decide")
    page.get_by_role("button", name="Record the decision and send the notice").click()
    page.wait_for_load_state("networkidle")
    claim = Claim.objects.latest("pk")
    assert claim.state == ClaimState.DENIED
    assert page.get_by_role("link", name="Notice of denial of your claim").is_visible()
    _logout(page)

    # Pat sees the denial and its appeal deadline, and appeals with a comment and a document.
    login(page, "pat@demo.test")
    page.goto(f"/claims/{claim.pk}/")
    assert page.get_by_text(f"{claim.appeal_by:%B %-d, %Y}").first.is_visible()
    href = page.get_by_role("link", name="Notice of denial of your claim").get_attribute("href")
    pdf = page.request.get(href)
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF-")
    page.get_by_label("Why the decision should change").fill("My 1999 pay stubs are attached.")
    page.get_by_label("Documents for the review (optional)").set_input_files(str(evidence))
    assert_accessible(page)
    screenshot(page, "claims-denied")
    page.get_by_role("button", name="File my appeal").click()
    page.wait_for_load_state("networkidle")
    assert Claim.objects.latest("pk").state == ClaimState.APPEALED
    page.get_by_role("button", name="Request the documents relevant to my claim").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("link", name="Documents relevant to your claim").is_visible()
    _logout(page)

    # The committee reviews the appeal and approves it.
    _login_committee(page)
    page.goto(f"/claims/{claim.pk}/")
    page.get_by_role("button", name="Start the review of the appeal").click()
    page.wait_for_load_state("networkidle")
    page.get_by_label("Decision", exact=True).select_option("approved")
    page.get_by_label("Reasons", exact=True).fill("The pay stubs show 1,040 hours in 1999.")
    page.get_by_label("Plan provisions relied on").fill("§1.1(H)")
    page.get_by_role("button", name="Record the decision and send the notice").click()
    page.wait_for_load_state("networkidle")
    _logout(page)

    # Pat sees the approval, the hand-off to the election, and the whole timeline.
    login(page, "pat@demo.test")
    page.goto(f"/claims/{claim.pk}/")
    claim = Claim.objects.latest("pk")
    assert claim.state == ClaimState.ELECTION_REQUIRED
    assert page.get_by_text(
        "Election required: §417(a)(3) explanation and spousal consent"
    ).first.is_visible()
    assert page.get_by_role("link", name="Decision on review: claim approved").is_visible()
    for label in (
        "Claim filed",
        "Review started",
        "Claim denied",
        "Appeal filed",
        "Approved on review",
        "Handed to the election process",
    ):
        assert page.locator(".app-timeline").get_by_text(label).first.is_visible(), label
    assert_accessible(page)
    screenshot(page, "claims-approved")
    page.set_viewport_size({"width": 375, "height": 800})
    assert_accessible(page)
    screenshot(page, "claims-approved-375")
    assert claim.events.count() == 8
