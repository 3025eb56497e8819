"""In a browser: Pat (married) sees the 401(k) plan's default beneficiary, names a child instead, and
uploads the spouse's witnessed consent; the new designation waits until the administrator verifies the
consent, and only then is it in effect. Every page is checked with axe, and at phone width."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from elections.benefit_elections.models import BeneficiaryDesignation
from tests.browser.conftest import assert_accessible, login, screenshot
from tests.browser.test_election_flow import PDF, _login_admin, _logout, choose, demo, fits_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["demo"]


def test_beneficiary_change_with_consent_verification(page, demo, tmp_path):
    consent_scan = tmp_path / "signed-consent.pdf"
    consent_scan.write_bytes(PDF)

    login(page, "pat@demo.test")
    page.get_by_role("link", name="My beneficiaries").first.click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("No beneficiary is named").first.is_visible()
    assert page.get_by_text("Your spouse, if you are married when you die").first.is_visible()
    assert_accessible(page)
    fits_a_phone(page, "beneficiaries")
    page.get_by_role("link", name="Change beneficiaries for this plan").first.click()
    page.wait_for_load_state("networkidle")
    assert_accessible(page)
    fits_a_phone(page, "beneficiaries-change")
    page.get_by_label("Beneficiary 1: full name (of the person, or of the trust)").fill("Sam Morgan")
    page.get_by_label("Beneficiary 1: relationship to you (a person)").select_option("child")
    page.get_by_label("Beneficiary 1: share (percent)").fill("100")
    page.get_by_label("Beneficiary 1: date of birth (a person)").fill("1995-04-02")
    page.get_by_label("Beneficiary 1: mailing address (a person)").fill("12 Elm Street, Harlem, NY 10027")
    page.get_by_label("Your password").fill("demo-pass-2026")
    choose(page, "I name these beneficiaries for this plan")
    page.get_by_role("button", name="Sign the new designation").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("They take effect when your spouse's consent is verified").is_visible()
    designation = BeneficiaryDesignation.objects.get()
    assert designation.state == BeneficiaryDesignation.State.AWAITING_CONSENT
    assert page.get_by_role("link", name="Print the consent form (PDF)").is_visible()
    assert page.get_by_text("No beneficiary is named").first.is_visible()  # nothing in effect yet
    screenshot(page, "beneficiaries-waiting")

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
    designation.refresh_from_db()
    assert designation.state == BeneficiaryDesignation.State.AWAITING_CONSENT
    fits_a_phone(page, "beneficiaries-uploaded")
    _logout(page)

    _login_admin(page)
    page.get_by_role("link", name="Consents").first.click()
    assert_accessible(page)
    page.get_by_role("link", name="Pat Morgan: new beneficiaries").first.click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("Sam Morgan (child), 100%").is_visible()
    assert_accessible(page)
    screenshot(page, "beneficiaries-consent-review")
    page.get_by_role("button", name="Verify: the form is complete and correct").click()
    page.wait_for_load_state("networkidle")
    designation.refresh_from_db()
    assert designation.state == BeneficiaryDesignation.State.EFFECTIVE
    _logout(page)

    login(page, "pat@demo.test")
    page.get_by_role("link", name="My beneficiaries").first.click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("In effect now").first.is_visible()
    assert page.locator("table").get_by_text("Sam Morgan").first.is_visible()
    assert_accessible(page)
    fits_a_phone(page, "beneficiaries-in-effect")
    page.goto(reverse("elections:documents", args=[designation.participant_id]))
    assert page.get_by_text("Signed spousal consent for beneficiary designation version 1").is_visible()
    assert_accessible(page)
