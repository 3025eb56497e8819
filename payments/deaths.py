"""After a death: an administrator records the death of a payee in pay (the participant, or a survivor or
beneficiary whose own stream continues), and the plan's rules follow.

* The payee's stream stops on the plan's rule (``PlanClaimRules.death_last_payment``, its words cited in
  ``death_rule_source``): the last payment due is the one for the month of death; instalments scheduled
  after it are cancelled, and those already sent or paid for periods after the death are flagged
  ``recovery_due`` ("to be recovered", listed for the administrator).
* What continues follows the elected form, as the payment record holds it: a joint and survivor (or
  contingent annuitant) form continues to the survivor at its percent; a years-certain form continues
  the remaining certain payments, in the same amount, to the beneficiaries named on the election (split
  by their shares); a single life annuity stops with nothing more. A continuation is a payment record of
  its own (``continues_from``), first due on the first day of the month next following the death.
* The death of a survivor or beneficiary in pay stops that payee's stream (nothing continues from it).
* A death recorded late: the continuing payee's payments due before the next pay date (from the month
  after the death) were never made. They are owed as one back payment (``back_payment``), scheduled on
  the next pay date; the continuing stream starts on that pay date with what is left of it.

One transaction; every change is an audit event with its old and new values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from payments import schedule as sched
from payments.models import (
    PayeeDeath,
    Payment,
    PaymentInstalment,
    PaymentKind,
    PaymentMethod,
)

CENT = Decimal("0.01")
# A payee's death can be recorded for these: a stream that runs, or waits to be paid again.
STREAM_STATES = (
    Payment.State.SCHEDULED,
    Payment.State.IN_PAY,
    Payment.State.RETURNED,
    Payment.State.SUSPENDED,
)
# The plans' texts state the survivor percent 66-2/3% (docs/plan-notes/*/payments-after-death.md); the
# form key says 66, so the fraction is exact two thirds, never 0.66.
EXACT_FRACTIONS = {"js66": Decimal(2) / 3, "js100": Decimal(1), "js50": Decimal("0.5")}


class DeathInvalid(Exception):
    """The death cannot be recorded as given: ``errors`` maps each field to a message naming it."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(errors.values()))
        self.errors = errors


@dataclass
class DeathOutcome:
    death: PayeeDeath
    stopped: Payment
    continuations: list[Payment] = field(default_factory=list)
    cancelled: int = 0
    to_recover: list[PaymentInstalment] = field(default_factory=list)
    note: str = ""
    back_payments: list[Payment] = field(default_factory=list)


def _first_of_next_month(d: date) -> date:
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def _months(a: date, b: date) -> int:
    return (b.year - a.year) * 12 + b.month - a.month


def last_pay_date(payment: Payment, died_on: date, rule: str) -> date | None:
    """The last pay date of the stream due to a payee who died on ``died_on`` (None: none was due).
    "month_of_death": the payment of the month of death is due; "month_before": only the months before."""
    limit = died_on if rule != "month_before" else died_on.replace(day=1) - timedelta(days=1)
    if limit < payment.first_pay_date:
        return None
    step = sched.MONTHS.get(payment.frequency, 1)
    k = _months(payment.first_pay_date, limit) // step
    if sched.add_months(payment.first_pay_date, k * step) > limit:
        k -= 1
    if payment.number_of_payments:
        k = min(k, payment.number_of_payments - 1)
    return sched.add_months(payment.first_pay_date, k * step)


def survivor_fraction(payment: Payment) -> Decimal | None:
    if payment.survivor_percent is None:
        return None
    return EXACT_FRACTIONS.get(payment.form) or (payment.survivor_percent / 100)


def split_by_shares(amount: Decimal, shares: list[Decimal]) -> list[Decimal]:
    """``amount`` split by percent shares, each rounded half up to the cent; the last share takes the
    remainder so the parts add up to the amount exactly."""
    total = sum(shares, Decimal("0"))
    parts = [(amount * s / total).quantize(CENT, ROUND_HALF_UP) for s in shares[:-1]]
    return [*parts, amount - sum(parts, Decimal("0"))]


def _require_admin(actor) -> None:
    if not (getattr(actor, "is_authenticated", False) and getattr(actor, "is_administrator", False)):
        raise PermissionDenied("Only an administrator may record a death.")


def _payee_is_participant(payment: Payment) -> bool:
    return payment.continues_from_id is None and payment.payee_relationship == "participant"


