"""Claim forms people can fill in (issue 14 item 5): an error summary linking to each field, the
amount before filing, the disability question only where it can matter, first-of-the-month starts,
no date already past offered, and a request for information that says what is asked."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.urls import reverse

from benefits.engine_adapter import membership_calculate
from elections.claims import services
from elections.models import Claim
from tests.conftest import token
from tests.elections.conftest import demo_for_the_module, file_db_claim, membership, start_date

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


@pytest.fixture
def pat_client(client, pat):
    client.force_login(pat)
    return client


def _url(pat, plan="carver-db", kind="commencement"):
    return reverse("elections:claim_new", args=[membership(pat, plan).pk, kind])


def test_errors_are_summarised_at_the_top_each_linking_to_its_field(pat_client, pat):
    resp = pat_client.post(_url(pat), {"commencement_date": "", "form": ""})
    assert resp.status_code == 400
    page = resp.content.decode()
    summary = page.split('class="usa-alert usa-alert--error app-error-summary"')[1].split("</div>\n</div>")[0]
    assert 'href="#id_commencement_date"' in summary and 'href="#id_form"' in summary
    assert "Date you want payments to start: This field is required." in summary
    assert page.index("app-error-summary") < page.index('id="id_commencement_date"')


def test_a_mid_month_start_is_refused_with_the_first_of_the_month_to_choose(pat_client, pat):
    start = start_date()
    mid = start.replace(day=15)
    before = Claim.objects.count()
    resp = pat_client.post(
        _url(pat), {"commencement_date": mid.isoformat(), "form": "js50", "submission_token": token()}
    )
    assert resp.status_code == 400 and Claim.objects.count() == before
    nxt = date(mid.year + (mid.month == 12), mid.month % 12 + 1, 1)
    assert f"payments start on the first of a month; choose {nxt:%B} 1, {nxt.year}" in resp.content.decode()


def test_the_amount_for_the_chosen_date_and_form_is_shown_before_filing(pat_client, pat):
    start = start_date()
    before = Claim.objects.count()
    resp = pat_client.post(
        _url(pat),
        {"commencement_date": start.isoformat(), "form": "js50", "preview": "1", "submission_token": token()},
    )
    assert resp.status_code == 200 and Claim.objects.count() == before  # nothing filed
    expected = membership_calculate(
        membership(pat, "carver-db"), as_of=services.today(), commencement_dates=[start]
    )
    js50 = expected["estimates"][0]["forms"]["js50"]
    page = resp.content.decode()
    assert "What you would be paid" in page
    assert (
        f"${Decimal(js50['monthly']):,.2f}" in page and f"${Decimal(js50['survivor_monthly']):,.2f}" in page
    )


def test_the_disability_question_is_asked_only_where_it_can_matter(pat_client, pat):
    assert "disability_based" in pat_client.get(_url(pat)).content.decode()
    assert "disability_based" not in pat_client.get(_url(pat, "carver-401k", "loan")).content.decode()


def test_no_date_already_past_is_offered_as_the_earliest(pat_client, pat):
    page = pat_client.get(_url(pat)).content.decode()
    today = services.today()
    for label in ("Earliest retirement date", "Earliest date you can ask for today"):
        if label in page:
            shown = page.split(f'<dt>{label}</dt><dd class="app-num">')[1].split("<")[0]
            from datetime import datetime

            assert datetime.strptime(shown, "%B %d, %Y").date() >= today, shown  # noqa: DTZ007 - a date
            break
    else:
        pytest.fail("no earliest date shown")


def test_a_request_for_information_says_what_is_asked_in_the_next_step(pat, committee, pat_client):
    claim = file_db_claim(pat)
    services.claim_start_review(claim=claim, actor=committee)
    respond_by = services.today() + timedelta(days=45)
    services.claim_request_information(
        claim=claim, actor=committee, what="A copy of your birth certificate.", respond_by=respond_by
    )
    claim.refresh_from_db()
    assert claim.next_step == f"Send by {respond_by:%B %-d, %Y}: A copy of your birth certificate."
    page = pat_client.get(reverse("elections:claim_detail", args=[claim.pk])).content.decode()
    box = page.split('id="next-step-heading"')[1].split("</div>")[0]
    assert "A copy of your birth certificate." in box
