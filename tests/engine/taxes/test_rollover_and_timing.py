"""Rollover eligibility (Code §402(c)(4)) and the §402(f) notice window (Treas. Reg. §1.402(f)-1 Q&A-2),
each rule on both sides of its boundary."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest

from benefits.engine.taxes.distributions import Distribution, Kind, Recipient
from benefits.engine.taxes.notice_timing import annual_notice_due, check
from benefits.engine.taxes.rollover import eligibility, is_periodic

BASE = Distribution(
    kind=Kind.LUMP_SUM,
    recipient=Recipient.PARTICIPANT,
    gross=Decimal("10000.00"),
    paid_on=date(2026, 6, 1),
    participant_birth_date=date(1960, 3, 15),
)


@pytest.mark.parametrize(
    ("kind", "eligible"),
    [
        (Kind.LUMP_SUM, True),
        (Kind.PARTIAL_LUMP_SUM, True),
        (Kind.WITHDRAWAL, True),  # an in-service 59½ withdrawal is a distribution of part of the balance
        (Kind.LOAN_OFFSET, True),  # Treas. Reg. §1.402(c)-2 Q&A-9
        (Kind.HARDSHIP, False),  # §402(c)(4)(C)
        (Kind.REQUIRED_MINIMUM, False),  # §402(c)(4)(B)
        (Kind.CORRECTIVE, False),  # §1.402(c)-2 Q&A-4(b)
        (Kind.LOAN_DEEMED, False),  # §1.402(c)-2 Q&A-4(d)
        (Kind.ANNUITY, False),  # §402(c)(4)(A)(i)
    ],
)
def test_kinds(kind, eligible):
    assert eligibility(replace(BASE, kind=kind)).eligible is eligible


def test_installments_either_side_of_ten_years():
    # §402(c)(4)(A)(ii): "a specified period of 10 years or more" is not eligible; 9 years is.
    nine = replace(BASE, kind=Kind.INSTALLMENT, installment_years=9)
    ten = replace(BASE, kind=Kind.INSTALLMENT, installment_years=10)
    life = replace(BASE, kind=Kind.INSTALLMENT, installments_for_life_expectancy=True)
    assert eligibility(nine).eligible and not is_periodic(nine)
    assert not eligibility(ten).eligible and is_periodic(ten)
    assert not eligibility(life).eligible


def test_rmd_part_is_carved_out():
    # §1.402(c)-2 Q&A-7: the year's RMD is paid first and is not eligible; the rest is.
    e = eligibility(replace(BASE, rmd_portion=Decimal("2500.00")))
    assert e.eligible and e.eligible_amount == Decimal("7500.00")
    whole = eligibility(replace(BASE, rmd_portion=Decimal("10000.00")))
    assert not whole.eligible


def test_beneficiaries():
    spouse = eligibility(replace(BASE, recipient=Recipient.SPOUSE_BENEFICIARY))
    assert spouse.eligible and "traditional_ira" in spouse.destinations  # §402(c)(9)
    other = eligibility(replace(BASE, recipient=Recipient.NONSPOUSE_BENEFICIARY))
    assert other.eligible and other.destinations == ("inherited_ira",)  # §402(c)(11)
    assert not eligibility(replace(BASE, recipient=Recipient.ESTATE)).eligible


# ---------------------------------------------------------------- §402(f) timing

PAY = date(2026, 7, 1)


@pytest.mark.parametrize(
    ("days_before", "ok"),
    [(29, False), (30, True), (31, True), (179, True), (180, True), (181, False)],
)
def test_window_both_sides_of_30_and_180(days_before, ok):
    assert check(notice_on=PAY - timedelta(days=days_before), payment_on=PAY).ok is ok


def test_no_notice_and_notice_after_payment():
    assert not check(notice_on=None, payment_on=PAY).ok
    assert not check(notice_on=PAY + timedelta(days=1), payment_on=PAY, waived_on=PAY).ok


def test_waiver_of_30_days():
    notice = PAY - timedelta(days=10)
    assert not check(notice_on=notice, payment_on=PAY).ok
    assert check(notice_on=notice, payment_on=PAY, waived_on=notice + timedelta(days=2)).ok
    # A waiver is the participant's choice after receiving the notice, before payment.
    assert not check(notice_on=notice, payment_on=PAY, waived_on=notice - timedelta(days=1)).ok
    assert not check(notice_on=notice, payment_on=PAY, waived_on=PAY + timedelta(days=1)).ok
    # A waiver never stretches the 180-day limit.
    old = PAY - timedelta(days=181)
    assert not check(notice_on=old, payment_on=PAY, waived_on=PAY).ok


def test_waiver_under_survivor_rules_needs_the_7_day_period():
    # §1.417(e)-1(b)(3)(ii)(D): notice June 1; the 7-day period is June 2–8; payment June 9 at the earliest.
    notice = date(2026, 6, 1)
    assert not check(notice_on=notice, payment_on=date(2026, 6, 8), waived_on=notice, survivor_rules=True).ok
    assert check(notice_on=notice, payment_on=date(2026, 6, 9), waived_on=notice, survivor_rules=True).ok
    # Without the survivor rules the same waiver allows the June 8 payment.
    assert check(notice_on=notice, payment_on=date(2026, 6, 8), waived_on=notice).ok


def test_annual_notice_for_continuing_installments():
    # Q&A-2(b): at least once a year.
    assert not annual_notice_due(date(2026, 3, 1), date(2027, 3, 1))
    assert annual_notice_due(date(2026, 3, 1), date(2027, 3, 2))
    assert annual_notice_due(date(2024, 2, 29), date(2025, 3, 1))