def _validate(payment: Payment, died_on: date | None, reference: str, has_file: bool, on: date) -> None:
    errors: dict[str, str] = {}
    existing = PayeeDeath.objects.filter(payment=payment).first()
    if existing is not None:
        errors["died_on"] = (
            f"Date of death: the death of {existing.payee_name} was already recorded "
            f"({formatting.date_words(existing.died_on)}); it is recorded once."
        )
        raise DeathInvalid(errors)
    if payment.kind != PaymentKind.ANNUITY:
        errors["payment"] = "Payment: a death is recorded here for an annuity in pay; this payment is a " + (
            f"{payment.get_kind_display().lower()}."
        )
    elif payment.state not in STREAM_STATES:
        errors["payment"] = (
            f"Payment: this annuity is not in pay (it is {payment.get_state_display().lower()})."
        )
    if died_on is None:
        errors["died_on"] = "Date of death: enter the date of death."
    elif died_on > on:
        errors["died_on"] = f"Date of death: {formatting.date_words(died_on)} is in the future."
    else:
        birth = payment.participant.birth_date
        if _payee_is_participant(payment) and birth and died_on <= birth:
            errors["died_on"] = "Date of death: it must be after the participant's birth date."
        elif payment.continues_from_id is not None:
            before = PayeeDeath.objects.filter(payment_id=payment.continues_from_id).first()
            if before is not None and died_on < before.died_on:
                errors["died_on"] = (
                    f"Date of death: {formatting.date_words(died_on)} is before the death of {before.payee_name} "
                    f"({formatting.date_words(before.died_on)}), from which this payment continues."
                )
        elif died_on < payment.first_pay_date:
            errors["died_on"] = (
                f"Date of death: {formatting.date_words(died_on)} is before the first payment ({formatting.date_words(payment.first_pay_date)}); "
                "a death before payments start is a death benefit claim, not a stop of payments."
            )
        if _payee_is_participant(payment) and "died_on" not in errors:
            known = payment.participant.death_date
            if known is not None and known != died_on:
                errors["died_on"] = (
                    f"Date of death: the participant's record already gives {formatting.date_words(known)}; "
                    "correct the record first if that date is wrong."
                )
    if not reference.strip() and not has_file:
        errors["evidence"] = (
            "Evidence: upload the death certificate (PDF, JPEG or PNG) or give its reference."
        )
    if errors:
        raise DeathInvalid(errors)


def _label(what: str, payment: Payment) -> str:
    return f"{what} ({payment.form_label})"[:100] if payment.form_label else what


