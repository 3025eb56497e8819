"""The committee's day (issue 14 item 6): the queue's filters, assignment, internal notes, the claim
page's facts for the committee, and an approval that needs no reasons."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from benefits.models import AuditEvent
from elections.claims import committee_work, selectors, services
from elections.claims.checks import ClaimInvalid
from elections.models import ClaimState
from tests.conftest import login_with_totp
from tests.elections.conftest import AS_OF, demo_for_the_module, file_db_claim, file_withdrawal

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


@pytest.fixture
def claims(pat, committee):
    """Three claims: one due in 90 days, one filed 85 days ago (due soon), one 95 days ago (overdue).
    The Carver DB benefit is claimed once (issue 22): the other two are 401(k) withdrawals."""
    fresh = file_db_claim(pat, on=AS_OF)
    soon = file_withdrawal(pat, on=AS_OF - timedelta(days=85))
    late = file_withdrawal(pat, on=AS_OF - timedelta(days=95))
    services.claim_start_review(claim=late, actor=committee, on=AS_OF - timedelta(days=90))
    return fresh, soon, late


def test_queue_filters_by_state_due_within_plan_and_assignment(claims, committee, committee2):
    fresh, soon, late = claims

    def pks(**kw):
        return [r.claim.pk for r in selectors.committee_queue(user=committee, today=AS_OF, **kw)]

    assert pks() == [late.pk, soon.pk, fresh.pk]  # the most urgent first
    assert pks(state=ClaimState.UNDER_REVIEW) == [late.pk]
    assert pks(due_within=0) == [late.pk]  # overdue counts as due today
    assert pks(due_within=7) == [late.pk, soon.pk]  # received 85 days ago: due in 5 days
    assert pks(plan_key="quaker-cash-balance") == []
    assert pks(mine=True) == []
    committee_work.claim_assign(claim=soon, actor=committee2, assignee_id=committee.pk)
    assert pks(mine=True) == [soon.pk]
    assert [r.claim.pk for r in selectors.committee_queue(user=committee2, today=AS_OF, mine=True)] == []


def test_assignment_and_notes_are_audited_and_only_committee_members_may_make_them(claims, committee, pat):
    fresh, *_ = claims
    committee_work.claim_assign(claim=fresh, actor=committee, assignee_id=committee.pk)
    event = AuditEvent.objects.get(event_type="claim.assigned")
    assert event.acting_user == committee and event.extra_data["new"] == committee.email
    assert event.extra_data["old"] == "nobody"
    note = committee_work.claim_note_add(claim=fresh, actor=committee, text="  Payroll card checked. ")
    assert note.text == "Payroll card checked."
    assert AuditEvent.objects.filter(event_type="claim.note_added", acting_user=committee).exists()
    with pytest.raises(ClaimInvalid) as exc:
        committee_work.claim_note_add(claim=fresh, actor=committee, text="   ")
    assert "Note" in exc.value.errors["text"]
    with pytest.raises(ClaimInvalid):
        committee_work.claim_assign(claim=fresh, actor=committee, assignee_id=pat.pk)  # not a member
    with pytest.raises(PermissionDenied):
        committee_work.claim_note_add(claim=fresh, actor=pat, text="Let me in")


def test_an_approval_needs_no_reasons_but_a_denial_does(claims, committee):
    fresh, *_ = claims
    services.claim_start_review(claim=fresh, actor=committee, on=AS_OF)
    with pytest.raises(ClaimInvalid) as exc:
        services.claim_decide(
            claim=fresh,
            actor=committee,
            outcome="denied",
            reasons="",
            provisions="§4.3",
            perfecting_material="None.",
            on=AS_OF,
        )
    assert set(exc.value.errors) == {"reasons"}
    claim = services.claim_decide(
        claim=fresh, actor=committee, outcome="approved", reasons="", provisions="", on=AS_OF
    )
    assert claim.state != ClaimState.UNDER_REVIEW


def test_claim_page_speaks_to_the_committee_and_shows_marital_and_consent_status(client, claims, committee):
    fresh, *_ = claims
    login_with_totp(client, committee, password="demo-pass-2026", secret=_secret())
    page = client.get(reverse("elections:claim_detail", args=[fresh.pk])).content.decode()
    assert "Marital status" in page and "Spousal consent" in page
    assert "Internal notes" in page and "Assigned to" in page
    assert "until you answer" not in page and "until the claimant answers" in page
    # The note posted through the page is on the page, and the claimant never sees it.
    client.post(reverse("elections:claim_add_note", args=[fresh.pk]), {"text": "Ask payroll about 1982."})
    assert (
        "Ask payroll about 1982."
        in client.get(reverse("elections:claim_detail", args=[fresh.pk])).content.decode()
    )


def test_the_claimant_never_sees_internal_notes(client, claims, committee, pat):
    fresh, *_ = claims
    committee_work.claim_note_add(claim=fresh, actor=committee, text="Internal only: check payroll.")
    client.force_login(pat)
    page = client.get(reverse("elections:claim_detail", args=[fresh.pk])).content.decode()
    assert "Internal only" not in page and "Internal notes" not in page


def test_queue_page_filters_from_the_query_string(client, claims, committee):
    fresh, soon, late = claims
    login_with_totp(client, committee, password="demo-pass-2026", secret=_secret())
    page = client.get(reverse("elections:committee_queue"), {"due_within": "0"}).content.decode()
    assert f"/claims/{late.pk}/" in page and f"/claims/{fresh.pk}/" not in page
    assert "Clear the filters" in page
    page = client.get(reverse("elections:committee_queue"), {"state": "nonsense", "due_within": "x"}).content
    assert f"/claims/{fresh.pk}/".encode() in page  # unknown values are ignored, not a 500


def _secret():
    from benefits.demo.loader import COMMITTEE_TOTP_SECRET

    return COMMITTEE_TOTP_SECRET
