"""Payment records in words and rows for pages, the command's JSON and PDFs (no queries, no writes).

Words follow facts: "scheduled for January 1, 2027" until the paying agent confirmed the payment;
"paid" only for a confirmed instalment; "in pay since ..." only while a confirmed stream runs.
"""

from __future__ import annotations

from benefits import formatting

PER = {"monthly": "a month", "quarterly": "a quarter", "annual": "a year", "once": ""}


def money(value) -> str:
    return formatting.money(value)


def day(d) -> str:
    return formatting.date_words(d)


def scheduled_words(payment, *, named: bool = True) -> str:
    """``named``: the sentence says which payment it is (a claim's next step, a plan's card); a list
    that names each payment beside its status says only the date and the amount."""
    what = f"{payment.form_label or payment.get_kind_display()}, " if named else ""
    if payment.kind == "loan_disbursement":
        return f"Scheduled for {day(payment.first_pay_date)}: the loan of {money(payment.gross)} is paid out."
    if payment.frequency == "once":
        return f"Scheduled for {day(payment.first_pay_date)}: {what}{money(payment.gross)}."
    return (
        f"Scheduled for {day(payment.first_pay_date)}: {what}{money(payment.gross)} {PER[payment.frequency]}."
    )


def status_words(payment, first_paid=None, *, named: bool = True) -> str:
    """The payment record's state in words for the participant and the dashboard (``named``: see
    ``scheduled_words``)."""
    s = payment.state
    if s == "in_pay":
        return (
            f"In pay since {day(first_paid)}, {money(payment.gross)} {PER[payment.frequency]}".strip() + "."
        )
    if s == "paid":
        return f"Paid on {day(first_paid)}." if first_paid else "Paid."
    if s == "returned":
        return "Returned by the bank: give a new bank account so it can be paid again."
    if s in ("suspended", "stopped"):
        return f"{payment.get_state_display()}: {payment.state_reason}"
    if s == "cancelled":
        return "Cancelled before payment."
    return scheduled_words(payment, named=named)


def due_row(i) -> dict:
    """One instalment due on a pay date (the admin page and the command): destination masked."""
    p = i.payment
    return {
        "payment": p.pk,
        "instalment": i.pk,
        "payee": p.payee_name,
        "plan": p.membership.plan.name,
        "plan_key": p.membership.plan.key,
        "kind": p.kind,
        "kind_label": p.get_kind_display(),
        "gross": f"{i.gross:.2f}",
        "withholding": f"{i.withholding:.2f}",
        "net": f"{i.net:.2f}",
        "method": p.method,
        "method_label": p.get_method_display(),
        "destination": p.destination_masked,
        "state": i.state,
        "state_label": i.get_state_display(),
    }


def due_json(pay_date, instalments) -> dict:
    keys = ("payment", "payee", "plan", "kind", "gross", "withholding", "net", "method", "state")
    return {
        "pay_date": pay_date.isoformat(),
        "payments": [{k: r[k] for k in keys} for r in (due_row(i) for i in instalments)],
    }


def history_row(i) -> dict:
    return {
        "date": day(i.paid_on or i.pay_date),
        "what": i.payment.form_label or i.payment.get_kind_display(),
        "plan": i.payment.membership.plan.name,
        "gross": money(i.gross),
        "withholding": money(i.withholding),
        "net": money(i.net),
        "destination": i.payment.destination_masked,
        "state": "Paid" if i.state == "paid" else i.get_state_display(),
        "reference": i.agent_reference if i.state == "paid" else "",
    }


def participant_page(payments, instalments) -> dict:
    """The participant's payments: each record in words, the history, the next scheduled payment."""
    first_paid = {}
    for i in instalments:
        if i.state == "paid" and i.payment_id not in first_paid:
            first_paid[i.payment_id] = i.paid_on
    upcoming = [i for i in instalments if i.state in ("scheduled", "instructed")]
    records = [
        {
            "plan": p.membership.plan.name,
            "what": (p.form_label or p.get_kind_display())
            + (
                f", to {p.payee_name} after the death of {p.participant.full_name}"
                if p.continues_from_id
                else ""
            ),
            "status": status_words(p, first_paid.get(p.pk), named=False),  # ``what`` names it
            "destination": p.destination_masked,
        }
        for p in payments
    ]
    nxt = min(upcoming, key=lambda i: i.pay_date) if upcoming else None
    scheduled_next = None
    if nxt is None:
        pending = [p for p in payments if p.state == "scheduled"]
        if pending:
            p = min(pending, key=lambda p: p.first_pay_date)
            scheduled_next = {
                "date": day(p.first_pay_date),
                "gross": money(p.gross),
                "what": p.form_label or p.get_kind_display(),
            }
    else:
        scheduled_next = {
            "date": day(nxt.pay_date),
            "gross": money(nxt.gross),
            "what": nxt.payment.form_label or nxt.payment.get_kind_display(),
        }
    return {
        "records": records,
        "history": [history_row(i) for i in instalments if i.state in ("paid", "returned")],
        "next": scheduled_next,
    }


def words_by_membership(payments, instalments) -> dict[int, str]:
    """Each membership's benefit payment in words for its dashboard card (the stream, else the first)."""
    first_paid: dict[int, object] = {}
    for i in instalments:
        if i.state == "paid" and i.payment_id not in first_paid:
            first_paid[i.payment_id] = i.paid_on
    out: dict[int, str] = {}
    for p in sorted(payments, key=lambda p: (p.kind != "annuity", p.first_pay_date)):
        if p.kind == "loan_disbursement" or p.state in ("cancelled", "stopped"):
            continue
        if p.state == "paid" and p.membership.plan.kind in ("401k", "esop"):
            continue  # a paid withdrawal shows in the balance, not as a standing status
        words = status_words(p, first_paid.get(p.pk))
        if p.state == "paid" and p.kind == "single_sum" and p.membership.plan.kind == "cash_balance":
            # A cash balance plan debits the account to zero on the ASD (the plan's account section).
            words += " Your account was paid out in full and is closed."
        out.setdefault(p.membership_id, words)
    return out


def stream_row(p) -> dict:
    """An annuity a death can be recorded for."""
    return {
        "payment": p.pk,
        "payee": p.payee_name,
        "relationship": "participant" if p.payee_relationship == "participant" else p.payee_relationship,
        "participant": p.participant.full_name,
        "participant_number": p.participant.participant_number,
        "plan": p.membership.plan.name,
        "what": p.form_label or p.get_kind_display(),
        "gross": money(p.gross),
        "status": status_words(p, named=False),  # the row names the form and the amount
    }


def death_row(d) -> dict:
    p = d.payment
    return {
        "payee": d.payee_name,
        "participant": p.participant.full_name,
        "plan": p.membership.plan.name,
        "died_on": day(d.died_on),
        "last_pay_date": day(d.last_pay_date) if d.last_pay_date else "none",
        "evidence": d.evidence_reference or ("document on file" if d.evidence_file else ""),
        "outcome": p.state_reason,
    }


def recovery_row(i) -> dict:
    p = i.payment
    death = getattr(p, "death", None)
    return {
        "payment": p.pk,
        "payee": p.payee_name,
        "plan": p.membership.plan.name,
        "pay_date": day(i.pay_date),
        "gross": money(i.gross),
        "net": money(i.net),
        "state": "Paid" if i.state == "paid" else i.get_state_display(),
        "reference": i.agent_reference if i.state == "paid" else "",
        "died_on": day(death.died_on) if death else "",
    }
