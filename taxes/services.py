"""Every write about taxes on payments, and the checks the payment run asks before instructing.

* ``instalment_withholding``: the federal income tax to withhold from one instalment, and why (Code
  §3405, read by ``benefits.engine.taxes.withholding``) — the payment run stores it on the instalment.
* ``notice_check``: whether an instalment may be instructed given its §402(f) notice (Treas. Reg.
  §1.402(f)-1 Q&A-2); a payment whose timing fails is not instructed.
* ``payment_notice_issue``: issue the §402(f) notice for a payment record, through the notices'
  exactly-once machinery (``elections.benefit_elections.services.notice_issue``).
* ``forms_issue``: every Form 1099-R of a year, exactly once (database uniqueness), with corrected
  forms when a payment was reversed after the form was issued.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.delivery.services import delivery_arrange
from benefits.engine.elections import election_rules
from benefits.engine.money import ZERO
from benefits.engine.taxes import form_1099r
from benefits.engine.taxes.distributions import Distribution, Kind, Recipient
from benefits.engine.taxes.notice_timing import Timing, annual_notice_due, check
from benefits.engine.taxes.rollover import eligibility
from benefits.engine.taxes.withholding import ElectionRefused, compute
from benefits.services.documents import document_request
from taxes import facts
from taxes.models import Form1099R

logger = logging.getLogger(__name__)

ROLLOVER_NOTICE = "rollover_402f"


def today() -> date:
    return timezone.localdate()


# ------------------------------------------------------------------------------ withholding


def instalment_withholding(payment, *, gross: Decimal, pay_date: date) -> tuple[Decimal, dict]:
    """Federal income tax to withhold from an instalment of ``gross`` paid on ``pay_date``, and the basis
    to store with it (form, rule, the rollover and payee parts). ``ElectionRefused`` names the choice
    that breaks a rule. Not a distribution (a loan disbursement, a transfer): nothing withheld."""
    d = facts.distribution(payment, gross=gross, paid_on=pay_date)
    if d is None:
        return ZERO, {"rule": "Not a distribution: no federal income tax withholding."}
    if eligibility(d).eligible:  # the $200 rule reads the year's eligible distributions (Q&A-14)
        d = replace(d, year_eligible_total=facts.year_eligible_total(payment, gross=gross, paid_on=pay_date))
    try:
        w = compute(d, facts.election(payment, eligible=eligibility(d).eligible))
    except ElectionRefused as exc:
        # A stored choice that breaks a rule is not followed: the law's default applies (20% on an
        # eligible rollover distribution, 10% on another nonperiodic payment, single on a periodic one).
        w = compute(d, facts.election(payment, eligible=eligibility(d).eligible, defaults_only=True))
        return w.federal_withholding, {**w.as_dict, "refused_choice": str(exc)}
    return w.federal_withholding, w.as_dict


# ------------------------------------------------------------------------------ §402(f) notice


def notice_allows(instalment) -> bool:
    """Whether the payment run may instruct ``instalment`` (its §402(f) notice timing holds, or it
    needs none)."""
    timing = notice_check(instalment)
    return timing is None or timing.ok


def notices_allow(instalments) -> list:
    """The instalments the payment run may instruct, in their order: ``notice_allows`` for a whole pay
    date with one query for the notices, however many instalments (issue 22, item 9)."""
    timings = notice_checks(instalments)
    return [i for i in instalments if timings[id(i)] is None or timings[id(i)].ok]


def notice_check(instalment) -> Timing | None:
    """Whether ``instalment`` may be instructed as far as the §402(f) notice goes (None: no notice is
    needed because the payment is not an eligible rollover distribution)."""
    return notice_checks([instalment])[id(instalment)]


def _notices_of(payments) -> dict[tuple[int, int], list[tuple[date, int, date | None]]]:
    """The §402(f) notices of these payments' payees and plans, by (participant, plan): (asd, version,
    issued on) each. One query."""
    from elections.benefit_elections.models import Notice

    people = {p.participant_id for p in payments}
    plans = {p.membership.plan_id for p in payments}
    out: dict[tuple[int, int], list[tuple[date, int, date | None]]] = defaultdict(list)
    if not people:
        return out
    for pid, plan_id, asd, version, issued_on in Notice.objects.filter(
        participant_id__in=people, plan_id__in=plans, kind=ROLLOVER_NOTICE
    ).values_list("participant_id", "plan_id", "asd", "version", "issued_on"):
        out[(pid, plan_id)].append((asd, version, issued_on))
    return out


def notice_checks(instalments) -> dict[int, Timing | None]:
    """``notice_check`` of each instalment, keyed by ``id(instalment)``: the payments' claims, elections,
    payees and plans are read from the instalments (joined by the caller), the notices in one query."""
    eligible = []
    out: dict[int, Timing | None] = {}
    for instalment in instalments:
        d = facts.distribution(instalment.payment, gross=instalment.gross, paid_on=instalment.pay_date)
        if d is None or not eligibility(d).eligible:
            out[id(instalment)] = None
        else:
            eligible.append(instalment)
    notices = _notices_of([i.payment for i in eligible])
    for instalment in eligible:
        out[id(instalment)] = _timing(
            instalment, notices[(instalment.payment.participant_id, instalment.payment.membership.plan_id)]
        )
    return out


def _timing(instalment, notices: list[tuple[date, int, date | None]]) -> Timing:
    payment = instalment.payment
    # The notice for the first pay date: its latest version.
    first = max((n for n in notices if n[0] == payment.first_pay_date), key=lambda n: n[1], default=None)
    election = payment.election if payment.election_id else None
    waived_on = election.signed_on if election is not None and election.waive_30_days else None
    notice_on = first[2] if first else None
    claim = payment.claim if payment.claim_id else None
    if election is None and claim is not None and str((claim.details or {}).get("waive_30_days")) == "True":
        # A withdrawal claim shows the rollover notice on its page; the participant who ticked the
        # waiver read it there and chose to be paid sooner, on the day the claim was received.
        notice_on = min(notice_on, claim.received_on) if notice_on else claim.received_on
        waived_on = claim.received_on
    survivor = election_rules(payment.membership.plan.key).qjsa_applies and payment.kind != "single_sum"
    if instalment.pay_date == payment.first_pay_date or instalment.sequence == 1:
        return check(
            notice_on=notice_on,
            payment_on=instalment.pay_date,
            waived_on=waived_on,
            survivor_rules=survivor,
        )
    # A later eligible instalment: a notice at least once a year (Treas. Reg. §1.402(f)-1 Q&A-2(b)).
    issued = [n[2] for n in notices if n[2] is not None and n[2] <= instalment.pay_date]
    if not issued or annual_notice_due(max(issued), instalment.pay_date):
        return Timing(
            False, "A §402(f) notice is due again: at least once a year while the payments continue."
        )
    return Timing(True, "The yearly §402(f) notice has been given.")


def payment_notice_issue(payment, *, actor=None, on: date | None = None, request=None):
    """Issue the §402(f) notice for a payment record (exactly once for the participant, plan and first
    pay date). Returns the notices' ``IssueOutcome``; None when the payment is not an eligible rollover
    distribution."""
    from elections.benefit_elections.services import notice_issue

    d = facts.distribution(payment, gross=payment.gross, paid_on=payment.first_pay_date)
    if d is None or not eligibility(d).eligible:
        return None
    words = {
        "annuity": "annuity payments",
        "installments": f"{payment.get_frequency_display().lower()} installments",
    }.get(payment.kind, "a single payment")
    return notice_issue(
        membership=payment.membership,
        kind=ROLLOVER_NOTICE,
        asd=payment.first_pay_date,
        actor=actor,
        on=on,
        request=request,
        facts={
            "amount": str(payment.gross),
            "payee_name": payment.payee_name,
            "payment_words": words + ("" if payment.kind != "installments" else ", the first"),
            "payment_id": payment.pk,
        },
    )


# ------------------------------------------------------------------------------ Form 1099-R


@dataclass
class IssueReport:
    issued: int = 0
    already_issued: int = 0
    corrected: list[str] = field(default_factory=list)
    failed: list[dict] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"issued": self.issued, "already_issued": self.already_issued, "failed": self.failed}


def _payee_key(payment) -> tuple[int, int, str, str]:
    return (
        payment.membership.plan_id,
        payment.participant_id,
        payment.payee_name,
        payment.payee_relationship,
    )


def year_lines(year: int) -> dict[tuple, list[tuple[str, form_1099r.Line]]]:
    """Each payee's form lines for ``year``: every instalment the paying agent confirmed paid that year
    (state "paid"; a returned instalment is not paid and drops out)."""
    from payments.models import PaymentInstalment

    rows = (
        PaymentInstalment.objects.filter(state="paid", paid_on__year=year)
        .select_related("payment__participant", "payment__claim", "payment__membership__plan")
        .order_by("pk")
    )
    out: dict[tuple, list[tuple[str, form_1099r.Line]]] = defaultdict(list)
    for inst in rows:
        payment = inst.payment
        d = facts.distribution(payment, gross=inst.gross, paid_on=inst.paid_on)
        if d is None:
            continue
        try:
            rolled = compute(d, facts.election(payment, eligible=eligibility(d).eligible)).rolled_over
        except ElectionRefused:
            rolled = ZERO  # a record whose choices no longer hold was paid to the payee
        for line in form_1099r.lines(
            d, rolled_over=rolled, paid_to_payee=inst.gross - rolled, withheld=inst.withholding
        ):
            out[_payee_key(payment)].append((str(inst.pk), line))
    _loan_lines(year, out)
    return out


def _loan_lines(year: int, out: dict[tuple, list[tuple[str, form_1099r.Line]]]) -> None:
    """The loans declared in default in ``year`` (``taxes.loans``): a deemed distribution (code L) or an
    offset (M when qualified), no cash and so nothing withheld (Code §3405(e)(8))."""
    from taxes.models import LoanDistribution

    rows = LoanDistribution.objects.filter(on__year=year).select_related(
        "loan__payment__participant", "loan__payment__membership__plan"
    )
    for row in rows.order_by("pk"):
        payment = row.loan.payment
        p = payment.participant
        d = Distribution(
            kind=Kind.LOAN_DEEMED if row.kind == LoanDistribution.Kind.DEEMED else Kind.LOAN_OFFSET,
            recipient=Recipient.PARTICIPANT,
            gross=row.amount,
            paid_on=row.on,
            participant_birth_date=p.birth_date,
            separation_date=p.termination_date,
            disabled=bool(p.disability_date and p.disability_date <= row.on),
            qualified_loan_offset=row.qualified_offset,
        )
        for line in form_1099r.lines(d, rolled_over=ZERO, paid_to_payee=row.amount, withheld=ZERO):
            out[_payee_key(payment)].append((f"loan-{row.pk}", line))


def _payload(form: Form1099R, participant, plan) -> dict:
    from taxes.presenters import form_payload

    return form_payload(form, participant=participant, plan=plan)


def _issue_one(*, key, year: int, code: str, current: form_1099r.Form | None, previous, actor, on, report):
    plan_id, participant_id, payee_name, relationship = key
    from benefits.models import Participant, Plan

    participant = Participant.objects.get(pk=participant_id)
    plan = Plan.objects.get(pk=plan_id)
    version = 1 if previous is None else previous.version + 1
    values = {
        "gross": current.gross if current else ZERO,
        "taxable": current.taxable if current else ZERO,
        "withheld": current.withheld if current else ZERO,
        "employee_contributions": current.employee_contributions if current else ZERO,
        "taxable_not_determined": current.taxable_not_determined if current else False,
        "total_distribution": current.total_distribution if current else False,
        "instalments": list(current.payments) if current else [],
    }
    try:
        with transaction.atomic():
            form = Form1099R.objects.create(
                plan=plan,
                participant=participant,
                payee_name=payee_name,
                payee_relationship=relationship,
                year=year,
                code=code,
                version=version,
                corrected=previous is not None,
                issued_on=on,
                issued_by=actor if getattr(actor, "is_authenticated", False) else None,
                **values,
            )
            title = f"Form 1099-R for {year}" + (" (corrected)" if form.corrected else "")
            if payee_name != participant.full_name:
                title += f" — {payee_name}"
            document = document_request(
                kind="form_1099r",
                participant=participant,
                title=title,
                template_name="pdf/taxes/form_1099r.html",
                payload=_payload(form, participant, plan),
                plans=plan,
                requested_by=actor,
            )
            form.document = document
            form.save(update_fields=["document"])
            delivery_arrange(document=document, actor=actor)
            fields = {
                "summary": f"{title} issued to {payee_name} ({participant.participant_number}), box 7 code {code}",
                "actor": actor,
                "participant": participant,
                "form_id": form.pk,
                "year": year,
                "code": code,
                "version": version,
                "box_1": str(form.gross),
                "box_4": str(form.withheld),
            }
            if form.corrected:
                audit_record(event_type=AuditEventType.FORM_1099R_CORRECTED, **fields)
            else:
                audit_record(event_type=AuditEventType.FORM_1099R_ISSUED, **fields)
    except IntegrityError:
        report.already_issued += 1  # another run issued this version first: exactly once, by the constraint
        return
    report.issued += 1
    if form.corrected:
        report.corrected.append(f"{payee_name} {year} code {code} v{version}")


def forms_issue(year: int, *, actor=None, on: date | None = None) -> IssueReport:
    """Issue every Form 1099-R of ``year`` not yet issued; a form whose payments changed since it was
    issued (a reversal) gets a corrected version. Running it again issues nothing."""
    on = on or today()
    report = IssueReport()
    lines = year_lines(year)
    latest: dict[tuple, Form1099R] = {}
    for f in Form1099R.objects.filter(year=year).order_by("version"):
        latest[(f.plan_id, f.participant_id, f.payee_name, f.payee_relationship, f.code)] = f
    keys = set(lines) | {k[:4] for k in latest}
    for key in sorted(keys, key=lambda k: (k[0], k[1], k[2], k[3])):
        current = {f.code: f for f in form_1099r.forms(year, lines.get(key, []))}
        codes = set(current) | {k[4] for k in latest if k[:4] == key}
        for code in sorted(codes):
            previous = latest.get((*key, code))
            now = current.get(code)
            if previous is not None and _same(previous, now):
                report.already_issued += 1
                continue
            try:
                _issue_one(
                    key=key,
                    year=year,
                    code=code,
                    current=now,
                    previous=previous,
                    actor=actor,
                    on=on,
                    report=report,
                )
            except Exception as exc:  # noqa: BLE001 - reported per form, the run goes on
                logger.exception("Form 1099-R failed for %s %s", key, code)
                report.failed.append(
                    {"payee": key[2], "participant_id": key[1], "code": code, "reason": str(exc)}
                )
    return report


def _same(previous: Form1099R, now: form_1099r.Form | None) -> bool:
    if now is None:
        return previous.gross == ZERO and previous.withheld == ZERO
    return (previous.gross, previous.taxable, previous.withheld, previous.employee_contributions) == (
        now.gross,
        now.taxable,
        now.withheld,
        now.employee_contributions,
    )


def latest_forms(year: int):
    """The forms in force for ``year``: the highest version of each payee and code."""
    top = (
        Form1099R.objects.filter(year=year)
        .values("plan_id", "participant_id", "payee_name", "payee_relationship", "code")
        .annotate(v=Max("version"))
    )
    wanted = {
        (t["plan_id"], t["participant_id"], t["payee_name"], t["payee_relationship"], t["code"], t["v"])
        for t in top
    }
    return [
        f
        for f in Form1099R.objects.filter(year=year).select_related("participant", "plan")
        if (f.plan_id, f.participant_id, f.payee_name, f.payee_relationship, f.code, f.version) in wanted
    ]
