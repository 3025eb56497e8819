"""One commencement per benefit, and account claims within what the plan allows after what is already
pending (issue 22). The race versions are in test_one_benefit_parallel.py.

Pat's 401(k) on the demo date (the engine, from the demo balances): vested balance and §8.2(a) loan
base $243,525.00, no loan in the last 12 months, so the §8.2 maximum is the lesser of 50% × $243,525.00
= $121,762.50 and $50,000 − $0 = $50,000.00.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.test import TestCase
from django.urls import reverse

from benefits.engine_adapter import membership_calculate
from benefits.models import MarketRate
from elections.benefit_elections import services as election_services
from elections.benefit_elections.models import Election
from elections.claims import checks, services
from elections.models import Claim, ClaimState, ClaimType
from tests.conftest import login_with_totp
from tests.elections.conftest import (
    AS_OF,
    clear_demo_claims,
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
DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)


def _commence(pat, on=ON):
    return services.claim_file(
        filer=pat,
        membership=membership(pat, "carver-db"),
        claim_type=ClaimType.COMMENCEMENT,
        details={"commencement_date": start_date(on), "form": "js50"},
        on=on,
    )


# ------------------------------------------------------------------------------------ one commencement


def test_a_second_commencement_claim_is_refused_naming_the_first(pat):
    first = Claim.objects.get(pk__in=demo_claim_ids())
    with pytest.raises(checks.ClaimInvalid) as exc:
        _commence(pat)
    assert exc.value.errors["__all__"] == (
        f"You already have a claim to start this benefit, filed on November 21, 2026 (claim {first.pk}: "
        "start of benefit payments, approved: election required). A benefit can be started only once: "
        "follow that claim instead of filing another."
    )
    assert Claim.objects.filter(membership=first.membership).count() == 1


def test_the_database_itself_refuses_a_second_open_commencement(pat):
    first = Claim.objects.get(pk__in=demo_claim_ids())
    second = Claim.objects.get(pk=first.pk)
    second.pk = None
    with pytest.raises(IntegrityError, match="one_commencement_claim_per_benefit"), transaction.atomic():
        second.save()


def test_a_denied_claim_frees_the_benefit_and_cannot_then_be_appealed_beside_the_new_one(pat, committee):
    denied = file_db_claim(pat, on=ON)
    services.claim_start_review(claim=denied, actor=committee, on=ON)
    denied = services.claim_decide(
        claim=denied,
        actor=committee,
        outcome="denied",
        reasons="Not yet eligible.",
        provisions="§13.7(A)",
        perfecting_material="Proof of age.",
        on=ON,
    )
    again = _commence(pat)  # a denial no longer holds the benefit
    with pytest.raises(services.ClaimActionRefused, match=f"filed on November 21, 2026 \\(claim {again.pk}"):
        services.claim_appeal(claim=denied, actor=pat, statement="Please look again.", on=ON)
    denied.refresh_from_db()
    assert denied.state == ClaimState.DENIED


# ------------------------------------------------------------------------------------ elections


def _elect(claim, pat, form):
    asd = date.fromisoformat(claim.details["commencement_date"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = election_services.draft_start(user=pat, membership=claim.membership, asd=asd, claim=claim)
    election_services.draft_explanation_read(draft=draft, user=pat)  # read before the signature
    election_services.draft_save(draft=draft, user=pat, step="form", answers={"form": form})
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
    with TestCase.captureOnCommitCallbacks(execute=True):
        return election_services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD)


def test_a_new_election_before_the_start_date_supersedes_the_old_never_adds_a_second(pat):
    claim = Claim.objects.get(pk__in=demo_claim_ids())
    first = _elect(claim, pat, "js50")
    second = _elect(claim, pat, "life")
    first.refresh_from_db()
    assert first.state == Election.State.SUPERSEDED and first.superseded_by_id == second.pk
    in_force = Election.objects.filter(
        membership=claim.membership, state__in=("awaiting_consent", "waiting_period", "effective")
    )
    assert list(in_force) == [second]


def test_an_election_started_without_a_claim_is_made_for_the_approved_claim(pat):
    claim = Claim.objects.get(pk__in=demo_claim_ids())
    asd = date.fromisoformat(claim.details["commencement_date"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = election_services.draft_start(user=pat, membership=claim.membership, asd=asd)
    assert draft.claim_id == claim.pk


def test_no_election_for_a_db_benefit_without_a_claim_the_plan_decided(pat):
    m = membership(pat, "carver-db")
    clear_demo_claims(m)
    with pytest.raises(election_services.ElectionInvalid) as exc:
        election_services.draft_start(user=pat, membership=m, asd=start_date(services.today()))
    assert exc.value.errors["claim"].startswith("File a claim to start this benefit first")
    waiting = _commence(pat, on=services.today())  # filed, not yet decided
    with pytest.raises(election_services.ElectionInvalid) as exc:
        election_services.draft_start(user=pat, membership=m, asd=start_date(services.today()))
    assert f"(claim {waiting.pk}: start of benefit payments, received)" in exc.value.errors["claim"]


# ------------------------------------------------------------------------------------ account limits


@pytest.fixture
def prime(demo):
    MarketRate.objects.update_or_create(
        series="prime_rate", period=ON.replace(day=1), defaults={"percent": Decimal("6.75"), "source": "t"}
    )


def _k(pat):
    return membership(pat, "carver-401k")


def _loan(pat, amount: str, on=ON):
    return services.claim_file(
        filer=pat,
        membership=_k(pat),
        claim_type=ClaimType.LOAN,
        details={"amount": Decimal(amount), "term_months": 60, "principal_residence": False},
        on=on,
    )


def _withdrawal(pat, amount: str):
    return services.claim_file(
        filer=pat,
        membership=_k(pat),
        claim_type=ClaimType.WITHDRAWAL_59HALF,
        details={"amount": Decimal(amount), "payment_date": ON + timedelta(days=30)},
        on=ON,
    )


def test_the_engine_figures_these_tests_work_from(pat):
    loan = membership_calculate(_k(pat), as_of=ON)["loan"]
    assert (loan["base"], loan["dollar_cap"], loan["maximum_new_loan"]) == (
        "243525.00",
        "50000.00",
        "50000.00",
    )


def test_a_second_loan_is_refused_while_the_first_is_pending(pat, prime):
    first = _loan(pat, "50000")
    with pytest.raises(checks.ClaimInvalid) as exc:
        _loan(pat, "50000")
    assert exc.value.errors["amount"] == (
        f"Loan: you already have claim {first.pk} (loan (401(k)) of $50,000.00, filed on November 21, 2026); "
        "the plan allows only one loan at a time (§8.4(f))."
    )


def test_a_pending_withdrawal_lowers_the_50_percent_limit(pat, prime):
    # §8.2(a): 50% of the loan base after the pending $150,000.00 leaves the accounts:
    # ($243,525.00 − $150,000.00) / 2 = $46,762.50, below §8.2(b)'s $50,000.00.
    _withdrawal(pat, "150000")
    with pytest.raises(checks.ClaimInvalid) as exc:
        _loan(pat, "46762.51")
    assert exc.value.errors["amount"].startswith(
        "Loan amount: the most you can borrow now is $46,762.50 after $150,000.00 in claims not yet paid (§8.2"
    )
    assert Decimal(_loan(pat, "46762.50").details["amount"]) == Decimal("46762.50")


def test_the_highest_balance_of_the_last_12_months_lowers_the_dollar_limit(pat, prime):
    # §8.2(b): $50,000 reduced by the highest outstanding balance in the preceding 12 months ($20,000):
    # $30,000.00, below §8.2(a)'s ($243,525.00 − $10,000.00) / 2 = $116,762.50 after a pending withdrawal.
    m = _k(pat)
    m.plan_data = {
        **m.plan_data,
        "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "20000.00"},
    }
    m.save(update_fields=["plan_data"])
    _withdrawal(pat, "10000")
    with pytest.raises(checks.ClaimInvalid) as exc:
        _loan(pat, "30000.01")
    assert "$30,000.00" in exc.value.errors["amount"]
    _loan(pat, "30000.00")


def test_a_pending_loan_lowers_the_withdrawal_limit(pat, prime):
    # §7.3: the vested interest in the Net Value of the Accounts, $243,525.00, less the $50,000.00 loan
    # not yet made: $193,525.00.
    _loan(pat, "50000")
    with pytest.raises(checks.ClaimInvalid) as exc:
        _withdrawal(pat, "193525.01")
    assert exc.value.errors["amount"].startswith(
        "Amount: the most you can withdraw now is $193,525.00 after $50,000.00 in claims not yet paid (§7.3"
    )
    _withdrawal(pat, "193525.00")


def test_the_limit_is_checked_again_at_approval(pat, committee, prime):
    loan = _loan(pat, "40000")
    services.claim_start_review(claim=loan, actor=committee, on=ON)
    # Between filing and decision the books show a $20,000 loan in the last 12 months (§8.2(b)):
    # $50,000 − $20,000 = $30,000.00 is now the most, below the $40,000 asked for.
    m = _k(pat)
    m.plan_data = {
        **m.plan_data,
        "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "20000.00"},
    }
    m.save(update_fields=["plan_data"])
    with pytest.raises(services.ClaimActionRefused, match=r"the most you can borrow now is \$30,000.00"):
        services.claim_decide(
            claim=loan, actor=committee, outcome="approved", reasons="", provisions="§8.2", on=ON
        )
    loan.refresh_from_db()
    assert loan.state == ClaimState.UNDER_REVIEW


def test_two_loans_filed_before_the_fix_cannot_both_be_approved(pat, committee, prime):
    a = _loan(pat, "50000")
    b = Claim.objects.get(pk=a.pk)
    b.pk = None
    b.save()  # as the bug let it be filed
    for c in (a, b):
        services.claim_start_review(claim=c, actor=committee, on=ON)
    services.claim_decide(claim=a, actor=committee, outcome="approved", reasons="", provisions="§8.2", on=ON)
    with pytest.raises(services.ClaimActionRefused, match=r"only one loan at a time \(§8.4\(f\)\)"):
        services.claim_decide(
            claim=b, actor=committee, outcome="approved", reasons="", provisions="§8.2", on=ON
        )


# ------------------------------------------------------------------------------------ pages


def test_the_committee_claim_page_lists_the_participants_other_claims_and_benefits(
    client, pat, committee2, prime
):
    loan = _loan(pat, "20000")
    withdrawal = _withdrawal(pat, "10000")
    assert login_with_totp(client, committee2).status_code == 302
    html = client.get(reverse("elections:claim_detail", args=[loan.pk])).content.decode()
    assert "Other claims and benefits under this plan" in html
    assert reverse("elections:claim_detail", args=[withdrawal.pk]) in html
    # The other claim's status reads as a sentence for the committee (issue 25 item 4).
    received = (
        f"Received on {withdrawal.received_on:%B} {withdrawal.received_on.day}, {withdrawal.received_on.year}"
    )
    assert "$10,000.00" in html and f"{received}: review not started" in html
    # The DB plan's page shows the DB claim's own plan only: the 401(k) claims are not listed there.
    db_claim = Claim.objects.get(pk__in=demo_claim_ids())
    html = client.get(reverse("elections:claim_detail", args=[db_claim.pk])).content.decode()
    assert reverse("elections:claim_detail", args=[withdrawal.pk]) not in html
    assert "this is the participant&#x27;s only open claim" in html or "only open claim" in html


def _modeler_run(pat, start):
    from benefits.services import modeler as portal_services

    with TestCase.captureOnCommitCallbacks(execute=True):
        run = portal_services.modeler_run_create(
            membership=membership(pat, "carver-db"),
            actor=pat,
            inputs={"commencement_dates": [start.isoformat()]},
            as_of=services.today(),
        )
    run.refresh_from_db()
    assert run.status == run.Status.DONE, run.error
    return run


def test_the_modeler_files_a_claim_the_committee_decides_and_offers_no_second_start(client, pat, committee2):
    m = membership(pat, "carver-db")
    clear_demo_claims(m)
    start = start_date(services.today())
    run = _modeler_run(pat, start)
    client.force_login(pat)
    page = reverse("benefits:modeler_run", args=[m.participant_id, run.pk])
    html = client.get(page).content.decode()
    action = reverse("elections:claim_from_modeler", args=[m.pk])
    assert action in html and "File my claim to start payments" in html
    response = client.post(
        action,
        {"asd": start.isoformat(), "form": "js50", "back": page, "submission_token": "8" * 32},
    )
    claim = Claim.objects.get(membership=m)
    assert response.status_code == 302 and response["Location"] == reverse(
        "elections:claim_detail", args=[claim.pk]
    )
    assert claim.claim_type == ClaimType.COMMENCEMENT and claim.state == ClaimState.RECEIVED
    assert claim.details == {"commencement_date": start.isoformat(), "form": "js50"}
    assert not Election.objects.filter(membership=m).exists()  # nothing is elected before the decision
    # The modeler now says what exists, with a link, and offers no new start.
    html = client.get(page).content.decode()
    assert action not in html
    assert "You already have a claim to start this benefit" in html
    assert reverse("elections:claim_detail", args=[claim.pk]) in html
    # The committee sees it in its queue.
    client.logout()
    assert login_with_totp(client, committee2).status_code == 302
    queue = client.get(reverse("elections:committee_queue")).content.decode()
    assert reverse("elections:claim_detail", args=[claim.pk]) in queue


def test_the_claim_pages_offer_only_what_is_left_after_pending_claims(client, pat, prime):
    loan = _loan(pat, "20000")
    client.force_login(pat)
    k = _k(pat)
    html = client.get(reverse("elections:claim_new", args=[k.pk, "loan"])).content.decode()
    # §8.4(f): one loan at a time, so nothing more is offered while the $20,000 loan is pending.
    assert f"claim {loan.pk} (loan (401(k)) of $20,000.00, filed on November 21, 2026)" in html
    assert "Most you can borrow (§8.2)" in html and "$0.00" in html and "$50,000.00" not in html
    html = client.get(reverse("elections:claim_new", args=[k.pk, "withdrawal_59half"])).content.decode()
    # §7.3: $243,525.00 less the $20,000.00 the loan takes out of the accounts.
    assert "$223,525.00" in html


def test_the_claim_form_says_the_benefit_is_already_claimed(client, pat):
    first = Claim.objects.get(pk__in=demo_claim_ids())
    client.force_login(pat)
    url = reverse("elections:claim_new", args=[first.membership_id, "commencement"])
    html = client.get(url).content.decode()
    assert "You already have a claim to start this benefit, filed on November 21, 2026" in html
    assert reverse("elections:claim_detail", args=[first.pk]) in html
