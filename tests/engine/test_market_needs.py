"""Which market rates each plan needs for a date: the look-back months of the plan texts."""

from __future__ import annotations

from datetime import date

from benefits.engine.market_needs import market_needs


def _months(plan: str, on: date, settings=None) -> dict[str, date]:
    return {n.series: n.month for n in market_needs(plan, on, settings)}


def test_quaker_interest_credit_uses_the_november_before_the_plan_year():
    # Quaker §4.4(c): the 10-year Treasury yield "for the month of November of the preceding Plan Year".
    assert _months("quaker-cash-balance", date(2026, 1, 1))["treasury_10y_november"] == date(2025, 11, 1)
    assert _months("quaker-cash-balance", date(2025, 12, 31))["treasury_10y_november"] == date(2024, 11, 1)


def test_lump_sum_look_back_months():
    # Quaker §1.2(e): "the second (2nd) month before the date of distribution".
    assert _months("quaker-cash-balance", date(2026, 3, 1))["treasury_30y"] == date(2026, 1, 1)
    assert _months("quaker-cash-balance", date(2026, 2, 28))["treasury_30y"] == date(2025, 12, 1)
    # Carver DB §13.7(G): "the third full calendar month" before the event.
    assert _months("carver-db", date(2026, 3, 31))["treasury_30y"] == date(2025, 12, 1)
    assert _months("carver-db", date(2026, 4, 1))["treasury_30y"] == date(2026, 1, 1)


def test_loan_rate_uses_the_prime_rate_of_the_month():
    # Carver 401(k) §8.3: prime plus one point, for loans requested in that month.
    assert _months("carver-401k", date(2026, 11, 30))["prime_rate"] == date(2026, 11, 1)


def test_401k_annuity_illustrations_use_the_november_before_the_plan_year():
    # docs/plan-notes/carver-401k/benefits.md: the §417(e)(3) basis of the second month before the
    # Plan Year (the readings' defaults), on both sides of January 1.
    assert _months("carver-401k", date(2026, 12, 1))["417e_segment_1"] == date(2025, 11, 1)
    assert _months("carver-401k", date(2027, 1, 1))["417e_segment_3"] == date(2026, 11, 1)
    monthly = {"annuity_stability_period": "month", "annuity_lookback_months": 1}
    assert _months("carver-401k", date(2027, 3, 15), monthly)["417e_segment_2"] == date(2027, 2, 1)
    off = {"annuity_illustration_basis": "insurer_quotes_only"}
    assert _months("carver-401k", date(2027, 1, 1), off) == {"prime_rate": date(2027, 1, 1)}


def test_segment_rates_unless_the_reading_chooses_the_plan_rate():
    # Relative values default to the §417(e)(3) basis for the date (Treas. Reg.
    # §1.417(a)(3)-1(c)(2)(iv)): the segment rates of the look-back month, from 2008 plan years.
    default = _months("carver-db", date(2026, 5, 1))
    assert default["417e_segment_3"] == date(2026, 2, 1)
    assert _months("quaker-cash-balance", date(2026, 5, 1))["417e_segment_1"] == date(2026, 3, 1)
    assert "417e_segment_1" not in _months(
        "carver-db", date(2026, 5, 1), {"relative_value_interest": "plan_rate"}
    )
    # Before 2008 the §417(e)(3) rate was the 30-year Treasury rate: no segment rates exist.
    assert "417e_segment_1" not in _months("carver-db", date(2007, 12, 1))
    assert "417e_segment_1" in _months("carver-db", date(2008, 1, 1))


def test_esops_need_no_market_rate():
    assert market_needs("fairport-esop", date(2026, 5, 1)) == ()
    assert market_needs("carver-esop", date(2026, 5, 1)) == ()


def test_each_plan_says_what_it_needs_and_the_shared_module_names_no_plan():
    """What a plan reads is a method of the plan protocol (issue 23): the dispatcher asks the plan."""
    from pathlib import Path

    from benefits.engine import market_needs as shared
    from benefits.engine.plans import get_plan, plan_keys

    text = Path(shared.__file__).read_text(encoding="utf-8")
    assert not [key for key in plan_keys() if key in text]
    assert "benefits.engine.plans." not in text  # it imports no plan package
    with_needs = {key for key in plan_keys() if get_plan(key).market_needs is not None}
    assert with_needs == {"carver-db", "quaker-cash-balance", "carver-401k"}
