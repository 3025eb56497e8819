"""Golden tests E1, E1b, E2 (SPEC Part C), recomputed from F §4.2, §8.1, §2 "Active Participant", §5.1."""

from dataclasses import replace
from decimal import Decimal as D

import pytest

from benefits.engine.plans.fairport_esop.allocation import (
    YearStatus,
    allocate_by_shares,
    allocate_category1,
    allocate_category2,
    is_active_participant,
)
from benefits.engine.plans.fairport_esop.limits import annual_addition, apply_415, limit_415, one_third_test
from benefits.engine.plans.fairport_esop.release import LoanYear, PrincipalOnlyConditions, release_shares
from benefits.engine.plans.fairport_esop.settings import BenefitSettings

E1_LOAN = LoanYear(
    unallocated_shares=D(60000),
    principal_paid=D(40000),
    interest_paid=D(12000),
    remaining_principal=D(300000),
    remaining_interest=D(64000),
)
OK_CONDITIONS = PrincipalOnlyConditions(True, True, D(10))


def test_e1_principal_and_interest_release_4_2():
    # 60,000 × 52,000 / (52,000 + 364,000) = 7,500; all from Employer contributions: Category 2.
    r = release_shares(E1_LOAN)
    assert r.shares_released == D("7500.0000")
    assert r.shares_remaining == D("52500.0000")
    assert r.category1_dividend_shares == 0
    assert r.category2_contribution_shares == D("7500.0000")
    assert r.method == "principal_and_interest"
    assert any("§4.2" in s.section for s in r.trace.steps)


def test_e1_principal_only_release_when_conditions_hold_4_2():
    # 60,000 × 40,000 / 340,000 = 7,058.82352… → 7,058.8235
    r = release_shares(E1_LOAN, committee_directs_principal_only=True, conditions=OK_CONDITIONS)
    assert r.method == "principal_only"
    assert r.shares_released == D("7058.8235")


@pytest.mark.parametrize(
    "conditions",
    [
        PrincipalOnlyConditions(False, True, D(10)),
        PrincipalOnlyConditions(True, False, D(10)),
        PrincipalOnlyConditions(True, True, D("10.5")),  # term over 10 years from acquisition
    ],
)
def test_principal_only_refused_when_a_condition_fails_4_2(conditions):
    r = release_shares(E1_LOAN, committee_directs_principal_only=True, conditions=conditions)
    assert r.method == "principal_and_interest"
    assert r.shares_released == D("7500.0000")


def test_principal_only_without_conditions_is_an_error():
    with pytest.raises(ValueError):
        release_shares(E1_LOAN, committee_directs_principal_only=True)


def test_no_payment_no_release():
    loan = replace(E1_LOAN, principal_paid=D(0), interest_paid=D(0))
    assert release_shares(loan).shares_released == 0


# ---- E1b -------------------------------------------------------------------------------------------

E1B_LOAN = LoanYear(
    unallocated_shares=D(52500),
    principal_paid=D(40000),  # the split of P between principal and interest does not change P + R
    interest_paid=D(12000),
    remaining_principal=D(250000),
    remaining_interest=D(62000),
    dividends_allocated=D(8000),
    dividends_unallocated=D(10500),
)
E1B_PEOPLE = [
    YearStatus("alice", True, 2080, "employed", shares_held=D(3000)),
    YearStatus("ben", True, 2080, "employed", shares_held=D(12000)),
    YearStatus("erin", True, 1450, "quit", shares_held=D(2000)),
    YearStatus("other", True, 2080, "employed", shares_held=D(23000)),
]


def test_e1b_release_and_split_by_dollars_8_1():
    r = release_shares(E1B_LOAN)
    assert E1B_LOAN.contributions == D(33500)
    assert r.shares_released == D("7500.0000")  # 52,500 × 52,000 / 364,000
    assert r.category1_dividend_shares == D("2668.2692")  # 7,500 × 18,500 / 52,000
    assert r.category2_contribution_shares == D("4831.7308")


