"""Every transition and its guard, the clock kept on the claim, audit and timeline rows, votes."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django_fsm import TransitionNotAllowed

from benefits.models import AuditEvent, MarketRate
from elections.claims import checks, services
from elections.models import Claim, ClaimEvent, ClaimState, ClaimVote
from tests.elections.conftest import (
    AS_OF,
    demo_claim_ids,
    demo_for_the_module,
    file_db_claim,
    membership,
    start_date,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


ON = AS_OF


@pytest.fixture
def claim(pat):
    return file_db_claim(pat, on=ON)


def deny(claim, actor, on=ON):
    return services.claim_decide(
        claim=claim,
        actor=actor,
        outcome="denied",
        reasons="Not yet eligible.",
        provisions="§13.7(A)",
        perfecting_material="Proof of age.",
        on=on,
    )


def test_filing_checks_the_engine_and_records_receipt_clock_audit_and_timeline(claim, pat):
    assert claim.state == ClaimState.RECEIVED
    assert claim.received_on == ON and claim.due_on == ON + timedelta(days=90)
    assert claim.engine_check["form"] == "js50" and claim.engine_check["engine_version"]
    assert Decimal(claim.engine_check["form_amounts"]["monthly"]) > 0
    event = ClaimEvent.objects.get(claim=claim)
    assert (event.action, event.to_state, event.actor) == ("filed", "received", pat)
    audit = AuditEvent.objects.get(event_type="claim.filed", extra_data__claim_id=claim.pk)
    assert audit.acting_user == pat and audit.extra_data["to_state"] == "received"


def test_state_field_is_protected(claim):
    with pytest.raises(AttributeError):
        claim.state = ClaimState.APPROVED


def test_a_form_the_plan_does_not_offer_is_refused_naming_the_field(pat):
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_file(
            filer=pat,
            membership=membership(pat, "carver-db"),
            claim_type="commencement",
            details={"commencement_date": start_date(ON), "form": "lump_sum"},
            on=ON,
        )
    assert "form" in exc.value.errors and "offers" in exc.value.errors["form"]
    assert not Claim.objects.exclude(pk__in=demo_claim_ids()).exists()


def test_loan_over_the_engine_maximum_names_the_rule(pat):
    MarketRate.objects.update_or_create(
        series="prime_rate", period=ON.replace(day=1), defaults={"percent": Decimal("6.75"), "source": "t"}
    )
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_file(
            filer=pat,
            membership=membership(pat, "carver-401k"),
            claim_type="loan",
            details={"amount": Decimal("60000"), "term_months": 60, "principal_residence": False},
            on=ON,
        )
    assert exc.value.errors["amount"].startswith("Loan amount: the most you can borrow is $50,000.00 (§8.2")


def test_loan_term_and_missing_prime_rate_are_refused(pat):
    MarketRate.objects.filter(series="prime_rate").delete()  # the demo loads assumed rates
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_file(
            filer=pat,
            membership=membership(pat, "carver-401k"),
            claim_type="loan",
            details={"amount": Decimal("5000"), "term_months": 72, "principal_residence": False},
            on=ON,
        )
    assert "§8.3" in exc.value.errors["term_months"]
    assert "no prime rate is recorded" in exc.value.errors["__all__"]


def test_hardship_after_59_half_must_use_the_withdrawal_first_and_needs_evidence(pat):
    m = membership(pat, "carver-401k")
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_file(
            filer=pat,
            membership=m,
            claim_type="hardship",
            details={
                "reason": "medical",
                "amount": Decimal("1000"),
                "representation": True,
                "payment_date": ON + timedelta(days=20),
            },
            on=ON,
        )
    assert "documents" in exc.value.errors


def test_committee_members_cannot_file_for_a_participant(pat, committee):
    with pytest.raises(PermissionDenied):
        services.claim_file(
            filer=committee,
            membership=membership(pat, "carver-db"),
            claim_type="commencement",
            details={"commencement_date": start_date(ON), "form": "js50"},
            on=ON,
        )


def test_start_review_then_deny_then_appeal_then_approve_on_review(claim, pat, committee):
    claim = services.claim_start_review(claim=claim, actor=committee, on=ON)
    assert claim.state == ClaimState.UNDER_REVIEW
    claim = deny(claim, committee, on=ON + timedelta(days=10))
    assert claim.state == ClaimState.DENIED
    assert claim.appeal_by == ON + timedelta(days=70) and claim.due_on is None
    assert claim.determinations.get().notice is not None
    claim = services.claim_appeal(claim=claim, actor=pat, statement="I am 64.", on=ON + timedelta(days=20))
    assert claim.state == ClaimState.APPEALED and claim.due_on == ON + timedelta(days=80)
    claim = services.claim_start_review(claim=claim, actor=committee, on=ON + timedelta(days=21))
    claim = services.claim_decide(
        claim=claim,
        actor=committee,
        outcome="approved",
        reasons="Proof received.",
        provisions="§7.1",
        on=ON + timedelta(days=30),
    )
    # pat is married: the commencement goes on to the §417(a)(3) explanation and spousal consent.
    assert claim.state == ClaimState.ELECTION_REQUIRED
    assert claim.next_step.startswith("Election required: §417(a)(3) explanation and spousal consent")
    actions = list(claim.events.values_list("action", flat=True))
    assert actions == [
        "filed",
        "start_review",
        "deny",
        "appealed",
        "start_appeal_review",
        "approve_on_review",
        "handed_to_election",
    ]
    assert AuditEvent.objects.filter(
        event_type__startswith="claim.", extra_data__claim_id=claim.pk
    ).count() == len(actions)


def test_cannot_decide_before_review_starts(claim, committee):
    with pytest.raises(services.ClaimActionRefused):
        deny(claim, committee)


def test_denial_needs_reasons_provisions_and_perfecting_material(claim, committee):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_decide(
            claim=claim,
            actor=committee,
            outcome="denied",
            reasons="",
            provisions="",
            perfecting_material="",
            on=ON,
        )
    assert set(exc.value.errors) == {"reasons", "provisions", "perfecting_material"}
    assert Claim.objects.get(pk=claim.pk).state == ClaimState.UNDER_REVIEW


def test_information_request_tolls_and_blocks_a_decision_until_answered(claim, pat, committee):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = services.claim_request_information(
        claim=claim,
        actor=committee,
        what="Proof of age",
        respond_by=ON + timedelta(days=30),
        extend=True,
        on=ON + timedelta(days=5),
    )
    assert claim.state == ClaimState.INFO_REQUESTED and claim.clock().paused
    assert claim.notices.get().kind == "information_request"
    with pytest.raises(services.ClaimActionRefused):
        deny(claim, committee)
    claim = services.claim_answer_information(
        claim=claim, actor=pat, response="Birth certificate attached.", on=ON + timedelta(days=15)
    )
    assert claim.state == ClaimState.UNDER_REVIEW
    assert claim.due_on == ON + timedelta(days=190)  # 90 + the 90-day extension + 10 days tolled


def test_only_the_claimant_answers_or_appeals(claim, committee, other_participant):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    services.claim_request_information(
        claim=claim, actor=committee, what="x", respond_by=ON + timedelta(days=9), on=ON
    )
    with pytest.raises(PermissionDenied):
        services.claim_answer_information(claim=claim, actor=committee, response="x", on=ON)
    with pytest.raises(PermissionDenied):
        services.claim_answer_information(claim=claim, actor=other_participant.user, response="x", on=ON)


def test_extension_sends_a_notice_and_moves_the_due_date_only_before_the_deadline(claim, committee):
    claim = services.claim_extend(
        claim=claim, actor=committee, reason="Awaiting payroll records", on=ON + timedelta(days=80)
    )
    assert claim.due_on == ON + timedelta(days=180) and claim.state == ClaimState.UNDER_REVIEW
    assert claim.notices.get().kind == "extension"
    with pytest.raises(services.ClaimActionRefused, match="No further extension"):
        services.claim_extend(claim=claim, actor=committee, reason="again", on=ON + timedelta(days=81))


def test_extension_after_the_deadline_is_refused(claim, committee):
    with pytest.raises(services.ClaimActionRefused, match="must be sent by"):
        services.claim_extend(claim=claim, actor=committee, reason="late", on=ON + timedelta(days=91))
    assert Claim.objects.get(pk=claim.pk).notices.count() == 0


def test_appeal_after_the_window_is_refused(claim, pat, committee):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = deny(claim, committee, on=ON)
    with pytest.raises(services.ClaimActionRefused, match="appeal window closed"):
        services.claim_appeal(claim=claim, actor=pat, statement="late", on=ON + timedelta(days=61))
    claim = services.claim_appeal(
        claim=Claim.objects.get(pk=claim.pk), actor=pat, statement="on time", on=ON + timedelta(days=60)
    )
    assert claim.state == ClaimState.APPEALED


def test_administrators_and_participants_cannot_decide(claim, admin_user, pat):
    for actor in (admin_user, pat):
        with pytest.raises(PermissionDenied):
            services.claim_start_review(claim=claim, actor=actor, on=ON)


def test_committee_member_without_mfa_cannot_decide(claim):
    from accounts.models import User
    from tests.factories import UserFactory

    no_mfa = UserFactory(role=User.Role.COMMITTEE)
    with pytest.raises(PermissionDenied, match="two-factor"):
        services.claim_start_review(claim=claim, actor=no_mfa, on=ON)


def test_carver_401k_appeal_must_be_reviewed_by_someone_else(pat, committee, committee2):
    MarketRate.objects.update_or_create(
        series="prime_rate", period=ON.replace(day=1), defaults={"percent": Decimal("6.75"), "source": "t"}
    )
    claim = services.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="loan",
        details={"amount": Decimal("10000"), "term_months": 24, "principal_residence": False},
        on=ON,
    )
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = deny(claim, committee)
    claim = services.claim_appeal(claim=claim, actor=pat, statement="Please reconsider", on=ON)
    with pytest.raises(PermissionDenied, match="someone other than"):
        services.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = services.claim_start_review(claim=claim, actor=committee2, on=ON)
    claim = services.claim_decide(
        claim=claim, actor=committee2, outcome="approved", reasons="ok", provisions="§8.2", on=ON
    )
    # Loan approved: note and schedule from the engine; married, so spousal consent to the loan (§7.2(a)).
    assert claim.state == ClaimState.ELECTION_REQUIRED and "spousal consent" in claim.next_step
    kinds = set(claim.notices.values_list("kind", flat=True))
    assert {"denial", "review_decision", "loan_note"} <= kinds
    note = claim.notices.get(kind="loan_note").document
    assert note.payload["loan"]["rate_percent"] == "7.75"  # 6.75 prime + 1, nearest quarter
    assert note.payload["loan"]["number_of_payments"] == 52
    assert note.payload["loan"]["payments"][-1]["balance"] == "0.00"


def test_majority_plans_record_each_vote_and_decide_on_a_majority(demo, committee, committee2):
    from benefits.models import Participant

    fairport_user = _link_user("FSB-40001")
    participant = Participant.objects.get(participant_number="FSB-40001")
    participant.termination_date = date(2026, 6, 30)
    participant.save()
    claim = services.claim_file(
        filer=fairport_user,
        membership=participant.memberships.get(),
        claim_type="esop_distribution",
        details={"commencement_date": ON + timedelta(days=40)},
        on=ON,
    )
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = services.claim_decide(
        claim=claim, actor=committee, outcome="approved", reasons="Eligible", provisions="§10.1", on=ON
    )
    assert claim.state == ClaimState.UNDER_REVIEW  # 1 of 2 votes (majority of 3 seats)
    assert claim.events.last().action == "vote_recorded"
    claim = services.claim_decide(
        claim=claim, actor=committee2, outcome="approved", reasons="Eligible", provisions="§10.1", on=ON
    )
    # Approved by the majority, then handed to the participant's distribution election (Fairport §10.1,
    # §10.6: whether all in Stock; §10.9 and Code §3405: rollover and withholding).
    assert claim.state == ClaimState.ELECTION_REQUIRED
    assert ClaimVote.objects.filter(claim=claim).count() == 2
    votes = claim.notices.get(kind="approval").document.payload["votes"]
    assert {v["member"] for v in votes} == {committee.email, committee2.email}


def test_fairport_claim_must_be_filed_30_days_before_the_start(demo):
    from benefits.models import Participant

    user = _link_user("FSB-40001")
    participant = Participant.objects.get(participant_number="FSB-40001")
    participant.termination_date = date(2026, 6, 30)
    participant.save()
    with pytest.raises(checks.ClaimInvalid) as exc:
        services.claim_file(
            filer=user,
            membership=participant.memberships.get(),
            claim_type="esop_distribution",
            details={"commencement_date": ON + timedelta(days=20)},
            on=ON,
        )
    assert "at least 30 days" in exc.value.errors["commencement_date"]


def test_fsm_refuses_a_transition_from_the_wrong_state(claim):
    with pytest.raises(TransitionNotAllowed):
        claim.approve()


def test_documents_request_produces_the_claim_file(claim, pat, committee):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = services.claim_request_documents(claim=claim, actor=pat, on=ON)
    assert claim.notices.get().kind == "claim_file" and claim.documents_requested_on == ON


def test_refresh_due_dates_moves_a_tolled_claim(claim, committee):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    services.claim_request_information(
        claim=claim, actor=committee, what="x", respond_by=ON + timedelta(days=9), extend=True, on=ON
    )
    assert services.claims_refresh_due_dates(on=ON + timedelta(days=5)) == 1
    assert Claim.objects.get(pk=claim.pk).due_on == ON + timedelta(days=185)  # 90 + 90 + 5 tolled


def _link_user(number: str):
    from accounts.models import User
    from benefits.models import Participant
    from tests.factories import UserFactory

    user = UserFactory(role=User.Role.PARTICIPANT)
    Participant.objects.filter(participant_number=number).update(user=user)
    return User.objects.get(pk=user.pk)


def test_an_overdue_claim_can_be_appealed_as_deemed_denied(claim, pat, committee):
    with pytest.raises(services.ClaimActionRefused, match="not overdue"):
        services.claim_appeal(claim=claim, actor=pat, statement="too slow", on=ON + timedelta(days=90))
    claim = services.claim_appeal(claim=claim, actor=pat, statement="too slow", on=ON + timedelta(days=91))
    assert claim.state == ClaimState.APPEALED
    assert claim.appeal_by == ON + timedelta(days=90 + 60)
    assert claim.events.last().action == "appealed_deemed_denial"
    claim = services.claim_start_review(claim=claim, actor=committee, on=ON + timedelta(days=92))
    assert claim.state == ClaimState.APPEAL_UNDER_REVIEW


def test_a_stopped_clock_is_never_overdue(claim, pat, committee):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    services.claim_request_information(
        claim=claim,
        actor=committee,
        what="x",
        respond_by=ON + timedelta(days=9),
        extend=True,
        on=ON + timedelta(days=1),
    )
    assert services.deemed_denial_since(Claim.objects.get(pk=claim.pk), on=ON + timedelta(days=200)) is None


def test_no_answer_by_the_date_restarts_the_clock_from_that_date(claim, committee):
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    services.claim_request_information(
        claim=claim,
        actor=committee,
        what="x",
        respond_by=ON + timedelta(days=30),
        extend=True,
        on=ON + timedelta(days=10),
    )
    with pytest.raises(services.ClaimActionRefused, match="has until"):
        services.claim_resume_without_answer(claim=claim, actor=committee, on=ON + timedelta(days=30))
    claim = services.claim_resume_without_answer(claim=claim, actor=committee, on=ON + timedelta(days=45))
    assert claim.state == ClaimState.UNDER_REVIEW and claim.information_due_on is None
    assert claim.due_on == ON + timedelta(days=90 + 90 + 20)  # tolled from day 10 to day 30 only
    assert claim.events.last().action == "information_not_answered"
