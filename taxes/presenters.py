"""Form 1099-R shaped for the recipient's copy (PDF payload) and the payer's file (CSV rows)."""

from __future__ import annotations

from decimal import Decimal

from benefits import formatting

# Box 7 in words (2026 Instructions for Forms 1099-R and 5498, Guide to Distribution Codes).
CODE_WORDS = {
    "1": "Early distribution, no known exception (under age 59½)",
    "2": "Early distribution, exception applies (under age 59½)",
    "3": "Disability",
    "4": "Death",
    "7": "Normal distribution",
    "G": "Direct rollover to a qualified plan, a 403(b) plan, a governmental 457(b) plan or an IRA",
    "L": "Loan treated as a deemed distribution",
    "M": "Qualified plan loan offset",
}

CSV_COLUMNS = (
    "year",
    "payer_plan",
    "payer_name",
    "form_id",
    "version",
    "corrected",
    "recipient_name",
    "recipient_relationship",
    "participant_number",
    "recipient_tin_last4",
    "box_1_gross_distribution",
    "box_2a_taxable_amount",
    "box_2b_taxable_amount_not_determined",
    "box_2b_total_distribution",
    "box_4_federal_income_tax_withheld",
    "box_5_employee_contributions",
    "box_7_distribution_codes",
    "issued_on",
)


def _money(value: Decimal) -> str:
    return formatting.money(value)


def code_words(code: str) -> str:
    return "; ".join(CODE_WORDS.get(c, c) for c in code)


def form_payload(form, *, participant, plan) -> dict:
    return {
        "year": form.year,
        "corrected": form.corrected,
        "payer": plan.name,
        "recipient": form.payee_name,
        "recipient_tin": f"XXX-XX-{participant.ssn_last4}"
        if form.payee_relationship == "participant"
        else "",
        "address": participant.address if form.payee_relationship == "participant" else "",
        "account": f"{participant.participant_number}-{form.year}-{form.code}",
        "box_1": _money(form.gross),
        "box_2a": "" if form.taxable_not_determined else _money(form.taxable),
        "box_2b_not_determined": form.taxable_not_determined,
        "box_2b_total": form.total_distribution,
        "box_4": _money(form.withheld),
        "box_5": _money(form.employee_contributions),
        "box_7": form.code,
        "box_7_words": code_words(form.code),
        "rollover": "G" in form.code,
    }


def csv_row(form) -> dict:
    return {
        "year": form.year,
        "payer_plan": form.plan.key,
        "payer_name": form.plan.name,
        "form_id": form.pk,
        "version": form.version,
        "corrected": "X" if form.corrected else "",
        "recipient_name": form.payee_name,
        "recipient_relationship": form.payee_relationship,
        "participant_number": form.participant.participant_number,
        "recipient_tin_last4": form.participant.ssn_last4 if form.payee_relationship == "participant" else "",
        "box_1_gross_distribution": f"{form.gross:.2f}",
        "box_2a_taxable_amount": "" if form.taxable_not_determined else f"{form.taxable:.2f}",
        "box_2b_taxable_amount_not_determined": "X" if form.taxable_not_determined else "",
        "box_2b_total_distribution": "X" if form.total_distribution else "",
        "box_4_federal_income_tax_withheld": f"{form.withheld:.2f}",
        "box_5_employee_contributions": f"{form.employee_contributions:.2f}",
        "box_7_distribution_codes": form.code,
        "issued_on": form.issued_on.isoformat(),
    }
