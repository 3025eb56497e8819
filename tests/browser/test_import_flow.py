"""The administrator loads a plan year's hours and pay in the browser: the preview shows the errors,
the fixed file imports, and the participant's vesting changes (Fairport ESOP §9.1: 5 Vesting Years
are 80%, 4 are 60%; §2: a Vesting Year needs at least 1,000 Hours of Service)."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from benefits.demo.loader import ADMIN_TOTP_SECRET
from benefits.models import PlanMembership
from tests.browser.conftest import assert_accessible, login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOURS = "participant_number,plan,period_year,hours\n"
PAY = "participant_number,plan,year,amount\n"


@pytest.fixture
def demo(db, settings, tmp_path, time_machine):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    time_machine.move_to("2026-11-21 15:00:00", tick=True)
    call_command("load_demo", as_of=date(2026, 11, 21))


def _upload(page, kind: str, name: str, text: str) -> None:
    page.goto(reverse("benefits:imports_home"))
    page.select_option("select[name=kind]", kind)
    page.set_input_files(
        "input[name=file]", files=[{"name": name, "mimeType": "text/csv", "buffer": text.encode()}]
    )
    page.get_by_role("button", name="Check the file").click()
    page.wait_for_load_state("networkidle")


def test_admin_uploads_a_year_of_hours_and_pay_and_vesting_changes(page, demo):
    member = PlanMembership.objects.get(participant__participant_number="FSB-40005")
    stored = member.hours.get(period_year=2026).hours  # the demo's 2026 hours to November 21
    other = (
        PlanMembership.objects.get(participant__participant_number="FSB-40001")
        .hours.get(period_year=2026)
        .hours
    )
    vesting = reverse("benefits:plan_vesting", args=[member.participant_id, "fairport-esop"])
    login(page, "admin@demo.test", totp_secret=ADMIN_TOTP_SECRET)
    page.goto(vesting)
    expect(page.locator("[data-figure=vested-percent]")).to_have_text("80% vested")

    page.goto(reverse("benefits:imports_home"))
    page.get_by_role("button", name="Hours of Service (hours)").click()  # the columns of one kind
    expect(page.get_by_text("Whole Hours of Service credited in that period")).to_be_visible()
    assert_accessible(page)
    screenshot(page, "import-home")

    # Payroll's 2026 file: a typo (9800 hours) and a participant who is not in the plan.
    _upload(
        page,
        "hours",
        "fairport-hours-2026.csv",
        HOURS
        + f"FSB-40001,fairport-esop,2026,{other}\nFSB-40005,fairport-esop,2026,9800\nFSB-49999,fairport-esop,2026,1200\n",
    )
    expect(page.get_by_role("heading", name="Errors")).to_be_visible()
    expect(page.get_by_text("hours must be between 0 and 8,784 (got 9,800).")).to_be_visible()
    expect(page.get_by_text("no participant FSB-49999")).to_be_visible()
    assert_accessible(page)
    screenshot(page, "import-preview-errors")
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("nothing was imported", exact=False).first).to_be_visible()

    # The fixed file: FSB-40005 worked 980 hours in 2026 (a reduced schedule).
    _upload(
        page,
        "hours",
        "fairport-hours-2026-fixed.csv",
        HOURS + f"FSB-40001,fairport-esop,2026,{other}\nFSB-40005,fairport-esop,2026,980\n",
    )
    expect(page.get_by_text("What this file would do")).to_be_visible()
    expect(page.get_by_role("cell", name="FSB-40005 fairport-esop 2026")).to_be_visible()
    expect(page.get_by_role("cell", name=str(stored), exact=True)).to_be_visible()  # stored, then the file's
    expect(page.get_by_role("cell", name="980", exact=True)).to_be_visible()
    screenshot(page, "import-preview-changes")
    page.get_by_role("button", name="Import 1 row").click()
    expect(
        page.get_by_text("Imported fairport-hours-2026-fixed.csv: 0 new, 1 changed, 1 unchanged")
    ).to_be_visible()
    assert_accessible(page)
    screenshot(page, "import-applied")

    _upload(page, "compensation", "fairport-pay-2026.csv", PAY + "FSB-40005,fairport-esop,2026,30450.00\n")
    page.get_by_role("button", name="Import 1 row").click()
    expect(page.get_by_text("Imported fairport-pay-2026.csv")).to_be_visible()

    page.goto(vesting)
    expect(page.locator("[data-figure=vested-percent]")).to_have_text("60% vested")
    screenshot(page, "import-vesting-after")

    page.goto(reverse("benefits:market_rates"))
    expect(page.get_by_role("heading", name="Each series")).to_be_visible()
    assert_accessible(page)
    screenshot(page, "import-market-rates")
