"""The claims clock on a claim (29 CFR 2560.503-1(f)(1), (f)(4), (i)(4)): a request for information
without an extension leaves the clock running; with the extension for missing information the clock
stops from the notice until the answer; the committee is told which before it sends, and the notice
says what is missing and how the time is counted. The arithmetic itself is in test_deadlines.py."""

from datetime import timedelta

import pytest
from django.urls import reverse

from elections.claims import checks, services
from elections.models import Claim, ClaimState
from tests.conftest import login_with_totp, token
from tests.elections.conftest import AS_OF, demo_for_the_module, file_db_claim

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


ON = AS_OF


@pytest.fixture
def claim(pat, committee):
    c = file_db_claim(pat, on=ON)
    services.claim_start_review(claim=c, actor=committee, on=ON)
    return Claim.objects.get(pk=c.pk)


def test_the_issue_example_without_an_extension_keeps_the_90_day_date(claim, pat, committee):
    """Received on day 0, asked on day 9 without an extension, answered on day 68: the decision is
    still due on day 90 (the issue's January 1 / January 10 / March 10 → April 1, 2026)."""
    claim = services.claim_request_information(
        claim=claim,
        actor=committee,
        what="Proof of age.",
        respond_by=ON + timedelta(days=80),
        on=ON + timedelta(days=9),
    )
    assert claim.state == ClaimState.INFO_REQUESTED
    assert claim.clock().awaiting_answer and not claim.clock().paused
    assert claim.due_on == ON + timedelta(days=90)
    claim = services.claim_answer_information(
        claim=claim, actor=pat, response="Birth certificate attached.", on=ON + timedelta(days=68)
    )
    assert claim.due_on == ON + timedelta(days=90)
    notice = claim.notices.get(kind="information_request").document
    assert notice.title == "Request for information about your claim"
    assert notice.payload["extended"] is False
    assert notice.payload["due"] == f"{ON + timedelta(days=90):%B %-d, %Y}"
    assert claim.events.filter(action="information_requested").exists()


def test_without_an_extension_the_answer_must_be_asked_for_before_the_decision_is_due(claim, committee):
    due = ON + timedelta(days=90)
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_request_information(
            claim=claim, actor=committee, what="x", respond_by=due, on=ON + timedelta(days=9)
        )
    assert "keeps running" in exc.value.errors["respond_by"]
    # One day earlier is accepted.
    services.claim_request_information(
        claim=claim, actor=committee, what="x", respond_by=due - timedelta(days=1), on=ON + timedelta(days=9)
    )


def test_an_unanswered_request_without_extension_can_be_overdue_and_deemed_denied(claim, pat, committee):
    services.claim_request_information(
        claim=claim, actor=committee, what="x", respond_by=ON + timedelta(days=30), on=ON + timedelta(days=9)
    )
    claim = Claim.objects.get(pk=claim.pk)
    assert services.deemed_denial_since(claim, on=ON + timedelta(days=90)) is None
    assert services.deemed_denial_since(claim, on=ON + timedelta(days=91)) == ON + timedelta(days=90)
    claim = services.claim_appeal(
        claim=claim, actor=pat, statement="No decision.", on=ON + timedelta(days=91)
    )
    assert claim.state == ClaimState.APPEALED


def test_the_extension_for_missing_information_tolls_and_its_notice_says_so(claim, pat, committee):
    asked = ON + timedelta(days=9)
    claim = services.claim_request_information(
        claim=claim,
        actor=committee,
        what="Proof of age: your birth certificate.",
        respond_by=asked + timedelta(days=40),
        extend=True,
        on=asked,
    )
    assert claim.clock().paused and claim.clock().extensions == (90,)
    notice = claim.notices.get(kind="information_request").document
    p = notice.payload
    assert notice.title.startswith("Notice of extension")
    assert p["extended"] and p["extension_days"] == 90
    assert p["what"] == "Proof of age: your birth certificate."
    # 180 days in all, 9 used before the notice: 171 left after the answer.
    assert p["days_left"] == 171
    assert p["decision_if_answered_by"] == f"{asked + timedelta(days=40 + 171):%B %-d, %Y}"
    claim = services.claim_answer_information(
        claim=claim, actor=pat, response="Attached.", on=asked + timedelta(days=20)
    )
    assert claim.due_on == ON + timedelta(days=180 + 20)
    assert claim.events.filter(action="information_requested_with_extension").exists()


def test_no_extension_left_means_no_tolling(claim, committee):
    claim = services.claim_extend(
        claim=claim, actor=committee, reason="An actuarial review.", on=ON + timedelta(days=5)
    )
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_request_information(
            claim=claim,
            actor=committee,
            what="x",
            respond_by=ON + timedelta(days=60),
            extend=True,
            on=ON + timedelta(days=9),
        )
    assert "every extension" in exc.value.errors["extend"]


def test_the_committee_page_says_before_sending_that_a_plain_request_leaves_the_clock_running(
    client, claim, committee2
):
    assert login_with_totp(client, committee2).status_code == 302
    url = reverse("elections:claim_detail", args=[claim.pk])
    html = client.get(url).content.decode()
    due = f"{ON + timedelta(days=90):%B %-d, %Y}"
    assert "A request without an extension does not stop the clock" in html
    assert f"the decision is still due by {due}" in html
    assert "Extend the time by 90 days because this information is missing" in html
    resp = client.post(
        reverse("elections:claim_request_information", args=[claim.pk]),
        {
            "what": "Proof of age.",
            "respond_by": (ON + timedelta(days=120)).isoformat(),
            "extend": "no",
            "submission_token": token(),
        },
    )
    assert resp.status_code == 400 and "keeps running" in resp.content.decode()
