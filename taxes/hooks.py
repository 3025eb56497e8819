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
    try:
        # The plan administrator gives the notice (actor None: the system acting for the administrator).
        payment_notice_issue(payment, actor=None, on=on, request=request)
    except ExplanationUnavailable as exc:  # reported, never blocks the election; the payment stays held
        logger.warning("§402(f) notice for payment %s not issued: %s", payment.pk, exc)
    return ""


def connect() -> None:
    from elections.signals import payment_due

    payment_due.connect(_on_payment_due, dispatch_uid="taxes.payment_due")
