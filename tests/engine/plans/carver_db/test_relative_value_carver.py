"""Carver DB: §7.4(E) relative values, survivor amounts, and the Table A age-band step at 65.

Demo participant Pat Morgan (benefits/demo/people.py): born 1962-03-14, Spouse born 1964-09-02,
hired 1986-06-02, still employed, $31,500 in 1986 raised 3% a year, SS Amount $13,452; NRD 2027-04-01.
"""

from __future__ import annotations

import calendar
from datetime import date
from decimal import ROUND_HALF_UP
from decimal import Decimal as D
from types import MappingProxyType as M

import pytest

from benefits.engine.money import to_money
from benefits.engine.mortality import latest_417e_table
from benefits.engine.plans import carver_db
from benefits.engine.plans.carver_db.estimates import estimate
from benefits.engine.plans.carver_db.grid import price_grid
from benefits.engine.plans.carver_db.settings import BenefitSettings
from benefits.engine.types import Participant

AS_OF = date(2026, 11, 21)
# From the 2008 plan year the comparison basis is the §417(e)(3) basis for the date (issue 12): the
# segment rates of the look-back month; given here flat at the Treasury rates, so every figure below
# is the one a single 4.70% / 4.65% rate gives (the factors are identical).
RATES = {
    "treasury_30y_monthly": {"2026-12": "4.70", "2027-01": "4.65"},
    "segment_rates": {"2026-12": ["4.70", "4.70", "4.70"], "2027-01": ["4.65", "4.65", "4.65"]},
}


def _pat(**kw) -> Participant:
    hours, pay = {}, {}
    for y in range(1986, AS_OF.year + 1):  # as benefits/demo/loader.yearly_history builds it
        start, end = max(date(1986, 6, 2), date(y, 1, 1)), min(AS_OF, date(y, 12, 31))
        frac = D((end - start).days + 1) / D(366 if calendar.isleap(y) else 365)
        hours[y] = int((2080 * frac).to_integral_value(ROUND_HALF_UP))
        pay[y] = (D(31500) * (1 + D("0.03")) ** (y - 1986) * frac).quantize(D("0.01"), ROUND_HALF_UP)
    base = dict(
        id="CFS-10001", birth_date=date(1962, 3, 14), hire_date=date(1986, 6, 2), marital_status="married",
        spouse_birth_date=date(1964, 9, 2), hours=M(hours), compensation=M(pay),
        commencement_dates=(date(2027, 3, 1), date(2027, 4, 1)),
        plan_data=M({"social_security_amount": "13452.00"}),
    )  # fmt: skip
    base.update(kw)
    return Participant(**base)


def _rows(p, settings=None):
    core = carver_db.core_result(p, AS_OF, settings)
    return {r.commencement_date: r for r in price_grid(p, AS_OF, core).rows}, core


# ------------------------------------------------------------------ Task 2.1: the drop at 65


def test_js50_drops_at_65_because_table_a_bands_the_factor_by_age():
    """Reported: 1,177.84 (2027-03-01) → 1,176.52 (2027-04-01). The plan says so:
    - 2027-03-01 is 1 month before NRD: ERF = .93 + (1 − .93)·11/12 = .99417 → .99 (Table A, rounded
      to .01, GAP-6); Pat is 64, so the 60–64 J&S factor .90 applies (Table A; Spouse 2 years younger,
      within 3 years, no adjustment);
    - 2027-04-01 is the NRD: no reduction (1.00), Pat is 65, so the "65 and Over" factor .89.
    .99 × .90 = .891 > .89 × 1.00: the J&S amount falls by 1/891 though the life amount rises."""
    rows, core = _rows(_pat())
    march, april = rows[date(2027, 3, 1)], rows[date(2027, 4, 1)]
    assert (march.monthly["js50"], april.monthly["js50"]) == (D("1177.84"), D("1176.52"))
    assert march.monthly["life"] < april.monthly["life"]  # 1,308.71 → 1,321.93
    at_nrd = estimate(_pat(), AS_OF, date(2027, 4, 1), core).life_annual  # the NRD benefit, annual
    assert march.monthly["js50"] == to_money(at_nrd * D(".99") * D(".90") / 12)
    assert april.monthly["js50"] == to_money(at_nrd * D(".89") / 12)
    e = estimate(_pat(), AS_OF, date(2027, 3, 1), core)
    assert (e.forms["js50"].factor, estimate(_pat(), AS_OF, date(2027, 4, 1), core).forms["js50"].factor) == (
        D(".90"),
        D(".89"),
    )


