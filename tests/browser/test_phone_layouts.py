"""At 390 px the figures a person came for stay in view without scrolling sideways (issue 14 item 4):
the claims list's status and next deadline, the modeler's normal form and chosen form, a statement's
closing balance; on a desktop the modeler table scrolls with its start-date column fixed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import login
from tests.browser.test_portal_flow import _shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390


@pytest.fixture
def data(db, settings, tmp_path):
    from benefits.services import today
    from tests.test_access_matrix import _build

    settings.PRIVATE_STORAGE_ROOT = tmp_path
    d = _build(today())
    d.chart_run_id = _run_with_dates(d, 4)  # a chart needs more than one start date
    return d


def _run_with_dates(d, n: int) -> int:
    from django.test import TestCase

    from accounts.models import User
    from benefits.models import PlanMembership
    from benefits.services import modeler as modeler_services

    pat = User.objects.get(email="pat@demo.test")
    db = PlanMembership.objects.get(participant__user=pat, plan__key="carver-db")
    dates = [d.start.replace(year=d.start.year + k).isoformat() for k in range(n)]
    with TestCase.captureOnCommitCallbacks(execute=True):
        run = modeler_services.modeler_run_create(
            membership=db, actor=pat, inputs={"commencement_dates": dates}, as_of=d.today
        )
    return run.pk


def _in_view(page, selector: str) -> list[str]:
    """Elements matching ``selector`` that are not wholly inside the viewport's width (or are hidden)."""
    return page.evaluate(
        """(sel) => {
          const vw = document.documentElement.clientWidth;
          const bad = [];
          for (const el of document.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            const s = getComputedStyle(el);
            if (s.display === 'none' || s.visibility === 'hidden' || r.width < 1 || r.left < 0 || r.right > vw + 1) {
              bad.push(el.textContent.trim().slice(0, 40) + ` (${Math.round(r.left)}–${Math.round(r.right)})`);
            }
          }
          return bad;
        }""",
        selector,
    )


def test_claims_list_keeps_status_and_next_deadline_in_view(page, data):
    page.set_viewport_size({"width": PHONE, "height": 800})
    login(page, "pat@demo.test")
    page.goto(reverse("elections:claims_home"))
    assert page.locator("td.app-claim-status").count() >= 4
    assert _in_view(page, "td.app-claim-status") == []
    assert _in_view(page, "td.app-claim-due") == []
    assert "Next deadline" in page.locator("td.app-claim-due").first.evaluate(
        "el => getComputedStyle(el, '::before').content"
    )
    _shot(page, "phone-claims", full=False)


def test_modeler_keeps_the_normal_form_and_the_chosen_form_beside_the_start_date(page, data):
    page.set_viewport_size({"width": PHONE, "height": 800})
    login(page, "pat@demo.test")
    page.goto(reverse("benefits:modeler_run", args=[data.pid, data.chart_run_id]) + "?form=life")
    normal = page.locator("th.app-col-normal")
    chosen = page.locator("th.app-col-chosen")
    assert normal.count() == 1 and chosen.count() == 1
    assert chosen.get_attribute("data-form") == "life"
    assert _in_view(page, "th.app-col-normal, th.app-col-chosen, .app-grid-table .app-sticky-col") == []
    # Chart labels stay legible: at least 10 px on screen.
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('.app-chart__label')].map(t => t.getBoundingClientRect().height)"
    )
    assert sizes and min(sizes) >= 10, sizes
    _shot(page, "phone-modeler", full=False)


def test_desktop_modeler_table_scrolls_with_the_start_date_fixed(page, data):
    page.set_viewport_size({"width": 1024, "height": 800})
    login(page, "pat@demo.test")
    page.goto(reverse("benefits:modeler_run", args=[data.pid, data.chart_run_id]))
    wrap = page.locator(".app-grid-wrap")
    fits = wrap.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    if not fits:
        before = page.locator("tbody .app-sticky-col").first.bounding_box()["x"]
        wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
        after = page.locator("tbody .app-sticky-col").first.bounding_box()["x"]
        assert abs(after - before) < 1, (before, after)
    _shot(page, "desktop-modeler-table", full=False)


def test_statement_keeps_the_closing_balance_in_view(page, data):
    page.set_viewport_size({"width": PHONE, "height": 800})
    login(page, "pat@demo.test")
    page.goto(reverse("benefits:plan_statement", args=[data.pid, "carver-401k"]))
    closing = 'td[data-label="Closing balance"]'
    assert page.locator(closing).count() >= 1
    assert _in_view(page, closing) == []
    page.locator(closing).first.scroll_into_view_if_needed()
    _shot(page, "phone-statement-401k", full=False)
