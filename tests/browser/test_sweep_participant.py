"""The accessibility sweep (tests/browser/sweep.py) of a participant's pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import login
from tests.browser.sweep import PHONE, Sweep

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_participant_pages(page, sweep_data):
    sweep = Sweep(page)
    login(page, "pat@demo.test")
    pid = sweep_data.pid
    pages = [("dashboard", reverse("benefits:dashboard"))]
    for key in ("carver-db", "carver-401k", "carver-esop"):
        pages.append((f"vesting {key}", reverse("benefits:plan_vesting", args=[pid, key])))
        pages.append((f"statement {key}", reverse("benefits:plan_statement", args=[pid, key])))
    pages += [
        ("modeler", reverse("benefits:plan_modeler", args=[pid, "carver-db"])),
        ("modeler result", reverse("benefits:modeler_run", args=[pid, sweep_data.run_id])),
        ("modeler estimate", reverse("benefits:modeler_estimate", args=[pid, sweep_data.run_id, 0])),
        ("quote", reverse("benefits:quote_detail", args=[pid, sweep_data.quote_id])),
        ("quote estimate", reverse("benefits:quote_estimate", args=[pid, sweep_data.quote_id, 0])),
        ("claims home", reverse("elections:claims_home")),
    ]
    page.goto(reverse("elections:claims_home"))
    offered = page.locator("a[href*='/claims/new/']").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))"
    )
    assert offered, "no claim form is offered to pat"
    pages += [(f"claim new {href.strip('/').split('/')[-1]}", href) for href in offered]
    for state in ("received", "under_review", "info_requested", "denied"):
        pages.append((f"claim {state}", reverse("elections:claim_detail", args=[getattr(sweep_data, state)])))
    pages += [
        ("electronic delivery", reverse("benefits:delivery_preferences", args=[pid])),
        ("security", reverse("mfa_index")),
        ("403", reverse("benefits:admin_plans")),
        ("404", reverse("benefits:participant_dashboard", args=[0])),
    ]
    for label, url in pages:
        sweep.check(url, f"participant {label}")
    # A refused form shows its errors next to the fields: that state is a page of its own.
    page.set_viewport_size({"width": PHONE, "height": 900})
    modeler = reverse("benefits:plan_modeler", args=[pid, "carver-db"])
    page.goto(modeler)
    page.get_by_role("textbox", name="Start dates").fill("2027-01-15")
    page.get_by_role("button", name="Calculate").click()
    page.wait_for_load_state("networkidle")
    sweep.visited.append("participant modeler with errors")
    sweep.check_current("participant modeler with errors", modeler, PHONE)
    # Setting up an authenticator: the password again, then the QR code and secret.
    sweep.reauthenticate("participant")
    sweep.check(reverse("mfa_activate_totp"), "participant totp activate")
    sweep.report()
