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
        .select_related("payment__membership__plan", "payment__participant")
        .order_by("payment_id", "pk")
    )


def participant_payments(user) -> tuple[list[Payment], list[PaymentInstalment]]:
    """The signed-in participant's payment records and their instalments."""
    if not user.is_authenticated:
        raise Http404
    payments = list(
        Payment.objects.filter(participant__user=user)
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


def in_pay_for_memberships(membership_ids) -> dict[int, Payment]:
    """The live payment stream (or scheduled start) of each membership, for the dashboard."""
    out: dict[int, Payment] = {}
    for p in Payment.objects.filter(
        membership_id__in=membership_ids, state__in=["scheduled", "in_pay", "paid"]
    ).order_by("first_pay_date"):
        out.setdefault(p.membership_id, p)
    return out
