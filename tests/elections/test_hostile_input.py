"""Issue 15: the reproductions around claims. A date past any plausible window, a second request for
information, a double submit: each answers with a clear message, never a 500, a duplicate or a claim
whose clock stops forever."""

from __future__ import annotations

import threading
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse

from accounts import submissions
from accounts.models import SubmissionToken
from benefits.models import AuditEvent, MarketRate
from elections.claims import checks, deadlines, services
from elections.models import Claim, ClaimEvent, ClaimState
from tests.conftest import login_with_totp, token
from tests.elections.conftest import file_db_claim, membership, start_date
from tests.factories import UserFactory


@pytest.fixture
def pat_client(client, pat):
    client.force_login(pat)
    return client


@pytest.fixture
def committee_client(client, committee2):
    assert login_with_totp(client, committee2).status_code == 302
    return client


def _prime_rate():
    MarketRate.objects.update_or_create(
        series="prime_rate",
        period=services.today().replace(day=1),
        defaults={"percent": Decimal("6.75"), "source": "t"},
    )


# ------------------------------------------------------------------------------------ date windows


def test_a_commencement_in_2200_is_refused_not_filed(pat_client, pat):
    """The reproduction: a commencement for 2200-01-01 was filed and approved."""
    m = membership(pat, "carver-db")
    claims = Claim.objects.count()  # the demo's own claims
    resp = pat_client.post(
        reverse("elections:claim_new", args=[m.pk, "commencement"]),
        {"submission_token": token(), "commencement_date": "2200-01-01", "form": "js50", "statement": "x"},
    )
    assert resp.status_code == 400
    assert "Benefit start date: at the latest" in resp.text and "100th birthday" in resp.text
    assert Claim.objects.count() == claims
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_file(
            filer=pat,
            membership=m,
            claim_type="commencement",
            details={"commencement_date": date(2200, 1, 1), "form": "js50"},
        )
    assert "commencement_date" in exc.value.errors


def test_a_respond_by_of_9999_is_refused_with_the_regulations_limit(committee_client, pat):
    """The reproduction: respond_by 9999-12-31 stopped a claim's clock forever."""
    claim = file_db_claim(pat)
    committee_client.post(reverse("elections:claim_start_review", args=[claim.pk]))
    resp = committee_client.post(
        reverse("elections:claim_request_information", args=[claim.pk]),
        {"submission_token": token(), "what": "Proof of age.", "respond_by": "9999-12-31", "extend": "yes"},
    )
    assert resp.status_code == 400
    most = deadlines.most_information_days(claim.clock_rules, review=False)
    assert most == 180  # 90 days + one 90-day extension, 29 CFR 2560.503-1(f)(1)
    assert f"at most {most} days" in resp.text
    claim.refresh_from_db()
    assert claim.state == ClaimState.UNDER_REVIEW and claim.information_due_on is None


def test_respond_by_on_both_sides_of_the_limit(committee, pat):
    claim = file_db_claim(pat)
    services.claim_start_review(claim=claim, actor=committee)
    today = services.today()
    with pytest.raises(checks.ClaimInvalid):
        services.claim_request_information(
            claim=claim, actor=committee, what="Proof.", respond_by=today + timedelta(days=181), extend=True
        )
    claim = services.claim_request_information(
        claim=claim, actor=committee, what="Proof.", respond_by=today + timedelta(days=180), extend=True
    )
    assert claim.information_due_on == today + timedelta(days=180)


def test_a_second_request_for_information_while_waiting_is_refused_not_a_500(committee_client, pat):
    """The reproduction: a second "request information" while the claim already waited gave a 500."""
    claim = file_db_claim(pat)
    committee_client.post(reverse("elections:claim_start_review", args=[claim.pk]))
    url = reverse("elections:claim_request_information", args=[claim.pk])
    respond_by = (services.today() + timedelta(days=30)).isoformat()
    first = committee_client.post(
        url, {"submission_token": token(), "what": "Proof.", "respond_by": respond_by, "extend": "no"}
    )
    assert first.status_code == 302
    events = ClaimEvent.objects.count()
    second = committee_client.post(
        url, {"submission_token": token(), "what": "More.", "respond_by": respond_by, "extend": "no"}
    )
    assert second.status_code == 409
    assert "has not yet answered the earlier request" in second.text
    assert ClaimEvent.objects.count() == events


