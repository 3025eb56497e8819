"""Quaker: relative values in the QJSA explanation (§5.10(d)(i), Treas. Reg. §1.417(a)(3)-1(c)(2)) and
the survivor amount of every joint and survivor form (§5.10(b), §5.11(a)(ii)).

Ben (SPEC Example 2): married, NRD 2006-02-01; the SPEC's assumptions A2 (AIR 6% flat) and A3 (Rev.
Rul. 95-6 computed as the 1983 GAM 50/50 blend).
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP
from decimal import Decimal as D
from types import MappingProxyType as M

from benefits.engine.plans.quaker_cash_balance import calculate
from benefits.engine.plans.quaker_cash_balance.annuity import mortality_table
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings
from benefits.engine.types import Participant

from .conftest import spec_assumptions

FULL = 2080


def _m(d: dict) -> M:
    return M({k: (D(v) if isinstance(v, str) else v) for k, v in d.items()})


BEN = Participant(
    id="ben", birth_date=date(1940, 12, 15), hire_date=date(2000, 1, 3), termination_date=date(2006, 1, 31),
    marital_status="married", spouse_birth_date=date(1943, 5, 1),
    hours=_m({**{y: FULL for y in range(2000, 2006)}, 2006: 176}),
    compensation=_m({2000: "60000", 2001: "61500", 2002: "63000", 2003: "64500", 2004: "66000", 2005: "67500",
                    2006: "69000"}),
    commencement_dates=(date(2006, 2, 1),),
)  # fmt: skip


def _oracle(table, rate, age_m, spouse_m, fraction, amount):
    """Plain loop: monthly in advance, l from q, UDD, independent lives."""
    lv = [1.0]
    for q in table.qx:
        lv.append(lv[-1] * (1.0 - float(q)))

    def lx(m):
        i, r = divmod(m, 12)
        j = i - table.min_age
        return 0.0 if j + 1 >= len(lv) else lv[j] + (lv[j + 1] - lv[j]) * r / 12

    total, k = 0.0, 0
    while True:
        px = lx(age_m + k) / lx(age_m)
        py = lx(spouse_m + k) / lx(spouse_m) if spouse_m is not None else 0.0
        if px == 0.0 and py == 0.0:
            return float(amount) * total
        total += (1 + rate) ** (-k / 12) * (px + fraction * (py - px * py))
        k += 1


def test_every_joint_and_survivor_form_gives_the_survivor_amount():
    est = calculate(BEN, date(2006, 1, 31), spec_assumptions())["estimates"][0]
    forms = est["forms"]
    # §5.10(b): "50% of such reduced Benefit"; §5.11(a)(ii): the same amount, 50% or 66-2/3%
    assert (forms["js50"]["monthly"], forms["js50"]["survivor_monthly"]) == ("121.96", "60.98")
    assert (forms["js66"]["monthly"], forms["js66"]["survivor_monthly"]) == ("117.96", "78.64")
    assert forms["js100"]["survivor_monthly"] == forms["js100"]["monthly"] == "110.69"
    assert all(
        "survivor_monthly" not in forms[k] for k in ("life", "cc5", "cc10", "cc15", "cc20", "lump_sum")
    )


def test_relative_values_against_the_qjsa_s5_10d():
    r = calculate(BEN, date(2006, 1, 31), spec_assumptions())
    est = r["estimates"][0]
    basis = est["relative_value_basis"]
    assert (basis["form"], basis["lookback_month"]) == ("js50", "2005-12")  # 2nd month before February
    assert "applicable_interest_rate_default" in basis["source"] and basis["interest"].startswith("6.00%")
    assert "95-6" in basis["mortality"]
    forms = est["forms"]
    assert forms["js50"]["relative_value"]["percent"] == "100.0"
    # independent check on the Rev. Rul. 95-6 blend at 6%: Ben 65y 1m, spouse 62y 9m on 2006-02-01
    table = mortality_table("rev-rul-95-6")
    qjsa = _oracle(table, 0.06, 781, 753, 0.5, D("121.96"))
    for key, frac, spouse in (("life", 0.0, None), ("js100", 1.0, 753)):
        apv = _oracle(table, 0.06, 781, spouse, frac, D(forms[key]["monthly"]))
        expected = (D(repr(apv)) / D(repr(qjsa)) * 100).quantize(D("0.1"), ROUND_HALF_UP)
        assert forms[key]["relative_value"]["percent"] == f"{expected:f}"
    # the lump sum (the balance) against the QJSA's present value
    lump = (D("17300.28") / D(repr(qjsa)) * 100).quantize(D("0.1"), ROUND_HALF_UP)
    assert forms["lump_sum"]["relative_value"]["percent"] == f"{lump:f}"
    # explained before 1/1/2007: "approximately equal" is not available ((f)(2)(iii))
    assert not any(f["relative_value"]["approximately_equal"] for f in forms.values())
    steps = r["traces"]["estimates[0].forms.cc20.relative_value"]
    # the SPEC's flat 6% stands in for the December 2005 Treasury rate: the plan's rate, said so
    assert basis["reading"] == "plan_rate" and steps[0]["rule"].startswith("Comparison basis: the plan's")
    assert "§5.10(d)(i)" in steps[1]["section"]
    # the lump sum is disclosed for its group ((c)(2)(iii)(A))
    group = next(g for g in est["relative_value_groups"] if "lump_sum" in g["forms"])
    assert group["disclosed"] == "lump_sum"


def test_approximately_equal_from_2007_explanations():
    p = Participant(**{**BEN.__dict__, "commencement_dates": (date(2008, 3, 1),)})
    # On the plan's rate (the other reading): the 2008 statutory basis needs the January 2008
    # segment rates, which the SPEC's assumptions do not give.
    plan_rate = {"benefits": BenefitSettings(relative_value_interest="plan_rate")}
    est = calculate(p, date(2006, 1, 31), spec_assumptions(), plan_rate)["estimates"][0]
    for f in est["forms"].values():
        pct = D(f["relative_value"]["percent"])
        if pct < D("94.9") or pct > D("105.1"):
            assert not f["relative_value"]["approximately_equal"]
        if D("95.1") <= pct <= D("104.9"):
            assert f["relative_value"]["approximately_equal"]
    assert est["forms"]["js50"]["relative_value"] == {"percent": "100.0", "approximately_equal": True}


def test_missing_rate_omits_relative_values_and_names_the_input():
    # Only November 2005 given: the plan holds it flat to price the forms (a projection, GAP-4),
    # but the relative values never invent a rate for December 2005.
    a = {**spec_assumptions(), "applicable_interest_rate": {"2005-11": "6.00"}}
    del a["applicable_interest_rate_default"]
    est = calculate(BEN, date(2006, 1, 31), a)["estimates"][0]
    assert est["forms"]["js50"]["monthly"] == "121.96"
    assert "relative_value_basis" not in est and "relative_value" not in est["forms"]["js50"]
    assert (
        "relative values omitted: the 30-year Treasury rate for 2005-12 "
        "(assumptions.applicable_interest_rate.2005-12) is missing"
    ) in est["notes"]


def test_cash_out_has_no_election_and_no_relative_values_s5_16():
    eve = Participant(
        id="eve",
        birth_date=date(1968, 1, 10),
        hire_date=date(2002, 1, 7),
        termination_date=date(2007, 12, 31),
        hours=_m({2002: 1020, **{y: 1040 for y in range(2003, 2008)}}),
        compensation=_m({y: "13000" for y in range(2002, 2008)}),
        commencement_dates=(date(2008, 1, 1),),
        marital_status="married",
        spouse_birth_date=date(1969, 3, 3),
    )  # fmt: skip (SPEC Example 5)
    est = calculate(eve, date(2007, 12, 31), spec_assumptions())["estimates"][0]
    assert set(est["forms"]) == {"lump_sum"}  # not over $5,000: paid without consent (§5.16)
    assert "relative_value_basis" not in est and "relative_value" not in est["forms"]["lump_sum"]
