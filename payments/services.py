"""Every write to payment records: schedule, cancel, make a pay date's instalments due, export the
paying agent's instruction file, correct a returned payment's bank account. Each checks who may act,
makes the change, writes its audit event (old and new values) in one transaction.
"""

from __future__ import annotations

import csv
import hashlib
import io
from datetime import date
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef, Q, Sum
from django.utils import timezone

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from payments import schedule as sched
from payments.models import InstructionFile, Loan, Payment, PaymentInstalment, PaymentKind, PaymentMethod
from taxes.services import instalment_withholding, notices_allow

CENT = Decimal("0.01")


class PaymentRefused(Exception):
    """The change is not allowed now; the message says why in plain words."""


def _require_admin(actor) -> None:
    if actor is not None and not getattr(actor, "is_administrator", False):
        raise PermissionDenied("Only an administrator may run pay dates.")


def words_date(d: date) -> str:
    return f"{formatting.date_words(d)}"


# ------------------------------------------------------------------------------------ scheduling


def payment_schedule(*, claim, election=None, actor=None, on: date, request=None) -> Payment:
    """Create the payment record for a claim that became payable (called through ``payments.hooks``).

    Idempotent: a live record for the same election (or claim) is returned as it is; the database's
    partial unique indexes make a concurrent second one fail instead of paying twice.
    """
    existing = Payment.objects.filter(
        Q(election=election) if election is not None else Q(claim=claim, election__isnull=True),
        continues_from__isnull=True,
    ).exclude(state=Payment.State.CANCELLED)
    found = existing.first()
    if found is not None:
        return found
    terms = sched.terms_for(claim=claim, election=election, on=on)
    with transaction.atomic():
        payment = Payment.objects.create(
            membership=claim.membership,
            participant=claim.participant,
            claim=claim,
            election=election,
            payee_name=claim.claimant_name or claim.participant.full_name,
            payee_relationship=claim.claimant_relationship,
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
            **terms.payment,
        )
        if terms.loan:
            Loan.objects.create(payment=payment, **terms.loan)
        audit_record(
            event_type=AuditEventType.PAYMENT_SCHEDULED,
            summary=f"Payment {payment.pk} scheduled: {payment.get_kind_display()} of {payment.gross} "
            f"from {payment.first_pay_date}",
            actor=actor,
            participant=payment.participant,
            request=request,
            payment_id=payment.pk,
            claim_id=claim.pk,
            election_id=election.pk if election else None,
            old_state="",
            new_state=payment.state,
            gross=f"{payment.gross}",
            first_pay_date=payment.first_pay_date.isoformat(),
        )
    return payment


def payment_cancel_for_claim(*, claim, actor=None, request=None, reason: str) -> int:
    """An election revoked or replaced before anything was sent: its scheduled record is cancelled."""
    cancelled = 0
    for payment in Payment.objects.select_for_update().filter(claim=claim, state=Payment.State.SCHEDULED):
        if payment.instalments.exclude(state__in=["scheduled", "cancelled"]).exists():
            raise PaymentRefused(
                f"Payment {payment.pk} has already been sent to the paying agent: it cannot be cancelled."
            )
        payment.instalments.filter(state="scheduled").update(state="cancelled")
        _set_state(payment, Payment.State.CANCELLED, reason=reason, actor=actor, request=request)
        cancelled += 1
    return cancelled


def _set_state(payment: Payment, new: str, *, reason: str, actor=None, request=None, on: date | None = None):
    old = payment.state
    payment.state, payment.state_reason = new, reason[:300]
    payment.state_changed_on = on or timezone.localdate()
    payment.save(update_fields=["state", "state_reason", "state_changed_on"])
    if new == Payment.State.CANCELLED:
        audit_record(
            event_type=AuditEventType.PAYMENT_CANCELLED,
            summary=f"Payment {payment.pk}: {old} → {new}",
            actor=actor,
            participant=payment.participant,
            request=request,
            payment_id=payment.pk,
            old_state=old,
            new_state=new,
            reason=reason,
        )
        return
    audit_record(
        event_type=AuditEventType.PAYMENT_STATE_CHANGED,
        summary=f"Payment {payment.pk}: {old} → {new}",
        actor=actor,
        participant=payment.participant,
        request=request,
        payment_id=payment.pk,
        old_state=old,
        new_state=new,
        reason=reason,
    )


# ------------------------------------------------------------------------------------ a pay date


