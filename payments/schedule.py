"""What a payable claim pays, when, and how it posts: the terms of a new payment record, the pay dates
of a stream, the federal withholding of an instalment and the split of an account payment by source.

Pay dates are the first day of a month (the plans' annuity starting dates are firsts of months); a
single sum, a withdrawal or a loan disbursement is paid on the first pay date on or after the day it
may be paid and the plan's prior notice (the plan's ``payment_notice_days``, cited in its claim rules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from payments.models import PaymentFrequency, PaymentKind, PaymentMethod

CENT = Decimal("0.01")
MONTHS = {PaymentFrequency.MONTHLY: 1, PaymentFrequency.QUARTERLY: 3, PaymentFrequency.ANNUAL: 12}
# Code §3405(c)(1): 20% withholding on an eligible rollover distribution not directly rolled over;
# §3405(b)(1): 10% on any other nonperiodic distribution unless the payee elects otherwise (Form W-4R).
ELIGIBLE_ROLLOVER_RATE = Decimal("20")
NONPERIODIC_DEFAULT_RATE = Decimal("10")
ACCOUNT_PLAN_KINDS = ("401k", "esop")  # benefits.models.Plan.Kind values


@dataclass
class Terms:
    payment: dict
    loan: dict = field(default_factory=dict)


def next_pay_date(on: date, *, notice_days: int) -> date:
    earliest = on + timedelta(days=notice_days)
    if earliest.day == 1:
        return earliest
    return date(earliest.year + (earliest.month == 12), earliest.month % 12 + 1, 1)


def add_months(d: date, months: int) -> date:
    m = d.month - 1 + months
    return (
        date(d.year + m // 12, m % 12 + 1, 1)
        if d.day == 1
        else d.replace(year=d.year + m // 12, month=m % 12 + 1)
    )


def sequence_on(payment, pay_date: date) -> int | None:
    """Which payment of the record falls on ``pay_date`` (1 = the first), or None."""
    first = payment.first_pay_date
    if pay_date < first:
        return None
    if payment.frequency == PaymentFrequency.ONCE:
        return 1 if pay_date == first else None
    step = MONTHS[payment.frequency]
    months = (pay_date.year - first.year) * 12 + pay_date.month - first.month
    if months % step or add_months(first, months) != pay_date:
        return None
    seq = months // step + 1
    if payment.number_of_payments and seq > payment.number_of_payments:
        return None
    return seq


def mask(destination: dict, method: str) -> str:
    """Never more than the last four digits of an account number."""
    if method == PaymentMethod.CHECK:
        return "Check to the address on record"
    account = str(destination.get("account_number") or "")
    bank = (
        f"{destination.get('account_type', 'account').title()} account ending {account[-4:]}"
        if account
        else ""
    )
    if destination.get("institution"):
        roll = f"Rollover to {destination['institution']} (account ending {str(destination.get('account', ''))[-4:]})"
        return f"{roll}; {bank}" if bank else roll
    return bank


def withholding_for(payment, gross: Decimal) -> tuple[Decimal, dict]:
    """Federal income tax withheld from one payment, with its basis (the form and rate elected)."""
    elected = payment.withholding_election or {}
    rate = elected.get("w4r_rate") or elected.get("rate")
    if payment.method == PaymentMethod.DIRECT_ROLLOVER or elected.get("form") == "none":
        return Decimal("0.00"), {
            "form": "none",
            "reason": "direct rollover: no withholding (Code §3405(c)(2))",
        }
    if rate not in (None, "") and payment.kind != PaymentKind.ANNUITY:
        amount = (gross * Decimal(str(rate)) / 100).quantize(CENT, ROUND_HALF_UP)
        return amount, {
            "form": elected.get("form", "W-4R"),
            "rate_percent": str(rate),
            "source": elected.get("source", "Form W-4R"),
        }
    return Decimal("0.00"), {
        "form": elected.get("form", ""),
        "note": "periodic withholding (Form W-4P) not computed here",
    }


def _survivor(form: str) -> Decimal | None:
    m = re.fullmatch(r"js(\d+)", form or "")
    return Decimal(m.group(1)) if m else None


def _certain_years(form: str) -> int | None:
    m = re.search(r"(\d+)", form or "") if "c" in (form or "") and not (form or "").startswith("js") else None
    return int(m.group(1)) if m else None


def share_distribution_label(label: str, d: dict) -> str:
    """ "Lump sum in shares and cash: 334 shares and $8.48 in cash" (what the paying agent delivers)."""
    from benefits import formatting

    parts = []
    if int(d.get("shares") or 0):
        parts.append(f"{formatting.shares(d['shares'], places=0)} shares")
    if Decimal(str(d.get("cash") or "0")) > 0:
        parts.append(f"{formatting.money(d['cash'])} in cash")
    return f"{label}: {' and '.join(parts)}"[:100]


def account_split(membership, amount: Decimal, claim_type: str, on: date) -> dict:
    """The sources an account-plan payment takes, in the order the plan's text names (engine)."""
    from benefits.engine.payment_order import PRO_RATA, split_in_order
    from benefits.engine.plans import get_plan
    from benefits.engine_adapter import membership_calculate

    plan = get_plan(membership.plan.key)
    orders = getattr(plan, "payment_orders", None) or {}
    order = orders.get(claim_type) or orders.get("default") or PRO_RATA
    result = membership_calculate(membership, as_of=on)
    by_source = ((result.get("account") or {}).get("by_source")) or {}
    available = {s: Decimal(v.get("vested_balance") or "0") for s, v in by_source.items()}
    if not available:  # an ESOP's share accounts: the stored balances
        available = {b.source: b.balance for b in membership.balances.all()}
    parts = split_in_order(amount, available, order)
    return {"section": order.section, "sources": {s: f"{v:.2f}" for s, v in parts.items()}}


