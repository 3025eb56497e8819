"""What an election does to its claim: its payment is scheduled (the payments layer keeps the record;
the claim reads "in pay" or "paid" only once the paying agent confirmed it), and back to "election
required" when it is revoked. The claim's own transition, timeline row and audit event."""

from __future__ import annotations

from datetime import date

from benefits import formatting


def _first_payment_words(election) -> str:
    from elections.benefit_elections.presenters import money

    asd = election.asd
    if election.is_single_sum:
        return f"Scheduled for {formatting.date_words(asd)}: a single sum of {money(election.figures.get('lump_sum'))}."
    if election.figures.get("first_installment"):
        from elections.benefit_elections.presenters import installment_words

        return f"Scheduled from {formatting.date_words(asd)}: {installment_words(election.figures)}."
    return (
        f"Scheduled for {formatting.date_words(asd)}: {election.form_label}, "
        f"{money(election.figures.get('monthly'))} a month."
    )


def scheduled_words(claim, *, election=None, actor=None, on: date, request=None, fallback: str) -> str:
    """Ask the payments layer (``elections.signals.payment_due``) to schedule the payment record; its
    answer is what the claim says next ("Scheduled for January 1, 2027: ...")."""
    from elections.signals import payment_due

    answers = payment_due.send(
        sender=type(claim), claim=claim, election=election, actor=actor, on=on, request=request
    )
    words = [w for _, w in answers if w]
    return words[0] if words else fallback


def claim_election_effective(election, *, actor, on: date, request=None) -> None:
    from elections.claims.workflow import locked_claim, move, record_event
    from elections.models import Claim, ClaimState

    claim = locked_claim(Claim.objects.get(pk=election.claim_id))
    if claim.state in (ClaimState.PAYMENT_SCHEDULED, ClaimState.IN_PAY, ClaimState.PAID):
        # A new election replaced the one in effect (before the start date): back, then on again.
        from elections.signals import payment_withdrawn

        payment_withdrawn.send(
            sender=type(claim), claim=claim, election=election, actor=actor, on=on, request=request
        )
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
    from_state = move(claim, "schedule_payment", on=on)
    claim.next_step = scheduled_words(
        claim, election=election, actor=actor, on=on, request=request, fallback=_first_payment_words(election)
    )
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
    from elections.signals import payment_withdrawn

    payment_withdrawn.send(
        sender=type(claim), claim=claim, election=election, actor=actor, on=on, request=request
    )
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
