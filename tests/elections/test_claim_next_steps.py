"""An approved claim that pays money reaches its election (issue 22): the demo's terminated 401(k)
participant, CFS-30005 (Victor Hale, married, left on June 28, 2024), files a distribution after
leaving, the committee approves it, and he makes his election from the claim page, through the pages."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.models import User
from benefits.models import Participant, PlanMembership
from elections.benefit_elections.models import Election
from elections.claims import services
from elections.models import Claim, ClaimState, ClaimType
from tests.elections.conftest import start_date

pytestmark = pytest.mark.django_db

DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)
DEPOSIT = {
    "payment_method": "direct_deposit",
    "routing_number": "011000015",
    "account_number": "12345678",
    "account_type": "checking",
}


@pytest.fixture
def victor(demo):
    user = User.objects.create_user(email="victor@sweep.test", password=DEMO_PASSWORD)
    Participant.objects.filter(participant_number="CFS-30005").update(user=user)
    return user


def test_the_401k_distribution_after_leaving_reaches_its_election_from_the_claim(client, victor, committee):
    today = services.today()
    m = PlanMembership.objects.get(participant__participant_number="CFS-30005", plan__key="carver-401k")
    start = start_date(today)
    claim = services.claim_file(
        filer=victor,
        membership=m,
        claim_type=ClaimType.TERMINATION_DISTRIBUTION,
        details={"commencement_date": start, "form": "lump_sum"},
        on=today,
    )
    services.claim_start_review(claim=claim, actor=committee, on=today)
    claim = services.claim_decide(
        claim=claim, actor=committee, outcome="approved", reasons="", provisions="§7.5", on=today
    )
    assert claim.state == ClaimState.ELECTION_REQUIRED
    assert "make your election from this claim" in claim.next_step

    client.force_login(victor)
    page = client.get(reverse("elections:claim_detail", args=[claim.pk])).content.decode()
    start_url = reverse("elections:election_start", args=[m.pk])
    assert start_url in page and f'name="claim" value="{claim.pk}"' in page
    assert "Read the explanation and make my election" in page

    r = client.post(start_url, {"asd": start.isoformat(), "claim": str(claim.pk)})
    # The election begins with the explanation itself; confirming its reading leads to the form.
    assert r.status_code == 302 and r.url.endswith("/explanation/"), r.get("Location")
    r = client.post(r.url, {"confirm": "on"})
    assert r.status_code == 302 and r.url.endswith("/form/"), r.get("Location")
    form_page = client.get(r.url).content.decode()
    for label in (
        "Lump sum",
        "Installments",
        "Partial lump sum",
        "Direct rollover",
        "50% joint and survivor",
    ):
        assert label in form_page, label
    r = client.post(r.url, {"form": "lump_sum"})
    assert r.status_code == 302 and r.url.endswith("/payment/"), r.content.decode()[:500]
    r = client.post(r.url, {**DEPOSIT, "w4r_rate": "20"})
    assert r.status_code == 302, r.content.decode()[:500]
    draft_id = int(r.url.rstrip("/").split("/")[-2])
    r = client.post(
        reverse("elections:election_sign", args=[draft_id]),
        {"password": DEMO_PASSWORD, "confirm": "on", "submission_token": uuid.uuid4().hex},
    )
    assert r.status_code == 302 and "/elections/" in r.url, [str(m) for m in get_messages(r.wsgi_request)]
    election = Election.objects.get(claim=claim)
    assert election.form == "lump_sum" and election.membership_id == m.pk
    # §7.2(a): a married participant's lump sum needs the spouse's consent before it takes effect.
    assert election.needs_consent and election.state == Election.State.AWAITING_CONSENT
    assert Claim.objects.get(pk=claim.pk).state == ClaimState.ELECTION_REQUIRED
