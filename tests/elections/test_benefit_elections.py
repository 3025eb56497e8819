"""Notices, elections and spousal consent on the demo data: the explanation's figures are the engine's,
each notice is issued once (by a database rule), an election waiving the QJSA takes effect only with a
verified consent, and the claim goes into pay."""

from __future__ import annotations

import io
import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.test import TestCase

from benefits.engine_adapter import membership_calculate
from benefits.models import AuditEvent, GeneratedDocument
from elections.benefit_elections import services
from elections.benefit_elections.explanation import ExplanationUnavailable
from elections.benefit_elections.models import (
    Election,
    Notice,
    NoticeBatch,
    NoticeBatchItem,
)
from elections.consents import services as consents
from elections.consents.models import SpousalConsent
from elections.models import Claim, ClaimState
from elections.uploads import check_upload
from tests.conftest import PASSWORD
from tests.elections.conftest import AS_OF, demo_for_the_module, membership

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)


@pytest.fixture
def admin(demo):
    from accounts.models import User

    return User.objects.get(email="admin@demo.test")


@pytest.fixture
def claim(pat):
    return Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)


def first_of_month_after(day: date, days: int) -> date:
    d = day + timedelta(days=days)
    return d if d.day == 1 else date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def asd_of(claim) -> date:
    return date.fromisoformat(claim.details["commencement_date"])


def issue(claim, on=AS_OF):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return services.notice_issue(
            membership=claim.membership, kind="qjsa_explanation", asd=asd_of(claim), on=on
        )


# ------------------------------------------------------------------------------------ the explanation


def test_explanation_figures_are_the_engines_for_that_person_and_date(claim):
    notice = issue(claim).notice
    engine = membership_calculate(claim.membership, as_of=AS_OF, commencement_dates=[asd_of(claim)])
    forms = engine["estimates"][0]["forms"]
    rows = {r["form"]: r for r in notice.content["forms"]}
    assert set(rows) == set(forms)  # the QJSA and every optional form available on the ASD
    for key, f in forms.items():
        assert rows[key]["monthly"] == f.get("monthly", "")
        assert rows[key]["survivor_monthly"] == f.get("survivor_monthly", "")
        assert rows[key]["relative_value_percent"] == f["relative_value"]["percent"]
    assert notice.content["qjsa_form"] == "js50" and rows["js50"]["is_qjsa"]  # Carver DB §7.1
    assert notice.engine_version and len(notice.engine_fingerprint) == 64


def test_approximately_equal_only_within_95_to_105_percent(claim):
    # Treas. Reg. §1.417(a)(3)-1(c)(2)(iii)(C)
    rows = issue(claim).notice.content["forms"]
    assert rows
    for r in rows:
        pct = Decimal(r["relative_value_percent"])
        assert r["approximately_equal"] == (Decimal(95) <= pct <= Decimal(105))


def test_explanation_states_rights_dates_qosa_and_deferral(claim):
    notice = issue(claim).notice
    c = notice.content
    asd = asd_of(claim)
    # Plan §7.5: 90 days; revocable until the later of the ASD and 7 days after (§1.417(e)-1(b)(3)(ii)(B)).
    assert c["window"]["period_opens"] == (asd - timedelta(days=90)).isoformat()
    assert c["window"]["revocable_until"] == asd.isoformat()
    assert c["window"]["thirty_days_end"] == (AS_OF + timedelta(days=30)).isoformat()
    assert c["qosa"]["survivor_percent"] == 75  # §417(g): QJSA survivor 50% < 75%
    deferred = membership_calculate(
        claim.membership, as_of=AS_OF, commencement_dates=[date.fromisoformat(c["deferral"]["date"])]
    )
    assert c["deferral"]["monthly"] == deferred["estimates"][0]["forms"]["js50"]["monthly"]
    document = GeneratedDocument.objects.get(pk=notice.document_id)
    assert document.status == "done" and len(document.sha256) == 64
    from pypdf import PdfReader

    from benefits.services.documents import document_bytes

    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(document_bytes(document))).pages)
    life = next(r for r in c["forms"] if r["form"] == "life")
    assert f"${Decimal(life['monthly']):,.2f}" in text
    for words in ("revoke", "spouse", "30 days", "approximately equal", "75%"):
        assert words in text, words


