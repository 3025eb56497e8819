"""Elections and consents acted on by two people at once (issue 30), with real parallel requests:
threads with their own PostgreSQL connections, committing for real.

Each racing change locks its row and checks the state again under the lock, so the loser gets a plain
refusal and changes nothing, and the invariants hold whatever the timing: an election is revoked exactly
when its claim is not in pay; each draft is signed once; one upload per consent (one row, one file, one
audit event)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from benefits.audit import AuditEventType
from benefits.models import AuditEvent
from elections.benefit_elections import services
from elections.benefit_elections.models import Election, ElectionDraft
from elections.consents import services as consents
from elections.consents.models import SpousalConsent
from elections.models import Claim, ClaimState
from elections.uploads import check_upload
from tests.elections.conftest import AS_OF
from tests.elections.test_benefit_elections import ready_draft
from tests.parallel import run_together

pytestmark = pytest.mark.django_db(transaction=True)

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)
VERIFIED_ON = AS_OF + timedelta(days=3)


@pytest.fixture
def admin(demo):
    from accounts.models import User

    return User.objects.get(email="admin@demo.test")


@pytest.fixture
def claim(pat):
    return Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)


def _asd(claim) -> date:
    return date.fromisoformat(claim.details["commencement_date"])


def _draft(claim, user, *, form: str) -> ElectionDraft:
    return ready_draft(claim, user, form=form, on=AS_OF)


def _sign(draft, user) -> Election:
    return services.election_sign(draft=draft, user=user, password=DEMO_PASSWORD, on=AS_OF)


def _upload(consent, user):
    return consents.consent_upload(
        consent=consent,
        user=user,
        upload=check_upload(SimpleUploadedFile("consent.pdf", PDF)),
        details={
            "signed_on": AS_OF + timedelta(days=2),
            "witness": "notary",
            "witness_name": "Alex Rivera",
            "notary_commission_number": "01RI6123456",
            "notary_commission_state": "NY",
            "notary_commission_expires": date(2028, 6, 30),
            "witnessing": "in_person",
        },
    )


def _events(event_type) -> int:
    return AuditEvent.objects.filter(event_type=event_type).count()


def _outcome(result) -> str:
    if isinstance(result, services.ElectionInvalid):
        return "refused"
    assert not isinstance(result, BaseException), repr(result)  # a plain refusal or success, never an error
    return "done"


# ------------------------------------------------------------------------------------ verify vs revoke


@pytest.mark.parametrize(
    ("verify_delay", "revoke_delay"),
    [(0, 0), (0, 0.04), (0, 0.08), (0.04, 0), (0.08, 0), (0, 0.2)],
    ids=["same-instant", "revoke+40ms", "revoke+80ms", "verify+40ms", "verify+80ms", "revoke+200ms"],
)
def test_verification_against_revocation_ends_consistent_in_every_timing(
    claim, pat, admin, verify_delay, revoke_delay
):
    election = _sign(_draft(claim, pat, form="life"), pat)  # waives the QJSA: needs the spouse's consent
    assert election.state == Election.State.AWAITING_CONSENT
    consent = _upload(election.consents.get(), pat)

    def verify():
        return consents.consent_verify(
            consent=SpousalConsent.objects.get(pk=consent.pk), actor=admin, on=VERIFIED_ON
        )

    def revoke():
        return services.election_revoke(election=Election.objects.get(pk=election.pk), user=pat)

    verified, revoked = run_together(verify, revoke, delays=(verify_delay, revoke_delay))
    election.refresh_from_db()
    claim.refresh_from_db()
    consent.refresh_from_db()
    # The participant's revocation always stands (no consent is needed to revoke, and it is never lost).
    assert _outcome(revoked) == "done"
    assert election.state == Election.State.REVOKED and election.revoked_at is not None
    # Revoked ⇔ its claim is not in pay.
    assert claim.state == ClaimState.ELECTION_REQUIRED
    assert _events(AuditEventType.ELECTION_REVOKED) == 1
    if _outcome(verified) == "done":  # verified first: effective, in pay, then revoked and back
        assert consent.state == SpousalConsent.State.VERIFIED and election.effective_at is not None
        assert _events(AuditEventType.CONSENT_VERIFIED) == 1
        assert _events(AuditEventType.ELECTION_EFFECTIVE) == 1
        assert _events(AuditEventType.CLAIM_ELECTION_EFFECTIVE) == 1
        assert _events(AuditEventType.CLAIM_ELECTION_REVOKED) == 1
    else:  # revoked first: the verification is refused and changes nothing
        assert consent.state == SpousalConsent.State.AWAITING_VERIFICATION and consent.verified_at is None
        assert election.effective_at is None
        assert _events(AuditEventType.CONSENT_VERIFIED) == 0
        assert _events(AuditEventType.ELECTION_EFFECTIVE) == 0
        assert _events(AuditEventType.CLAIM_ELECTION_EFFECTIVE) == 0
        assert _events(AuditEventType.CLAIM_ELECTION_REVOKED) == 0


def test_revoking_twice_at_once_revokes_once(claim, pat):
    election = _sign(_draft(claim, pat, form="js50"), pat)  # the QJSA: effective at once, in pay
    claim.refresh_from_db()
    # Effective: its payment is scheduled ("in pay" only once the paying agent confirms a payment).
    assert election.state == Election.State.EFFECTIVE and claim.state == ClaimState.PAYMENT_SCHEDULED

    def revoke():
        return services.election_revoke(election=Election.objects.get(pk=election.pk), user=pat)

    outcomes = sorted(_outcome(r) for r in run_together(revoke, revoke))
    assert outcomes == ["done", "refused"]
    election.refresh_from_db()
    claim.refresh_from_db()
    assert election.state == Election.State.REVOKED and claim.state == ClaimState.ELECTION_REQUIRED
    assert _events(AuditEventType.ELECTION_REVOKED) == 1
    assert _events(AuditEventType.CLAIM_ELECTION_REVOKED) == 1


# ------------------------------------------------------------------------------------ signing


def test_one_election_signed_in_two_windows_at_once_records_one_version(claim, pat):
    draft = _draft(claim, pat, form="js50")

    def sign():
        return _sign(ElectionDraft.objects.get(pk=draft.pk), pat)

    outcomes = sorted(_outcome(r) for r in run_together(sign, sign))
    assert outcomes == ["done", "refused"]
    (election,) = Election.objects.filter(membership=claim.membership)
    assert election.version == 1 and election.state == Election.State.EFFECTIVE
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED  # in pay once the paying agent confirms
    assert _events(AuditEventType.ELECTION_SIGNED) == 1
    assert _events(AuditEventType.ELECTION_EFFECTIVE) == 1
    assert _events(AuditEventType.CLAIM_ELECTION_EFFECTIVE) == 1
    assert not ElectionDraft.objects.exists()


def test_a_replacement_signed_twice_at_once_supersedes_once(claim, pat):
    first = _sign(_draft(claim, pat, form="js50"), pat)
    draft = _draft(claim, pat, form="life")

    def sign():
        return _sign(ElectionDraft.objects.get(pk=draft.pk), pat)

    outcomes = sorted(_outcome(r) for r in run_together(sign, sign))
    assert outcomes == ["done", "refused"]
    versions = list(Election.objects.filter(membership=claim.membership).order_by("version"))
    assert [e.version for e in versions] == [1, 2]
    first.refresh_from_db()
    assert first.state == Election.State.SUPERSEDED and first.superseded_by_id == versions[1].pk
    in_force = [e for e in versions if e.state not in (Election.State.SUPERSEDED, Election.State.REVOKED)]
    assert len(in_force) == 1  # one signed version per election step
    assert _events(AuditEventType.ELECTION_SIGNED) == 2


# ------------------------------------------------------------------------------------ consent uploads


def test_two_uploads_of_one_consent_at_once_keep_one_row_one_file_one_event(claim, pat, settings):
    election = _sign(_draft(claim, pat, form="life"), pat)
    consent = election.consents.get()

    def upload():
        return _upload(SpousalConsent.objects.get(pk=consent.pk), pat)

    outcomes = sorted(_outcome(r) for r in run_together(upload, upload))
    assert outcomes == ["done", "refused"]
    consent.refresh_from_db()
    assert consent.state == SpousalConsent.State.AWAITING_VERIFICATION
    files = sorted(p for p in (Path(settings.PRIVATE_STORAGE_ROOT) / "consents").rglob("*") if p.is_file())
    assert [str(p.relative_to(settings.PRIVATE_STORAGE_ROOT)) for p in files] == [consent.upload_file]
    assert files[0].read_bytes() == PDF
    assert _events(AuditEventType.CONSENT_UPLOADED) == 1
