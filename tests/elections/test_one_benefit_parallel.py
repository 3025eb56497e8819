"""One commencement per benefit and one loan per limit under REAL parallel requests (issue 22): each
request runs in its own thread with its own PostgreSQL connection; one wins, the other gets the
plain refusal (never a 500), and the database holds one row."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.test import TestCase

from benefits.models import MarketRate
from elections.benefit_elections import services as election_services
from elections.benefit_elections.models import Election, ElectionDraft
from elections.claims import checks, limits, services
from elections.models import Claim, ClaimState, ClaimType
from tests.elections.conftest import AS_OF, clear_demo_claims, membership, start_date
from tests.elections.parallel import meet_here, run_at_once

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)
ON = AS_OF


def _outcomes(results):
    wins = [r for kind, r in results if kind == "ok"]
    losses = [r for kind, r in results if kind == "error"]
    return wins, losses


def test_two_claims_for_one_benefit_at_once_one_wins_the_other_is_refused_plainly(pat, monkeypatch):
    m = membership(pat, "carver-db")
    clear_demo_claims(m)
    # Both requests pass the check in code before either writes: only the database can stop the second.
    monkeypatch.setattr(
        services, "_refuse_second_commencement", meet_here(2)(services._refuse_second_commencement)
    )

    def file():
        return services.claim_file(
            filer=pat,
            membership=m,
            claim_type=ClaimType.COMMENCEMENT,
            details={"commencement_date": start_date(ON), "form": "js50"},
            on=ON,
        )

    wins, losses = _outcomes(run_at_once(file, file))
    assert len(wins) == 1 and len(losses) == 1
    loss = losses[0]
    assert isinstance(loss, checks.ClaimInvalid), loss
    assert loss.errors["__all__"].startswith(
        f"You already have a claim to start this benefit, filed on November 21, 2026 (claim {wins[0].pk}"
    )
    assert Claim.objects.filter(membership=m, claim_type=ClaimType.COMMENCEMENT).count() == 1


def _draft_for(claim, pat):
    asd = date.fromisoformat(claim.details["commencement_date"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = election_services.draft_start(user=pat, membership=claim.membership, asd=asd, claim=claim)
    election_services.draft_explanation_read(draft=draft, user=pat)  # read before the signature
    election_services.draft_save(draft=draft, user=pat, step="form", answers={"form": "js50"})
    election_services.draft_save(
        draft=draft,
        user=pat,
        step="payment",
        answers={
            "payment_method": "direct_deposit",
            "payment": {
                "routing_number": "011000015",
                "account_number": "12345678",
                "account_type": "checking",
            },
            "withholding": {"form": "W-4P", "w4p": "married", "w4p_extra": "0.00"},
        },
    )
    return draft


def test_two_elections_at_once_leave_one_in_force(pat):
    """Two tabs sign two drafts for the one benefit at the same instant. Signing takes the membership's
    row lock (one signature at a time), so the second waits for the first and then meets an election
    in force: inside its revocation period it replaces it (superseded, never a second in force)."""
    claim = Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)
    first = _draft_for(claim, pat)
    second = ElectionDraft.objects.create(
        participant=first.participant,
        membership=first.membership,
        claim=first.claim,
        notice=first.notice,
        asd=first.asd,
        answers=first.answers,
        created_by=pat,
    )

    def sign(draft):
        return lambda: election_services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD)

    wins, losses = _outcomes(run_at_once(sign(first), sign(second)))
    assert all(isinstance(loss, election_services.ElectionInvalid) for loss in losses), losses
    in_force = Election.objects.filter(
        membership=claim.membership, state__in=("awaiting_consent", "waiting_period", "effective")
    )
    assert in_force.count() == 1
    assert Election.objects.filter(membership=claim.membership).count() == len(wins)
    assert Election.objects.filter(membership=claim.membership, state="superseded").count() == len(wins) - 1


def test_the_database_holds_one_election_in_force_whatever_the_code_does(pat):
    """Below the service's lock and checks: a second election in force for the benefit, inserted
    directly, breaks the database's rule (one_election_in_force_per_benefit)."""
    from django.db import IntegrityError, transaction

    claim = Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)
    election = election_services.election_sign(draft=_draft_for(claim, pat), user=pat, password=DEMO_PASSWORD)
    twin = Election.objects.get(pk=election.pk)
    twin.pk = None
    twin.version = election.version + 1
    with pytest.raises(IntegrityError), transaction.atomic():
        twin.save(force_insert=True)


@pytest.fixture
def prime(demo):
    MarketRate.objects.update_or_create(
        series="prime_rate", period=ON.replace(day=1), defaults={"percent": Decimal("6.75"), "source": "t"}
    )


def _loan(pat, amount="50000"):
    return lambda: services.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type=ClaimType.LOAN,
        details={"amount": Decimal(amount), "term_months": 60, "principal_residence": False},
        on=ON,
    )


def test_two_50000_loans_filed_at_once_against_one_50000_limit_one_is_refused(pat, prime, monkeypatch):
    # Both reach the membership's row lock together; the second counts the first once it has the lock.
    monkeypatch.setattr(limits, "lock_membership", meet_here(2, before=True)(limits.lock_membership))
    wins, losses = _outcomes(run_at_once(_loan(pat), _loan(pat)))
    assert len(wins) == 1 and len(losses) == 1
    assert isinstance(losses[0], checks.ClaimInvalid), losses[0]
    assert losses[0].errors["amount"] == (
        f"Loan: you already have claim {wins[0].pk} (loan (401(k)) of $50,000.00, filed on November 21, 2026); "
        "the plan allows only one loan at a time (§8.4(f))."
    )
    assert Claim.objects.filter(claim_type=ClaimType.LOAN).count() == 1


def _two_loans_as_the_bug_filed_them(pat) -> tuple[Claim, Claim]:
    """Two $50,000 loan claims under review, as the bug let them be filed: the first filed properly,
    the second a copy of it written straight to the table."""
    a = _loan(pat)()
    b = Claim.objects.get(pk=a.pk)
    b.pk = None
    b.save()
    Claim.objects.filter(pk__in=[a.pk, b.pk]).update(state=ClaimState.UNDER_REVIEW)
    return Claim.objects.get(pk=a.pk), Claim.objects.get(pk=b.pk)


def test_two_50000_loans_approved_at_once_only_one_is_approved(pat, committee, prime):
    a, b = _two_loans_as_the_bug_filed_them(pat)

    def approve(claim):
        return lambda: services.claim_decide(
            claim=claim, actor=committee, outcome="approved", reasons="", provisions="§8.2", on=ON
        )

    wins, losses = _outcomes(run_at_once(approve(a), approve(b)))
    assert len(wins) == 1 and len(losses) == 1, losses
    assert isinstance(losses[0], services.ClaimActionRefused), losses[0]
    assert "the plan allows only one loan at a time (§8.4(f))" in str(losses[0])
    states = sorted(Claim.objects.filter(pk__in=[a.pk, b.pk]).values_list("state", flat=True))
    assert states == sorted([ClaimState.UNDER_REVIEW, wins[0].state])
    assert wins[0].state != ClaimState.UNDER_REVIEW
