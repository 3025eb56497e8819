"""In a browser: the administrator issues a batch of explanations; Pat (married) reads his, elects a
single life annuity waiving the joint and survivor annuity, and uploads his spouse's witnessed consent;
the election waits until the administrator verifies the consent, and only then is the benefit in pay
on Pat's dashboard. Every page is checked with axe."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command

from benefits.demo.loader import ADMIN_TOTP_SECRET
from elections.benefit_elections.models import Election, Notice
from elections.models import Claim, ClaimState
from tests.browser.conftest import assert_accessible, login, screenshot
from tests.browser.sweep import OVERFLOW_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date.today())  # noqa: DTZ011 - the demo's own "today"


def _login_admin(page) -> None:
    """A TOTP code is accepted once: a second login takes the next 30-second code (see TotpClock)."""
    login(page, "admin@demo.test", totp_secret=ADMIN_TOTP_SECRET)


def fits_a_phone(page, name: str) -> None:
    """At phone width nothing sticks out of the screen (tables scroll in their own box), axe passes."""
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(OVERFLOW_JS) == [], name
    assert_accessible(page)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size({"width": 1280, "height": 900})


def choose(page, label: str) -> None:
    """USWDS hides radio and checkbox inputs off-screen on purpose: click their label, as a person does."""
    page.locator("label", has_text=label).first.click()


def _logout(page) -> None:
    page.get_by_role("button", name="Sign out").first.click()
    page.wait_for_load_state("networkidle")


def test_explanation_election_consent_verification_in_pay(page, demo, tmp_path):
    consent_scan = tmp_path / "signed-consent.pdf"
    consent_scan.write_bytes(PDF)

    # The administrator issues the explanations for approved claims awaiting an election.
    _login_admin(page)
    page.get_by_role("link", name="Notices").first.click()
    assert_accessible(page)
    page.get_by_label("Plan").first.select_option("carver-db")
    choose(page, "Approved claims awaiting an election")
    page.get_by_role("button", name="Issue the batch").click()
    page.wait_for_load_state("networkidle")
    page.get_by_text("Finished").first.wait_for()
    assert page.locator("progress").first.get_attribute("value") == page.locator(
        "progress"
    ).first.get_attribute("max")
    assert_accessible(page)
    screenshot(page, "elections-batch")
    fits_a_phone(page, "elections-batch")
    _logout(page)

    # Pat reads the explanation from the claim and elects a single life annuity.
    claim = Claim.objects.get(participant__user__email="pat@demo.test", state=ClaimState.ELECTION_REQUIRED)
    notice = Notice.objects.get(participant=claim.participant)
    login(page, "pat@demo.test")
    page.goto(f"/claims/{claim.pk}/")
    page.get_by_role("button", name="Read the explanation and make my election").click()
    page.wait_for_load_state("networkidle")
    # The election begins with the explanation itself; Pat confirms having read it.
    assert page.get_by_role("heading", name="Read your explanation first").is_visible()
    assert page.get_by_text("Your right to wait (to defer)").first.is_visible()
    assert_accessible(page)
    screenshot(page, "elections-step-explanation")
    choose(page, "I have read this explanation of my choices, my rights and the dates.")
    page.get_by_role("button", name="Continue to choose a form of payment").click()
    page.wait_for_load_state("networkidle")
    assert_accessible(page)
    screenshot(page, "elections-step-form")
    fits_a_phone(page, "elections-step-form")
    page.get_by_role("link", name="Read the explanation again").click()
    page.wait_for_load_state("networkidle")
    life = next(r for r in notice.content["forms"] if r["form"] == "life")
    assert page.get_by_text(f"${float(life['monthly']):,.2f}").first.is_visible()
    assert page.get_by_text("approximately equal in value").first.is_visible()
    assert_accessible(page)
    screenshot(page, "elections-explanation")
    fits_a_phone(page, "elections-explanation")
    page.go_back()
    choose(page, f"Single life annuity: ${float(life['monthly']):,.2f} a month")
    page.get_by_role("button", name="Continue").click()
    choose(page, "Direct deposit to my bank account")
    page.get_by_label("Bank routing number (9 digits)").fill("011000015")
    page.get_by_label("Account number").fill("12345678")
    page.get_by_label("Account type").select_option("checking")
    page.get_by_label("Federal income tax withholding on monthly payments (Form W-4P)").select_option(
        "married"
    )
    assert_accessible(page)
    page.get_by_role("button", name="Continue").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("Your spouse's consent is needed").is_visible()
    assert_accessible(page)
    screenshot(page, "elections-review")
    page.get_by_label("Your password").fill("demo-pass-2026")
    choose(page, "I have read the explanation and I make this election.")
    page.get_by_role("button", name="Sign my election").click()
    page.wait_for_load_state("networkidle")
    election = Election.objects.get(participant=claim.participant)
    assert election.state == Election.State.AWAITING_CONSENT and election.needs_consent

    screenshot(page, "elections-signed")
    # The consent form names the form; Pat uploads it signed before a notary.
    assert page.get_by_role("link", name="Print the consent form (PDF)").is_visible()
    page.locator("input[type=file][name=document]").set_input_files(str(consent_scan))
    page.get_by_label("Date your spouse signed").fill(date.today().isoformat())  # noqa: DTZ011
    choose(page, "A notary public")
    page.get_by_label("Witness's full name").fill("Alex Rivera")
    page.get_by_label("Notary's commission number").fill("01RI6123456")
    page.get_by_label("State of commission (2 letters)").fill("NY")
    page.get_by_label("Commission expires").fill("2029-06-30")
    choose(page, "In person")
    assert_accessible(page)
    page.get_by_role("button", name="Upload the consent").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("The plan administrator will verify it").is_visible()
    screenshot(page, "elections-consent-uploaded")
    fits_a_phone(page, "elections-election")
    election.refresh_from_db()
    claim.refresh_from_db()
    assert election.state == Election.State.AWAITING_CONSENT and claim.state == ClaimState.ELECTION_REQUIRED
    page.goto("/")
    assert page.get_by_text("Your benefit payments").count() == 0
    _logout(page)

    # The administrator verifies the consent; only then does the election take effect.
    _login_admin(page)
    page.get_by_role("link", name="Consents").first.click()
    assert_accessible(page)
    page.get_by_role("link", name="Pat Morgan: Single life annuity").first.click()
    assert_accessible(page)
    screenshot(page, "elections-consent-review")
    page.get_by_role("button", name="Verify: the form is complete and correct").click()
    page.wait_for_load_state("networkidle")
    election.refresh_from_db()
    claim.refresh_from_db()
    assert election.state == Election.State.EFFECTIVE and claim.state == ClaimState.PAYMENT_SCHEDULED
    _logout(page)

    # Pat's dashboard shows the benefit's payment, scheduled (not "in pay" before the agent confirms it).
    login(page, "pat@demo.test")
    page.goto("/")
    page.wait_for_load_state("networkidle")
    section = page.locator(".app-in-pay")
    assert section.get_by_text("Single life annuity").first.is_visible()
    assert section.get_by_text(f"${float(life['monthly']):,.2f}").first.is_visible()
    asd = f"{election.asd:%B} {election.asd.day}, {election.asd.year}"
    assert section.get_by_text(f"Scheduled for {asd}").first.is_visible()
    assert_accessible(page)
    screenshot(page, "elections-dashboard-in-pay")
    page.get_by_role("link", name="My documents").first.click()
    page.wait_for_url("**/documents/")  # the click only starts the navigation
    assert page.get_by_text("Signed spousal consent for election").is_visible()
    assert_accessible(page)
    screenshot(page, "elections-documents")
    fits_a_phone(page, "elections-documents")