def test_a_plan_outside_417_gets_no_explanation(pat):
    m = membership(pat, "carver-401k")
    m.plan.key = "fairport-esop"  # rules are read by key: an ESOP outside §401(a)(11)
    with pytest.raises(ExplanationUnavailable):
        from elections.benefit_elections.explanation import qjsa_explanation

        qjsa_explanation(m, asd=date(2027, 1, 1), explained_on=AS_OF)


# ------------------------------------------------------------------------------------ exactly once


def test_the_database_refuses_a_second_notice_of_the_same_version(claim):
    notice = issue(claim).notice
    with pytest.raises(IntegrityError), transaction.atomic():
        Notice.objects.create(
            participant=notice.participant,
            plan=notice.plan,
            membership=notice.membership,
            kind=notice.kind,
            asd=notice.asd,
            version=1,
            issued_on=AS_OF,
        )
    again = issue(claim)
    assert not again.created and again.notice.pk == notice.pk


def test_issue_notices_command_twice_issues_then_nothing(claim):
    out = io.StringIO()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("issue_notices", "carver-db", "--json", stdout=out)
    first = json.loads(out.getvalue().strip().splitlines()[-1])
    assert first["issued"] >= 1 and first["already_issued"] == 0
    assert Notice.objects.filter(participant=claim.participant).count() == 1
    out = io.StringIO()
    call_command("issue_notices", "carver-db", "--json", stdout=out)
    second = json.loads(out.getvalue().strip().splitlines()[-1])
    assert second["issued"] == 0 and second["already_issued"] == first["issued"]
    assert Notice.objects.count() == first["issued"]


def test_batch_lists_failures_with_reasons_and_retries_them(claim, admin, monkeypatch):
    from elections.benefit_elections import explanation

    real = explanation.build

    def broken(kind, m, **kw):
        raise ExplanationUnavailable("the 30-year Treasury rate for that month is missing")

    monkeypatch.setattr(explanation, "build", broken)
    batch = NoticeBatch.objects.create(plan=claim.membership.plan, rule="awaiting_election", as_of=AS_OF)
    services.batch_run(batch.pk)
    item = batch.items.get()
    assert item.state == NoticeBatchItem.State.FAILED and "Treasury" in item.failure_reason
    monkeypatch.setattr(explanation, "build", real)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.batch_retry_failed(batch=batch, actor=None)
    item.refresh_from_db()
    assert item.state == NoticeBatchItem.State.ISSUED and item.notice is not None
    assert AuditEvent.objects.filter(event_type="notice_batch.retried").exists()


def test_a_resumed_batch_issues_only_what_is_pending(claim):
    batch = NoticeBatch.objects.create(plan=claim.membership.plan, rule="awaiting_election", as_of=AS_OF)
    services.batch_select(batch)
    item = batch.items.get()
    item.state = NoticeBatchItem.State.ISSUED  # as if a worker finished it before being killed
    item.save()
    services.batch_run(batch.pk)
    assert not Notice.objects.exists()
    assert NoticeBatch.objects.get(pk=batch.pk).state == NoticeBatch.State.DONE


# ------------------------------------------------------------------------------------ election + consent


def elect(claim, user, *, form="life", on=AS_OF, waive=False, beneficiaries=None):
    draft = ready_draft(claim, user, form=form, on=on, waive=waive, beneficiaries=beneficiaries)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return services.election_sign(draft=draft, user=user, password=DEMO_PASSWORD, on=on)


