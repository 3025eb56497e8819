"""Claim statuses read as sentences for their reader (issue 25 item 4): the claimant reads what to do
next, the committee what the claim waits for; dates in words."""

from datetime import date

import pytest
from django.template import Context, Template

from elections.claims.models import Claim, ClaimState
from elections.claims.status_words import COMMITTEE, status_sentence


def claim(state, **dates) -> Claim:
    c = Claim(received_on=date(2027, 3, 1), **dates)
    c.__dict__["state"] = state  # an FSM field: set as a stored row would have it
    return c


@pytest.mark.parametrize(
    ("state", "dates", "participant", "committee"),
    [
        (
            ClaimState.ELECTION_REQUIRED,
            {"decided_on": date(2027, 3, 3)},
            "Approved on March 3, 2027: make your election",
            "Approved on March 3, 2027: waiting for the participant's election",
        ),
        (
            ClaimState.UNDER_REVIEW,
            {"due_on": date(2027, 5, 30)},
            "Waiting for the committee's decision",
            "Under review: a decision is due by May 30, 2027",
        ),
        (
            ClaimState.RECEIVED,
            {},
            "Received on March 1, 2027: waiting for the committee's review",
            "Received on March 1, 2027: review not started",
        ),
        (
            ClaimState.INFO_REQUESTED,
            {"documents_requested_on": date(2027, 3, 10), "information_due_on": date(2027, 4, 9)},
            "The committee asked you for information on March 10, 2027: please answer by April 9, 2027",
            "Information requested on March 10, 2027: answer due by April 9, 2027",
        ),
        (
            ClaimState.DENIED,
            {"decided_on": date(2027, 3, 3), "appeal_by": date(2027, 5, 2)},
            "Denied on March 3, 2027: you may appeal by May 2, 2027",
            "Denied on March 3, 2027: the claimant may appeal by May 2, 2027",
        ),
        (
            ClaimState.DENIED_ON_REVIEW,
            {"review_decided_on": date(2027, 7, 1)},
            "Denied on appeal on July 1, 2027: this is the plan's final decision",
            "Denied on appeal on July 1, 2027: this is the plan's final decision",
        ),
        (
            ClaimState.PAYMENT_SCHEDULED,
            {},
            "Approved: payment scheduled, not yet confirmed as paid",
            "Approved: payment scheduled, not yet confirmed as paid",
        ),
    ],
)
def test_status_sentences(state, dates, participant, committee):
    c = claim(state, **dates)
    assert status_sentence(c) == participant
    assert status_sentence(c, COMMITTEE) == committee


def test_every_state_has_a_sentence_other_than_its_label():
    for state in ClaimState:
        c = claim(state, decided_on=date(2027, 3, 3))
        text = status_sentence(c)
        assert text and "_" not in text
        if state not in (ClaimState.PAID,):
            assert text != c.get_state_display() or state == ClaimState.APPROVED


def test_the_state_tag_prints_the_sentence_for_its_reader():
    c = claim(ClaimState.ELECTION_REQUIRED, decided_on=date(2027, 3, 3))
    t = Template(
        '{% include "elections/claims/_state_tag.html" %}|{% include "elections/claims/_state_tag.html" with reader="committee" %}'
    )
    out = t.render(Context({"claim": c}))
    assert "Approved on March 3, 2027: make your election" in out
    assert "waiting for the participant&#x27;s election" in out
