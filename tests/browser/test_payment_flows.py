"""In a browser, one plan of each kind from claim to posted payment (issues 22 and 27): the committee
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
from decimal import Decimal

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from accounts.models import User
from benefits.demo.loader import ADMIN_TOTP_SECRET, COMMITTEE_TOTP_SECRET
from benefits.models import PlanMembership
from elections.claims import services as claims
from elections.models import Claim, ClaimState
from payments.models import Payment
from tests.browser.conftest import assert_accessible, login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

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


# ------------------------------------------------------------------------------ cash balance (issue 27)


def test_quaker_lump_sum_by_direct_rollover_with_its_402f_notice_and_w4r(page, demo):
    # QCB-20001 (Ana Silva) left Quaker City in 2014, unmarried: no spouse's consent (§417(a)(2)).
    user, m = person("QCB-20001", "quaker-cash-balance")
    claim = file_claim(user, m, "lump_sum", {"commencement_date": PAY_DATE})
    committee_approves(page, claim, "Plan §5.4, §6.2")

    login(page, user.email)
    read_explanation_and_choose(page, claim, "Lump sum")
    # Payment and taxes: a single sum is an eligible rollover distribution (Code §402(c)(4)); the
    # page asks direct payment or direct rollover and, for what is paid to her, Form W-4R.
    body = page.locator("main").inner_text()
    assert "eligible rollover distribution" in body and "Form W-4R" in body
    choose(page, "Direct rollover to an IRA or another plan")
    page.get_by_label("Where should the rollover go?").select_option("ira")
    page.get_by_label("Name of the IRA trustee or plan").fill("Example Trust Company")
    page.get_by_label("Account number at that trustee or plan").fill("IRA-00987654")
    assert_accessible(page)
    submit(page, "Continue")
    sign(page)
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    payment = Payment.objects.get(claim=claim)
    assert (payment.method, payment.first_pay_date, payment.state) == (
        "direct_rollover",
        PAY_DATE,
        "scheduled",
    )
    # The §402(f) notice is on her documents page, issued at least 30 days before the payment.
    page.goto("/")
    page.get_by_role("link", name=re.compile("documents")).first.click()
    expect(page.get_by_text(re.compile("rollover", re.I)).first).to_be_visible()
    assert_accessible(page)
    page.goto("/payments/")
    mine = page.locator("main").inner_text()
    assert "scheduled for January 1, 2027" in mine.replace("Scheduled", "scheduled")
    assert "Paid on" not in mine
    logout(page)

    rows = pay_date_confirmed(page, demo, "quaker")
    (row,) = [r for r in rows if r["payment"] == str(payment.pk)]
    # Code §3405(c)(2): no withholding on a direct rollover; the whole sum goes to the IRA.
    gross = Decimal(row["gross"])
    assert (row["method"], Decimal(row["withholding"]), Decimal(row["net"])) == (
        "direct_rollover",
        Decimal("0.00"),
        gross,
    )
    assert gross == payment.gross and "Example Trust Company" in row["rollover_to"]

    mine = my_payments(page, user.email)
    assert "Paid on January 1, 2027" in mine
    assert f"${gross:,.2f}" in mine and "$0.00" in mine  # gross, nothing withheld, net
    assert "ending 7654" in mine and "IRA-00987654" not in mine  # the account masked
    screenshot(page, "quaker-paid")
    page.goto("/")
    assert "Paid on January 1, 2027" in page.locator("main").inner_text()
    assert_accessible(page)
    payment.refresh_from_db()
    claim.refresh_from_db()
    assert payment.state == "paid" and claim.state == ClaimState.PAID


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


# ------------------------------------------------------------------------------------------ 401(k)


def test_carver_401k_age_59_half_withdrawal_paid_and_posted_to_the_statement(page, demo, tmp_path):
    pat = User.objects.get(email="pat@demo.test")
    m = PlanMembership.objects.get(participant__user=pat, plan__key="carver-401k")
    from benefits.engine_adapter import membership_calculate

    before = Decimal(membership_calculate(m, as_of=AS_OF)["account"]["vested_balance"])

    # Pat files the withdrawal on the claim page: how to pay it and Form W-4R (issue 27).
    login(page, "pat@demo.test")
    page.goto(f"/claims/new/{m.pk}/withdrawal_59half/")
    page.get_by_label("Amount (dollars)").fill("10000")
    page.get_by_label("Requested payment date").fill(PAY_DATE.isoformat())
    page.get_by_label("How to pay the withdrawal").select_option("direct_payment")
    page.locator("input[name=w4r_rate]").fill("25")
    assert_accessible(page)
    submit(page, "Submit the claim")
    claim = Claim.objects.get(membership=m, claim_type="withdrawal_59half")
    logout(page)

    # §9.5: any one member of the Committee decides a 401(k) claim.
    claims.claim_start_review(claim=claim, actor=User.objects.get(email="committee@demo.test"), on=AS_OF)
    committee_approves(page, claim, "Plan §7.3")

    # §7.2(a): a married participant's withdrawal waits for the spouse's consent, then is scheduled.
    login(page, "pat@demo.test")
    page.goto(f"/claims/{claim.pk}/")
    upload_consent(page, tmp_path)
    logout(page)
    admin_verifies(page, "Pat Morgan")
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    assert claim.next_step == "Scheduled for January 1, 2027: Age 59½ withdrawal (401(k)), $10,000.00."

    rows = pay_date_confirmed(page, demo, "k401")
    (row,) = [r for r in rows if r["participant_number"] == "CFS-10001"]
    # Code §3405(c)(1) and Form W-4R: Pat chose 25% (at least 20%) of $10,000 = $2,500; net $7,500.
    assert (row["kind"], row["gross"], row["withholding"], row["net"]) == (
        "single_sum",
        "10000.00",
        "2500.00",
        "7500.00",
    )

    mine = my_payments(page, "pat@demo.test")
    assert "Paid on January 1, 2027" in mine and "$2,500.00" in mine and "$7,500.00" in mine
    # The statement for the period with the pay date shows the withdrawal; the balance falls by it.
    page.goto(f"/benefits/participants/{m.participant_id}/plans/carver-401k/statement/")
    statement = page.locator("main").inner_text()
    assert "$10,000.00" in statement
    assert_accessible(page)
    screenshot(page, "k401-statement-after")
    after = Decimal(membership_calculate(m, as_of=date(2027, 1, 4))["account"]["vested_balance"])
    assert before - after == Decimal("10000.00")
    page.goto("/")
    assert "Paid on January 1, 2027" in page.locator("main").inner_text()


# ---------------------------------------------------------------------------------- defined benefit


def test_carver_db_annuity_in_pay_after_the_first_payment_is_confirmed(page, demo, tmp_path):
    # The demo's own claim: pat's Carver DB benefit from January 1, 2027, approved by the committee
    # (load_demo files and decides it with the services) and waiting for his election.
    claim = Claim.objects.get(participant__user__email="pat@demo.test", membership__plan__key="carver-db")
    assert claim.state == ClaimState.ELECTION_REQUIRED and claim.details["commencement_date"] == "2027-01-01"

    login(page, "pat@demo.test")
    read_explanation_and_choose(page, claim, "Single life annuity")
    choose(page, "Direct deposit to my bank account")
    page.get_by_label("Bank routing number (9 digits)").fill("011000015")
    page.locator("input[name=account_number]").fill("12345678")
    page.locator("select[name=account_type]").select_option("checking")
    page.get_by_label("Federal income tax withholding on monthly payments (Form W-4P)").select_option(
        "married"
    )
    submit(page, "Continue")
    sign(page)
    # §417(a)(2): waiving the joint and survivor annuity needs the spouse's notarized consent.
    upload_consent(page, tmp_path)
    logout(page)
    admin_verifies(page, "Pat Morgan: Single life annuity")
    payment = Payment.objects.get(claim=claim)
    assert (payment.kind, payment.frequency, payment.first_pay_date) == ("annuity", "monthly", PAY_DATE)
    monthly = payment.gross

    login(page, "pat@demo.test")
    page.goto("/")
    assert "In pay since" not in page.locator("main").inner_text()  # not before the agent confirms
    logout(page)

    rows = pay_date_confirmed(page, demo, "db")
    (row,) = [r for r in rows if r["payment"] == str(payment.pk)]
    assert (row["kind"], Decimal(row["gross"])) == ("annuity", monthly)
    assert Decimal(row["net"]) == Decimal(row["gross"]) - Decimal(row["withholding"])

    mine = my_payments(page, "pat@demo.test")
    assert f"${monthly:,.2f}" in mine and "January 1, 2027" in mine
    page.goto("/")
    dashboard = page.locator("main").inner_text()
    assert f"In pay since January 1, 2027, ${monthly:,.2f} a month" in dashboard, dashboard[:1500]
    assert_accessible(page)
    screenshot(page, "db-in-pay-dashboard")
    payment.refresh_from_db()
    claim.refresh_from_db()
    assert payment.state == "in_pay" and claim.state == ClaimState.IN_PAY


# --------------------------------------------------------------------------------------------- ESOP


def test_fairport_esop_distribution_paid_and_shown(page, demo):
    # FSB-40002 (Paul Nguyen) left Fairport on July 14, 2023, 80% vested, unmarried: his vested account
    # is distributable after leaving, with no spouse's consent.
    user, m = person("FSB-40002", "fairport-esop")
    claim = file_claim(user, m, "esop_distribution", {"commencement_date": PAY_DATE})
    committee_approves(page, claim, "Plan §10.1")

    login(page, user.email)
    page.goto(f"/claims/{claim.pk}/")
    submit(page, "Read the explanation and make my election")
    choose(page, "I have read this explanation of my choices, my rights and the dates.")
    submit(page, "Continue to choose a form of payment")
    first = page.locator("input[name=form]").first
    page.locator(f"label[for='{first.get_attribute('id')}']").click()
    submit(page, "Continue")
    choose(page, "Direct deposit to my bank account")
    page.get_by_label("Bank routing number (9 digits)").fill("011000015")
    page.locator("input[name=account_number]").fill("12345678")
    page.locator("select[name=account_type]").select_option("checking")
    if page.locator("input[name=w4r_rate]").count():
        page.locator("input[name=w4r_rate]").fill("20")
    assert_accessible(page)
    submit(page, "Continue")
    sign(page)
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED, claim.next_step
    payment = Payment.objects.get(claim=claim)
    assert payment.first_pay_date == PAY_DATE
    logout(page)

    rows = pay_date_confirmed(page, demo, "esop")
    (row,) = [r for r in rows if r["payment"] == str(payment.pk)]
    assert Decimal(row["net"]) == Decimal(row["gross"]) - Decimal(row["withholding"])
    # Plan §9.6, §10.6: his 334.7439 vested shares ($3,816.08) go as 334 shares ($3,807.60) and the fraction
    # in cash ($8.48); the 20% withholding is limited to that cash (Code §3405(e)(8)).
    assert (row["gross"], row["withholding"], row["shares"]) == ("3816.08", "8.48", "334")

    mine = my_payments(page, user.email)
    assert "January 1, 2027" in mine and f"${Decimal(row['gross']):,.2f}" in mine
    assert "ending 5678" in mine and "12345678" not in mine
    page.goto(
        f"/benefits/participants/{m.participant_id}/plans/fairport-esop/statement/?start=2026-01-01&end=2027-01-01"
    )
    statement = page.locator("main").inner_text()
    assert "Distributions" in statement and "-334.7439" in statement and "-$3,816.08" in statement
    assert_accessible(page)
    screenshot(page, "esop-statement-after")
    page.goto("/")
    assert (
        "Paid on January 1, 2027" in page.locator("main").inner_text()
        or "In pay since" in page.locator("main").inner_text()
    )
    assert_accessible(page)
    payment.refresh_from_db()
    assert payment.state in ("paid", "in_pay")
