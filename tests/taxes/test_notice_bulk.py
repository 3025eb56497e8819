"""The §402(f) notice check of a whole pay date is one query for the notices (issue 22, item 9), with the
same file as row by row: a lump sum whose notice was given 40 days before is instructed (Treas. Reg.
§1.402(f)-1 Q&A-2: at least 30 and at most 180 days), one without a notice is held back, and an annuity
(not an eligible rollover distribution, Code §402(c)(4)(A)) needs none."""

from __future__ import annotations

from datetime import date, timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from benefits.models import PlanMembership
from elections.benefit_elections.models import Notice
from payments.models import PaymentInstalment
from payments.services import instalments_make_due, instruction_content, instruction_export
from taxes.services import notice_checks, payment_notice_issue
from tests.taxes.helpers import make_payment


def quakers() -> list[PlanMembership]:
    return list(PlanMembership.objects.filter(plan__key="quaker-cash-balance").order_by("pk"))


def pay_date_of(n: int, pay_date: date) -> dict[str, list]:
    """``n`` payments of each kind on ``pay_date``, spread over the Quaker City memberships."""
    members = quakers()
    made: dict[str, list] = {"noticed": [], "unnoticed": [], "annuity": []}
    for k in range(n):
        m = members[k % len(members)]
        noticed = make_payment(m, gross=f"{1000 + k}.00", first=pay_date, method="check")
        if not Notice.objects.filter(participant=m.participant, kind="rollover_402f", asd=pay_date).exists():
            payment_notice_issue(noticed, on=pay_date - timedelta(days=40))
        made["noticed"].append(noticed)
    # Payees without a notice for this date: another plan's members (Carver DB lump sums).
    for k, m in enumerate(PlanMembership.objects.filter(plan__key="carver-db").order_by("pk")[:n]):
        made["unnoticed"].append(make_payment(m, gross=f"{2000 + k}.00", first=pay_date, method="check"))
    for k in range(n):
        m = members[k % len(members)]
        made["annuity"].append(
            make_payment(m, kind="annuity", frequency="monthly", gross=f"{300 + k}.00", first=pay_date)
        )
    return made


def export_queries(pay_date: date) -> tuple[int, str]:
    instalments_make_due(pay_date)
    with CaptureQueriesContext(connection) as q:
        files = instruction_export(pay_date=pay_date, actor=None)
    return len(q), instruction_content(files)


def expected_rows(made: dict[str, list], pay_date: date) -> set[tuple[str, str, str]]:
    return {(str(p.pk), p.payee_name, f"{p.gross:.2f}") for p in made["noticed"] + made["annuity"]}


def rows_of(content: str) -> set[tuple[str, str, str]]:
    lines = content.strip().splitlines()[1:]
    return {(c[0], c[3], c[12]) for c in (line.split(",") for line in lines)}


def test_the_notice_check_of_a_pay_date_does_not_grow_with_its_payments(demo):
    small_date, big_date = date(2027, 3, 1), date(2027, 4, 1)
    small = pay_date_of(2, small_date)
    big = pay_date_of(6, big_date)
    small_queries, small_file = export_queries(small_date)
    big_queries, big_file = export_queries(big_date)
    assert big_queries == small_queries
    # Instructed: the noticed lump sums and the annuities; held back: the lump sums without a notice.
    assert rows_of(small_file) == expected_rows(small, small_date)
    # The small date's annuities go on monthly: their second payment is due on the big date too.
    again = {(str(p.pk), p.payee_name, f"{p.gross:.2f}") for p in small["annuity"]}
    assert rows_of(big_file) == expected_rows(big, big_date) | again
    held = PaymentInstalment.objects.filter(payment__in=big["unnoticed"])
    assert {i.state for i in held} == {"scheduled"}
    # Exporting the pay date again gives the same file, byte for byte.
    assert export_queries(big_date)[1] == big_file


def test_the_bulk_check_matches_each_payment_alone(demo):
    pay_date = date(2027, 3, 1)
    made = pay_date_of(3, pay_date)
    instalments_make_due(pay_date)
    rows = list(
        PaymentInstalment.objects.filter(pay_date=pay_date).select_related(
            "payment__participant", "payment__membership__plan", "payment__claim", "payment__election"
        )
    )
    together = notice_checks(rows)
    with CaptureQueriesContext(connection) as q:
        notice_checks(rows)
    assert len(q) == 1  # the notices, once
    for i in rows:
        alone = notice_checks([i])[id(i)]
        both = together[id(i)]
        assert (alone is None) == (both is None) and (alone is None or alone.ok == both.ok)
        if i.payment in made["annuity"]:
            assert both is None
        elif i.payment in made["unnoticed"]:
            assert not both.ok
        else:
            assert both.ok
