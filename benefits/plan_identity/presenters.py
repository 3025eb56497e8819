"""The plan identification block of a document, as plain data stored in its payload (so the PDF
prints what was true when it was asked for, and a re-render prints the same)."""

from __future__ import annotations


def identity_block(plan, contact) -> dict:
    """``contact`` is the plan's PlanContact, or None while an administrator has not filled it in
    (the block then says so instead of printing blanks)."""
    block = {"plan_name": plan.name, "sponsor_name": plan.employer.name}
    if contact is None:
        return block | {"missing": True}
    return block | {
        "plan_number": contact.plan_number,
        "sponsor_name": contact.sponsor_name,
        "sponsor_address": [line.strip() for line in contact.sponsor_address.splitlines() if line.strip()],
        "administrator_name": contact.administrator_name,
        "administrator_address": [
            line.strip() for line in contact.administrator_address.splitlines() if line.strip()
        ],
        "administrator_phone": contact.administrator_phone,
    }
