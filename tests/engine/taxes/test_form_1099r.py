"""Box 7 of Form 1099-R for every kind of payment the product makes, worked from the 2026 Instructions
for Forms 1099-R and 5498, and the boxes of a form summed from its payments."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.taxes.distributions import Distribution, Kind, Method, Recipient
from benefits.engine.taxes.form_1099r import age_59_half, box7, forms, lines
from benefits.engine.taxes.withholding import Election, compute

D = Decimal
BIRTH = date(1967, 1, 10)  # 59½ on July 10, 2026; 55 in 2022
P = Distribution(
    kind=Kind.LUMP_SUM,
    recipient=Recipient.PARTICIPANT,
    gross=D("10000.00"),
    paid_on=date(2026, 7, 10),
    participant_birth_date=BIRTH,
)


def test_age_59_half_by_calendar():
    assert age_59_half(date(1967, 1, 10)) == date(2026, 7, 10)
    assert age_59_half(date(1967, 8, 31)) == date(2027, 2, 28)  # six months on from Aug 31 is Feb 28
    assert age_59_half(date(1964, 2, 29)) == date(2023, 8, 28)  # Feb 29 → Feb 28, 2023, then Aug 28


def test_code_7_from_the_day_of_59_half_and_1_the_day_before():
    assert box7(P, direct_rollover=False) == "7"
    assert box7(replace(P, paid_on=date(2026, 7, 9)), direct_rollover=False) == "1"


@pytest.mark.parametrize(
    ("separated", "code"),
    [
        (date(2021, 12, 31), "1"),  # left in the year of 54: no exception
        (date(2022, 1, 1), "2"),  # left in the calendar year of the 55th birthday (Jan 10, 2022), before it
        (date(2024, 5, 1), "2"),
    ],
)
def test_code_2_for_separation_in_or_after_year_of_55(separated, code):
    d = replace(P, paid_on=date(2026, 1, 5), separation_date=separated)
    assert box7(d, direct_rollover=False) == code


@pytest.mark.parametrize(
    ("kind", "recipient", "paid_on", "separated", "rollover", "code"),
    [
        # Lump sum / cash-out / partial / ESOP distribution, participant under 59½, left at 50: code 1.
        (Kind.LUMP_SUM, Recipient.PARTICIPANT, date(2026, 3, 1), date(2017, 6, 30), False, "1"),
        (Kind.PARTIAL_LUMP_SUM, Recipient.PARTICIPANT, date(2026, 3, 1), date(2017, 6, 30), False, "1"),
        # Any participant direct rollover: G alone.
        (Kind.LUMP_SUM, Recipient.PARTICIPANT, date(2026, 3, 1), date(2017, 6, 30), True, "G"),
        (Kind.WITHDRAWAL, Recipient.PARTICIPANT, date(2026, 8, 1), None, True, "G"),
        # Age-59½ in-service withdrawal paid to the participant: 7.
        (Kind.WITHDRAWAL, Recipient.PARTICIPANT, date(2026, 8, 1), None, False, "7"),
        # Hardship under 59½ while employed: 1 (hardship is not an exception); after 59½: 7.
        (Kind.HARDSHIP, Recipient.PARTICIPANT, date(2026, 3, 1), None, False, "1"),
        (Kind.HARDSHIP, Recipient.PARTICIPANT, date(2026, 8, 1), None, False, "7"),
        # Monthly annuity: 7 after 59½; before 59½ after leaving, 2 (§72(t)(2)(A)(iv)).
        (Kind.ANNUITY, Recipient.PARTICIPANT, date(2026, 8, 1), date(2026, 6, 30), False, "7"),
        (Kind.ANNUITY, Recipient.PARTICIPANT, date(2026, 3, 1), date(2017, 6, 30), False, "2"),
        # Installments: like the lump sum.
        (Kind.INSTALLMENT, Recipient.PARTICIPANT, date(2026, 8, 1), date(2026, 6, 30), False, "7"),
        # Required minimum: 7.
        (Kind.REQUIRED_MINIMUM, Recipient.PARTICIPANT, date(2026, 8, 1), date(2026, 6, 30), False, "7"),
        # Death benefits: 4 whatever the age; 4G by direct rollover.
        (Kind.LUMP_SUM, Recipient.SPOUSE_BENEFICIARY, date(2026, 3, 1), None, False, "4"),
        (Kind.LUMP_SUM, Recipient.SPOUSE_BENEFICIARY, date(2026, 3, 1), None, True, "4G"),
        (Kind.LUMP_SUM, Recipient.NONSPOUSE_BENEFICIARY, date(2026, 3, 1), None, True, "4G"),
        (Kind.ANNUITY, Recipient.SPOUSE_BENEFICIARY, date(2026, 3, 1), None, False, "4"),
        (Kind.LUMP_SUM, Recipient.ESTATE, date(2026, 3, 1), None, False, "4"),
        # Loans: a default while employed is a deemed distribution, L with the age code;
        # an offset at severance is M with the age code.
        (Kind.LOAN_DEEMED, Recipient.PARTICIPANT, date(2026, 3, 1), None, False, "1L"),
        (Kind.LOAN_DEEMED, Recipient.PARTICIPANT, date(2026, 8, 1), None, False, "7L"),
        (Kind.LOAN_OFFSET, Recipient.PARTICIPANT, date(2026, 3, 1), date(2026, 2, 1), False, "2M"),
        (Kind.LOAN_OFFSET, Recipient.PARTICIPANT, date(2026, 3, 1), date(2017, 6, 30), False, "1M"),
    ],
)
def test_box7_every_kind(kind, recipient, paid_on, separated, rollover, code):
    d = replace(P, kind=kind, recipient=recipient, paid_on=paid_on, separation_date=separated)
    assert box7(d, direct_rollover=rollover) == code


def test_disability_code_3():
    assert box7(replace(P, paid_on=date(2026, 3, 1), disabled=True), direct_rollover=False) == "3"


def test_split_is_two_forms_and_boxes_sum():
    w = compute(P, Election(method=Method.SPLIT, rollover_amount=D("6000.00")))
    ls = lines(P, rolled_over=w.rolled_over, paid_to_payee=w.paid_to_payee, withheld=w.federal_withholding)
    fs = forms(2026, [("p1", line) for line in ls])
    assert [(f.code, f.gross, f.taxable, f.withheld) for f in fs] == [
        ("7", D("4000.00"), D("4000.00"), D("800.00")),
        ("G", D("6000.00"), D("0"), D("0")),  # a direct rollover's box 2a is zero
    ]


def test_basis_and_not_determined():
    d = replace(P, employee_contributions=D("1500.00"))
    (line,) = lines(d, rolled_over=D("0"), paid_to_payee=d.gross, withheld=D("2000.00"))
    assert (line.taxable, line.employee_contributions) == (D("8500.00"), D("1500.00"))
    unknown = replace(P, basis_known=False)
    (line,) = lines(unknown, rolled_over=D("0"), paid_to_payee=unknown.gross, withheld=D("0"))
    (f,) = forms(2026, [("p", line)])
    assert f.taxable_not_determined and f.as_dict()["box_2a"] == ""


CENTS = st.integers(min_value=100, max_value=10_000_000).map(lambda c: D(c) / 100)


@given(st.lists(st.tuples(CENTS, st.booleans()), max_size=12))
def test_forms_total_the_payments(payments):
    entries = []
    for i, (gross, roll) in enumerate(payments):
        d = replace(P, gross=gross)
        w = compute(d, Election(method=Method.DIRECT_ROLLOVER if roll else Method.DIRECT_PAYMENT))
        for line in lines(
            d, rolled_over=w.rolled_over, paid_to_payee=w.paid_to_payee, withheld=w.federal_withholding
        ):
            entries.append((f"p{i}", line))
    fs = forms(2026, entries)
    assert sum((f.gross for f in fs), D("0")) == sum((g for g, _ in payments), D("0"))
    assert len({f.code for f in fs}) == len(fs)
