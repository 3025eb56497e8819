"""The accessibility sweep (tests/browser/sweep.py) of the pages before a login and of a participant
whose login is not yet linked to a plan record."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import login
from tests.browser.sweep import Sweep, verified_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_anonymous_pages(page, sweep_data):
    sweep = Sweep(page)
    for label, url in (
        ("login", reverse("account_login")),
        ("signup", reverse("account_signup")),
        ("password reset", reverse("account_reset_password")),
        ("password reset done", reverse("account_reset_password_done")),
    ):
        sweep.check(url, f"anonymous {label}")
    sweep.check("/no-such-page/", "anonymous 404")
    sweep.report()


def test_unlinked_participant_page(page, sweep_data):
    verified_user("new@sweep.test")
    sweep = Sweep(page)
    login(page, "new@sweep.test")
    sweep.check(reverse("accounts:link_identity"), "unlinked participant link identity")
    sweep.report()