def instalments_make_due(pay_date: date) -> int:
    """Create the instalments due on ``pay_date`` for every live record (first and recurring payments),
    in bulk. Re-running adds nothing: one instalment per payment and pay date is a unique index
    (``ignore_conflicts`` lets a concurrent run lose quietly instead of paying twice). ESOP
    diversification transfers whose election window has closed are scheduled first."""
    from payments.diversification import transfers_schedule

    transfers_schedule(pay_date)
    live = Payment.objects.filter(
        state__in=[Payment.State.SCHEDULED, Payment.State.IN_PAY], first_pay_date__lte=pay_date
    ).exclude(Exists(PaymentInstalment.objects.filter(payment=OuterRef("pk"), pay_date=pay_date)))
    # The sequence already made for each record (one grouped query, not a GROUP BY over every column).
    made = dict(
        PaymentInstalment.objects.filter(payment__in=live.values("pk"))
        .values("payment_id")
        .annotate(m=Max("sequence"))
        .values_list("payment_id", "m")
    )
    candidates = (
        live
        # The tax rules read the payee, the claim and the plan (issue 27: taxes.services); not the
        # plan data, the postings or what continues after death.
        .select_related("participant", "claim", "membership__plan").defer(
            "posting", "continuation", "membership__plan_data"
        )
    )
    new = []
    for p in candidates.iterator(chunk_size=5000):
        seq = sched.sequence_on(p, pay_date)
        if seq is None or made.get(p.pk, 0) >= seq:
            continue
        withholding, basis = instalment_withholding(p, gross=p.gross, pay_date=pay_date)
        new.append(
            PaymentInstalment(
                payment_id=p.pk,
                sequence=seq,
                pay_date=pay_date,
                gross=p.gross,
                withholding=withholding,
                withholding_basis=basis,
                net=p.gross - withholding,
            )
        )
    for start in range(0, len(new), 5000):
        PaymentInstalment.objects.bulk_create(new[start : start + 5000], ignore_conflicts=True)
    return len(new)


INSTRUCTION_COLUMNS = (
    "payment",
    "instalment",
    "pay_date",
    "payee",
    "participant_number",
    "plan",
    "kind",
    "method",
    "routing_number",
    "account_number",
    "account_type",
    "rollover_to",
    "gross",
    "withholding",
    "net",
    "shares",
)


def _row(i: PaymentInstalment) -> list[str]:
    p = i.payment
    d = p.destination or {}
    return [
        str(p.pk),
        str(i.pk),
        i.pay_date.isoformat(),
        p.payee_name,
        p.participant.participant_number,
        p.membership.plan.key,
        p.kind,
        p.method,
        d.get("routing_number", ""),
        d.get("account_number", ""),
        d.get("account_type", ""),
        " ".join(x for x in (d.get("institution", ""), d.get("account", "")) if x),
        f"{i.gross:.2f}",
        f"{i.withholding:.2f}",
        f"{i.net:.2f}",
        str(d.get("employer_shares", "")),  # an ESOP distribution: whole shares to deliver (in the gross)
    ]


