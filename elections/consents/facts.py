"""A consent record as the engine's consent rules read it (``benefits.engine.elections.ConsentFacts``)."""

from __future__ import annotations

from benefits.engine.elections import ConsentFacts
from elections.consents.models import SpousalConsent


def consent_facts(consent: SpousalConsent, *, subject_id: int) -> ConsentFacts:
    """The facts of ``consent``, checked against the thing made effective (``subject_id``: the
    election, designation or claim the caller is about to make effective)."""
    return ConsentFacts(
        kind=consent.kind,
        consent_spouse=consent.spouse_name,
        election_id=subject_id,
        consent_election_id=getattr(consent, f"{consent.subject_field}_id"),
        signed_on=consent.signed_on,
        witness=consent.witness,
        witness_name=consent.witness_name,
        notary_commission_number=consent.notary_commission_number,
        notary_commission_expires=consent.notary_commission_expires,
        witnessing=consent.witnessing,
        remote_live_audio_video=consent.remote_live_audio_video,
        remote_identity_shown=consent.remote_identity_shown,
        remote_same_day_transmission=consent.remote_same_day_transmission,
        has_upload=bool(consent.upload_file),
        verified=consent.state == SpousalConsent.State.VERIFIED,
        exception=consent.exception,
        certification=consent.certification,
        certified_by_staff=consent.verified_by_id is not None
        or consent.kind == SpousalConsent.Kind.EXCEPTION
        and bool(consent.certification),
    )
