"""A payment record's facts as the tax rules read them (the one place a payment becomes a
``benefits.engine.taxes`` ``Distribution`` and the payee's choices an ``Election``).

Readings (stated here once):
* A loan disbursement and a transfer within the plan are not distributions (no 1099-R, no notice).
* Payee relationships: "participant"; "spouse" (a surviving spouse); "estate"; anything else is a
  nonspouse beneficiary (a trust is read as a see-through trust, Notice 2007-7 Q&A-16).
* Installments are "10 years or more" when their number is at least ten years of payments at their
  frequency (Code §402(c)(4)(A)(ii)); a schedule without an end runs over a life expectancy.
* Separation from service is the participant's termination date; disability (code 3) is the
  disability date on file, on or before the payment.
* The $200 rule (Treas. Reg. §31.3405(c)-1 Q&A-14): the eligible rollover distributions the payee is
  "reasonably expected" to receive from the plan in the calendar year are this payment's own
  instalments falling in that year plus the other payment records' instalments to the same payee from
  the same plan membership in that year that are not cancelled or returned (``year_eligible_total``).
* These plans hold no after-tax employee contributions, so box 5 is zero and the taxable amount is
  known (box 2b "not determined" stays unchecked); payments are in cash, except an ESOP's shares of
  employer stock, which are part of the gross at their value and carry no withholding (§3405(e)(8)).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits.engine.money import to_money
from benefits.engine.taxes.distributions import Distribution, Kind, Method, Recipient
from benefits.engine.taxes.withholding import Election

PER_YEAR = {"monthly": 12, "quarterly": 4, "annual": 1, "once": 1}
RECIPIENTS = {
    "participant": Recipient.PARTICIPANT,
    "spouse": Recipient.SPOUSE_BENEFICIARY,
    "estate": Recipient.ESTATE,
}
METHODS = {"direct_rollover": Method.DIRECT_ROLLOVER, "split": Method.SPLIT}


def kind_of(payment) -> Kind | None:
    """The distribution kind of a payment record, or None when it is not a distribution."""
    if payment.kind in ("loan_disbursement", "transfer"):
        return None
    claim_type = getattr(payment.claim, "claim_type", "") if payment.claim_id else ""
    if claim_type == "hardship":
        return Kind.HARDSHIP
    if claim_type == "withdrawal_59half":
        return Kind.WITHDRAWAL
    if payment.kind == "annuity":
        return Kind.ANNUITY
    if payment.kind == "installments":
        return Kind.INSTALLMENT
    if "partial" in (payment.form or ""):
        return Kind.PARTIAL_LUMP_SUM
    return Kind.LUMP_SUM


def distribution(payment, *, gross: Decimal, paid_on: date) -> Distribution | None:
    kind = kind_of(payment)
    if kind is None:
        return None
    p = payment.participant
    per_year = PER_YEAR.get(payment.frequency, 12)
    n = payment.number_of_payments
    return Distribution(
        kind=kind,
        recipient=RECIPIENTS.get(
            payment.payee_relationship or "participant", Recipient.NONSPOUSE_BENEFICIARY
        ),
        gross=gross,
        paid_on=paid_on,
        participant_birth_date=p.birth_date,
        separation_date=p.termination_date,
        installment_years=(n // per_year) if (kind is Kind.INSTALLMENT and n) else None,
        installments_for_life_expectancy=kind is Kind.INSTALLMENT and not n,
        disabled=bool(p.disability_date and p.disability_date <= paid_on),
        employer_securities=employer_securities(payment, gross),
    )


def employer_securities(payment, gross: Decimal) -> Decimal:
    """The value of the shares of employer stock in a payment (an ESOP distribution in shares and cash):
    no tax can be withheld from them (Code §3405(e)(8))."""
    # Kept with the destination (read with every record), not the posting (left unread in bulk runs).
    value = Decimal(str(_w(payment.destination).get("employer_shares_value") or "0"))
    return min(value, gross)


def _w(value) -> dict:
    return value if isinstance(value, dict) else {}


def election(payment, *, eligible: bool = True, defaults_only: bool = False) -> Election:
    """The payee's choices from the payment record (the election's W-4R / W-4P shape, see
    ``elections.benefit_elections.forms``): {"form": "W-4R", "w4r_rate"} or {"form": "W-4P", "w4p",
    "w4p_extra"}, or both with the W-4P under "installments"; a claim's record may carry "rate".
    A split without an amount (the payments app's reading of a rollover with a bank account for the
    rest) rolls over the eligible part and pays the rest. ``defaults_only``: the law's defaults."""
    method = METHODS.get(payment.method, Method.DIRECT_PAYMENT)
    rollover_amount = _w(payment.destination).get("rollover_amount")
    if method is Method.SPLIT and rollover_amount in (None, ""):
        method = Method.DIRECT_ROLLOVER if eligible else Method.DIRECT_PAYMENT
    per_year = PER_YEAR.get(payment.frequency, 12)
    if defaults_only:
        return Election(
            method=Method.DIRECT_PAYMENT if method is Method.SPLIT else method, payments_per_year=per_year
        )
    w = _w(payment.withholding_election)
    w4p = _w(w.get("installments")) or (w if w.get("form") == "W-4P" else {})
    rate = (w.get("w4r_rate") or w.get("rate")) if w.get("form") == "W-4R" else None
    return Election(
        method=method,
        rollover_amount=to_money(Decimal(str(rollover_amount))) if method is Method.SPLIT else None,
        w4r_rate=Decimal(str(rate)) if rate not in (None, "") else None,
        w4p_status=w4p.get("w4p") or None,
        w4p_extra=_amount(w4p, "w4p_extra"),
        w4p_step2_jobs=_amount(w4p, "w4p_step2_jobs"),
        w4p_step2_pensions=_amount(w4p, "w4p_step2_pensions"),
        w4p_step3=_amount(w4p, "w4p_step3"),
        w4p_step4a=_amount(w4p, "w4p_step4a"),
        w4p_step4b=_amount(w4p, "w4p_step4b"),
        payments_per_year=per_year,
    )


