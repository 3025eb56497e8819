"""Federal income tax withholding (Code §3405; Forms W-4R and W-4P; Publication 15-T), worked by hand."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.taxes import pub15t
from benefits.engine.taxes.distributions import Distribution, Kind, Method, Recipient
from benefits.engine.taxes.withholding import Election, ElectionRefused, compute

D = Decimal
LUMP = Distribution(
    kind=Kind.LUMP_SUM,
    recipient=Recipient.PARTICIPANT,
    gross=D("10000.00"),
    paid_on=date(2026, 6, 1),
    participant_birth_date=date(1960, 3, 15),
)


def test_erd_paid_to_payee_has_20_percent_mandatory():
    w = compute(LUMP, Election())
    assert (w.federal_withholding, w.net_to_payee, w.form) == (D("2000.00"), D("8000.00"), "W-4R")
    # More may be elected on Form W-4R, never less (§3405(c)).
    assert compute(LUMP, Election(w4r_rate=D("35"))).federal_withholding == D("3500.00")
    with pytest.raises(ElectionRefused) as exc:
        compute(LUMP, Election(w4r_rate=D("19")))
    assert exc.value.field == "w4r_rate"


def test_direct_rollover_has_none_and_split_withholds_on_the_paid_part():
    w = compute(LUMP, Election(method=Method.DIRECT_ROLLOVER))
    assert (w.rolled_over, w.federal_withholding, w.paid_to_payee) == (D("10000.00"), D("0"), D("0"))
    s = compute(LUMP, Election(method=Method.SPLIT, rollover_amount=D("6000.00")))
    # §3405(c)(2): nothing on the $6,000 rolled over; 20% of the $4,000 paid = $800.
    assert (s.rolled_over, s.paid_to_payee, s.federal_withholding, s.net_to_payee) == (
        D("6000.00"),
        D("4000.00"),
        D("800.00"),
        D("3200.00"),
    )
    for bad in (None, D("0"), D("10000.00"), D("12000.00")):
        with pytest.raises(ElectionRefused):
            compute(LUMP, Election(method=Method.SPLIT, rollover_amount=bad))


def test_nonperiodic_not_eligible_defaults_to_10_percent_and_any_rate_may_be_elected():
    hardship = replace(LUMP, kind=Kind.HARDSHIP, gross=D("5000.00"))
    assert compute(hardship, Election()).federal_withholding == D("500.00")  # §3405(b)(1)
    assert compute(hardship, Election(w4r_rate=D("0"))).federal_withholding == D("0.00")  # §3405(b)(2)
    assert compute(hardship, Election(w4r_rate=D("100"))).federal_withholding == D("5000.00")
    with pytest.raises(ElectionRefused):
        compute(hardship, Election(method=Method.DIRECT_ROLLOVER))  # §402(c)(4)(C)
    for bad in (D("-1"), D("101"), D("12.5")):
        with pytest.raises(ElectionRefused):
            compute(hardship, Election(w4r_rate=bad))


def test_rmd_part_at_10_and_the_rest_at_20():
    d = replace(LUMP, rmd_portion=D("1000.00"))
    # $9,000 eligible × 20% = $1,800; $1,000 RMD × 10% = $100.
    assert compute(d, Election()).federal_withholding == D("1900.00")
    # Rolling over the eligible part leaves the RMD paid with 10% withheld.
    r = compute(d, Election(method=Method.DIRECT_ROLLOVER))
    assert (r.rolled_over, r.paid_to_payee, r.federal_withholding) == (
        D("9000.00"),
        D("1000.00"),
        D("100.00"),
    )


def test_withholding_limited_to_cash():
    # §3405(e)(8): an ESOP payment of $8,000 in shares and $2,000 cash: 20% of $10,000 is $2,000, and
    # the cash is $2,000, so $2,000; with $1,000 cash only $1,000.
    esop = replace(LUMP, employer_securities=D("9000.00"))
    w = compute(esop, Election())
    assert w.federal_withholding == D("1000.00") and "§3405(e)(8)" in w.rule
    offset = replace(LUMP, kind=Kind.LOAN_OFFSET, gross=D("3000.00"))
    assert compute(offset, Election()).federal_withholding == D("0")  # Treas. Reg. §31.3405(c)-1 Q&A-11


def test_periodic_w4p_none_and_default_single():
    annuity = replace(LUMP, kind=Kind.ANNUITY, gross=D("2000.00"))
    assert compute(annuity, Election(w4p_status="none")).federal_withholding == D("0")
    # No W-4P: single, no adjustments. $2,000 × 12 = $24,000; less $8,600 = $15,400.
    # 2026 single schedule: the 10% row runs from $7,500 to $19,900, so 10% × ($15,400 − $7,500) =
    # $790.00 a year; a month: $790.00 / 12 = $65.833… → $65.83.
    w = compute(annuity, Election())
    assert (w.federal_withholding, w.form) == (D("65.83"), "W-4P")
    # Extra amount (Step 4(c)) is added to each payment.
    assert compute(annuity, Election(w4p_status="single", w4p_extra=D("50"))).federal_withholding == D(
        "115.83"
    )


def test_pub15t_2026_rows_worked_by_hand():
    # Floors: standard deduction less line 1g (Rev. Proc. 2025-32 §4.03; Pub. 15-T Worksheet 1A).
    single = pub15t.schedule(2026, "single")
    assert [r.at_least for r in single] == [
        D("0"),
        D("7500"),
        D("19900"),
        D("57900"),
        D("113200"),
        D("209275"),
        D("263725"),
        D("648100"),
    ]
    # Tentative amounts: 10% × 12,400 = 1,240; + 12% × 38,000 = 5,800; + 22% × 55,300 = 17,966;
    # + 24% × 96,075 = 41,024; + 32% × 54,450 = 58,448; + 35% × 384,375 = 192,979.25.
    assert [r.tentative for r in single][2:] == [
        D("1240.00"),
        D("5800.00"),
        D("17966.00"),
        D("41024.00"),
        D("58448.00"),
        D("192979.25"),
    ]
    married = pub15t.schedule(2026, "married")
    assert married[1].at_least == D("19300") and married[2].at_least == D("44100")
    assert married[2].tentative == D("2480.00")
    hoh = pub15t.schedule(2026, "head_of_household")
    assert hoh[1].at_least == D("15550") and hoh[2].tentative == D("1770.00")
    # Married: $5,000 a month → $60,000 − $12,900 = $47,100; 12% row from $44,100:
    # $2,480 + 12% × $3,000 = $2,840 a year → $236.67 a month.
    assert pub15t.periodic_withholding(
        year=2026, status="married", payment=D("5000"), payments_per_year=12
    ) == D("236.67")
    # A later year not loaded yet uses the latest held; an earlier one has none.
    assert pub15t.schedule(2031, "single") == single
    with pytest.raises(pub15t.TableNotPublished):
        pub15t.schedule(2025, "single")


def test_installments_under_10_years_are_eligible_so_20_percent():
    inst = replace(LUMP, kind=Kind.INSTALLMENT, installment_years=5, gross=D("1000.00"))
    assert compute(inst, Election()).federal_withholding == D("200.00")
    long = replace(inst, installment_years=10)
    assert compute(long, Election(w4p_status="none")).form == "W-4P"


@given(
    gross=st.integers(min_value=100, max_value=200_000_000).map(lambda c: D(c) / 100),
    rate=st.one_of(st.none(), st.integers(min_value=20, max_value=100).map(D)),
    rolled=st.integers(min_value=1, max_value=99),
)
def test_amounts_add_up(gross, rate, rolled):
    d = replace(LUMP, gross=gross)
    amount = (gross * rolled / 100).quantize(D("0.01"))
    method = Method.SPLIT if D("0") < amount < gross else Method.DIRECT_PAYMENT
    w = compute(
        d, Election(method=method, rollover_amount=amount if method is Method.SPLIT else None, w4r_rate=rate)
    )
    assert w.rolled_over + w.paid_to_payee == gross
    assert w.paid_to_payee - w.federal_withholding == w.net_to_payee
    assert D("0") <= w.federal_withholding <= w.paid_to_payee
    # 20% at least (§3405(c)); 10% when the year's eligible distributions are under $200 (Treas. Reg.
    # §31.3405(c)-1 Q&A-14: §3405(b) instead).
    floor = D("0.2") if gross >= D("200") else D("0.1")
    assert w.federal_withholding >= (w.paid_to_payee * floor).quantize(D("0.01")) - D("0.01")
