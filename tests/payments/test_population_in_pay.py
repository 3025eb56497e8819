"""``generate_population N --in-pay FRACTION`` puts generated leavers in pay (issue 22, item 9)."""

from __future__ import annotations

import json
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benefits.demo.population import PREFIX, generate_population
from payments.models import Payment, PaymentInstalment
from payments.population import put_in_pay

pytestmark = pytest.mark.django_db
AS_OF = date(2026, 11, 21)


def test_generated_leavers_are_in_pay_with_six_confirmed_months_and_the_next_pay_date_lists_them(demo):
    out = StringIO()
    call_command("generate_population", "40", "--as-of", "2026-11-21", "--in-pay", "1", stdout=out)
    assert "payments" in out.getvalue()
    made = Payment.objects.filter(participant__participant_number__startswith=PREFIX)
    assert made.exists() and set(made.values_list("state", flat=True)) == {"in_pay"}
    # six months before the next pay date (December 1, 2026): June 1 to November 1, each confirmed
    for p in made[:5]:
        paid = list(p.instalments.order_by("pay_date").values_list("pay_date", "state", "sequence"))
        assert paid == [(date(2026, m, 1), "paid", m - 5) for m in range(6, 12)]
    assert (
        not PaymentInstalment.objects.filter(payment__in=made)
        .exclude(paid_on=None)
        .filter(agent_reference="")
        .exists()
    )
    # every payee left employment before the first payment
    assert all(p.participant.termination_date < date(2026, 6, 1) for p in made.select_related("participant"))
    listing = StringIO()
    call_command("payments_due", "2026-12-01", "--json", stdout=listing)
    due = json.loads(listing.getvalue().strip().splitlines()[-1])["payments"]
    assert {r["payment"] for r in due} >= set(made.values_list("pk", flat=True))
    # run again: nobody gets a second record
    before = made.count()
    put_in_pay(fraction=1, as_of=AS_OF, prefix=PREFIX)
    assert made.count() == before


def test_putting_people_in_pay_is_bulk(demo):
    generate_population(30, as_of=AS_OF)
    with CaptureQueriesContext(connection) as small:
        put_in_pay(fraction=0.5, as_of=AS_OF, prefix=PREFIX)
    generate_population(150, as_of=AS_OF)
    with CaptureQueriesContext(connection) as big:
        put_in_pay(fraction=1, as_of=AS_OF, prefix=PREFIX)
    assert Payment.objects.count() > 20
    assert len(big) <= len(small) + 2  # a few queries per chunk, none per person
