"""Issue 29: every commencement date priced in one pass (``Plan.grid.outputs``) gives the scalar path's
result byte for byte.

A request without traces (the web modeler, the claim form's check, the command line with
``options.traces`` false) prices the plan's dates on the one-pass path (``quaker_cash_balance/
dates.py``: the price grid's vectorized factors, the whipsaw projection of every date before NRD in
one pass, the §417(a)(3) relative values of every date together). Its output must be the traced
scalar path's with the ``traces`` key left out: the same keys, in the same order, the same strings,
for every example, for random participants, dates, forms, settings and market data, and the same
``error`` or ``missing`` entries. A grid date must never reach the scalar ``estimate()``; the one
pass hands a participant to the scalar path only where the scalar path stops (or for the
grandfathered 1999 minimum, which it does not price).
"""

from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benefits.engine.dates import add_months
from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.plans import get_plan
from benefits.engine.plans.quaker_cash_balance import dates as one_pass
from benefits.engine.plans.quaker_cash_balance import results as scalar_results
from benefits.engine.request import calculate_request, parse_request

EXAMPLES = sorted((Path(__file__).resolve().parents[4] / "examples").glob("*.json"))
QUAKER_EXAMPLES = [p for p in EXAMPLES if json.loads(p.read_text())["plan"] == "quaker-cash-balance"]
PLAN = get_plan("quaker-cash-balance")


def untraced(request: dict) -> str:
    return json.dumps(calculate_request({**request, "options": {"traces": False}}))


def scalar(request: dict) -> str:
    """Today's scalar path: the traced result without its ``traces`` (what ``options.traces`` false
    gave before the one-pass path; ``test_traces_option.py`` holds the two equal)."""
    out = calculate_request({**request, "options": {}})
    for result in out["results"]:
        result.pop("traces", None)
    return json.dumps(out)


def grid_dates(request: dict, participant: dict) -> list[str]:
    """Every month the modeler offers the participant (the price grid's dates)."""
    one = {**request, "participants": [{**participant, "commencement_dates": []}]}
    parsed = parse_request(one)
    p, as_of = parsed.participants[0], parsed.as_of
    rows = PLAN.grid.price(p, as_of, request.get("assumptions") or {}, PLAN.core_result(p, as_of))
    return [r.commencement_date.isoformat() for r in rows]


def test_the_untraced_path_is_the_grid_path():
    assert PLAN.grid is not None and PLAN.grid.outputs is one_pass.grid_outputs


@pytest.mark.parametrize("path", QUAKER_EXAMPLES, ids=lambda p: p.stem)
def test_every_example_is_byte_identical(path):
    request = json.loads(path.read_text())
    request.pop("options", None)
    assert untraced(request) == scalar(request)
    # and with every month of each participant's grid (the modeler's request for them)
    for person in request["participants"]:
        person["commencement_dates"] = grid_dates(request, person)
    assert sum(len(p["commencement_dates"]) for p in request["participants"]) > 100
    assert untraced(request) == scalar(request)


# ------------------------------------------------------------------------------------------ the grid