def instruction_export(*, pay_date: date, actor, request=None) -> list[InstructionFile]:
    """The paying agent's files for ``pay_date``: instalments due and not yet sent go into a new file
    (one row each, marked instructed in the same transaction); a pay date already exported returns
    the stored files, byte for byte. Concurrent exports serialise on the pay date's advisory lock."""
    _require_admin(actor)
    instalments_make_due(pay_date)
    with transaction.atomic():
        _lock_pay_date(pay_date)
        pending = list(
            PaymentInstalment.objects.select_for_update(of=("self",))
            .filter(pay_date=pay_date, state=PaymentInstalment.State.SCHEDULED)
            .exclude(payment__state__in=["returned", "suspended", "stopped", "cancelled"])
            # The notice rules read the claim and the election: joined, not fetched row by row.
            .select_related(
                "payment__participant", "payment__membership__plan", "payment__claim", "payment__election"
            )
            .defer("payment__membership__plan_data", "payment__posting", "payment__continuation")
            .order_by("payment_id", "pk")
        )
        # A payment whose §402(f) notice timing fails is not instructed: it stays scheduled until the
        # notice's 30 days have run (or the participant waived them), and a notice over 180 days old is
        # given again (Treas. Reg. §1.402(f)-1 Q&A-2; issue 27).
        pending = notices_allow(pending)  # one query for the notices, however many rows
        if pending:
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(INSTRUCTION_COLUMNS)
            for i in pending:
                writer.writerow(_row(i))
            content = buffer.getvalue()
            sequence = (
                InstructionFile.objects.filter(pay_date=pay_date).aggregate(m=Max("sequence"))["m"] or 0
            ) + 1
            try:
                with transaction.atomic():
                    f = InstructionFile.objects.create(
                        pay_date=pay_date,
                        sequence=sequence,
                        content=content,
                        sha256=hashlib.sha256(content.encode()).hexdigest(),
                        rows=len(pending),
                        total_gross=sum((i.gross for i in pending), Decimal("0.00")),
                        created_by=actor if getattr(actor, "is_authenticated", False) else None,
                    )
            except IntegrityError as exc:  # pragma: no cover - the advisory lock makes this unreachable
                raise PaymentRefused(
                    "Another export of this pay date ran at the same time: export again."
                ) from exc
            now = timezone.now()
            PaymentInstalment.objects.filter(pk__in=[i.pk for i in pending]).update(
                state=PaymentInstalment.State.INSTRUCTED, instruction_file=f, instructed_at=now
            )
            audit_record(
                event_type=AuditEventType.PAYMENT_INSTRUCTED,
                summary=f"Instruction file {f.pk} for {pay_date}: {f.rows} payments, {f.total_gross} gross",
                actor=actor,
                request=request,
                instruction_file_id=f.pk,
                pay_date=pay_date.isoformat(),
                rows=f.rows,
                old_state="scheduled",
                new_state="instructed",
                sha256=f.sha256,
            )
    return list(InstructionFile.objects.filter(pay_date=pay_date).order_by("sequence"))


def instruction_content(files: list[InstructionFile]) -> str:
    """One CSV for a pay date: the header once, then every file's rows in order."""
    if not files:
        return ",".join(INSTRUCTION_COLUMNS) + "\n"
    out = [files[0].content]
    for f in files[1:]:
        out.append(f.content.split("\n", 1)[1])
    return "".join(out)


def _lock_pay_date(pay_date: date) -> None:
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [22, pay_date.toordinal()])


# ------------------------------------------------------------------------------------ corrections


def _reissue_returned(payment: Payment, *, user, on: date, request=None) -> date:
    """A returned payment's returned instalments scheduled again, as one, on the next pay date (after a
    new bank account was given); the record back to scheduled or in pay. Returns the pay date."""
    returned = payment.instalments.filter(state=PaymentInstalment.State.RETURNED)
    again = sched.next_pay_date(on, notice_days=0)
    total = returned.aggregate(g=Sum("gross"), w=Sum("withholding"))
    seq = (payment.instalments.aggregate(m=Max("sequence"))["m"] or 0) + 1
    if total["g"]:
        PaymentInstalment.objects.create(
            payment=payment,
            sequence=seq,
            pay_date=again,
            gross=total["g"],
            withholding=total["w"] or 0,
            net=total["g"] - (total["w"] or 0),
            withholding_basis={"reissue_of": list(returned.values_list("pk", flat=True))},
        )
    new_state = (
        Payment.State.IN_PAY
        if payment.instalments.filter(state="paid").exists() and payment.kind == PaymentKind.ANNUITY
        else Payment.State.SCHEDULED
    )
    _set_state(
        payment,
        new_state,
        reason=f"Bank account corrected; paid again on {words_date(again)}",
        actor=user,
        request=request,
        on=on,
    )
    return again


def destination_correct(
    *, payment: Payment, user, destination: dict, masked: str, on: date | None = None, request=None
) -> Payment:
    """The participant gives a new bank account for a returned payment: the returned instalment is
    scheduled again on the next pay date (it is instructed only after this)."""
    from payments.selectors import require_payee

    require_payee(payment, user)
    on = on or timezone.localdate()
    with transaction.atomic():
        payment = Payment.objects.select_for_update().get(pk=payment.pk)
        if payment.state != Payment.State.RETURNED:
            raise PaymentRefused("Only a returned payment needs a new bank account.")
        old_masked = payment.destination_masked
        payment.destination, payment.destination_masked = destination, masked
        payment.save(update_fields=["destination", "destination_masked"])
        again = _reissue_returned(payment, user=user, on=on, request=request)
        audit_record(
            event_type=AuditEventType.PAYMENT_DESTINATION_CORRECTED,
            summary=f"Payment {payment.pk}: bank account corrected, reissued for {again}",
            actor=user,
            participant=payment.participant,
            request=request,
            payment_id=payment.pk,
            old_destination=old_masked,
            new_destination=masked,
        )
    return payment