def _amount(w: dict, key: str) -> Decimal:
    """A Form W-4P dollar amount as stored (a string of dollars and cents); absent: $0."""
    return Decimal(str(w.get(key) or "0"))


def _own_pay_dates_in_year(payment, year: int) -> int:
    """How many of this record's pay dates fall in ``year`` (a single sum: its one date)."""
    from payments.schedule import MONTHS, add_months

    first = payment.first_pay_date
    if payment.frequency not in MONTHS:
        return 1 if first.year == year else 0
    step, count, k = MONTHS[payment.frequency], 0, 0
    while True:
        if payment.number_of_payments and k >= payment.number_of_payments:
            return count
        on = add_months(first, k * step)
        if on.year > year:
            return count
        count += on.year == year
        k += 1


def year_eligible_total(payment, *, gross: Decimal, paid_on: date) -> Decimal:
    """The eligible rollover distributions the payee is reasonably expected to receive from the plan in
    ``paid_on``'s year (Treas. Reg. §31.3405(c)-1 Q&A-14), this payment's included."""
    from benefits.engine.taxes.rollover import eligibility
    from payments.models import PaymentInstalment

    year = paid_on.year
    total = gross * max(1, _own_pay_dates_in_year(payment, year))
    others = (
        PaymentInstalment.objects.filter(
            payment__membership_id=payment.membership_id,
            payment__payee_name=payment.payee_name,
            payment__payee_relationship=payment.payee_relationship,
            pay_date__year=year,
        )
        .exclude(payment_id=payment.pk)
        .exclude(state__in=("cancelled", "returned"))
        .select_related("payment__participant", "payment__claim")
    )
    for inst in others:
        d = distribution(inst.payment, gross=inst.gross, paid_on=inst.pay_date)
        if d is not None:
            total += eligibility(d).eligible_amount
    return total
