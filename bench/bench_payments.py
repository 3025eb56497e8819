"""Seconds to list, export and confirm a pay date of N payments (issue 22, item 9).

Usage: ``.venv/bin/python bench/bench_payments.py [N]`` (default 10,000; the issue asks for 100,000)

Runs in a throw-away PostgreSQL database with the demo loaded (``djangobench.demo_database``). N monthly
annuities start on January 1, 2027 (spread over the demo's defined benefit memberships). Three figures,
each through the code the administrator uses: the pay date listed (its instalments made due in bulk,
then the rows and the command's JSON), the instruction file exported (and exported again: the same
bytes), and the paying agent's confirmation of every payment imported (checked and applied whole).
One payment in ten is a 401(k) payment with a split by source (a disbursement with no claim, so no
§402(f) notice holds it back), so the confirmation also posts to the books: a transaction per source
and the source balances on the paid date recomputed. Each figure is printed with the number of
SQL queries it made (Django's CaptureQueriesContext): it must not grow with N.
"""

from __future__ import annotations

import sys
import time
from contextlib import nullcontext
from datetime import date, datetime
from decimal import Decimal

from djangobench import demo_database

PAY_DATE = date(2027, 1, 1)


def main(n: int) -> None:
    import time_machine
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import User
    from benefits.imports import services as imports
    from benefits.models import PlanMembership
    from payments import presenters, selectors, services
    from payments.models import Payment

    admin = User.objects.get(email="admin@demo.test")
    annuities = list(PlanMembership.objects.filter(plan__kind__in=["final_average_pay", "cash_balance"]))
    k401 = list(PlanMembership.objects.filter(plan__key="carver-401k"))

    def record(k: int) -> Payment:
        loan = k % 10 == 9
        m = k401[k % len(k401)] if loan else annuities[k % len(annuities)]
        gross = Decimal("1000.00") + k % 997
        return Payment(
            membership=m,
            participant_id=m.participant_id,
            payee_name=f"Payee {k}",
            kind="loan_disbursement" if loan else "annuity",
            frequency="once" if loan else "monthly",
            number_of_payments=1 if loan else None,
            gross=gross,
            first_pay_date=PAY_DATE,
            method="direct_deposit",
            destination={
                "routing_number": "011000015",
                "account_number": f"{10_000_000 + k}",
                "account_type": "checking",
            },
            destination_masked=f"Checking account ending {k % 10_000:04d}",
            posting={"section": "bench", "sources": {"before_tax": f"{gross:.2f}"}} if loan else {},
        )

    t = time.perf_counter()
    Payment.objects.bulk_create([record(k) for k in range(n)], batch_size=5000)
    print(f"set up {n:,} payment records: {time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    with CaptureQueriesContext(connection) as q_list:
        made = services.instalments_make_due(PAY_DATE)
        due = selectors.due_on(admin, PAY_DATE)
        listing = presenters.due_json(PAY_DATE, due)
    listed = time.perf_counter() - t
    assert made == n and len(listing["payments"]) == n

    t = time.perf_counter()
    with CaptureQueriesContext(connection) as q_export:
        files = services.instruction_export(pay_date=PAY_DATE, actor=admin)
        content = services.instruction_content(files)
    exported = time.perf_counter() - t
    t = time.perf_counter()
    again = services.instruction_content(services.instruction_export(pay_date=PAY_DATE, actor=admin))
    exported_again = time.perf_counter() - t
    assert again == content and content.count("\n") == n + 1

    lines = ["payment,pay_date,status,date,reference,gross"]
    lines += [
        f"{r['payment']},{PAY_DATE},paid,{PAY_DATE},AG{r['payment']},{r['gross']}"
        for r in listing["payments"]
    ]
    t = time.perf_counter()
    # A paid date after today is refused (payments/confirmations.py): the file is imported on its pay date.
    noon = timezone.make_aware(datetime.combine(PAY_DATE, datetime.min.time().replace(hour=12)))
    on_the_day = time_machine.travel(noon, tick=True) if timezone.localdate() < PAY_DATE else nullcontext()
    with on_the_day, CaptureQueriesContext(connection) as q_confirm:
        batch, checked = imports.import_run(
            kind="payment_confirmations",
            file_name="confirm.csv",
            content=("\n".join(lines) + "\n").encode(),
            dry_run=False,
            valid_rows_only=False,
            actor=admin,
        )
    confirmed = time.perf_counter() - t
    assert batch.status == "applied", checked.errors[:3]
    assert Payment.objects.filter(state__in=["in_pay", "paid"]).count() == n

    print(
        f"payments on {PAY_DATE}: {n:,} ({n // 10:,} of them 401(k) payments that post to the books by source)"
    )
    print(f"list (make due + rows + JSON): {listed:.1f} s, {len(q_list)} queries")
    print(
        f"export instruction file:       {exported:.1f} s, {len(q_export)} queries ({len(content) / 1e6:.1f} MB); again: {exported_again:.1f} s"
    )
    print(f"confirmation import (check + post): {confirmed:.1f} s, {len(q_confirm)} queries")


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with demo_database("payments"):
        main(count)