# ------------------------------------------------------------------------------------ idempotency


def test_two_quick_submits_of_a_loan_claim_file_one_claim(pat_client, pat):
    """The reproduction: two quick submits of a loan claim filed two claims."""
    _prime_rate()
    m = membership(pat, "carver-401k")
    url = reverse("elections:claim_new", args=[m.pk, "loan"])
    claims = Claim.objects.count()  # the demo's own claims
    data = {"submission_token": token(), "amount": "5000", "term_months": "24", "statement": "car"}
    first = pat_client.post(url, data)
    assert first.status_code == 302, first.content.decode()[:2000]
    second = pat_client.post(url, data)
    assert second.status_code == 302 and second["Location"] == first["Location"]
    assert Claim.objects.count() == claims + 1
    assert SubmissionToken.objects.count() == 1
    # A fresh token (a new form) is a new request, checked again: a second loan while the first is
    # pending is refused (§8.4(f): one loan at a time; issue 22).
    third = pat_client.post(url, {**data, "submission_token": token()})
    assert third.status_code == 400 and "only one loan at a time (§8.4(f))" in third.content.decode()
    assert Claim.objects.count() == claims + 1


def test_a_repeated_decision_is_recorded_once(committee_client, pat):
    claim = file_db_claim(pat)
    committee_client.post(reverse("elections:claim_start_review", args=[claim.pk]))
    data = {
        "submission_token": token(),
        "outcome": "approved",
        "reasons": "Eligible on the date asked.",
        "provisions": "§4.3",
    }
    url = reverse("elections:claim_decide", args=[claim.pk])
    assert committee_client.post(url, data).status_code == 302
    determinations = claim.determinations.count()
    again = committee_client.post(url, data)
    assert again.status_code == 302  # sent to the claim, not told "cannot be done while approved"
    assert claim.determinations.count() == determinations


def test_a_form_without_its_token_creates_nothing(pat_client, pat):
    m = membership(pat, "carver-db")
    claims = Claim.objects.count()  # the demo's own claims
    resp = pat_client.post(
        reverse("elections:claim_new", args=[m.pk, "commencement"]),
        {"commencement_date": start_date().isoformat(), "form": "js50", "statement": "x"},
    )
    assert resp.status_code == 400 and "This form has expired" in resp.text
    assert Claim.objects.count() == claims


def test_a_token_cannot_be_replayed_by_another_user(pat, db):
    other = UserFactory()
    raw = token()
    submissions.submit_once(user=pat, raw_token=raw, purpose="p", action=lambda: (None, "/first/"))
    with pytest.raises(submissions.SubmissionRefused):
        submissions.submit_once(user=other, raw_token=raw, purpose="p", action=lambda: (None, "/second/"))


@pytest.mark.django_db(transaction=True)
def test_concurrent_submits_of_one_form_create_one_thing():
    """Two requests with the same token at the same moment: the database's unique token makes the
    second wait for the first and then return its result; the action runs once."""
    user = UserFactory()
    raw = token()
    barrier = threading.Barrier(2)
    outcomes, errors = [], []

    def submit():
        try:
            barrier.wait()

            def act():
                event = AuditEvent.objects.create(
                    event_time="2026-11-21T12:00:00Z", event_type="test.created", summary="created"
                )
                threading.Event().wait(0.3)  # hold the transaction open while the other arrives
                return event, f"/thing/{event.pk}/"

            outcomes.append(submissions.submit_once(user=user, raw_token=raw, purpose="thing", action=act))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert AuditEvent.objects.filter(event_type="test.created").count() == 1
    assert sorted(o.repeated for o in outcomes) == [False, True]
    assert outcomes[0].url == outcomes[1].url