def market(as_of: date, draw) -> dict:
    """The plan's series (10-year Treasury Novembers, the Applicable Interest Rate by month or a flat
    default, a pinned table or not) and the §417(e)(3) segment rates around ``as_of``, each maybe absent."""
    out: dict = {}
    first = date(as_of.year, as_of.month, 1)
    months = [add_months(first, k) for k in range(-draw(st.integers(0, 30)), draw(st.integers(0, 240)) + 1)]
    keys = [f"{m.year:04d}-{m.month:02d}" for m in months]
    novembers = draw(st.lists(st.integers(100, 900), min_size=30, max_size=30))
    out["treasury_10y_november"] = {str(1996 + i): f"{r / 100:.2f}" for i, r in enumerate(novembers)}
    if draw(st.booleans()):  # above the Applicable Interest Rate, a projection value over the balance
        out["treasury_10y_projection"] = draw(st.sampled_from(["2.00", "4.25", "9.00"]))
    air = draw(st.sampled_from(["default", "monthly", "both", "none"]))
    if air in ("monthly", "both"):
        back = [add_months(first, k) for k in range(-400, 1)]  # to before any account opened
        out["applicable_interest_rate"] = {
            f"{m.year:04d}-{m.month:02d}": f"{3 + i % 9 * 0.35:.2f}" for i, m in enumerate(back)
        }
    if air in ("default", "both"):
        out["applicable_interest_rate_default"] = f"{draw(st.integers(150, 900)) / 100:.2f}"
    if draw(st.booleans()):
        out["segment_rates"] = {
            k: [f"{3 + i % 7 * 0.25:.2f}", "5.20", f"{5.5 + i % 3 * 0.1:.2f}"] for i, k in enumerate(keys)
        }
    if draw(st.booleans()):
        out["treasury_30y_monthly"] = {k: f"{4 + i % 5 * 0.2:.2f}" for i, k in enumerate(keys)}
    if draw(st.booleans()):
        out["applicable_mortality_table"] = "rev-rul-95-6"
    return out


@st.composite
def requests(draw):
    birth = draw(st.dates(date(1945, 1, 1), date(1992, 12, 31)))
    hire = draw(st.dates(max(date(birth.year + 20, 1, 1), date(1985, 1, 1)), date(2024, 12, 31)))
    as_of = draw(st.dates(max(hire, date(2005, 1, 1)), date(2026, 11, 30)))
    term = draw(st.one_of(st.none(), st.dates(hire, as_of)))
    married = draw(st.booleans())
    # small balances (cash-outs), the §415(b) pay limit under a large opening balance, and the rest
    pay = draw(st.one_of(st.sampled_from([6_000, 12_000, 400_000]), st.integers(12_000, 400_000)))
    last = (term or as_of).year
    person: dict = {
        "id": "P",
        "birth_date": birth.isoformat(),
        "hire_date": hire.isoformat(),
        "termination_date": term.isoformat() if term else None,
        "marital_status": "married" if married else "single",
        "hours": {str(y): draw(st.sampled_from([2080, 1500, 900])) for y in range(hire.year, last + 1)},
        "compensation": {str(y): str(pay + 1000 * (y - hire.year)) for y in range(hire.year, last + 1)},
        "plan_data": {},
    }
    if married and draw(st.integers(0, 5)):  # now and then married without the spouse's birth date
        spouse = date(birth.year + draw(st.integers(-10, 10)), draw(st.integers(1, 12)), 1)
        person["spouse_birth_date"] = spouse.isoformat()
    if hire.year < 2000:
        person["plan_data"]["opening_balance"] = str(
            draw(st.one_of(st.sampled_from([0, 2_000, 900_000]), st.integers(0, 300_000)))
        )
    if not married and draw(st.booleans()):
        person["plan_data"]["contingent_annuitant_birth_date"] = date(birth.year + 5, 3, 1).isoformat()
    first = date(as_of.year, as_of.month, 1)
    if draw(st.booleans()):  # the modeler's every month, or a few dates anywhere (not the 1st too)
        dates = [add_months(first, k) for k in range(1, 12 * draw(st.integers(1, 40)))]
    else:
        dates = draw(st.lists(st.dates(hire, add_months(first, 420)), min_size=1, max_size=8))  # past too
    person["commencement_dates"] = [d.isoformat() for d in dates if hire < d <= birthday(birth, 90)]
    request = {"plan": "quaker-cash-balance", "as_of": as_of.isoformat(), "assumptions": market(as_of, draw)}
    request["participants"] = [person]
    chosen = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "form_conversion_basis": st.just("applicable"),
                "pay_whipsaw_projection": st.just(True),
                "cash_out_threshold": st.sampled_from(["3500", "20000"]),
                "relative_value_interest": st.just("plan_rate"),
            },
        )
    )
    if chosen:
        request["settings"] = chosen
    return request


