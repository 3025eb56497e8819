"""Shape a spouse's consent for pages: where it stands, in words, and which one waits for the form."""

from __future__ import annotations

from benefits import formatting


def _words(d) -> str:
    return formatting.date_words(d)


def open_consent(consents):
    """The consent still waiting for the signed form (new, or sent back), if any."""
    return next((c for c in consents if c.state in (c.State.AWAITING_FORM, c.State.REJECTED)), None)


def consent_words(consent) -> str:
    """One consent record in the committee's words: where it stands and since when."""
    if consent.kind == consent.Kind.EXCEPTION:
        reason = consent.get_exception_display() or "an exception"
        if consent.state == consent.State.VERIFIED:
            return f"Not required: {reason.lower()}, certified by the administrator on {_words(consent.verified_at.date())}."
        return f"Not required if certified: {reason.lower()} (the certification is not complete)."
    state = consent.state
    if state == consent.State.VERIFIED:
        when = f" on {_words(consent.verified_at.date())}" if consent.verified_at else ""
        return f"Given: the spouse's signed, witnessed consent was verified by the administrator{when}."
    if state == consent.State.AWAITING_VERIFICATION:
        when = f" on {_words(consent.uploaded_at.date())}" if consent.uploaded_at else ""
        return f"Signed form received{when}; the administrator has not verified it yet."
    if state == consent.State.REJECTED:
        why = f" ({consent.rejected_reason.strip()})" if consent.rejected_reason.strip() else ""
        return f"Not accepted{why}; the participant has been asked for a new signed form."
    return "Needed and not yet received: the spouse has not returned the signed, witnessed form."
