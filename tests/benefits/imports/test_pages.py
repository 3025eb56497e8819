"""The administrator's flow in the web app: upload a year of hours and pay, read the errors, fix the
file, import it, and see the participant's vesting change; market-rate status; the participant's sentence."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

pytestmark = pytest.mark.django_db

HOURS = "participant_number,plan,period_year,hours\n"
PAY = "participant_number,plan,year,amount\n"


def _post_upload(client, kind: str, text: str, name: str):
    resp = client.post(
        reverse("benefits:imports_upload"), {"kind": kind, "file": SimpleUploadedFile(name, text.encode())}
    )
    assert resp.status_code == 302, resp.content[:500]
    return resp["Location"]


def _upload(client, kind: str, text: str, name: str):
    """Upload, and let the background check run (every upload's check is a job: issue 26)."""
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        return _post_upload(client, kind, text, name)


def test_upload_preview_fix_import_and_vesting_changes(
    member, admin_user, staff_client, django_capture_on_commit_callbacks
):
    client = staff_client(admin_user)
    vesting_url = reverse("benefits:plan_vesting", args=[member.participant.pk, "fairport-esop"])
    page = client.get(vesting_url).content.decode()
    assert "20%" in page  # Fairport §9.1: 2 Vesting Years

    # A year of hours with a typo (20800 hours) and an unknown participant: refused with both errors.
    bad = (
        HOURS
        + "FSB-77001,fairport-esop,2023,2080\nFSB-77001,fairport-esop,2024,20800\nFSB-79999,fairport-esop,2024,2080\n"
    )
    detail = _upload(client, "hours", bad, "hours-2024.csv")
    page = client.get(detail).content.decode()
    assert "hours must be between 0 and 8,784 (got 20,800)." in page
    assert "no participant FSB-79999" in page
    resp = client.post(detail + "apply/", follow=True)
    assert "nothing was imported" in resp.content.decode()
    assert member.hours.count() == 2

    # Fixed: imported whole, and the participant's vesting follows (4 Vesting Years: 60%).
    good = HOURS + "FSB-77001,fairport-esop,2023,2080\nFSB-77001,fairport-esop,2024,2080\n"
    detail = _upload(client, "hours", good, "hours-2024-fixed.csv")
    page = client.get(detail).content.decode()
    assert "Import 2 rows" in page
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(detail + "apply/", follow=True)
    assert "this page shows the result when it is done" in resp.content.decode()
    page = client.get(detail).content.decode()
    assert "Imported hours-2024-fixed.csv: 2 new, 0 changed, 0 unchanged" in page
    pay = _upload(client, "compensation", PAY + "FSB-77001,fairport-esop,2024,51000.00\n", "pay-2024.csv")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(pay + "apply/")
    assert member.compensation.get(year=2024).amount == 51000
    page = client.get(vesting_url).content.decode()
    assert "60%" in page

    # The preview of a changed row shows its diff; rolling the hours back restores 20%.
    changed = _upload(client, "hours", HOURS + "FSB-77001,fairport-esop,2024,900\n", "hours-fix.csv")
    page = client.get(changed).content.decode()
    assert "FSB-77001 fairport-esop 2024" in page and "2080" in page and "900" in page


def test_market_rates_page_flags_a_missing_series(plans, admin_user, staff_client):
    from benefits.models import MarketRate

    client = staff_client(admin_user)
    MarketRate.objects.create(
        series="prime_rate", period=date(2026, 3, 1), percent="7.5", source="WSJ (test)"
    )
    page = client.get(reverse("benefits:market_rates") + "?on=2026-03-15").content.decode()
    # Quaker §4.4(c): Plan Year 2026 credits interest at November 2025's 10-year yield, which is missing.
    assert "needs the 10-year Treasury yield (November average) for November 2025" in page
    # Carver 401(k) §8.3: the prime rate of March 2026 is loaded, so it is not flagged.
    assert "needs the Prime rate" not in page
    assert "March 2026" in page and "7.5%" in page and "None loaded" in page
    page = client.get(reverse("benefits:market_rates") + "?on=2026-04-15").content.decode()
    assert "needs the Prime rate for April 2026" in page


def test_every_file_is_checked_in_the_background_with_progress(
    member, admin_user, staff_client, django_capture_on_commit_callbacks, settings
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    client = staff_client(admin_user)
    rows = "".join(f"FSB-77001,fairport-esop,{y},2080\n" for y in range(2023, 2026))
    # A file of three rows is checked in the background too: the request never waits on a check.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        detail = _post_upload(client, "hours", HOURS + rows, "big.csv")
    page = client.get(detail).content.decode()
    assert 'id="import-progress"' in page and "Being checked" in page
    poll = client.get(detail, headers={"HX-Request": "true"})
    assert poll.status_code == 200 and b"<progress" in poll.content
    for callback in callbacks:
        callback()  # the check task
    poll = client.get(detail, headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll["HX-Refresh"] == "true"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(detail + "apply/")
    assert member.hours.filter(period_year__in=(2023, 2024, 2025)).count() == 3


def test_participant_sees_a_sentence_instead_of_a_missing_loan_rate(client):
    """Carver 401(k) §8.3 sets the loan rate from the prime rate of the month: without it, a sentence."""
    from django.core.management import call_command

    from accounts.models import User
    from benefits.models import MarketRate, PlanMembership
    from benefits.services import today

    call_command("load_demo", verbosity=0)
    pat = User.objects.get(email="pat@demo.test")
    membership = PlanMembership.objects.get(participant__user=pat, plan__key="carver-401k")
    client.force_login(pat)
    url = reverse("elections:claim_new", args=[membership.pk, "loan"])
    page = client.get(url).content.decode()
    assert "Loan rate for requests in" in page
    MarketRate.objects.filter(series="prime_rate", period=today().replace(day=1)).delete()
    page = client.get(url).content.decode()
    assert f"The prime rate for {today():%B %Y} has not been published to this site yet" in page
    assert "Loan rate for requests in" not in page