def ready_draft(claim, user, *, form="life", on=AS_OF, waive=False, beneficiaries=None):
    """A draft with the explanation read, the form and the payment chosen: ready to sign."""
    issue(claim, on=on)
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = services.draft_start(user=user, membership=claim.membership, asd=asd_of(claim), claim=claim)
        services.draft_explanation_read(draft=draft, user=user)
    answers = {"form": form, "waive_30_days": waive}
    if beneficiaries:
        answers["beneficiaries"] = beneficiaries
    services.draft_save(draft=draft, user=user, step="form", answers=answers)
    services.draft_save(
        draft=draft,
        user=user,
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


def upload_consent(election, user, **overrides):
    consent = election.consents.get(state=SpousalConsent.State.AWAITING_FORM)
    details = {
        "signed_on": AS_OF + timedelta(days=2),
        "witness": "notary",
        "witness_name": "Alex Rivera",
        "notary_commission_number": "01RI6123456",
        "notary_commission_state": "NY",
        "notary_commission_expires": date(2028, 6, 30),
        "witnessing": "in_person",
    }
    details.update(overrides)
    return consents.consent_upload(
        consent=consent,
        user=user,
        upload=check_upload(SimpleUploadedFile("consent.pdf", PDF)),
        details=details,
    )


def test_waiving_the_qjsa_takes_effect_only_with_a_verified_consent(claim, pat, admin):
    election = elect(claim, pat, form="life")
    assert election.needs_consent and election.state == Election.State.AWAITING_CONSENT
    consent = election.consents.get()
    assert GeneratedDocument.objects.get(pk=consent.form_document_id).status == "done"
    claim.refresh_from_db()
    assert claim.state == ClaimState.ELECTION_REQUIRED
    consent = upload_consent(election, pat)
    election.refresh_from_db()
    assert election.state == Election.State.AWAITING_CONSENT  # uploaded is not verified
    consents.consent_verify(consent=consent, actor=admin, on=AS_OF + timedelta(days=3))
    election.refresh_from_db()
    claim.refresh_from_db()
    assert election.state == Election.State.EFFECTIVE
    assert claim.state == ClaimState.PAYMENT_SCHEDULED and claim.next_step.startswith("Scheduled for")
    types = set(AuditEvent.objects.values_list("event_type", flat=True))
    assert {
        "election.signed",
        "consent.uploaded",
        "consent.verified",
        "election.effective",
        "claim.election_effective",
    } <= types


def test_the_qjsa_itself_needs_no_consent_and_takes_effect(claim, pat):
    election = elect(claim, pat, form="js50")
    assert not election.needs_consent and election.state == Election.State.EFFECTIVE
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED  # "in pay" only once the first payment is confirmed


def test_a_non_spouse_beneficiary_needs_consent(claim, pat):
    election = elect(
        claim,
        pat,
        form="cc10",
        beneficiaries=[{"name": "Sam Morgan", "relationship": "child", "percent": "100", "kind": "primary"}],
    )
    assert election.needs_consent and any("Sam Morgan" in r for r in election.consent_reasons)


def test_an_invalid_election_is_refused_whole_naming_the_field(claim, pat):
    issue(claim)
    draft = services.draft_start(user=pat, membership=claim.membership, asd=asd_of(claim), claim=claim)
    services.draft_explanation_read(draft=draft, user=pat)
    services.draft_save(draft=draft, user=pat, step="form", answers={"form": "cc10"})
    with pytest.raises(services.ElectionInvalid) as exc:
        services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=AS_OF)
    assert {"beneficiaries", "payment_method"} <= set(exc.value.errors)
    assert "100" not in exc.value.errors["payment_method"]
    assert not Election.objects.exists()
    with pytest.raises(services.ElectionInvalid) as exc:
        services.election_sign(draft=draft, user=pat, password="wrong", on=AS_OF)
    assert set(exc.value.errors) == {"password"}


def test_a_single_sum_paid_to_the_participant_withholds_at_least_20_percent(claim, pat):
    issue(claim)
    draft = services.draft_start(user=pat, membership=claim.membership, asd=asd_of(claim), claim=claim)
    services.draft_explanation_read(draft=draft, user=pat)
    draft.notice.content["forms"].append({"form": "lump_sum", "label": "Lump sum", "lump_sum": "100000.00"})
    services.draft_save(draft=draft, user=pat, step="form", answers={"form": "lump_sum"})
    services.draft_save(
        draft=draft,
        user=pat,
        step="payment",
        answers={
            "payment_method": "direct_deposit",
            "payment": {},
            "withholding": {"form": "W-4R", "w4r_rate": "10"},
        },
    )
    errors = services.validate_election(draft, on=AS_OF)
    assert "withholding" in errors and "20%" in errors["withholding"]  # Code §3405(c)
    draft.answers["withholding"]["w4r_rate"] = "20"
    assert "withholding" not in services.validate_election(draft, on=AS_OF)


def test_every_version_is_kept_and_never_edited(claim, pat):
    first = elect(claim, pat, form="life")
    second = elect(claim, pat, form="js50")
    first.refresh_from_db()
    assert (first.version, second.version) == (1, 2)
    assert first.state == Election.State.SUPERSEDED and first.superseded_by_id == second.pk
    first.form = "js100"
    with pytest.raises(ValueError):
        first.save()