def terms_for(*, claim, election, on: date) -> Terms:
    membership = claim.membership
    account_plan = membership.plan.kind in ACCOUNT_PLAN_KINDS
    if election is not None:
        fig = election.figures or {}
        method = election.payment_method
        destination = dict(election.payment or {})
        if method == PaymentMethod.DIRECT_ROLLOVER and destination.get("account_number"):
            method = PaymentMethod.SPLIT
        p = {
            "form": election.form,
            "form_label": election.form_label,
            "first_pay_date": election.asd,
            "method": method,
            "destination": destination,
            "destination_masked": mask(destination, method),
            "withholding_election": dict(election.withholding or {}),
            "continuation": {"beneficiaries": election.beneficiaries or []},
        }
        if election.is_single_sum:
            p.update(
                kind=PaymentKind.SINGLE_SUM, gross=Decimal(str(fig.get("lump_sum"))), number_of_payments=1
            )
        elif fig.get("first_installment"):
            p.update(
                kind=PaymentKind.INSTALLMENTS,
                gross=Decimal(str(fig["first_installment"])),
                frequency=fig.get("frequency") or PaymentFrequency.MONTHLY,
                number_of_payments=int(fig.get("installments") or 0) or None,
                withholding_election=dict(
                    (election.withholding or {}).get("installments") or election.withholding or {}
                ),
            )
        else:
            years = _certain_years(election.form)
            p.update(
                kind=PaymentKind.ANNUITY,
                gross=Decimal(str(fig.get("monthly"))),
                frequency=PaymentFrequency.MONTHLY,
                survivor_percent=_survivor(election.form),
                survivor_name=(election.spouse_name or (election.contingent_annuitant or {}).get("name", "")),
                certain_until=add_months(election.asd, 12 * years) if years else None,
            )
        shares_and_cash = fig.get("distribution")
        if shares_and_cash:
            # An ESOP's single sum in shares and cash: the engine's lines (each source's shares and
            # value out, and what the plan forfeits when it is paid) post as they are.
            p["posting"] = {
                "section": shares_and_cash.get("section", ""),
                "share_distribution": shares_and_cash,
            }
            p["form_label"] = share_distribution_label(election.form_label, shares_and_cash)
            if int(shares_and_cash.get("shares") or 0):
                # The paying agent (the trustee) delivers these in the payee's name or to the rollover IRA;
                # their value is in the gross and carries no withholding (Code §3405(e)(8)).
                p["destination"] = {
                    **destination,
                    "employer_shares": int(shares_and_cash["shares"]),
                    "employer_shares_value": str(shares_and_cash["shares_value"]),
                }
        elif account_plan and p["kind"] == PaymentKind.SINGLE_SUM:
            p["posting"] = account_split(membership, p["gross"], claim.claim_type, on)
        elif account_plan and p["kind"] == PaymentKind.INSTALLMENTS:
            # Each instalment takes the sources in the plan's order for the claim (pro rata, for a plan
            # whose text says so); the split of the first is stored and each instalment is split in proportion.
            p["posting"] = {
                **account_split(membership, p["gross"], claim.claim_type, on),
                "per_instalment": True,
            }
        return Terms(p)
    # A loan or an in-service withdrawal: the claim itself carries the amount (no election).
    from elections.claims.notices import loan_schedule

    check = claim.engine_check or {}
    amount = Decimal(str(check.get("amount")))
    asked = (claim.details or {}).get("payment_date")
    notice_ends = claim.received_on + timedelta(days=claim.plan_rules.payment_notice_days or 0)
    start = max(on, notice_ends, date.fromisoformat(asked) if isinstance(asked, str) and asked else on)
    pay_date = next_pay_date(start, notice_days=0)
    p = {
        "kind": PaymentKind.LOAN_DISBURSEMENT if claim.claim_type == "loan" else PaymentKind.SINGLE_SUM,
        "gross": amount,
        "first_pay_date": pay_date,
        "number_of_payments": 1,
        "method": PaymentMethod.CHECK,
        "destination": {},
        "destination_masked": mask({}, PaymentMethod.CHECK),
        "form_label": claim.get_claim_type_display(),
    }
    loan: dict = {}
    if claim.claim_type == "loan":
        s = loan_schedule(claim, decided_on=on)
        loan = {
            "principal": Decimal(s["principal"]),
            "rate_percent": Decimal(str(s["rate_percent"])),
            "term_months": int(check["term_months"]),
            "level_payment": Decimal(s["level_payment"]),
            "first_due": date.fromisoformat(s["payments"][0]["due"]) if s["payments"] else None,
            "schedule": s["payments"],
        }
        p["withholding_election"] = {"form": "none", "reason": "a loan is not a distribution"}
    elif claim.claim_type == "withdrawal_59half":
        p["withholding_election"] = {
            "form": "W-4R",
            "rate": str(ELIGIBLE_ROLLOVER_RATE),
            "source": "Code §3405(c)(1)",
        }
    else:  # a hardship distribution is not an eligible rollover distribution (Code §402(c)(4)(C))
        p["withholding_election"] = {
            "form": "W-4R",
            "rate": str(NONPERIODIC_DEFAULT_RATE),
            "source": "Code §3405(b)(1)",
        }
    if account_plan:
        p["posting"] = account_split(membership, amount, claim.claim_type, on)
    return Terms(p, loan)
