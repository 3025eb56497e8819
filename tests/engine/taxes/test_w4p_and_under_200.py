"""Form W-4P (2022 or later) on Publication 15-T (2026) Worksheet 1B, and the $200 rule of Treas. Reg.
§31.3405(c)-1 Q&A-14 — every amount worked by hand from the worksheet's lines and the regulation."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.taxes import pub15t
from benefits.engine.taxes.distributions import Distribution, Kind, Method, Recipient
from benefits.engine.taxes.withholding import Election, ElectionRefused, compute

D = Decimal
ANNUITY = Distribution(
    kind=Kind.ANNUITY,
    recipient=Recipient.PARTICIPANT,
    gross=D("5000.00"),
    paid_on=date(2026, 6, 1),
    participant_birth_date=date(1958, 3, 15),
    separation_date=date(2023, 12, 31),
)
LUMP = Distribution(
    kind=Kind.LUMP_SUM,
    recipient=Recipient.PARTICIPANT,
    gross=D("150.00"),
    paid_on=date(2026, 6, 1),
    participant_birth_date=date(1958, 3, 15),
    separation_date=date(2023, 12, 31),
)


def test_2026_figures_and_their_source():
    """The 2026 figures the schedule is built from. SOURCE: Rev. Proc. 2025-32 §4.01 (Tables 1–3, the
    2026 brackets) and §4.03 (2026 standard deduction: $32,200 joint, $24,150 head of household, $16,100
    other), as amended by P.L. 119-21; the line 1g amounts $12,900 / $8,600 are Pub. 15-T's (2022–2025).
    The published Pub. 15-T (2026) Annual Percentage Method table could not be read (not held in the
    reference corpora searched), so these are derived, not copied: check against the published table."""
    assert {"married": D("12900"), "single": D("8600"), "head_of_household": D("8600")} == pub15t.LINE_1G
    held = pub15t._YEARS[2026]
    assert held["single"] == (
        D("16100"),
        (D("12400"), D("50400"), D("105700"), D("201775"), D("256225"), D("640600")),
    )
    assert held["married"] == (
        D("32200"),
        (D("24800"), D("100800"), D("211400"), D("403550"), D("512450"), D("768700")),
    )
    assert held["head_of_household"] == (
        D("24150"),
        (D("17700"), D("67450"), D("105700"), D("201750"), D("256200"), D("640600")),
    )
    # The STANDARD schedules start at the standard deduction less the line 1g amount:
    # single 16,100 − 8,600 = 7,500; married 32,200 − 12,900 = 19,300; head of household 24,150 − 8,600 = 15,550.
    assert [pub15t.schedule(2026, s)[1].at_least for s in pub15t.STATUSES] == [
        D("7500"),
        D("19300"),
        D("15550"),
    ]


def test_worksheet_1b_every_step_worked_by_hand():
    """Married filing jointly, $5,000 a month, W-4P Step 2(b)(i) $30,000 of job pay, Step 3 $2,000 of
    credits, Step 4(a) $1,200, Step 4(b) $3,000, Step 4(c) $25.
    1c 5,000 × 12 = 60,000; 1f 60,000 + 1,200 = 61,200; 1h 3,000 + 12,900 = 15,900; 1i 45,300.
    2a 30,000; 2b 75,300 → row from 44,100 (12%, 2,480): 2,480 + 12% × 31,200 = 6,224 (2h).
    2a alone: 30,000 → row from 19,300 (10%, 0): 10% × 10,700 = 1,070 (2n). 2o 5,154; 2p 5,154 / 12 = 429.50.
    3b 2,000 / 12 = 166.666…; 3c 262.833…; 4b + 25 = 287.833… → $287.83."""
    w4p = pub15t.W4P(
        status="married",
        step2_jobs=D("30000"),
        step3_credits=D("2000"),
        step4a_other_income=D("1200"),
        step4b_deductions=D("3000"),
        step4c_extra=D("25"),
    )
    sheet = pub15t.worksheet_1b(year=2026, payment=D("5000"), payments_per_year=12, w4p=w4p)
    assert (sheet.annual, sheet.adjusted_annual, sheet.other) == (D("60000"), D("45300"), D("30000"))
    assert (sheet.tentative_with_other, sheet.tentative_other, sheet.tentative_annual) == (
        D("6224.00"),
        D("1070.00"),
        D("5154.00"),
    )
    assert sheet.tentative_payment == D("429.50")
    assert sheet.withholding == D("287.83")
    # The same through the election on an annuity payment.
    e = Election(
        w4p_status="married",
        w4p_step2_jobs=D("30000"),
        w4p_step3=D("2000"),
        w4p_step4a=D("1200"),
        w4p_step4b=D("3000"),
        w4p_extra=D("25"),
    )
    w = compute(ANNUITY, e)
    assert (w.federal_withholding, w.form) == (D("287.83"), "W-4P")
    assert "Worksheet 1B" in w.rule and "Steps 2 to 4" in w.rule


def test_step2_pensions_count_like_jobs_and_credits_never_go_below_zero():
    # Step 2(b)(ii) $30,000 of a lower-paying pension is the same 2a as $30,000 of job pay.
    a = pub15t.W4P(status="married", step2_pensions=D("30000"))
    b = pub15t.W4P(status="married", step2_jobs=D("30000"))
    assert pub15t.worksheet_1b(year=2026, payment=D("5000"), payments_per_year=12, w4p=a).withholding == (
        pub15t.worksheet_1b(year=2026, payment=D("5000"), payments_per_year=12, w4p=b).withholding
    )
    # Single, $1,000 a month: 12,000 − 8,600 = 3,400, under the 7,500 start: 0. Credits cannot make it
    # negative (3c "if zero or less, enter -0-"); the $10 Step 4(c) extra is still withheld.
    w4p = pub15t.W4P(status="single", step3_credits=D("5000"), step4c_extra=D("10"))
    assert pub15t.worksheet_1b(year=2026, payment=D("1000"), payments_per_year=12, w4p=w4p).withholding == D(
        "10.00"
    )
    with pytest.raises(ElectionRefused):
        compute(ANNUITY, Election(w4p_status="single", w4p_step4a=D("-1")))


def test_no_w4p_is_single_with_no_adjustments():
    """Code §3405(a)(4); Pub. 15-T (2026): no W-4P → single, no adjustments. $5,000 a month: 60,000 −
    8,600 = 51,400; single row from 19,900 (12%, 1,240): 1,240 + 12% × 31,500 = 5,020 → 418.33 a month."""
    w = compute(ANNUITY, Election())
    assert w.federal_withholding == D("418.33")
    assert "the default with no Form W-4P" in w.rule
    # The "none" choice withholds nothing (§3405(a)(2)).
    assert compute(ANNUITY, Election(w4p_status="none")).federal_withholding == D("0")


def test_under_200_in_the_year_no_mandatory_20_percent():
    """Treas. Reg. §31.3405(c)-1 Q&A-14: §3405(c) does not apply when the year's eligible rollover
    distributions are reasonably expected to total less than $200; §3405(b) applies instead (10%,
    or the payee's Form W-4R rate from 0% to 100%)."""
    w = compute(LUMP, Election())  # $150: 10% = $15.00, not 20% = $30.00
    assert (w.federal_withholding, w.net_to_payee) == (D("15.00"), D("135.00"))
    assert "Q&A-14" in w.rule
    assert compute(LUMP, Election(w4r_rate=D("0"))).federal_withholding == D("0.00")
    # $199.99 alone: under $200 → 10% = 19.999 → $20.00.
    assert compute(replace(LUMP, gross=D("199.99")), Election()).federal_withholding == D("20.00")
    # $200.00: not under $200 → the 20% rule: $40.00, and no rate under 20% may be chosen.
    at = replace(LUMP, gross=D("200.00"))
    assert compute(at, Election()).federal_withholding == D("40.00")
    with pytest.raises(ElectionRefused):
        compute(at, Election(w4r_rate=D("10")))
    # $150 now, but $250 of eligible distributions expected in the year: the 20% rule applies ($30.00).
    assert compute(replace(LUMP, year_eligible_total=D("250.00")), Election()).federal_withholding == D(
        "30.00"
    )
    assert compute(replace(LUMP, year_eligible_total=D("199.99")), Election()).federal_withholding == D(
        "15.00"
    )


def test_under_200_still_an_eligible_rollover_distribution():
    # Still an ERD (§402(c)(4) has no amount): a direct rollover asked for is made, nothing withheld.
    w = compute(LUMP, Election(method=Method.DIRECT_ROLLOVER))
    assert (w.rolled_over, w.federal_withholding) == (D("150.00"), D("0"))
    # A hardship payment under $200 is not an ERD at all: 10% by §3405(b) in any case.
    assert compute(replace(LUMP, kind=Kind.HARDSHIP), Election()).federal_withholding == D("15.00")