def test_revocation_moves_the_claim_back(claim, pat):
    election = elect(claim, pat, form="js50")
    services.election_revoke(election=election, user=pat, on=asd_of(claim))  # the ASD: still revocable
    claim.refresh_from_db()
    assert claim.state == ClaimState.ELECTION_REQUIRED
    with pytest.raises(services.ElectionInvalid):
        services.election_revoke(election=election, user=pat, on=asd_of(claim))


def test_revoking_after_the_asd_is_refused(claim, pat):
    election = elect(claim, pat, form="js50")
    with pytest.raises(services.ElectionInvalid) as exc:
        services.election_revoke(election=election, user=pat, on=asd_of(claim) + timedelta(days=1))
    assert "revoke" in exc.value.errors


def test_consent_upload_outside_the_period_or_without_witness_is_refused(claim, pat):
    election = elect(claim, pat, form="life")
    with pytest.raises(services.ElectionInvalid) as exc:
        upload_consent(election, pat, signed_on=asd_of(claim) + timedelta(days=1))
    assert "signed_on" in exc.value.errors
    with pytest.raises(services.ElectionInvalid) as exc:
        upload_consent(election, pat, witness_name="")
    assert "witness" in exc.value.errors
    with pytest.raises(services.ElectionInvalid) as exc:
        upload_consent(election, pat, witnessing="remote")
    assert "witnessing" in exc.value.errors


def test_a_consent_does_not_bind_a_later_spouse(claim, pat, admin):
    election = elect(claim, pat, form="life")
    consent = upload_consent(election, pat)
    participant = election.participant
    participant.spouse_name = "Casey Other"
    participant.save()
    with pytest.raises(services.ElectionInvalid) as exc:
        consents.consent_verify(consent=consent, actor=admin)
    assert "spouse" in exc.value.errors
    election.refresh_from_db()
    assert election.state == Election.State.AWAITING_CONSENT


def test_an_exception_needs_the_administrators_certification(claim, pat, admin):
    election = elect(claim, pat, form="life")
    with pytest.raises(services.ElectionInvalid) as exc:
        consents.consent_exception_certify(
            election=election, actor=admin, exception="cannot_locate", certification=""
        )
    assert "certification" in exc.value.errors
    with pytest.raises(PermissionDenied):
        consents.consent_exception_certify(
            election=election, actor=pat, exception="cannot_locate", certification="x" * 40
        )
    consents.consent_exception_certify(
        election=election,
        actor=admin,
        exception="legal_separation",
        certification="Order of legal separation, Kings County Supreme Court, index 12345/2025, dated March 3, 2025.",
    )
    election.refresh_from_db()
    assert election.state == Election.State.EFFECTIVE


def test_only_the_participant_elects(claim, admin, other_participant):
    issue(claim)
    with pytest.raises(PermissionDenied):
        services.draft_start(user=other_participant.user, membership=claim.membership, asd=asd_of(claim))
    with pytest.raises(PermissionDenied):
        services.draft_start(user=admin, membership=claim.membership, asd=asd_of(claim))


def test_password_is_checked_against_the_account(pat):
    assert pat.check_password(DEMO_PASSWORD) and not pat.check_password(PASSWORD)


def test_from_the_modelers_date_the_explanation_is_given_first(client, pat):
    from django.urls import reverse

    from benefits.engine.elections import election_rules
    from elections.benefit_elections.presenters import electable_dates

    m = membership(pat, "carver-db")
    asd, late = first_of_month_after(services.today(), 40), first_of_month_after(services.today(), 100)
    result = membership_calculate(m, as_of=services.today(), commencement_dates=[asd, late])
    offered = [d for d, _ in electable_dates(election_rules(m.plan.key), result)]
    assert asd.isoformat() in offered and late.isoformat() not in offered  # beyond the plan's 90 days (§7.5)
    client.force_login(pat)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(reverse("elections:election_start", args=[m.pk]), {"asd": asd.isoformat()})
    assert response.status_code == 302 and "/explanation/" in response["Location"]  # the explanation first
    notice = Notice.objects.get(membership=m, asd=asd)
    assert notice.issued_by == pat and notice.issued_on == services.today()
    page = client.get(response["Location"]).content.decode()
    assert "Single life annuity" in page and "$" in page


