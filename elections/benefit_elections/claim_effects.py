"""What an election does to its claim: into pay (an annuity) or paid (a single sum), and back to
"election required" when it is revoked. The claim's own transition, timeline row and audit event."""

from __future__ import annotations

from datetime import date


def _first_payment_words(election) -> str:
    from elections.benefit_elections.presenters import money

    asd = election.asd
    if election.is_single_sum:
        return f"Paid: a single sum of {money(election.figures.get('lump_sum'))} on {asd:%B} {asd.day}, {asd.year}."
    if election.figures.get("first_installment"):
        from elections.benefit_elections.presenters import installment_words

        return f"In pay from {asd:%B} {asd.day}, {asd.year}: {installment_words(election.figures)}."
    return (
        f"In pay: {election.form_label}, {money(election.figures.get('monthly'))} a month from "
        f"{asd:%B} {asd.day}, {asd.year}."
    )


def claim_election_effective(election, *, actor, on: date, request=None) -> None:
    from elections.claims.workflow import locked_claim, move, record_event
    from elections.models import Claim, ClaimState

    claim = locked_claim(Claim.objects.get(pk=election.claim_id))
    if claim.state in (ClaimState.IN_PAY, ClaimState.PAID):
        # A new election replaced the one in effect (before the start date): back, then on again.
        from_state = move(claim, "reopen_election", on=on)
        record_event(
            claim,
            actor=actor,
            action="election_revoked",
            from_state=from_state,
            note="Replaced by a new election.",
            request=request,
            election_id=election.pk,
        )
    method = "pay_single_sum" if election.is_single_sum else "start_payments"
    from_state = move(claim, method, on=on)
    claim.next_step = _first_payment_words(election)
    claim.save(update_fields=["next_step"])
    record_event(
        claim,
        actor=actor,
        action="election_effective",
        from_state=from_state,
        note=claim.next_step,
        request=request,
        election_id=election.pk,
    )


def claim_election_revoked(election, *, actor, on: date, request=None) -> None:
    from elections.claims.workflow import locked_claim, move, record_event
    from elections.models import Claim

    claim = locked_claim(Claim.objects.get(pk=election.claim_id))
    from_state = move(claim, "reopen_election", on=on)
    claim.next_step = "Your election was revoked: make a new election before the payment start date."
    claim.save(update_fields=["next_step"])
    record_event(
        claim,
        actor=actor,
        action="election_revoked",
        from_state=from_state,
        note=claim.next_step,
        request=request,
        election_id=election.pk,
    )
