"""End to end: the SPEC §15 people through the plan's ``calculate`` (rules.core + outputs).

Hours and pay are the SPEC's; the expected figures are the SPEC's, recomputed from the plan text.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import MappingProxyType as M

import pytest

from benefits.engine.core import ParticipantError
from benefits.engine.plans.quaker_cash_balance import calculate
from benefits.engine.plans.quaker_cash_balance.account import statement
from benefits.engine.plans.quaker_cash_balance.grid import price_grid
from benefits.engine.plans.quaker_cash_balance.inputs import vested_amount
from benefits.engine.plans.quaker_cash_balance.results import benefits
from benefits.engine.plans.quaker_cash_balance.rules import ServiceVestingSettings
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings as QuakerBenefitSettings
from benefits.engine.types import EmploymentPeriod, Participant

from .conftest import spec_assumptions

D = Decimal
FULL = 2080


def _m(d: dict) -> M:
    return M({k: (D(v) if isinstance(v, str) else v) for k, v in d.items()})


ANA = Participant(
    id="ana", birth_date=date(1972, 8, 22), hire_date=date(2000, 9, 11), termination_date=date(2007, 10, 15),
    hours=_m({2000: 640, **{y: FULL for y in range(2001, 2007)}, 2007: 1640}),
    compensation=_m({2001: "37500", 2002: "39000", 2003: "40500", 2004: "42000", 2005: "43500", 2006: "45000",
                     2007: "46800"}),
    commencement_dates=(date(2008, 3, 1), date(2008, 4, 1)),
)  # fmt: skip

EVE = Participant(
    id="eve", birth_date=date(1968, 1, 10), hire_date=date(2002, 1, 7), termination_date=date(2007, 12, 31),
    hours=_m({2002: 1020, **{y: 1040 for y in range(2003, 2008)}}),
    compensation=_m({y: "13000" for y in range(2002, 2008)}),
    commencement_dates=(date(2008, 1, 1),),
    marital_status="married", spouse_birth_date=date(1969, 3, 3),
)  # fmt: skip

DAN = Participant(
    id="dan", birth_date=date(1975, 5, 5), hire_date=date(2000, 2, 1),
    employment_periods=(EmploymentPeriod(date(2000, 2, 1), date(2003, 12, 31)), EmploymentPeriod(date(2005, 3, 1), None)),
    hours=_m({2000: 1920, 2001: FULL, 2002: FULL, 2003: FULL, 2004: 0, 2005: 1760}),
    compensation=_m({2000: "30000", 2001: "31000", 2002: "32000", 2003: "33000", 2005: "36000"}),
)  # fmt: skip

GINA = Participant(
    id="gina", birth_date=date(1958, 2, 10), hire_date=date(2001, 5, 14), termination_date=date(2008, 8, 14),
    death_date=date(2008, 8, 14), marital_status="married", spouse_birth_date=date(1960, 9, 30),
    hours=_m({2001: 1320, **{y: FULL for y in range(2002, 2008)}, 2008: 1240}),
    compensation=_m({y: "50000" for y in range(2001, 2009)}),
    plan_data=M({"participation_date": "2002-06-01"}),
)  # fmt: skip

CARLA = Participant(
    id="carla", birth_date=date(1947, 6, 20), hire_date=date(1985, 1, 7), termination_date=date(2004, 12, 31),
    hours=_m({y: FULL for y in range(1985, 2005)}),
    compensation=_m({2000: "52000", 2001: "53500", 2002: "55000", 2003: "56500", 2004: "58000"}),
    commencement_dates=(date(2005, 1, 1),),
    plan_data=M({"dec31_1999_benefit": "850.00", "participation_date": "1986-02-01"}),
)  # fmt: skip


def _assumptions(**extra):
    a = spec_assumptions()
    a.update(extra)
    return a


def _limit_170k(monkeypatch):
    # A6: the §1.12 limit held at $170,000 (these people are all under it anyway).
    monkeypatch.setattr(
        "benefits.engine.plans.quaker_cash_balance.account._comp_limit", lambda year: D("170000")
    )


def test_ana_contract_keys_and_values():
    # The relative values here use the plan's own rate (the other reading): the 2008 ASDs' statutory
    # basis needs the December 2007 segment rates, which the SPEC example does not give.
    plan_rate = {"benefits": QuakerBenefitSettings(relative_value_interest="plan_rate")}
    r = calculate(ANA, date(2008, 1, 15), _assumptions(), plan_rate)
    assert r["account"]["balance"] == "14375.45" and r["account"]["vested_balance"] == "14375.45"
    first, second = r["estimates"]
    assert first["forms"]["lump_sum"]["lump_sum"] == "14375.45"
    assert first["forms"]["life"]["monthly"] == "76.87"
    assert set(first["forms"]) == {"life", "lump_sum"}  # single, §5.9(e)
    assert second["forms"]["lump_sum"]["lump_sum"] == "14537.17"
    assert r["cash_out"]["required"] is False
    assert r["accrued_benefit"]["monthly_at_nrd"] == "415.31"
    # the contract's shape, plus the project-added relative value (the life annuity is the
    # unmarried participant's QJSA, so 100%; Treas. Reg. §1.417(a)(3)-1(c)(2)(ii))
    assert first["forms"]["life"] == {
        "monthly": "76.87",
        "relative_value": {"percent": "100.0", "approximately_equal": True},
    }
    # every figure carries its trace, with plan sections, in the ``traces`` map
    assert any("§4.4" in step["section"] for step in r["traces"]["estimates[0].forms.life"])
    assert any("§1.2(g)" in step["section"] for step in r["traces"]["estimates[0].forms.life"])
    assert {
        "account.balance",
        "accrued_benefit.monthly_at_nrd",
        "cash_out",
        "estimates[1].forms.lump_sum",
    } <= set(r["traces"])


def test_eve_involuntary_cash_out_s5_16():
    r = calculate(EVE, date(2007, 12, 31), _assumptions())
    assert r["account"]["balance"] == "3501.90"
    assert r["cash_out"] == {**r["cash_out"], "required": True, "threshold": "5000.00",
                             "commencement_date": "2008-01-01"}  # fmt: skip
    (est,) = r["estimates"]
    # Married, but not over $5,000: no QJSA (§5.10(a)(iii)); the lump sum only (§5.16).
    assert est["forms"]["lump_sum"]["lump_sum"] == "3501.90" and set(est["forms"]) == {"lump_sum"}


def test_cash_out_threshold_from_the_law_setting_gap6():
    s = {"benefits": BenefitSettings(cash_out_threshold=None)}
    eve = Participant(**{**EVE.__dict__, "termination_date": date(2024, 6, 30)})
    a = _assumptions()
    a["treasury_10y_november"].update({str(y): "4.50" for y in range(2010, 2024)})  # A1: 4.50% for 2011+
    r = calculate(eve, date(2024, 7, 15), a, s)
    assert r["cash_out"]["threshold"] == "7000.00"


def test_dan_forfeiture_and_restoration_through_core(monkeypatch):
    _limit_170k(monkeypatch)
    r = calculate(DAN, date(2005, 12, 31), _assumptions())
    assert r["vesting"]["vested_percent"] == "100"
    assert r["account"]["balance"] == "6820.21"
    st = statement(DAN, date(2005, 12, 31), _assumptions(), date(2004, 1, 1), date(2004, 12, 31))
    assert (st.opening, st.closing) == (D("0"), D("0"))  # forfeited through 2004


def test_gina_pre_retirement_survivor_annuity_s5_12():
    r = calculate(GINA, date(2008, 8, 20), _assumptions())
    s = r["survivor_annuity"]
    assert (s["recipient"], s["commencement_date"], s["monthly"]) == ("spouse", "2008-09-01", "93.50")
    assert s["lump_sum"] == "15889.06" and s["lump_sum_automatic"] is False
    assert (s["latest_commencement_date"], s["lump_sum_election_deadline"]) == ("2023-03-01", "2022-12-31")
    assert "cash_out" not in r


def test_gina_commencement_dates_price_the_survivor_annuity_s5_12():
    gina = Participant(**{**GINA.__dict__, "commencement_dates": (date(2008, 9, 1), date(2009, 1, 1))})
    r = calculate(gina, date(2008, 8, 20), _assumptions())
    a, b = r["estimates"]
    assert (a["route"], a["forms"]["life"]["monthly"], a["forms"]["lump_sum"]["lump_sum"]) == (
        "survivor", "93.50", "15889.06")  # fmt: skip
    # Option B: two post-death Interest Credits and (plan-literal) the 2008 Contribution Credit.
    assert (b["forms"]["life"]["monthly"], b["forms"]["lump_sum"]["lump_sum"]) == ("104.56", "17706.90")


def test_carla_opening_balance_from_the_1999_benefit_and_early_retirement():
    a = _assumptions(applicable_interest_rate={"1999-11": "6.00"})
    r = calculate(CARLA, date(2004, 12, 31), a)
    assert r["account"]["balance"] == "77387.28"
    (est,) = r["estimates"]
    assert est["route"] == "early"
    assert est["forms"]["life"]["monthly"] == "517.72"
    assert est["forms"]["lump_sum"]["lump_sum"] == "77387.28"  # the 1999 floor is lower
    assert any("GAP-1" in n for n in est["notes"])


def test_pre_2000_participant_without_opening_balance_keeps_vesting_and_dates():
    # Issue 24 item 2: the missing Beginning Balance (§4.2) blocks the account and what rests on
    # it; vesting, service and the retirement dates do not depend on it.
    carla = Participant(**{**CARLA.__dict__, "plan_data": M({"participation_date": "1986-02-01"})})
    r = calculate(carla, date(2004, 12, 31), _assumptions())
    assert r["vesting"] == {"years_of_vesting_service": 20, "vested_percent": "100"}
    assert r["normal_retirement_date"] == "2012-07-01" and r["earliest_retirement_date"]
    (m,) = r["missing"]
    assert m["field"] == "/plan_data/opening_balance"
    assert m["blocks"] == ["/account", "/accrued_benefit", "/estimates", "/cash_out"]
    assert "account" not in r


def test_missing_treasury_yield_blocks_the_benefit_figures_not_vesting():
    # Issue 12 (partial results): vesting and dates stay; every benefit figure names the input.
    a = _assumptions()
    del a["treasury_10y_november"]["2004"]
    r = calculate(ANA, date(2008, 1, 15), a)
    assert r["vesting"]["vested_percent"] and r["normal_retirement_date"]
    (m,) = r["missing"]
    assert m["field"] == "/assumptions/treasury_10y_november/2004"
    assert m["blocks"] == ["/account", "/accrued_benefit", "/estimates", "/cash_out"]
    assert "account" not in r and "estimates" not in r


def test_malformed_treasury_yield_is_a_field_error():
    a = _assumptions()
    a["treasury_10y_november"]["2004"] = "four percent"
    with pytest.raises(ParticipantError) as exc:
        calculate(ANA, date(2008, 1, 15), a)
    assert exc.value.field == "/assumptions/treasury_10y_november/2004" and exc.value.absolute


def test_missing_applicable_interest_rate_keeps_the_account_and_names_the_rate():
    a = {"treasury_10y_november": spec_assumptions()["treasury_10y_november"]}  # the contract's key only
    r = calculate(ANA, date(2008, 1, 15), a)
    assert r["account"] == {"balance": "14375.45", "vested_balance": "14375.45"}
    (m,) = r["missing"]
    assert m["field"].startswith("/assumptions/applicable_interest_rate/")
    assert m["blocks"] == ["/accrued_benefit", "/estimates"] and "error" not in r
    assert "accrued_benefit" not in r and r["estimates"] == []


def test_ivy_top_heavy_vesting_applies_proportionally_gap17():
    assert vested_amount(D("6000"), D("40")) == D("2400.00")  # SPEC Example 9
    ivy = Participant(
        id="ivy", birth_date=date(1980, 1, 1), hire_date=date(2003, 1, 2), termination_date=date(2005, 12, 31),
        hours=_m({2003: FULL, 2004: FULL, 2005: FULL}), compensation=_m({y: "48000" for y in range(2003, 2006)}),
    )  # fmt: skip
    s = {"service_vesting": ServiceVestingSettings(top_heavy_years=(2003, 2004, 2005))}
    r = calculate(ivy, date(2006, 1, 15), _assumptions(), s)
    assert r["vesting"]["vested_percent"] == "40"
    # Entry 2004-02-01: 2004 credit 5% × 44,000 = 2,200.00; 2005 interest 4.5%/4 a quarter on it
    # (24.75, 25.03, 25.31, 25.59) and 5% × 48,000 = 2,400.00 → 4,700.68, not forfeited (40% vested).
    assert r["account"]["balance"] == "4700.68"
    assert r["account"]["vested_balance"] == "1880.27"


def test_benefits_api_gives_a_ledger_and_statement():
    b = benefits(ANA, date(2008, 1, 15), _assumptions())
    st = b.ledger.statement(date(2007, 1, 1), date(2007, 12, 31))
    assert (st.opening, st.pay_credits, st.interest_credits, st.closing) == (
        D("12038.36"), D("1755.00"), D("582.09"), D("14375.45"))  # fmt: skip


def test_price_grid_covers_every_month_to_70():
    rows = price_grid(ANA, date(2008, 1, 15), _assumptions())
    assert rows[0].commencement_date == date(2008, 3, 1)  # §5.11(a)(iv) earliest date
    assert rows[-1].commencement_date == date(2042, 9, 1)  # first of the month on/after age 70
    assert len(rows) == (2042 - 2008) * 12 + 7
    assert rows[0].monthly["life"] == D("76.87") and rows[0].lump_sum == D("14375.45")
    routes = {r.route for r in rows}
    assert routes == {"vested_immediate", "early", "normal", "late"}


def test_grid_an_earlier_start_never_pays_more_per_month():
    # Flat AIR and a pinned table: each later month's balance is at least as large and its factor
    # smaller, across the §5.9(e) → early → normal → late routes.
    rows = price_grid(ANA, date(2008, 1, 15), _assumptions())
    lives = [r.monthly["life"] for r in rows]
    assert all(a <= b for a, b in zip(lives, lives[1:], strict=False))
    lumps = [r.lump_sum for r in rows]
    assert all(a <= b for a, b in zip(lumps, lumps[1:], strict=False))


def test_account_trace_is_the_spec_year_by_year_summary():
    # SPEC Example 1 "Year-by-year summary": interest credits by Plan Year.
    r = calculate(ANA, date(2008, 1, 15), _assumptions())
    rules = [s["rule"] for s in r["traces"]["account.balance"]]
    for year, interest, pay, closing in [(2002, "23.88", "1,950.00", "2,442.63"), (2005, "314.42", "2,175.00", "9,360.01"),
                                         (2007, "582.09", "1,755.00", "14,375.45")]:  # fmt: skip
        assert any(
            r_.startswith(f"Plan Year {year}:")
            and f"Interest Credits {interest}" in r_
            and f"Contribution Credit {pay}" in r_
            and r_.endswith(closing)
            for r_ in rules
        ), year


BEN = Participant(
    id="ben", birth_date=date(1940, 12, 15), hire_date=date(2000, 1, 3), termination_date=date(2006, 1, 31),
    marital_status="married", spouse_birth_date=date(1943, 5, 1),
    hours=_m({**{y: FULL for y in range(2000, 2006)}, 2006: 176}),
    compensation=_m({2000: "60000", 2001: "61500", 2002: "63000", 2003: "64500", 2004: "66000", 2005: "67500",
                     2006: "69000"}),
    commencement_dates=(date(2006, 2, 1),),
)  # fmt: skip


def test_ben_normal_retirement_with_qjsa_default_s5_3_s5_10():
    r = calculate(BEN, date(2006, 1, 31), _assumptions())
    assert r["normal_retirement_date"] == "2006-02-01"  # 5th anniversary of 2001-02-01 entry
    (est,) = r["estimates"]
    assert (est["route"], est["default_form"]) == ("normal", "js50")
    assert est["forms"]["life"]["monthly"] == "135.78"
    assert est["forms"]["lump_sum"]["lump_sum"] == "17300.28"
    # QJSA on UP-84 at 8% (checked by the oracle in test_conversion_examples).
    assert (est["forms"]["js50"]["monthly"], est["survivor_monthly"]["js50"]) == ("121.96", "60.98")
    assert set(est["forms"]) == {"life", "js50", "js66", "js100", "cc5", "cc10", "cc15", "cc20", "lump_sum"}


def test_carla_grid_starts_the_first_of_the_month_after_a_retirement_separation_s5_11a_iv():
    a = _assumptions(applicable_interest_rate={"1999-11": "6.00"})
    rows = price_grid(CARLA, date(2004, 12, 31), a)
    assert rows[0].commencement_date == date(2005, 1, 1)
    assert (rows[0].route, rows[0].monthly["life"]) == ("early", D("517.72"))


def test_ana_whipsaw_values_both_spec_scenarios_gap3():
    # SPEC Example 1: at the SPEC's future rates the projection value is $8,566.98 (below the
    # balance); at 7% future Treasury Rates it is $17,989.81, above the $14,375.45 balance.
    b = benefits(Participant(**{**ANA.__dict__, "commencement_dates": (date(2008, 3, 1),)}), date(2008, 1, 15),
                 _assumptions())  # fmt: skip
    (e,) = b.estimates
    assert (e.lump_sum.whipsaw_value, e.lump_sum.amount) == (D("8566.98"), D("14375.45"))
    a = _assumptions(treasury_10y_projection="7.00")
    a["treasury_10y_november"] = {k: v for k, v in a["treasury_10y_november"].items() if int(k) <= 2006}
    ana = Participant(**{**ANA.__dict__, "commencement_dates": (date(2008, 3, 1),)})
    (e,) = benefits(ana, date(2007, 12, 31), a).estimates
    assert e.lump_sum.whipsaw_value == D("17989.81")
    assert e.lump_sum.amount == D("14375.45")  # the balance is paid (GAP-3 default) ...
    assert any("GAP-3" in n for n in e.notes)  # ... and the case is flagged
    paid = {"benefits": BenefitSettings(pay_whipsaw_projection=True)}
    r = calculate(ana, date(2007, 12, 31), a, paid)
    assert r["estimates"][0]["forms"]["lump_sum"]["lump_sum"] == "17989.81"


def test_survivor_grid_runs_over_the_spouse_window_s5_12b():
    rows = price_grid(GINA, date(2008, 8, 20), _assumptions())
    assert (rows[0].commencement_date, rows[-1].commencement_date) == (date(2008, 9, 1), date(2023, 3, 1))
    assert rows[0].monthly["life"] == D("93.50")
    assert rows[4].commencement_date == date(2009, 1, 1) and rows[4].monthly["life"] == D("104.56")


def test_qpsa_waived_goes_to_the_beneficiary_s5_12c():
    gina = Participant(**{**GINA.__dict__, "plan_data": M({"participation_date": "2002-06-01", "qpsa_waived": True,
                                                           "beneficiary_birth_date": "1990-01-01"})})  # fmt: skip
    r = calculate(gina, date(2008, 8, 20), _assumptions())
    s = r["survivor_annuity"]
    assert s["recipient"] == "beneficiary" and s["latest_commencement_date"] == "2010-01-01"
    assert D(s["monthly"]) < D("93.50")  # a younger life buys less a month


def test_section_415b_limit_clips_the_annuity_and_the_lump_sum_s5_15_s1_2b():
    big = Participant(
        id="big", birth_date=date(1939, 12, 15), hire_date=date(1985, 1, 7), termination_date=date(2004, 12, 31),
        hours=_m({y: FULL for y in range(1985, 2005)}), compensation=_m({y: "300000" for y in range(1995, 2005)}),
        commencement_dates=(date(2005, 1, 1),),
        plan_data=M({"opening_balance": "5000000.00", "participation_date": "1990-02-01"}),
    )  # fmt: skip
    r = calculate(big, date(2004, 12, 31), _assumptions())
    (est,) = r["estimates"]
    assert est["route"] == "normal"
    # 2005 dollar limit $170,000 (no age adjustment at 65, 10+ years of participation; high-3 $300,000).
    assert est["forms"]["life"]["monthly"] == "14166.66"  # 170,000 / 12, rounded down
    # an explanation before 1/1/2007 may not say "approximately equal" (§1.417(a)(3)-1(f)(2)(iii))
    assert est["forms"]["life"]["relative_value"] == {"percent": "100.0", "approximately_equal": False}
    # Lump sum: straight-life equivalent at max(AIR 6%, 8%) capped at 170,000 × ä(12)65 @ 8% on the
    # 1983 GAM 50/50 table = 9.187776 (SPEC Example 1, 6 decimals) → 1,561,921.92 ± 170,000 × 5e-7.
    assert set(est["forms"]["lump_sum"]) == {"lump_sum", "relative_value"}
    assert abs(D(est["forms"]["lump_sum"]["lump_sum"]) - D("1561921.92")) <= D("0.09")
    assert any("§415(b)" in n for n in est["notes"])
    assert D(est["forms"]["js50" if "js50" in est["forms"] else "cc10"]["monthly"]) < D("14166.66")
