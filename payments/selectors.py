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
    """The signed-in participant's payment records and their instalments, and the payments that continue
    to this login as a survivor or beneficiary (``payee_payments``)."""
    participant = getattr(user, "participant", None) if user.is_authenticated else None
    own: tuple[list[Payment], list[PaymentInstalment]] = (
        payments_for_participant(participant) if participant is not None else ([], [])
    )
    theirs = payee_payments(user)
    if not theirs[0]:
        return own
    return own[0] + theirs[0], sorted(own[1] + theirs[1], key=lambda i: (i.pay_date, i.pk))


def payee_payments(user) -> tuple[list[Payment], list[PaymentInstalment]]:
    """Payments that continue after a participant's death to this login: a survivor's annuity or a
    beneficiary's certain payments. The login must be linked, and verified by an administrator, as a
    Beneficiary of that participant (``elections.BeneficiaryLink``); the payment is theirs when it names
    the link (``payee_link``) or the payee's name is the link's beneficiary name."""
    if not user.is_authenticated:
        return [], []
    from django.db.models import Q

    from elections.models import BeneficiaryLink

    links = list(
        BeneficiaryLink.objects.filter(
            user=user, verified_at__isnull=False, participant__death_date__isnull=False
        ).values_list("participant_id", "beneficiary_name")
    )
    match = Q(payee_link__user=user, payee_link__verified_at__isnull=False)
    for participant_id, name in links:
        match |= Q(
            participant_id=participant_id, continues_from__isnull=False, payee_name__iexact=name.strip()
        )
    payments = list(
        Payment.objects.filter(match)
        .exclude(state=Payment.State.CANCELLED)
        .select_related("membership__plan", "participant")
        .order_by("first_pay_date", "pk")
        .distinct()
    )
    instalments = list(
        PaymentInstalment.objects.filter(payment__in=payments)
        .exclude(state=PaymentInstalment.State.CANCELLED)
        .select_related("payment__membership__plan")
        .order_by("pay_date", "pk")
    )
    return payments, instalments


# A continuing payee's payments that can still be sent to a bank account they give.
PAYEE_ACCOUNT_STATES = (Payment.State.SCHEDULED, Payment.State.IN_PAY, Payment.State.RETURNED)


def payee_account_payments(user) -> list[Payment]:
    """The payments continuing to this login (``payee_payments``) that a bank account can still be given
    for: continuations after a death, scheduled, in pay or returned by the bank."""
    return [
        p
        for p in payee_payments(user)[0]
        if p.continues_from_id is not None and p.state in PAYEE_ACCOUNT_STATES
    ]


def payee_account_payment(user, payment_id: int) -> Payment:
    """One payment continuing to this login that a bank account can be given for; 404 otherwise (never
    someone else's, nor the participant's own, which has its own page)."""
    for p in payee_account_payments(user):
        if p.pk == payment_id:
            return p
    raise Http404("No such payment.")


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


def death_page(user, participant_id: int | None = None) -> dict:
    """The administrator's page after a death: annuities a death can be recorded for, the deaths
    recorded, and the instalments paid or sent for periods after a death (to be recovered)."""
    require_admin(user)
    from payments.deaths import STREAM_STATES
    from payments.models import PayeeDeath

    streams = Payment.objects.filter(kind="annuity", state__in=STREAM_STATES).select_related(
        "membership__plan", "participant"
    )
    deaths = PayeeDeath.objects.select_related("payment__membership__plan", "payment__participant")
    recover = PaymentInstalment.objects.filter(recovery_due=True).select_related(
        "payment__membership__plan", "payment__participant", "payment__death"
    )
    if participant_id is not None:
        streams = streams.filter(participant_id=participant_id)
        deaths = deaths.filter(payment__participant_id=participant_id)
        recover = recover.filter(payment__participant_id=participant_id)
    return {
        "streams": list(streams.order_by("participant__last_name", "pk")[:500]),
        "deaths": list(deaths.order_by("-recorded_at")[:200]),
        "recover": list(recover.order_by("pay_date", "pk")[:500]),
    }


def payment_for_death(user, payment_id: int) -> Payment:
    require_admin(user)
    try:
        return Payment.objects.select_related("membership__plan", "participant").get(pk=payment_id)
    except Payment.DoesNotExist:
        raise Http404("No such payment.") from None
