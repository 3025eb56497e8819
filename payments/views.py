"""Payments pages: the participant's payments (page, PDF, a new bank account for a returned payment)
and the administrator's pay dates (what is due, the instruction file)."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.roles import role_required
from benefits.services.documents import document_request
from payments import presenters, schedule, selectors, services
from payments.forms import BankAccountForm, PayDateForm
from payments.models import InstructionFile, Payment

participant_only = role_required("participant")
administrator_only = role_required("administrator")


@participant_only
def my_payments(request):
    payments, instalments = selectors.participant_payments(request.user)
    page = presenters.participant_page(payments, instalments)
    continuing = selectors.payee_account_payments(request.user)
    theirs = {p.pk for p in continuing}
    # A continuing payee's returned payment is corrected on their own account page, not the participant's.
    returned = [p for p in payments if p.state == Payment.State.RETURNED and p.pk not in theirs]
    return render(
        request,
        "payments/mine.html",
        {"page": page, "returned": returned, "bank_form": BankAccountForm(), "continuing": continuing},
    )


@participant_only
@require_POST
def my_payments_pdf(request):
    participant = getattr(request.user, "participant", None)
    if participant is None:
        raise Http404
    payments, instalments = selectors.participant_payments(request.user)
    payload = {
        **presenters.participant_page(payments, instalments),
        "participant": participant.full_name,
        "as_of": presenters.day(timezone.localdate()),
    }
    document_request(
        kind="payments",
        participant=participant,
        title="Your benefit payments",
        template_name="pdf/payments.html",
        payload=payload,
        requested_by=request.user,
        request=request,
    )
    messages.info(request, "Your payments PDF is being prepared; it will appear in your documents.")
    return redirect("payments:mine")


@participant_only
@require_POST
def correct_destination(request, payment_id: int):
    payment = get_object_or_404(Payment, pk=payment_id, participant__user=request.user)
    form = BankAccountForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, f"{errors[0]}")
        return redirect("payments:mine")
    destination, masked = form.destination()
    try:
        services.destination_correct(
            payment=payment, user=request.user, destination=destination, masked=masked, request=request
        )
    except services.PaymentRefused as exc:
        messages.error(request, str(exc))
        return redirect("payments:mine")
    messages.success(
        request, "Thank you: the payment will be sent again to the new account on the next pay date."
    )
    return redirect("payments:mine")


@participant_only
def payee_bank_account(request, payment_id: int):
    """A survivor or beneficiary whose payments continue after a death gives the bank account they go to."""
    payment = selectors.payee_account_payment(request.user, payment_id)
    form = BankAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        destination, masked = form.destination()
        try:
            services.payee_destination_give(
                payment=payment, user=request.user, destination=destination, masked=masked, request=request
            )
        except services.PaymentRefused as exc:
            messages.error(request, str(exc))
            return redirect("payments:mine")
        messages.success(request, f"Thank you: your payments will be sent to your {masked.lower()}.")
        return redirect("payments:mine")
    return render(
        request,
        "payments/payee_bank_account.html",
        {"payment": payment, "form": form},
        status=400 if form.is_bound else 200,
    )


def _pay_date(request) -> tuple[date, PayDateForm]:
    form = PayDateForm(request.GET or None)
    if form.is_bound and form.is_valid():
        return form.cleaned_data["date"], form
    if form.is_bound:
        return schedule.next_pay_date(timezone.localdate(), notice_days=0), form  # its errors shown
    on = schedule.next_pay_date(timezone.localdate(), notice_days=0)
    return on, PayDateForm(initial={"date": on.isoformat()})  # the field shows the date the page lists


@administrator_only
def pay_date(request):
    on, form = _pay_date(request)
    # The records' instalments for this pay date, as `payments_due` makes them (bulk, idempotent: one
    # per payment and pay date), so the page lists what is due before anyone ran the command.
    services.instalments_make_due(on)
    due = selectors.due_on(request.user, on)
    rows = [presenters.due_row(i) for i in due]
    files = InstructionFile.objects.filter(pay_date=on).order_by("sequence")
    return render(
        request,
        "payments/pay_date.html",
        {
            "on": on,
            "form": form,
            "rows": rows,
            "files": files,
            "to_send": sum(1 for r in rows if r["state"] == "scheduled"),
        },
    )


@administrator_only
@require_POST
def export(request, on: str):
    try:
        day = date.fromisoformat(on)
    except ValueError:
        raise Http404 from None
    files = services.instruction_export(pay_date=day, actor=request.user, request=request)
    messages.success(
        request, f"Instruction file ready for {presenters.day(day)}: {sum(f.rows for f in files)} payments."
    )
    return redirect(f"/payments/staff/?date={day.isoformat()}")


@administrator_only
def instruction_csv(request, on: str):
    try:
        day = date.fromisoformat(on)
    except ValueError:
        raise Http404 from None
    content = services.instruction_content(
        list(InstructionFile.objects.filter(pay_date=day).order_by("sequence"))
    )
    response = HttpResponse(content, content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="payment-instructions-{day.isoformat()}.csv"'
    return response


@administrator_only
def deaths(request):
    """After a death: record it for an annuity in pay; the deaths recorded; payments to be recovered."""
    raw = request.GET.get("participant", "")
    participant_id = int(raw) if raw.isdigit() else None
    found = selectors.death_page(request.user, participant_id)
    return render(
        request,
        "payments/deaths.html",
        {
            "participant_id": participant_id,
            "streams": [presenters.stream_row(p) for p in found["streams"]],
            "deaths": [presenters.death_row(d) for d in found["deaths"]],
            "recover": [presenters.recovery_row(i) for i in found["recover"]],
        },
    )


@administrator_only
def death_record(request, payment_id: int):
    from elections.uploads import UploadRefused, check_upload
    from payments.deaths import DeathInvalid, payee_death_record
    from payments.forms import DeathForm

    payment = selectors.payment_for_death(request.user, payment_id)
    form = DeathForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = None
        try:
            if form.cleaned_data.get("evidence"):
                upload = check_upload(form.cleaned_data["evidence"])
            outcome = payee_death_record(
                payment=payment,
                died_on=form.cleaned_data["died_on"],
                evidence_reference=form.cleaned_data.get("evidence_reference") or "",
                evidence_upload=upload,
                actor=request.user,
                request=request,
            )
        except UploadRefused as exc:
            form.add_error("evidence", f"Evidence document: {exc}")
        except DeathInvalid as exc:
            for name, message in exc.errors.items():
                form.add_error(name if name in form.fields else None, message)
        else:
            recover = len(outcome.to_recover)
            messages.success(
                request,
                f"Recorded: {outcome.stopped.payee_name} died on {presenters.day(outcome.death.died_on)}. "
                f"Payments stopped; {outcome.note}."
                + (f" {recover} payment{'s' if recover != 1 else ''} to be recovered." if recover else ""),
            )
            return redirect(f"/payments/staff/deaths/?participant={payment.participant_id}")
    return render(
        request,
        "payments/death_record.html",
        {"payment": presenters.stream_row(payment), "form": form, "participant_id": payment.participant_id},
        status=400 if request.method == "POST" else 200,
    )