def test_the_drop_stays_without_rounding_the_early_factor_gap6():
    # GAP-6 alternative: ERF .994167 unrounded; .994167 × .90 = .89475 still exceeds .89.
    rows, _ = _rows(_pat(), {"benefits": BenefitSettings(round_interpolated_factors=False)})
    assert rows[date(2027, 3, 1)].monthly["js50"] > rows[date(2027, 4, 1)].monthly["js50"]


# ------------------------------------------------------------------ Task 2.2: survivor_monthly


def test_every_joint_and_survivor_form_gives_the_survivor_amount_s7_1_s8_1():
    r = carver_db.calculate(_pat(), AS_OF, RATES)
    forms = r["estimates"][0]["forms"]
    # §7.1: 50% of "the retirement income payable to the Participant"; 66-2/3%; 100%
    assert forms["js50"]["survivor_monthly"] == "588.92"  # 1,177.84 / 2
    assert forms["js66"]["survivor_monthly"] == str(to_money(D(forms["js66"]["monthly"]) * 2 / 3))
    assert forms["js100"]["survivor_monthly"] == forms["js100"]["monthly"]
    assert all(
        "survivor_monthly" not in forms[k] for k in ("life", "cc5", "cc10", "cc15", "cc20", "ss_level")
    )


def test_contingent_pensioner_forms_give_the_survivor_amount_s8_1():
    p = _pat(marital_status="single", spouse_birth_date=None,
             plan_data=M({"social_security_amount": "13452.00", "contingent_pensioner_birth_date": "1990-01-01"}))  # fmt: skip
    forms = carver_db.calculate(p, AS_OF, RATES)["estimates"][0]["forms"]
    assert forms["js100"]["survivor_monthly"] == forms["js100"]["monthly"]
    assert forms["js50"]["survivor_monthly"] == str(to_money(D(forms["js50"]["monthly"]) / 2))


# ------------------------------------------------------------------ Task 1: §7.4(E) relative values


def _oracle(table, rate, age_m, spouse_m, fraction, amount):
    """Plain loop: monthly in advance, l from q, UDD, independent lives (as in tests/engine/relative_value)."""
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


def test_relative_values_against_the_qjsa_s7_4E():
    r = carver_db.calculate(_pat(), AS_OF, RATES)
    est = r["estimates"][0]  # 2027-03-01: the rate of 2026-12 (third full month before)
    assert est["relative_value_basis"]["form"] == "js50"
    assert est["relative_value_basis"]["lookback_month"] == "2026-12"
    assert "4.70%" in est["relative_value_basis"]["interest"]
    forms = est["forms"]
    assert set(forms) == {"life", "js50", "js66", "js100", "cc5", "cc10", "cc15", "cc20", "ss_level"}
    assert forms["js50"]["relative_value"] == {"percent": "100.0", "approximately_equal": True}
    for k, f in forms.items():
        assert set(f["relative_value"]) == {"percent", "approximately_equal"}
        basis_step, step = r["traces"][f"estimates[0].forms.{k}.relative_value"]
        assert "§7.4(E)" in step["section"] and "1.417(a)(3)-1" in step["section"]
        assert basis_step["inputs"]["reading"] == "law"  # the §417(e)(3) basis for the date, said so
    # independent check: ages 64y 11m and 62y 5m on 2027-03-01 at 4.70%; no 2027 table is published
    # in the engine, so the latest one (2026) stands in and the basis says so
    table = latest_417e_table(2027)
    assert table.key == "irs_417e_2026" and "stands in" in est["relative_value_basis"]["mortality"]
    qjsa = _oracle(table, 0.047, 779, 749, 0.5, D(forms["js50"]["monthly"]))
    js100 = _oracle(table, 0.047, 779, 749, 1.0, D(forms["js100"]["monthly"]))
    life = _oracle(table, 0.047, 779, None, 0.0, D(forms["life"]["monthly"]))
    for key, apv in (("js100", js100), ("life", life)):
        expected = (D(repr(apv)) / D(repr(qjsa)) * 100).quantize(D("0.1"), ROUND_HALF_UP)
        assert forms[key]["relative_value"]["percent"] == f"{expected:f}"
    # Table A's factors are fixed, not actuarial: the life form is worth a little more than the QJSA
    assert D(forms["life"]["relative_value"]["percent"]) > 100