def priced_by_the_scalar_path(request: dict) -> tuple[str, int]:
    """The untraced result and how many times the one pass handed the participant to the scalar path."""
    with mock.patch.object(one_pass, "scalar_estimates", wraps=one_pass.scalar_estimates) as spy:
        out = untraced(request)
    return out, spy.call_count


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_every_date_form_setting_and_market_data_is_byte_identical(request):
    fast, handed_over = priced_by_the_scalar_path(request)
    assert fast == scalar(request)
    if handed_over:  # only where the scalar path stops: no estimate comes back
        result = json.loads(fast)["results"][0]
        assert "error" in result or not result.get("estimates"), result


def test_settings_are_read_as_the_scalar_path_reads_them():
    """The settings the property draws are real benefit settings (a typo would be refused)."""
    request = {
        "plan": "quaker-cash-balance",
        "as_of": "2026-11-21",
        "settings": {"pay_whipsaw_projection": True, "form_conversion_basis": "applicable"},
        "participants": [],
    }
    assert json.loads(untraced(request))["results"] == []


# ------------------------------------------------------------------------------------------ the job


def benchmark_request(**extra_assumptions) -> dict:
    """The modeler's request for a married active employee aged 39: 372 months to age 70, every form,
    and the §417(e)(3) rates for every month (every date's relative values computed)."""
    as_of = date(2026, 11, 21)
    months = [add_months(date(2024, 10, 1), k) for k in range(0, 400)]
    keys = [f"{m.year:04d}-{m.month:02d}" for m in months]
    person = {
        "id": "P",
        "birth_date": "1987-10-10",
        "hire_date": "2006-03-05",
        "marital_status": "married",
        "spouse_birth_date": "1989-06-15",
        "hours": {str(y): 2080 for y in range(2006, 2027)},
        "compensation": {str(y): str(52000 + 1500 * (y - 2006)) for y in range(2006, 2027)},
    }
    request = {
        "plan": "quaker-cash-balance",
        "as_of": as_of.isoformat(),
        "assumptions": {
            "treasury_10y_november": {str(y): "4.50" for y in range(1999, 2026)},
            "applicable_interest_rate": dict.fromkeys(keys, "4.60"),
            "segment_rates": {k: ["4.45", "5.20", "5.85"] for k in keys},
        }
        | extra_assumptions,
        "participants": [person],
    }
    person["commencement_dates"] = grid_dates(request, person)
    return request


def test_grid_dates_never_reach_the_scalar_estimate(monkeypatch):
    request = benchmark_request()

    def refuse(*args, **kwargs):
        raise AssertionError("a grid date went through the scalar estimate()")

    monkeypatch.setattr(scalar_results, "estimate", refuse)
    out = json.loads(untraced(request))["results"][0]
    assert "error" not in out and len(out["estimates"]) == 372
    assert all("relative_value_basis" in e for e in out["estimates"])  # the §417(a)(3) part is priced
    assert {e["route"] for e in out["estimates"]} == {"vested_immediate", "early", "normal", "late"}
    # the traced path is the scalar one: there the patched estimate() stops the participant
    traced = calculate_request(copy.deepcopy(request))["results"][0]
    assert "scalar estimate" in traced["error"]["message"]


def test_the_whipsaw_projection_and_its_payment_are_priced_in_the_one_pass(monkeypatch):
    """GAP-3: every date before NRD carries the projection value; with the setting the lump sum is the
    projection where it is larger. Both on the one pass, equal to the scalar path."""
    request = benchmark_request(treasury_10y_projection="9.00")  # credits above the AIR: whipsaw
    request["settings"] = {"pay_whipsaw_projection": True}
    expected = scalar(request)
    monkeypatch.setattr(scalar_results, "estimate", lambda *a, **k: 1 / 0)
    assert untraced(request) == expected
    notes = [n for e in json.loads(expected)["results"][0]["estimates"] for n in e.get("notes", [])]
    assert any("projection value" in n for n in notes)
