"""Claims as the pages show them: rows, labels and plain words from what the views read and the
engine said (no queries, no services, no engine calls: issue 23)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits import formatting
from elections.claims.forms import FORM_LABELS
from elections.claims.limits import claim_label
from elections.claims.models import ClaimState, ClaimType


def preview_rows(check: dict, cleaned: dict) -> list[tuple[str, str]]:
    """What the claimant would be paid for the date and form chosen, in words."""
    rows: list[tuple[str, str]] = []
    start = cleaned.get("commencement_date")
    if start:
        rows.append(("Payments start", f"{formatting.date_words(start)}"))
    form_key = cleaned.get("form")
    if form_key:
        rows.append(("Form of payment", FORM_LABELS.get(form_key, form_key)))
    amounts = check.get("form_amounts") or {}
    words = {
        "monthly": "Each month",
        "survivor_monthly": "Your spouse each month after your death",
        "monthly_after_social_security": "Each month once Social Security starts",
        "lump_sum": "Paid once",
    }
    for key, label in words.items():
        if amounts.get(key):
            rows.append((label, formatting.money(amounts[key])))
    if check.get("vested_balance"):
        rows.append(("Vested balance", formatting.money(check["vested_balance"])))
    return rows


def next_step_for_committee(claim) -> str:
    """The next step in words for the committee: who must act now, never "you may appeal"."""
    s = ClaimState

    def when(d) -> str:
        return f"{formatting.date_words(d)}"

    if claim.state == s.RECEIVED:
        return "Start the review."
    if claim.state in (s.UNDER_REVIEW, s.APPEAL_UNDER_REVIEW):
        return "Decide the claim, ask the claimant for information, or take an extension."
    if claim.state in (s.INFO_REQUESTED, s.APPEAL_INFO_REQUESTED):
        due = f" (asked to answer by {when(claim.information_due_on)})" if claim.information_due_on else ""
        return f"Waiting for the claimant's answer{due}; the clock is stopped."
    if claim.state == s.DENIED and claim.appeal_by:
        return f"Denied. The claimant may appeal until {when(claim.appeal_by)}."
    if claim.state == s.APPEALED:
        return "Start the review of the appeal (by a member who did not decide the claim)."
    if claim.state == s.ELECTION_REQUIRED:
        return "Approved. The claimant makes the election next; nothing is paid before it is complete."
    if claim.state == s.DENIED_ON_REVIEW:
        return "Denied on review: the plan's decision is final; the claimant may bring a civil action."
    return ""


def claim_row(c) -> dict:
    amount = c.details.get("amount")
    start = c.details.get("commencement_date") or c.details.get("payment_date")
    what = []
    if amount:
        what.append(formatting.money(amount))
    if c.details.get("form"):
        what.append(FORM_LABELS.get(c.details["form"], c.details["form"]))
    if start:
        d = date.fromisoformat(start)
        what.append(f"from {formatting.date_words(d)}")
    return {"claim": c, "what": ", ".join(what)}


ACTION_LABELS = {
    "filed": "Claim filed",
    "start_review": "Review started",
    "start_appeal_review": "Review of the appeal started",
    "extended": "Time to decide extended (notice sent)",
    "information_requested": "Information requested (the clock keeps running)",
    "information_requested_with_extension": "Time extended because information is missing (clock stopped)",
    "information_answered": "Information sent (clock restarted)",
    "information_not_answered": "No answer by the date asked",
    "vote_recorded": "Committee vote recorded",
    "approve": "Claim approved",
    "deny": "Claim denied",
    "appealed": "Appeal filed",
    "appealed_deemed_denial": "Appeal filed (no decision was made in time)",
    "approve_on_review": "Approved on review",
    "deny_on_review": "Denied on review",
    "handed_to_election": "Handed to the election process",
    "payment_scheduled": "Payment scheduled",
    "payment_confirmed": "Payment confirmed by the paying agent",
    "payment_unconfirmed": "Payment confirmation withdrawn",
    "documents_requested": "Documents relevant to the claim requested and provided",
    "documents_added": "Documents added",
}
DETAIL_LABELS = {
    "commencement_date": "Requested start date",
    "form": "Form of payment",
    "amount": "Amount requested",
    "payment_date": "Requested payment date",
    "reason": "Hardship reason",
    "term_months": "Term (months)",
    "principal_residence": "For the principal residence",
    "representation": "Representation given",
    "maximum_new_loan": "Most that may be borrowed (the plan's calculation)",
    "maximum_available": "Most available for hardship (the plan's calculation)",
    "maximum": "Most that may be withdrawn (the plan's calculation)",
    "earliest_retirement_date": "Earliest retirement date (the plan's calculation)",
    "rate_percent": "Loan rate",
    "prime_rate": "Prime rate used",
    "vested_balance": "Vested balance (the plan's calculation)",
    "normal_form": "Normal form",
    # The engine's version stays in the stored check (administrators' records), not on this page.
    "as_of": "Checked against the plan's calculation on",
}


def timeline(events) -> list[dict]:
    """The claim's events (``claim.events`` with their actors) as the page's timeline rows."""
    labels = dict(ClaimState.choices)
    return [
        {
            "event": e,
            "label": ACTION_LABELS.get(e.action, e.action.replace("_", " ")),
            "from": labels.get(e.from_state, ""),
            "to": labels.get(e.to_state, ""),
        }
        for e in events
    ]


def detail_rows(claim) -> list[tuple[str, str]]:
    """What was asked and what the engine said, each shown once (the engine copy of a field repeats it)."""
    rows: dict[str, str] = {}
    for source in (claim.details, claim.engine_check):
        for key, value in source.items():
            label = DETAIL_LABELS.get(key)
            if label is None or label in rows or value in (None, "", []):
                continue
            if key in ("form", "normal_form"):
                value = FORM_LABELS.get(value, value)
            elif key in ("amount", "maximum_new_loan", "maximum_available", "maximum", "vested_balance"):
                value = formatting.money(value)
            elif key in ("commencement_date", "payment_date", "earliest_retirement_date", "as_of"):
                try:
                    d = date.fromisoformat(str(value))
                    value = f"{formatting.date_words(d)}"
                except ValueError:
                    pass
            elif key in ("rate_percent", "prime_rate"):
                value = f"{value}%"
            elif key in ("principal_residence", "representation"):
                value = "Yes" if str(value) in ("True", "true") else "No"
            rows[label] = str(value)
    amounts = claim.engine_check.get("form_amounts") or {}
    if amounts:
        rows["Amount of that form (the plan's calculation)"] = ", ".join(amounts_words(amounts))
    return list(rows.items())


def amounts_words(amounts: dict, prefix: str = "") -> list[str]:
    """Each amount of a form as "monthly $1,234.56" (nested amounts, such as a later step, flattened)."""
    out = []
    for key, value in amounts.items():
        if key in ("note", "trace"):
            continue
        words = f"{prefix}{key.replace('_', ' ')}"
        if key == "relative_value" and isinstance(value, dict) and value.get("percent"):
            out.append(f"relative value {value['percent']}% of the joint and survivor annuity")
        elif isinstance(value, dict):
            out += amounts_words(value, prefix=f"{words}, ")
        elif isinstance(value, str | int | float | Decimal) and not isinstance(value, bool):
            try:
                out.append(f"{words} {formatting.money(value)}")
            except ArithmeticError:
                out.append(f"{words} {value}")
    return out


def figure_rows(
    claim_type: str,
    result: dict,
    *,
    today: date,
    pending: list,
    most: dict[str, object],
    loan_terms=None,
    prime=None,
    loan_rate=None,
    rate_missing: str = "",
    first_open: date | None = None,
) -> list[tuple[str, str]]:
    """The engine's figures today that bound this request, in rows, shown before the claimant fills the
    form: ``most`` is what each kind of claim may still take after the ``pending`` claims; for a loan,
    the plan's ``loan_terms`` cite its sections, ``loan_rate`` follows ``prime`` (or ``rate_missing``
    says why there is none yet); ``first_open`` is the first start date a claim filed today can ask for."""
    out: list[tuple[str, str]] = []
    # What other claims not yet paid already take (issue 22): the figures offered are what is left.
    if pending:
        out.append(("Your claims not yet paid", "; ".join(claim_label(c) for c in pending)))
    if claim_type == ClaimType.LOAN and ClaimType.LOAN in most:
        section = f" ({loan_terms.maximum_section})" if loan_terms else ""
        out.append((f"Most you can borrow{section}", formatting.money(most[ClaimType.LOAN])))
        if prime is not None and loan_rate is not None:
            section = f" ({loan_terms.rate_section})" if loan_terms else ""
            out.append(
                (f"Loan rate for requests in {formatting.month_words(today)}{section}", f"{loan_rate}%")
            )
            out.append(("Prime rate it is based on", f"{formatting.percent(prime.percent)} ({prime.source})"))
        else:
            out.append(("Loan rate", rate_missing))
    if claim_type == ClaimType.HARDSHIP and ClaimType.HARDSHIP in most:
        out.append(("Most available for hardship", formatting.money(most[ClaimType.HARDSHIP])))
    if claim_type == ClaimType.WITHDRAWAL_59HALF and ClaimType.WITHDRAWAL_59HALF in most:
        out.append(("Most you can withdraw", formatting.money(most[ClaimType.WITHDRAWAL_59HALF])))
    if result.get("earliest_retirement_date") and claim_type in (ClaimType.COMMENCEMENT, ClaimType.LUMP_SUM):
        earliest = date.fromisoformat(result["earliest_retirement_date"])
        # A date already past is no use to anyone, least of all an active employee: offer the first
        # date a claim filed today can ask for (the plan's filing lead time).
        if first_open is not None and earliest < first_open:
            out.append(("Earliest date you can ask for today", f"{formatting.date_words(first_open)}"))
        else:
            out.append(("Earliest retirement date", f"{formatting.date_words(earliest)}"))
    if result.get("normal_retirement_date") and claim_type == ClaimType.COMMENCEMENT:
        out.append(
            (
                "Normal retirement date",
                f"{formatting.date_words(date.fromisoformat(result['normal_retirement_date']))}",
            )
        )
    account = result.get("account") or {}
    if account.get("vested_balance") and claim_type in (
        ClaimType.ESOP_DISTRIBUTION,
        ClaimType.LUMP_SUM,
        ClaimType.TERMINATION_DISTRIBUTION,
        ClaimType.DEATH_BENEFIT,
    ):
        out.append(("Vested balance today", formatting.money(account["vested_balance"])))
    return out