def test_unmarried_participant_compares_with_the_life_no_death_benefit_s7_2():
    p = _pat(marital_status="single", spouse_birth_date=None)
    est = carver_db.calculate(p, AS_OF, RATES)["estimates"][0]
    assert est["relative_value_basis"]["form"] == "life"
    assert est["forms"]["life"]["relative_value"]["percent"] == "100.0"


def _segment_oracle(table, segments, age_m, spouse_m, fraction, amount):
    """As ``_oracle`` with each payment discounted at its segment's rate (IRC §430(h)(2)(B): due
    within 5 years, 5-20 years, after 20 years)."""
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
        t = k / 12
        rate = segments[0] if t < 5 else segments[1] if t < 20 else segments[2]
        total += (1 + rate) ** (-t) * (px + fraction * (py - px * py))
        k += 1


def test_the_default_basis_is_the_417e_segment_rates_of_the_date():
    # Treas. Reg. §1.417(a)(3)-1(c)(2)(iv): the §417(e)(3) applicable interest rate for a 2027 ASD is
    # the three segment rates of the look-back month (the third full month before: 2026-12).
    p = _pat(commencement_dates=(date(2027, 3, 1),))
    a = {**RATES, "segment_rates": {"2026-12": ["4.10", "5.20", "5.60"]}}
    r = carver_db.calculate(p, AS_OF, a)
    est = r["estimates"][0]
    basis = est["relative_value_basis"]
    assert basis["interest"].startswith("segment rates 4.10% / 5.20% / 5.60%") and basis["reading"] == "law"
    assert (
        "segment" not in basis["words"]
        and "law prescribes for payments starting March 1, 2027" in basis["words"]
    )
    forms = est["forms"]
    table = latest_417e_table(2027)
    seg = (0.041, 0.052, 0.056)
    qjsa = _segment_oracle(table, seg, 779, 749, 0.5, D(forms["js50"]["monthly"]))
    for key, frac, spouse in (("life", 0.0, None), ("js100", 1.0, 749)):
        apv = _segment_oracle(table, seg, 779, spouse, frac, D(forms[key]["monthly"]))
        expected = (D(repr(apv)) / D(repr(qjsa)) * 100).quantize(D("0.1"), ROUND_HALF_UP)
        assert forms[key]["relative_value"]["percent"] == f"{expected:f}"
    assert "notes" not in est and "missing" not in r


