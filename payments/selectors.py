"""Reads of payment records, scoped to who asks (404 for anyone else)."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied
from django.http import Http404

from payments.models import Payment, PaymentInstalment


def require_payee(payment: Payment, user) -> None:
    if not user.is_authenticated or payment.participant.user_id != user.pk:
        raise Http404("No such payment.")


def require_admin(user) -> None:
    if not (user.is_authenticated and getattr(user, "is_administrator", False)):
        raise PermissionDenied("Only an administrator may see the pay dates.")


def due_on(user, pay_date: date) -> list[PaymentInstalment]:
    """Every instalment due on the pay date, in one query (payee, plan and record joined)."""
    if user is not None:
        require_admin(user)
    return list(
        PaymentInstalment.objects.filter(pay_date=pay_date)
        .exclude(state=PaymentInstalment.State.CANCELLED)
        .select_related("payment__membership__plan")
        # A pay date's listing reads the payee, plan, amounts, method and masked destination: the JSON
        # columns (plan data, bank details, postings) are not decoded for 100,000 rows.
        .defer(*LISTING_DEFERRED)
        .order_by("payment_id", "pk")
    )


LISTING_DEFERRED = (
    "withholding_basis",
    "payment__destination",
    "payment__posting",
    "payment__continuation",
    "payment__withholding_election",
    "payment__membership__plan_data",
)


def participant_payments(user) -> tuple[list[Payment], list[PaymentInstalment]]:
    """The signed-in participant's payment records and their instalments."""
    participant = getattr(user, "participant", None) if user.is_authenticated else None
    if participant is None:
        return [], []
    return payments_for_participant(participant)


def payments_for_participant(participant) -> tuple[list[Payment], list[PaymentInstalment]]:
    """A participant's records for a page the caller already scoped (``participant_get_for_viewer``)."""
    payments = list(
        Payment.objects.filter(participant=participant)
        .exclude(state=Payment.State.CANCELLED)
        .select_related("membership__plan")
        .order_by("first_pay_date", "pk")
    )
    instalments = list(
        PaymentInstalment.objects.filter(payment__in=payments)
        .exclude(state=PaymentInstalment.State.CANCELLED)
        .select_related("payment__membership__plan")
        .order_by("pay_date", "pk")
    )
    return payments, instalments
