"""What taxes answer when elections say a payment is due (``elections.signals.payment_due``): once the
payments layer has scheduled the record, the §402(f) notice for it is issued (exactly once) if it is an
eligible rollover distribution and no notice for that start date exists yet. Connected in ``apps.ready``
after ``payments.hooks`` (the app is listed after ``payments``)."""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def _on_payment_due(sender, *, claim, election=None, actor=None, on, request=None, **kwargs) -> str:
    from elections.benefit_elections.explanation import ExplanationUnavailable
    from payments.models import Payment
    from taxes.services import payment_notice_issue

    payment = (
        Payment.objects.filter(claim=claim, continues_from__isnull=True)
        .exclude(state=Payment.State.CANCELLED)
        .order_by("-pk")
        .first()
    )
    if payment is None:
        return ""
    if election is None and payment.state == Payment.State.SCHEDULED:
        _apply_claim_choices(payment, claim)
    try:
        # The plan administrator gives the notice (actor None: the system acting for the administrator).
        payment_notice_issue(payment, actor=None, on=on, request=request)
    except ExplanationUnavailable as exc:  # reported, never blocks the election; the payment stays held
        logger.warning("§402(f) notice for payment %s not issued: %s", payment.pk, exc)
    return ""


def _apply_claim_choices(payment, claim) -> None:
    """A withdrawal claim's own answers (how to pay, the W-4R rate) onto its payment record, before
    anything is made due (an election's choices come with the election)."""
    from elections.claims.tax_fields import payment_choices
    from payments.schedule import mask

    choices = payment_choices(claim.details or {})
    if not choices:
        return
    fields = ["withholding_election"]
    payment.withholding_election = choices["withholding_election"]
    if "method" in choices:
        payment.method, payment.destination = choices["method"], choices["destination"]
        payment.destination_masked = mask(payment.destination, payment.method)
        fields += ["method", "destination", "destination_masked"]
    payment.save(update_fields=fields)


def connect() -> None:
    from elections.signals import payment_due

    payment_due.connect(_on_payment_due, dispatch_uid="taxes.payment_due")