def test_missing_segment_rates_fall_back_to_the_plan_rate_named_in_missing():
    r = carver_db.calculate(_pat(), AS_OF, {"treasury_30y_monthly": RATES["treasury_30y_monthly"]})
    first = r["estimates"][0]
    assert first["relative_value_basis"]["reading"] == "plan_rate_fallback"
    assert first["relative_value_basis"]["interest"].startswith("4.70%")
    assert "not loaded yet" in first["relative_value_basis"]["words"]
    assert first["notes"] == [
        "relative values use the plan's 30-year Treasury rate for 2026-12 because the law's basis for "
        "March 1, 2027 cannot be formed: the §417(e)(3) segment rates for 2026-12 are needed and were "
        "not supplied"
    ]
    by_field = {m["field"]: m for m in r["missing"]}
    m = by_field["/assumptions/segment_rates/2026-12"]
    # the cash-out test has no fallback: it is on the law's basis or not at all (§411(a)(11)(B))
    assert m["blocks"] == ["/estimates/0/cash_out"] and m["fallback"] == ["/estimates/0/relative_value_basis"]
    # the flat 4.70% figures are the ones the plan-rate oracle gives (the test above at one rate)
    forms = first["forms"]
    table = latest_417e_table(2027)
    qjsa = _oracle(table, 0.047, 779, 749, 0.5, D(forms["js50"]["monthly"]))
    life = _oracle(table, 0.047, 779, None, 0.0, D(forms["life"]["monthly"]))
    expected = (D(repr(life)) / D(repr(qjsa)) * 100).quantize(D("0.1"), ROUND_HALF_UP)
    assert forms["life"]["relative_value"]["percent"] == f"{expected:f}"


def test_missing_both_rates_omits_relative_values_and_names_the_law_input():
    r = carver_db.calculate(
        _pat(),
        AS_OF,
        {"treasury_30y_monthly": {"2026-12": "4.70"}, "segment_rates": {"2026-12": ["4.70"] * 3}},
    )
    first, second = r["estimates"]
    assert "relative_value" in first["forms"]["js50"]
    assert "relative_value" not in second["forms"]["js50"] and "relative_value_basis" not in second
    assert second["notes"] == [
        "relative values omitted: the §417(e)(3) segment rates for 2027-01 are needed and were not supplied"
    ]
    blocked = {m["field"]: m["blocks"] for m in r["missing"]}
    assert blocked["/assumptions/segment_rates/2027-01"] == [
        "/estimates/1/relative_value_basis",
        "/estimates/1/cash_out",
    ]


def test_plan_rate_reading():
    p = _pat(commencement_dates=(date(2027, 3, 1),))
    a = {**RATES, "segment_rates": {"2026-12": ["4.10", "5.20", "5.60"]}}
    r = carver_db.calculate(p, AS_OF, a, {"benefits": BenefitSettings(relative_value_interest="plan_rate")})
    est = r["estimates"][0]
    assert est["relative_value_basis"]["interest"].startswith("4.70%")
    assert est["relative_value_basis"]["reading"] == "plan_rate"
    assert "plan's applicable interest rate" in est["relative_value_basis"]["source"]


def test_no_relative_values_without_an_election_when_cashed_out_s13_7G():
    p = Participant(
        id="small", birth_date=date(1972, 1, 10), hire_date=date(1996, 1, 2), termination_date=date(2000, 12, 31),
        hours=M({y: 2080 for y in range(1996, 2001)}), compensation=M({y: D(20000) for y in range(1996, 2001)}),
        commencement_dates=(date(2001, 2, 1),), plan_data=M({"social_security_amount": "9800"}),
    )  # fmt: skip
    est = carver_db.calculate(p, AS_OF, {"treasury_30y_monthly": {"2000-09": "5.83", "2000-11": "5.78"}})[
        "estimates"
    ][0]
    assert est["cash_out"]["required"] is True  # paid without consent: no election, no explanation
    assert est["forms"] == {"lump_sum": {"lump_sum": est["forms"]["lump_sum"]["lump_sum"]}}
    assert "relative_value_basis" not in est


@pytest.mark.parametrize("when", [date(2027, 3, 1), date(2027, 4, 1)])
def test_estimate_api_carries_the_relative_values(when):
    core = carver_db.core_result(_pat(), AS_OF)
    e = estimate(_pat(), AS_OF, when, core, RATES)
    assert e.relative_values is not None and e.relative_values.values["js50"].percent == D("100.0")
