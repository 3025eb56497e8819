"""Payment flows in a browser (one file per plan, so the parallel run can spread them): one plan of each kind from claim to posted payment (issues 22 and 27): the committee
decides the claim, the participant reads the explanation and elects (the spouse's consent where the
plan needs it), the administrator exports the pay date's instruction file and imports the paying
agent's confirmation, and only then do the participant's payments page, statement and dashboard read
"paid". The participants' data is set up with the services; the pages that matter are driven here.

The demo is loaded on November 21, 2026; the payments are due on January 1, 2027 (41 days later, past
the 30 days the §402(f) notice and the §417(a)(3) explanation must come before a payment, Treas. Reg.
§1.402(f)-1 Q&A-2 and §1.417(e)-1(b)(3)); the clock moves to January 4, 2027 before the paying agent's
file is imported, since a payment is confirmed once it is made.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from accounts.models import User
from benefits.demo.loader import ADMIN_TOTP_SECRET, COMMITTEE_TOTP_SECRET
from benefits.models import PlanMembership
from elections.claims import services as claims
from elections.models import Claim, ClaimState
from tests.browser.conftest import assert_accessible, login, screenshot

AS_OF = date(2026, 11, 21)
PAY_DATE = date(2027, 1, 1)
PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)


@pytest.fixture
def demo(db, settings, tmp_path, time_machine):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    time_machine.move_to("2026-11-21 15:00:00", tick=True)
    call_command("load_demo", as_of=AS_OF)
    return time_machine


def person(number: str, plan: str) -> tuple[User, PlanMembership]:
    """A login for a demo participant who has none (the office would link it)."""
    m = PlanMembership.objects.select_related("participant").get(
        participant__participant_number=number, plan__key=plan
    )
    from allauth.account.models import EmailAddress

    user = User.objects.create_user(email=f"{number.lower()}@flow.test", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    m.participant.user = user
    m.participant.save(update_fields=["user"])
    return user, m


def file_claim(user, m, claim_type: str, details: dict) -> Claim:
    claim = claims.claim_file(
        filer=user, membership=m, claim_type=claim_type, details=details, statement="Please pay me.", on=AS_OF
    )
    claims.claim_start_review(claim=claim, actor=User.objects.get(email="committee@demo.test"), on=AS_OF)
    return claim


def logout(page) -> None:
    page.get_by_role("button", name="Sign out").first.click()
    page.wait_for_load_state("networkidle")


def choose(page, label: str) -> None:
    """USWDS hides radios and checkboxes off-screen on purpose: click the label, as a person does."""
    page.locator("label", has_text=label).first.click()


def submit(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_load_state("networkidle")


def committee_approves(page, claim: Claim, provisions: str) -> None:
    """The committee member approves on the claim page; where the plan decides by a majority of its
    seats, the second member's vote is recorded with the service (the same decision)."""
    login(page, "committee@demo.test", totp_secret=COMMITTEE_TOTP_SECRET)
    page.goto(f"/claims/{claim.pk}/")
    page.get_by_label("Decision", exact=True).select_option("approved")
    page.get_by_label("Reasons", exact=True).fill("The claim meets the plan's conditions.")
    page.get_by_label("Plan provisions relied on").fill(provisions)
    assert_accessible(page)
    submit(page, "Record the decision and send the notice")
    logout(page)
    claim.refresh_from_db()
    if claim.state == ClaimState.UNDER_REVIEW:
        claims.claim_decide(
            claim=claim,
            actor=User.objects.get(email="committee2@demo.test"),
            outcome="approved",
            reasons="",
            provisions=provisions,
            on=AS_OF,
        )
        claim.refresh_from_db()
    assert claim.state == ClaimState.ELECTION_REQUIRED, claim.state


def read_explanation_and_choose(page, claim: Claim, form_label: str) -> None:
    page.goto(f"/claims/{claim.pk}/")
    start = page.get_by_role("button", name="Read the explanation and make my election", exact=True)
    assert start.count(), page.locator("main").inner_text()[:1500]
    submit(page, "Read the explanation and make my election")
    assert_accessible(page)
    choose(page, "I have read this explanation of my choices, my rights and the dates.")
    submit(page, "Continue to choose a form of payment")
    choose(page, form_label)
    submit(page, "Continue")


def sign(page) -> None:
    assert_accessible(page)
    page.get_by_label("Your password").fill(PASSWORD)
    choose(page, "I have read the explanation and I make this election.")
    submit(page, "Sign my election")


def pay_date_confirmed(page, demo, name: str) -> list[dict]:
    """On January 4, 2027 the administrator exports the January 1 pay date's instruction file and
    imports the paying agent's confirmation of every row. Returns the instruction rows."""
    demo.move_to("2027-01-04 10:00:00", tick=True)
    login(page, "admin@demo.test", totp_secret=ADMIN_TOTP_SECRET)
    page.goto(f"/payments/staff/?date={PAY_DATE.isoformat()}")
    assert_accessible(page)
    make = page.get_by_role("button", name="Make the instruction file", exact=True)
    assert make.count(), page.url + page.locator("main").inner_text()[:1500]
    submit(page, "Make the instruction file")
    expect(page.get_by_text("Instruction file ready for January 1, 2027")).to_be_visible()
    screenshot(page, f"{name}-pay-date")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the instruction file").click()
    with open(download.value.path(), encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["payment", "pay_date", "status", "date", "reference", "gross", "reason"])
    for r in rows:
        w.writerow([r["payment"], r["pay_date"], "paid", r["pay_date"], f"AG-{r['payment']}", r["gross"], ""])
    page.get_by_role("link", name="Data imports").first.click()
    page.select_option("select[name=kind]", "payment_confirmations")
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "confirmations.csv", "mimeType": "text/csv", "buffer": out.getvalue().encode()}],
    )
    page.get_by_role("button", name="Check the file").click()
    page.wait_for_load_state("networkidle")
    assert_accessible(page)
    page.get_by_role("button", name=re.compile(r"^Import \d+ rows?$")).click()
    page.wait_for_load_state("networkidle")
    expect(page.get_by_text("Imported confirmations.csv")).to_be_visible()
    logout(page)
    return rows


def my_payments(page, user_email: str) -> str:
    login(page, user_email)
    page.goto("/payments/")
    assert_accessible(page)
    return page.locator("main").inner_text()


def upload_consent(page, tmp_path) -> None:
    """The spouse's consent, signed before a notary, uploaded from the claim or election page."""
    scan = tmp_path / "signed-consent.pdf"
    scan.write_bytes(b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
    page.locator("input[type=file][name=document]").set_input_files(str(scan))
    page.get_by_label("Date your spouse signed").fill(AS_OF.isoformat())
    choose(page, "A notary public")
    page.get_by_label("Witness's full name").fill("Alex Rivera")
    page.get_by_label("Notary's commission number").fill("01RI6123456")
    page.get_by_label("State of commission (2 letters)").fill("NY")
    page.get_by_label("Commission expires").fill("2029-06-30")
    choose(page, "In person")
    assert_accessible(page)
    submit(page, "Upload the consent")
    expect(page.get_by_text("The plan administrator will verify it").first).to_be_visible()


def admin_verifies(page, link: str) -> None:
    login(page, "admin@demo.test", totp_secret=ADMIN_TOTP_SECRET)
    page.get_by_role("link", name="Consents").first.click()
    page.get_by_role("link", name=re.compile(link)).first.click()
    assert_accessible(page)
    submit(page, "Verify: the form is complete and correct")
    logout(page)