def test_e1b_category1_allocation_8_1_1():
    c1 = allocate_category1(
        D("2668.2692"),
        dividends_used={"alice": D(600), "ben": D(2400), "erin": D(400), "other": D(4600)},
        fmv_at_payment=D("11.50"),
        people=E1B_PEOPLE,
    )
    # (i) dividends ÷ $11.50, rounded up ("at least equals")
    assert c1.dividend_replacement == {
        "alice": D("52.1740"),
        "ben": D("208.6957"),
        "erin": D("34.7827"),
        "other": D("400.0000"),
    }
    assert c1.reinstatement == {}
    # (iii) 1,972.6168 to Active Participants by shares held (38,000); Erin is not Active.
    assert c1.general_gain == {"alice": D("155.7329"), "ben": D("622.9316"), "other": D("1193.9523")}
    assert c1.unallocated_left == 0
    assert sum(c1.totals.values()) == D("2668.2692")
    for pid, shares in c1.dividend_replacement.items():
        dividends = {"alice": 600, "ben": 2400, "erin": 400, "other": 4600}[pid]
        assert shares * D("11.50") >= dividends


def test_category1_reinstatement_comes_before_general_gain_8_1_1_ii():
    c1 = allocate_category1(
        D(100), dividends_used={}, fmv_at_payment=D(10), people=E1B_PEOPLE[:2], reinstatements={"paul": D(40)}
    )
    assert c1.reinstatement == {"paul": D("40.0000")}
    assert sum(c1.general_gain.values()) == D(60)  # 60 split 3,000 : 12,000
    assert c1.general_gain == {"alice": D("12.0000"), "ben": D("48.0000")}


# ---- E2 ----------------------------------------------------------------------------------------------

E2_PEOPLE = [
    YearStatus("alice", True, 2080, "employed", D(48000)),
    YearStatus("ben", True, 2080, "employed", D(310000)),
    YearStatus("carla", True, 1900, "employed", D(21000)),  # entered 7/1: comp while a Participant
    YearStatus("dev", True, 960, "employed", D(18000)),
    YearStatus("erin", True, 1450, "quit", D(36000)),
    YearStatus("frank", True, 1750, "early_retirement", D(70000)),
    YearStatus("gina", True, 1020, "recognized_absence", D(30000)),
    YearStatus("hal", True, 680, "death", D(20000)),
    YearStatus("ivan", True, 2080, "employed", D(92000)),
    YearStatus("jia", True, 2080, "employed", D(85000)),
    YearStatus("kim", True, 2080, "employed", D(64000)),
    YearStatus("luis", True, 2080, "employed", D(58000)),
    YearStatus("mara", True, 2080, "employed", D(75000)),
]
E2_EXPECTED = {  # shares, cash (SPEC E2 table, recomputed: pool × comp / 768,000)
    "alice": ("495.0000", "78.75"),
    "ben": ("2320.3125", "369.14"),
    "carla": ("216.5625", "34.45"),
    "dev": ("0.0000", "0.00"),
    "erin": ("0.0000", "0.00"),
    "frank": ("721.8750", "114.84"),
    "gina": ("309.3750", "49.22"),
    "hal": ("0.0000", "0.00"),
    "ivan": ("948.7500", "150.94"),
    "jia": ("876.5625", "139.45"),
    "kim": ("660.0000", "105.00"),
    "luis": ("598.1250", "95.16"),
    "mara": ("773.4375", "123.05"),
}


def _e2():
    return allocate_category2(E2_PEOPLE, shares_pool=D(7920), cash_pool=D("1260.00"), comp_limit=D(225000))


def test_e2_active_participant_status_section_2():
    active = {p.id: is_active_participant(p)[0] for p in E2_PEOPLE}
    assert [k for k, v in active.items() if not v] == ["dev", "erin", "hal"]


def test_e2_hal_is_active_if_the_hours_test_is_waived_gap_d1_4():
    hal = E2_PEOPLE[7]
    assert is_active_participant(hal, BenefitSettings(hours_test_for_exempt_terminations=False))[0]
    erin = E2_PEOPLE[4]
    assert not is_active_participant(erin, BenefitSettings(hours_test_for_exempt_terminations=False))[0]


def test_not_eligible_under_section_3_is_not_active():
    assert not is_active_participant(YearStatus("x", False, 2080, "employed"))[0]


def test_e2_category2_allocation_8_1_2():
    a = _e2()
    assert a.total_compensation == D(768000)  # Ben capped at 225,000
    for pid, (shares, cash) in E2_EXPECTED.items():
        got = a.by_participant[pid]
        assert (got.shares, got.cash) == (D(shares), D(cash)), pid
    assert a.by_participant["ben"].eligible_compensation == D(225000)
    assert sum(p.shares for p in a.by_participant.values()) == D(7920)
    assert sum(p.cash for p in a.by_participant.values()) == D("1260.00")
    ben_value = a.by_participant["ben"].shares * D("11.50") + a.by_participant["ben"].cash
    assert ben_value.quantize(D("0.01")) == D("27052.73")


