"""Generated retirees in pay (``manage.py generate_population N --in-pay FRACTION``): synthetic payment
records for scale runs and demos, not real people and not calculated by the engine.

A fraction of the generated participants who have left employment get a commenced benefit from each of
their plans: a defined benefit or cash balance plan pays a monthly annuity (1% of the last recorded pay
for each year of employment, divided by 12: a plausible size, not the plan's formula); an account plan
pays monthly installments of its stored balance over ten years, taken from the sources pro rata. The
first payment was six months before the next pay date; the past months are instructed in one generated
instruction file per pay date and confirmed paid (reference ``GEN-…``), so the records read "in pay" and
the next pay date lists them. Everything is written with bulk_create, a few queries per chunk.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from benefits.db_stats import analyze
from benefits.engine.payment_order import PRO_RATA, split_in_order
from benefits.models import AccountBalance, Compensation, PlanMembership
from payments import schedule as sched
from payments.models import InstructionFile, Payment, PaymentInstalment

CENT = Decimal("0.01")
ACCOUNT_KINDS = ("401k", "esop")
HISTORY_MONTHS = 6
INSTALMENT_MONTHS = 120


def put_in_pay(*, fraction: float, as_of: date, prefix: str, seed: int = 2026, chunk: int = 5000) -> dict:
    """Payment records (and their paid history) for ``fraction`` of the generated leavers with none."""
    rng = random.Random(seed)
    next_pay = sched.next_pay_date(as_of, notice_days=0)
    first = sched.add_months(next_pay, -HISTORY_MONTHS)
    history = [sched.add_months(first, k) for k in range(HISTORY_MONTHS)]
    live = Payment.objects.exclude(state="cancelled").values("membership_id")
    ids = list(
        PlanMembership.objects.filter(
            participant__participant_number__startswith=prefix,
            participant__termination_date__isnull=False,
            participant__termination_date__lt=first,
            participant__death_date__isnull=True,
        )
        .exclude(pk__in=live)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    chosen = [pk for pk in ids if rng.random() < fraction]
    written = {"payments": 0, "instalments": 0}
    files = _history_files(history)
    for start in range(0, len(chosen), chunk):
        with transaction.atomic():
            _write(chosen[start : start + chunk], first, history, files, written)
    _totals(files)
    analyze([Payment, PaymentInstalment])
    return written


def _history_files(history: list[date]) -> dict[date, InstructionFile]:
    files = {}
    for day in history:
        seq = (InstructionFile.objects.filter(pay_date=day).aggregate(m=Max("sequence"))["m"] or 0) + 1
        content = "generated population: payment history, not exported to a paying agent\n"
        files[day] = InstructionFile.objects.create(
            pay_date=day,
            sequence=seq,
            content=content,
            sha256=hashlib.sha256(content.encode()).hexdigest(),
            rows=0,
            total_gross=Decimal("0.00"),
        )
    return files


def _totals(files: dict[date, InstructionFile]) -> None:
    from django.db.models import Count, Sum

    for f in files.values():
        agg = PaymentInstalment.objects.filter(instruction_file=f).aggregate(n=Count("pk"), g=Sum("gross"))
        InstructionFile.objects.filter(pk=f.pk).update(rows=agg["n"] or 0, total_gross=agg["g"] or 0)


def _annuity(pay: Decimal, participant) -> Decimal:
    years = Decimal((participant.termination_date - participant.hire_date).days) / Decimal("365.25")
    return max(Decimal("50.00"), (pay * years / 100 / 12).quantize(CENT, ROUND_HALF_UP))


def _write(ids: list[int], first: date, history: list[date], files, written: dict) -> None:
    memberships = list(PlanMembership.objects.filter(pk__in=ids).select_related("participant", "plan"))
    pay: dict[int, Decimal] = {}
    for mid, amount in (
        Compensation.objects.filter(membership_id__in=ids)
        .order_by("year")
        .values_list("membership_id", "amount")
    ):
        pay[mid] = amount  # the last recorded year's pay
    balances: dict[int, dict[str, Decimal]] = defaultdict(dict)
    for b in AccountBalance.objects.filter(membership_id__in=ids).order_by("as_of"):
        balances[b.membership_id][b.source] = b.balance
    payments = []
    for m in memberships:
        p = m.participant
        account = m.plan.kind in ACCOUNT_KINDS
        posting: dict = {}
        if account:
            total = sum(balances[m.pk].values(), Decimal("0.00"))
            gross = (total / INSTALMENT_MONTHS).quantize(CENT, ROUND_HALF_UP)
            if gross <= 0:
                continue
            parts = split_in_order(gross, balances[m.pk], PRO_RATA)
            posting = {
                "section": PRO_RATA.section,
                "sources": {s: f"{v:.2f}" for s, v in parts.items()},
                "per_instalment": True,
            }
        else:
            gross = _annuity(pay.get(m.pk, Decimal("30000.00")), p)
        payments.append(
            Payment(
                membership=m,
                participant=p,
                payee_name=p.full_name,
                kind="installments" if account else "annuity",
                frequency="monthly",
                gross=gross,
                first_pay_date=first,
                number_of_payments=INSTALMENT_MONTHS if account else None,
                form="installments" if account else "sla",
                form_label="Monthly installments over 10 years" if account else "Single life annuity",
                method="direct_deposit",
                destination={
                    "routing_number": "011000015",
                    "account_number": f"9{p.pk:09d}",
                    "account_type": "checking",
                },
                destination_masked=f"Checking account ending {p.pk % 10_000:04d}",
                withholding_election={"form": "none", "reason": "generated population"},
                posting=posting,
                state="in_pay",
                state_changed_on=first,
            )
        )
    made = Payment.objects.bulk_create(payments, batch_size=5000)
    now = timezone.now()
    instalments = [
        PaymentInstalment(
            payment=p,
            sequence=k + 1,
            pay_date=day,
            gross=p.gross,
            withholding=Decimal("0.00"),
            withholding_basis={"generated": True},
            net=p.gross,
            state="paid",
            instruction_file=files[day],
            instructed_at=now,
            paid_on=day,
            agent_reference=f"GEN-{p.pk}-{k + 1}",
        )
        for p in made
        for k, day in enumerate(history)
    ]
    PaymentInstalment.objects.bulk_create(instalments, batch_size=5000)
    written["payments"] += len(made)
    written["instalments"] += len(instalments)
