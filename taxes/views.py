"""Taxes pages for administrators: loans in arrears and the action that declares one in default after the
plan's cure period (``taxes.loans``)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.roles import role_required
from benefits import formatting
from payments.models import Loan
from taxes import loans as services

administrator_only = role_required("administrator")


@administrator_only
def loans_in_arrears(request):
    on = timezone.localdate()
    rows = services.loans_in_arrears(request.user, on)
    return render(request, "taxes/loans_in_arrears.html", {"rows": rows, "on": on})


@administrator_only
@require_POST
def loan_default(request, loan_id: int):
    loan = get_object_or_404(Loan, pk=loan_id, made_on__isnull=False)
    on = timezone.localdate()
    missed = services.first_missed(loan, on)
    if missed is None:
        messages.error(request, "Every repayment due so far has been made: the loan is not in arrears.")
        return redirect("taxes:loans_in_arrears")
    try:
        row = services.loan_default_declare(
            loan=loan, missed_due=missed, actor=request.user, on=on, request=request
        )
    except services.LoanRefused as exc:
        messages.error(request, str(exc))
        return redirect("taxes:loans_in_arrears")
    messages.success(
        request,
        f"{row.get_kind_display()} of {formatting.money(row.amount)} posted for {loan.payment.payee_name}; it will be "
        f"reported on the {row.on.year} Form 1099-R.",
    )
    return redirect("taxes:loans_in_arrears")