def _continuations(payment: Payment, died_on: date, actor) -> tuple[list[Payment], str]:
    """What the elected form continues after the death of the participant (unsaved records) and its
    words for the record."""
    if not _payee_is_participant(payment):
        return [], "Nothing continues from a survivor's or beneficiary's own payments."
    start = _first_of_next_month(died_on)
    common = {
        "membership": payment.membership,
        "participant": payment.participant,
        "claim": payment.claim,
        "kind": PaymentKind.ANNUITY,
        "frequency": payment.frequency,
        "first_pay_date": start,
        "form": payment.form,
        "continues_from": payment,
        "method": PaymentMethod.CHECK,
        "destination": {},
        "destination_masked": sched.mask({}, PaymentMethod.CHECK),
        "withholding_election": {},
        "created_by": actor,
    }
    fraction = survivor_fraction(payment)
    if fraction is not None:
        name = payment.survivor_name.strip() or "The surviving spouse"
        gross = (payment.gross * fraction).quantize(CENT, ROUND_HALF_UP)
        return [
            Payment(
                **common,
                payee_name=name,
                payee_relationship="survivor",
                form_label=_label("Survivor annuity", payment),
                gross=gross,
                number_of_payments=None,
            )
        ], f"the survivor annuity of {gross} a month continues to {name} from {formatting.date_words(start)}"
    if payment.certain_until is not None:
        step = sched.MONTHS.get(payment.frequency, 1)
        remaining = max(0, -(-_months(start, payment.certain_until) // step))  # pay dates before the end
        if remaining == 0:
            return [], "the certain period had ended: nothing continues"
        named = [
            b
            for b in (payment.continuation or {}).get("beneficiaries") or []
            if (b.get("kind") or "primary") == "primary" and b.get("name")
        ]
        if not named:
            return [], (
                f"{remaining} certain payments remain but the election names no beneficiary: "
                "the plan must determine who receives them"
            )
        shares = [Decimal(str(b.get("percent") or 0)) for b in named]
        if sum(shares, Decimal("0")) <= 0:
            shares = [Decimal(1)] * len(named)
        out = []
        for b, part in zip(named, split_by_shares(payment.gross, shares), strict=True):
            out.append(
                Payment(
                    **common,
                    payee_name=b["name"],
                    payee_relationship=b.get("relationship") or "beneficiary",
                    form_label=_label("Remaining certain payments", payment),
                    gross=part,
                    number_of_payments=remaining,
                    certain_until=payment.certain_until,
                    continuation={"beneficiary": b},
                )
            )
        names = ", ".join(b["name"] for b in named)
        return (
            out,
            f"the remaining {remaining} certain payments continue to {names} from {formatting.date_words(start)}",
        )
    return [], "a single life annuity: nothing continues"


@dataclass(frozen=True)
class BackPayment:
    """What a continuing payee is owed for the pay dates already passed when the death is recorded."""

    pay_dates: tuple[date, ...]  # the payments never made, from the first after the death
    each: Decimal  # the continuing payment per period (the survivor percent, rounded half up to the cent)
    total: Decimal
    pay_on: date  # the next pay date, when the back payment and the rest of the stream are due


def back_payment(continuing: Payment, *, on: date) -> BackPayment | None:
    """The payments of ``continuing`` (an unsaved continuation, first due the month after the death) whose
    pay dates fell before the next pay date after ``on``; None when none did. Each is the amount the
    stream pays per period (already rounded half up to the cent), the back payment their sum: what the
    payee would have received had the death been recorded in time (the plan's ``death_rule_source``:
    the survivor's payments begin the month next following the death)."""
    pay_on = sched.next_pay_date(on, notice_days=0)
    step = sched.MONTHS.get(continuing.frequency, 1)
    dates: list[date] = []
    d = continuing.first_pay_date
    while d < pay_on and (
        continuing.number_of_payments is None or len(dates) < continuing.number_of_payments
    ):
        dates.append(d)
        d = sched.add_months(continuing.first_pay_date, len(dates) * step)
    if not dates:
        return None
    return BackPayment(tuple(dates), continuing.gross, continuing.gross * len(dates), pay_on)


def _with_back_payment(continuing: Payment, *, on: date) -> tuple[Payment | None, Payment | None]:
    """(the stream from the next pay date, or None when nothing of it is left; the back payment, or None)
    for a continuation recorded on ``on``. Both unsaved."""
    owed = back_payment(continuing, on=on)
    if owed is None:
        return continuing, None
    first, last = owed.pay_dates[0], owed.pay_dates[-1]
    period = (
        formatting.date_words(first)
        if first == last
        else f"{formatting.date_words(first)} to {formatting.date_words(last)}"
    )
    back = Payment(
        membership=continuing.membership,
        participant=continuing.participant,
        claim=continuing.claim,
        payee_name=continuing.payee_name,
        payee_relationship=continuing.payee_relationship,
        # One payment of the stream's arrears: periodic payments made late, not a single sum (so no
        # rollover notice or 20% withholding: Treas. Reg. §1.402(c)-2 Q&A-5, Q&A-6).
        kind=PaymentKind.ANNUITY,
        frequency="once",
        number_of_payments=1,
        gross=owed.total,
        first_pay_date=owed.pay_on,
        form=continuing.form,
        form_label=f"Back payment, {len(owed.pay_dates)} × {formatting.money(owed.each)}"[:100],
        continues_from=continuing.continues_from,
        method=continuing.method,
        destination=continuing.destination,
        destination_masked=continuing.destination_masked,
        withholding_election={},
        created_by=continuing.created_by,
        continuation={
            **(continuing.continuation or {}),
            "back_payment": {
                "pay_dates": [d.isoformat() for d in owed.pay_dates],
                "each": f"{owed.each:.2f}",
                "total": f"{owed.total:.2f}",
                "period": period,
            },
        },
    )
    left = (
        None if continuing.number_of_payments is None else continuing.number_of_payments - len(owed.pay_dates)
    )
    if left == 0:
        return None, back
    continuing.first_pay_date = owed.pay_on
    continuing.number_of_payments = left
    continuing.continuation = {**(continuing.continuation or {}), "due_from": first.isoformat()}
    return continuing, back


def payee_death_record(
    *,
    payment: Payment,
    died_on: date | None,
    actor,
    evidence_reference: str = "",
    evidence_upload=None,
    request=None,
    on: date | None = None,
) -> DeathOutcome:
    """Record the death of ``payment``'s payee and apply the plan's rules (see the module docstring).
    ``evidence_upload`` is a checked upload (``elections.uploads.check_upload``)."""
    from benefits.stored_files import atomic_with_files, write_file
    from elections.claims.deadlines import plan_rules

    _require_admin(actor)
    on = on or timezone.localdate()
    reference = (evidence_reference or "").strip()[:200]
    with atomic_with_files():
        payment = (
            Payment.objects.select_for_update(of=("self",))
            .select_related("participant", "membership__plan")
            .get(pk=payment.pk)
        )
        _validate(payment, died_on, reference, evidence_upload is not None, on)
        assert died_on is not None
        rules = plan_rules(payment.membership.plan.key)
        rule = getattr(rules, "death_last_payment", "month_of_death")
        source = getattr(rules, "death_rule_source", "") or "the plan's claims rules"
        last = last_pay_date(payment, died_on, rule)
        stored, digest = "", ""
        if evidence_upload is not None:
            stored = write_file(
                f"payments/deaths/{payment.pk}-{evidence_upload.sha256[:16]}.{evidence_upload.extension}",
                evidence_upload.content,
            )
            digest = evidence_upload.sha256
        month = "the month before the death" if rule == "month_before" else "the month of death"
        rule_words = (
            f"the last payment due is {'the one on ' + formatting.date_words(last) if last else 'none'} "
            f"(payments end with {month}; {source})"
        )
        try:
            with transaction.atomic():
                death = PayeeDeath.objects.create(
                    payment=payment,
                    payee_name=payment.payee_name,
                    died_on=died_on,
                    evidence_reference=reference,
                    evidence_file=stored,
                    evidence_sha256=digest,
                    last_pay_date=last,
                    rule=rule_words[:300],
                    recorded_by=actor,
                )
        except IntegrityError as exc:  # a parallel record of the same death won
            raise DeathInvalid(
                {"died_on": f"Date of death: the death of {payment.payee_name} was already recorded."}
            ) from exc
        outcome = DeathOutcome(death=death, stopped=payment)
        # Instalments after the last one due: cancelled if never sent, else flagged to be recovered.
        after = list(
            PaymentInstalment.objects.select_for_update()
            .filter(payment=payment, pay_date__gt=last or date.min)
            .exclude(state=PaymentInstalment.State.CANCELLED)
            .order_by("pay_date")
        )
        for i in after:
            old = {"state": i.state, "recovery_due": i.recovery_due}
            if i.state == PaymentInstalment.State.SCHEDULED:
                i.state = PaymentInstalment.State.CANCELLED
                i.save(update_fields=["state"])
                outcome.cancelled += 1
            else:  # instructed, paid or returned: money may have gone out after the death
                if i.state == PaymentInstalment.State.RETURNED:
                    continue  # the bank sent it back: nothing to recover
                i.recovery_due = True
                i.save(update_fields=["recovery_due"])
                outcome.to_recover.append(i)
            audit_record(
                event_type=AuditEventType.PAYMENT_INSTALMENT_CHANGED,
                summary=f"Payment {payment.pk}, {i.pay_date}: "
                + ("cancelled (after the payee's death)" if i.state == "cancelled" else "to be recovered"),
                actor=actor,
                participant=payment.participant,
                request=request,
                payment_id=payment.pk,
                instalment_id=i.pk,
                pay_date=i.pay_date.isoformat(),
                old=old,
                new={"state": i.state, "recovery_due": i.recovery_due},
            )
        continuing, words = _continuations(payment, died_on, actor)
        old_state = payment.state
        reason = f"{payment.payee_name} died on {formatting.date_words(died_on)}; {rule_words}; {words}."
        payment.state, payment.state_reason, payment.state_changed_on = (
            Payment.State.STOPPED,
            reason[:300],
            on,
        )
        payment.save(update_fields=["state", "state_reason", "state_changed_on"])
        audit_record(
            event_type=AuditEventType.PAYEE_DEATH_RECORDED,
            summary=f"Payment {payment.pk}: {payment.payee_name} died on {died_on}; {old_state} → stopped",
            actor=actor,
            participant=payment.participant,
            request=request,
            payment_id=payment.pk,
            death_id=death.pk,
            old={"state": old_state, "died_on": None},
            new={
                "state": payment.state,
                "died_on": died_on.isoformat(),
                "last_pay_date": last.isoformat() if last else None,
                "evidence_reference": reference,
                "evidence_file_sha256": digest,
            },
            rule=rule_words,
            continues=words,
        )
        links = _verified_links(payment.participant_id)
        streams: list[Payment] = []
        for c in continuing:
            stream, back = _with_back_payment(c, on=on)
            if back is not None:
                back.payee_link = links.get(back.payee_name.strip().lower())
                back.save()
                owed = back.continuation["back_payment"]
                audit_record(
                    event_type=AuditEventType.PAYMENT_SCHEDULED,
                    summary=f"Payment {back.pk} scheduled: back payment to {back.payee_name} of {back.gross} "
                    f"for {owed['period']} ({len(owed['pay_dates'])} × {owed['each']}), on {back.first_pay_date}",
                    actor=actor,
                    participant=payment.participant,
                    request=request,
                    payment_id=back.pk,
                    continues_from=payment.pk,
                    old_state="",
                    new_state=back.state,
                    gross=f"{back.gross}",
                    first_pay_date=back.first_pay_date.isoformat(),
                    back_payment=owed,
                )
                outcome.back_payments.append(back)
                words += (
                    f"; {formatting.money(back.gross)} owed for {owed['period']} is paid to {back.payee_name} "
                    f"on {formatting.date_words(back.first_pay_date)}"
                )
            if stream is None:
                continue
            c = stream
            streams.append(c)
            c.payee_link = links.get(c.payee_name.strip().lower())
            c.save()
            audit_record(
                event_type=AuditEventType.PAYMENT_SCHEDULED,
                summary=f"Payment {c.pk} scheduled: continues payment {payment.pk} to {c.payee_name}, "
                f"{c.gross} a month from {c.first_pay_date}",
                actor=actor,
                participant=payment.participant,
                request=request,
                payment_id=c.pk,
                continues_from=payment.pk,
                old_state="",
                new_state=c.state,
                gross=f"{c.gross}",
                first_pay_date=c.first_pay_date.isoformat(),
                number_of_payments=c.number_of_payments,
            )
        outcome.continuations = streams
        outcome.note = words
        if _payee_is_participant(payment) and payment.participant.death_date is None:
            participant = payment.participant
            participant.death_date = died_on
            participant.save(update_fields=["death_date"])
            audit_record(
                event_type=AuditEventType.PARTICIPANT_DEATH_RECORDED,
                summary=f"{participant.full_name}: date of death {died_on} recorded",
                actor=actor,
                participant=participant,
                request=request,
                old={"death_date": None},
                new={"death_date": died_on.isoformat()},
                payment_id=payment.pk,
            )
        _claim_paid_out(payment, reason, actor=actor, request=request, on=on)
    return outcome


def _verified_links(participant_id: int) -> dict:
    """The participant's verified Beneficiary logins by beneficiary name (lower case)."""
    from elections.models import BeneficiaryLink

    return {
        link.beneficiary_name.strip().lower(): link
        for link in BeneficiaryLink.objects.filter(participant_id=participant_id, verified_at__isnull=False)
    }


def _claim_paid_out(payment: Payment, reason: str, *, actor, request, on: date) -> None:
    """The claim whose stream this was no longer reads "in pay": paid out, with the reason."""
    if payment.claim_id is None or payment.continues_from_id is not None:
        return
    from elections.claims.workflow import move, record_event
    from elections.models import Claim, ClaimState

    claim = Claim.objects.select_for_update().get(pk=payment.claim_id)
    if claim.state != ClaimState.IN_PAY:  # never confirmed paid: it says why it will not be
        claim.next_step = f"Payments stopped: {reason}"[:300]
        claim.save(update_fields=["next_step"])
        return
    from_state = move(claim, "end_payments", on=on)
    claim.next_step = f"Payments ended: {reason}"[:300]
    claim.save(update_fields=["next_step"])
    record_event(
        claim,
        actor=actor,
        action="payments_ended",
        from_state=from_state,
        note=claim.next_step,
        request=request,
        payment_id=payment.pk,
    )
