"""The accessibility sweep (tests/browser/sweep.py) of an administrator's pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from benefits.demo.loader import ADMIN_TOTP_SECRET
from benefits.models import Plan
from tests.browser.sweep import Sweep, staff_login, staff_mfa_pages, staff_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_administrator_pages(page, sweep_data):
    sweep = Sweep(page)
    staff_login(sweep, "admin@demo.test", ADMIN_TOTP_SECRET)
    pages = staff_pages(sweep_data) + [
        ("plans", reverse("benefits:admin_plans")),
        ("audit log", reverse("benefits:audit_log")),
        ("data imports", reverse("benefits:imports_home")),
        ("market rates", reverse("benefits:market_rates")),
        ("documents to mail", reverse("benefits:delivery_mailing")),
        ("after a death", reverse("payments:deaths")),
        ("403", reverse("elections:committee_queue")),
    ]
    pages += [
        (f"plan {key}", reverse("benefits:admin_plan_detail", args=[key]))
        for key in Plan.objects.order_by("key").values_list("key", flat=True)
    ]
    for label, url in pages:
        sweep.check(url, f"administrator {label}")
    staff_mfa_pages(sweep, "administrator")
    sweep.report()
