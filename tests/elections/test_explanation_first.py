"""The explanation before the signature (§417(a)(3); Treas. Reg. §1.417(a)(3)-1): the election begins
with the explanation itself, the participant confirms having read that version, and the signature
records it; "Read the explanation again" stays on every step."""

from __future__ import annotations

import pytest
from django.test import TestCase
from django.urls import reverse

from benefits.models import AuditEvent
from elections.benefit_elections import services
from elections.models import Claim, ClaimState
from tests.elections.test_benefit_elections import DEMO_PASSWORD, asd_of, elect, issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(pat):
    return Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)


def test_the_election_begins_with_the_explanation_and_records_its_reading(client, claim, pat):
    client.force_login(pat)
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = client.post(
            reverse("elections:election_start", args=[claim.membership_id]),
            {"asd": claim.details["commencement_date"], "claim": claim.pk},
        )
    draft_id = int(r["Location"].rstrip("/").split("/")[-2])
    assert r["Location"] == reverse("elections:election_step", args=[draft_id, "explanation"])
    page = client.get(r["Location"]).text
    for words in (
        "Read your explanation first",
        "Your right to wait (to defer)",
        "Your right to change your mind (to revoke)",
        "Important dates",
        "Download it as a PDF",
        "Read the explanation again",
    ):
        assert words in page, words
    # Choosing a form first sends the participant back to the explanation.
    form_url = reverse("elections:election_step", args=[draft_id, "form"])
    assert client.get(form_url)["Location"] == r["Location"]
    # Without the confirmation nothing moves on.
    assert client.post(r["Location"], {}).status_code == 200
    assert client.post(r["Location"], {"confirm": "on"})["Location"] == form_url
    assert client.get(form_url).status_code == 200
    assert "Read the explanation again" in client.get(form_url).text


def test_signing_without_having_read_the_explanation_is_refused(claim, pat):
    issue(claim)
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = services.draft_start(user=pat, membership=claim.membership, asd=asd_of(claim), claim=claim)
    services.draft_save(draft=draft, user=pat, step="form", answers={"form": "js50"})
    with pytest.raises(services.ElectionInvalid) as exc:
        services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD)
    assert "explanation" in exc.value.errors
    # A reading of another notice (an earlier version) does not count.
    draft.answers["explanation_read"] = {
        "notice_id": draft.notice_id + 1000,
        "at": "2026-11-21T10:00:00+00:00",
    }
    assert services.explanation_read_at(draft) is None


def test_the_signature_records_the_explanation_read(claim, pat):
    election = elect(claim, pat, form="js50")
    assert election.explanation_read_at is not None
    signed = AuditEvent.objects.get(event_type="election.signed", extra_data__election_id=election.pk)
    assert signed.extra_data["notice_id"] == election.notice_id
    assert signed.extra_data["explanation_read_at"] == election.explanation_read_at.isoformat()