def payee_destination_give(
    *, payment: Payment, user, destination: dict, masked: str, on: date | None = None, request=None
) -> Payment:
    """A survivor or beneficiary whose payments continue after a participant's death (their login linked
    and verified) gives the bank account their payments go to: instalments not yet sent go there by
    direct deposit from the next export; a payment the bank returned is scheduled again on the next pay
    date, as ``destination_correct`` does for a participant."""
    from payments.selectors import payee_account_payment

    payee_account_payment(user, payment.pk)  # 404 unless it continues to this login
    on = on or timezone.localdate()
    with transaction.atomic():
        payment = Payment.objects.select_for_update().get(pk=payment.pk)
        if payment.state not in (Payment.State.SCHEDULED, Payment.State.IN_PAY, Payment.State.RETURNED):
            raise PaymentRefused(
                f"This payment is {payment.get_state_display().lower()}: there is nothing left to send to an account."
            )
        old = {"method": payment.method, "destination": payment.destination_masked}
        payment.method = PaymentMethod.DIRECT_DEPOSIT
        payment.destination, payment.destination_masked = destination, masked
        payment.save(update_fields=["method", "destination", "destination_masked"])
        again = None
        if payment.state == Payment.State.RETURNED:
            again = _reissue_returned(payment, user=user, on=on, request=request)
        audit_record(
            event_type=AuditEventType.PAYMENT_DESTINATION_GIVEN,
            summary=f"Payment {payment.pk}: {payment.payee_name} gave a bank account ({masked})"
            + (f", returned payment reissued for {again}" if again else ""),
            actor=user,
            participant=payment.participant,
            request=request,
            payment_id=payment.pk,
            old=old,
            new={"method": payment.method, "destination": masked},
            reissued_on=again.isoformat() if again else None,
        )
    return payment


# ------------------------------------------------------------------------------------ confirmation


CONFIRM_MOVE = {
    "annuity": "start_payments",
    "installments": "start_payments",
    "loan_disbursement": "make_loan",
}


def claims_confirmed(instalments, *, actor, batch) -> int:
    """The claims whose first payment the paying agent confirmed: "in pay", "paid" or "loan made"
    (called by the confirmation import, in its transaction)."""
    from elections.claims.workflow import move, record_event
    from elections.models import Claim, ClaimState

    payment_ids = {i.payment_id for i in instalments}
    payments = {p.claim_id: p for p in Payment.objects.filter(pk__in=payment_ids, claim__isnull=False)}
    moved = 0
    for claim in (
        Claim.objects.select_for_update()
        .filter(pk__in=payments, state=ClaimState.PAYMENT_SCHEDULED)
        .select_related("participant")
    ):
        p = payments[claim.pk]
        paid = p.instalments.filter(state="paid").order_by("pay_date").first()
        from_state = move(claim, CONFIRM_MOVE.get(p.kind, "pay_single_sum"), on=paid.paid_on)
        from payments.presenters import status_words

        claim.next_step = status_words(p, paid.paid_on)
        claim.save(update_fields=["next_step"])
        record_event(
            claim,
            actor=actor,
            action="payment_confirmed",
            from_state=from_state,
            note=claim.next_step,
            payment_id=p.pk,
            import_id=batch.pk,
            reference=paid.agent_reference,
        )
        moved += 1
    return moved


def claims_unconfirmed(*, batch, actor) -> int:
    """A confirmation import rolled back: claims whose payment has no confirmed instalment left are
    scheduled again."""
    from elections.claims.workflow import move, record_event
    from elections.models import Claim, ClaimState

    ids = batch.changes.filter(model="payments.paymentinstalment").values_list("object_id", flat=True)
    payments = Payment.objects.filter(instalments__in=list(ids), claim__isnull=False).distinct()
    moved = 0
    for p in payments:
        if p.instalments.filter(state="paid").exists():
            continue
        claim = Claim.objects.select_for_update().get(pk=p.claim_id)
        if claim.state not in (ClaimState.IN_PAY, ClaimState.PAID, ClaimState.LOAN_IN_EFFECT):
            continue
        from_state = move(claim, "unconfirm_payment", on=timezone.localdate())
        from payments.presenters import scheduled_words

        claim.next_step = scheduled_words(p)
        claim.save(update_fields=["next_step"])
        record_event(
            claim,
            actor=actor,
            action="payment_unconfirmed",
            from_state=from_state,
            note=claim.next_step,
            payment_id=p.pk,
            import_id=batch.pk,
        )
        moved += 1
    return moved