def test_e2_one_third_test_5_1_1():
    a = _e2()
    ok, share, _ = one_third_test({k: v.eligible_compensation for k, v in a.by_participant.items()}, {"ben"})
    assert ok
    assert share.quantize(D("0.0001")) == D("0.2930")  # 225,000 / 768,000


def test_one_third_test_fails_over_a_third():
    ok, _, trace = one_third_test({"a": D(34), "b": D(66)}, {"a"})
    assert not ok
    assert "Committee" in trace.steps[-1].rule


RATIO_BEN = D(225000) / D(768000)


def test_e2_ben_annual_addition_contributions_basis_5_1_3():
    # 52,000 × 0.29296875 + 420 × 0.29296875 × 11.50 + 369.14 = 15,234.375 + 1,415.039 + 369.14
    aa = annual_addition(
        comp_ratio=RATIO_BEN,
        loan_principal=D(40000),
        loan_interest=D(12000),
        forfeited_shares=D(420) * RATIO_BEN,
        forfeited_cash=D("369.14"),
        share_value=D("11.50"),
    )
    assert aa.amount == D("17018.55")


def test_e2_ben_annual_addition_with_5_1_4_exclusions():
    aa = annual_addition(
        comp_ratio=RATIO_BEN,
        loan_principal=D(40000),
        loan_interest=D(12000),
        forfeited_shares=D(420) * RATIO_BEN,
        forfeited_cash=D("369.14"),
        share_value=D("11.50"),
        exclusions_apply=True,
    )
    assert aa.amount == D("12087.89")  # 11,718.75 + 369.14


def test_e2_ben_annual_addition_fmv_basis_gap_d1_8():
    aa = annual_addition(
        comp_ratio=RATIO_BEN,
        loan_principal=D(40000),
        loan_interest=D(12000),
        released_shares=D(7500) * RATIO_BEN,
        forfeited_shares=D(420) * RATIO_BEN,
        forfeited_cash=D("369.14"),
        share_value=D("11.50"),
        settings=BenefitSettings(annual_additions_basis="fmv"),
    )
    assert aa.amount == D("27052.73")


def test_e2_415_limit_is_below_for_ben_5_1_2():
    limit, _ = limit_415(D(310000), D(45000), D(225000))
    assert limit == D("45000.00")
    limit, _ = limit_415(D(21000), D(45000), D(225000))
    assert limit == D("21000.00")  # 100% of compensation


def test_415_excess_reallocated_then_suspense_5_1_2():
    r = apply_415(D(1000), {"a": D(50), "b": D(50)}, {"a": D(100), "b": D(10000)})
    assert r.allocations == {"a": D("100.00"), "b": D("900.00")}
    assert r.suspense == 0
    r = apply_415(D(1000), {"a": D(50), "b": D(50)}, {"a": D(100), "b": D(200)})
    assert r.allocations == {"a": D("100.00"), "b": D("200.00")}
    assert r.suspense == D("700.00")


def test_post_sale_residual_by_shares_held_8_3():
    people = [
        YearStatus("a", True, 2080, shares_held=D(100)),
        YearStatus("b", True, 2080, shares_held=D(300)),
        YearStatus("c", True, 100, shares_held=D(600)),
    ]
    assert allocate_by_shares(D(40), people) == {"a": D("10.0000"), "b": D("30.0000")}


def test_post_sale_residual_two_readings_gap_d1_32():
    from benefits.engine.plans.fairport_esop.allocation import allocate_post_sale_residual

    people = [
        YearStatus("a", True, 2080, compensation=D(30000), shares_held=D(100)),
        YearStatus("b", True, 2080, compensation=D(10000), shares_held=D(300)),
    ]
    by_comp = allocate_post_sale_residual(D(40), people, comp_limit=D(225000))
    assert by_comp == {"a": D("30.0000"), "b": D("10.0000")}  # §8.1-2: 30,000 : 10,000
    by_shares = allocate_post_sale_residual(
        D(40), people, comp_limit=D(225000), settings=BenefitSettings(post_sale_residual_basis="shares")
    )
    assert by_shares == {"a": D("10.0000"), "b": D("30.0000")}  # §8.3: 100 : 300