def test_a_new_election_replaces_the_one_in_pay(claim, pat):
    first = elect(claim, pat, form="js50")
    second = elect(claim, pat, form="js100")
    first.refresh_from_db()
    claim.refresh_from_db()
    assert first.state == Election.State.SUPERSEDED and second.state == Election.State.EFFECTIVE
    assert claim.state == ClaimState.PAYMENT_SCHEDULED and "100% joint and survivor" in claim.next_step


def test_qpsa_explanation_and_rollover_notice_through_the_same_machinery(pat):
    from benefits.models import PlanMembership

    m = membership(pat, "carver-db")
    with TestCase.captureOnCommitCallbacks(execute=True):
        qpsa = services.notice_issue(
            membership=m, kind="qpsa_explanation", asd=date(1997, 1, 1), on=AS_OF
        ).notice
    accrued = membership_calculate(m, as_of=AS_OF)["accrued_benefit"]
    assert qpsa.content["vested_monthly_at_nrd"] == accrued["vested_monthly_at_nrd"]
    assert GeneratedDocument.objects.get(pk=qpsa.document_id).status == "done"

    cash_balance = PlanMembership.objects.filter(plan__key="quaker-cash-balance").first()
    asd = date(2027, 1, 1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        notice = services.notice_issue(
            membership=cash_balance, kind="rollover_402f", asd=asd, on=AS_OF
        ).notice
    engine = membership_calculate(cash_balance, as_of=AS_OF, commencement_dates=[asd])
    assert notice.content["amount"] == engine["estimates"][0]["forms"]["lump_sum"]["lump_sum"]
    assert notice.content["mandatory_withholding_percent"] == "20"  # Code §3405(c)
    assert GeneratedDocument.objects.get(pk=notice.document_id).status == "done"


def test_a_double_click_on_sign_makes_one_election(claim, pat, client):
    """Issue 15: signing carries a one-time token; the second submit of the same form shows the first
    election and creates no second version."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    import time_machine
    from django.urls import reverse

    from tests.conftest import token

    issue(claim)
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = services.draft_start(user=pat, membership=claim.membership, asd=asd_of(claim), claim=claim)
        services.draft_explanation_read(draft=draft, user=pat)
    services.draft_save(draft=draft, user=pat, step="form", answers={"form": "life", "waive_30_days": False})
    services.draft_save(
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
    client.force_login(pat)
    url = reverse("elections:election_sign", args=[draft.pk])
    data = {"password": DEMO_PASSWORD, "confirm": "on", "submission_token": token()}
    noon = datetime(AS_OF.year, AS_OF.month, AS_OF.day, 12, tzinfo=ZoneInfo("America/New_York"))
    with time_machine.travel(noon, tick=False):
        first = client.post(url, data)
        second = client.post(url, data)
    election = Election.objects.get(membership=claim.membership)
    assert first["Location"] == second["Location"] == reverse("elections:election_detail", args=[election.pk])


def test_the_committee_reads_the_consent_on_file_not_a_guess(claim, pat, admin):
    """The claim page's "Spousal consent" line follows the stored records: no election yet, then the
    signed election's consent from requested to received to verified (Code §417(a)(2))."""
    from elections.claims.views import _participant_facts

    def status() -> str:
        claim.refresh_from_db()
        return dict(_participant_facts(claim))["Spousal consent"]

    assert status().startswith("No election signed yet")
    election = elect(claim, pat, form="life")
    assert status().startswith("Needed and not yet received")
    consent = upload_consent(election, pat)
    assert status().startswith("Signed form received on")
    consents.consent_verify(consent=consent, actor=admin, on=AS_OF + timedelta(days=3))
    assert status().startswith("Given: the spouse's signed, witnessed consent was verified")


def test_the_committee_reads_that_the_qjsa_needs_no_consent(claim, pat):
    from elections.claims.views import _participant_facts

    elect(claim, pat, form="js50")
    claim.refresh_from_db()
    assert dict(_participant_facts(claim))["Spousal consent"].startswith(
        "Not needed for the election signed on"
    )


def test_a_claim_without_an_election_needs_no_consent(claim):
    """A claim the plan settles without an election (here one filed by the surviving spouse) asks
    for no consent: the committee reads that rather than the election's rule."""
    from elections.claims.views import _participant_facts

    Claim.objects.filter(pk=claim.pk).update(claimant_relationship="spouse")
    claim.refresh_from_db()
    assert dict(_participant_facts(claim))["Spousal consent"] == "Not needed for this kind of claim."
