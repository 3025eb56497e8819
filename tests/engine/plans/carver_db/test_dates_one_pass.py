"""Issue 29: every commencement date priced in one pass (``Plan.grid.outputs``) gives the scalar path's
result byte for byte.

A request without traces (the web modeler, the claim form's check, the command line with
``options.traces`` false) prices a grid plan's dates on the one-pass path (``carver_db/dates.py``:
the §415 inputs read once, Table A's forms without traces, the §417(a)(3) relative values of every
date in one ``form_factors`` pass per basis and form). Its output must be the traced scalar path's
with the ``traces`` key left out: the same keys, in the same order, the same strings, for every
example, for random participants, dates, forms and market data, and the same ``error`` or
``missing`` entries. A grid date must never reach the scalar ``estimate()``.
"""

from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benefits.engine.dates import add_months
from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.plans import get_plan
from benefits.engine.plans.base import PackagePlan
from benefits.engine.plans.carver_db import results as scalar_results
from benefits.engine.request import calculate_request

EXAMPLES = sorted((Path(__file__).resolve().parents[4] / "examples").glob("*.json"))
PLAN = get_plan("carver-db")


def untraced(request: dict) -> str:
    return json.dumps(calculate_request({**request, "options": {"traces": False}}))


def scalar(request: dict) -> str:
    """Today's scalar path: the traced result without its ``traces`` (what ``options.traces`` false
    gave before the one-pass path; ``test_traces_option.py`` holds the two equal)."""
    out = calculate_request({**request, "options": {}})
    for result in out["results"]:
        result.pop("traces", None)
    return json.dumps(out)


@pytest.fixture
def no_scalar_dates(monkeypatch):
    """The scalar estimate raises: a grid date that reaches it fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("a grid date went through the scalar estimate()")

    monkeypatch.setattr(scalar_results, "estimate", refuse)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_is_byte_identical(path):
    request = json.loads(path.read_text())
    request.pop("options", None)
    assert untraced(request) == scalar(request)


def test_the_untraced_path_is_the_grid_path():
    assert PLAN.grid is not None and PLAN.grid.outputs is not None
    # a plan without a grid keeps the scalar path
    assert get_plan("carver-401k").grid is None


# ------------------------------------------------------------------------------------------ the grid


def market(as_of: date, months_back: int, months_ahead: int, *, segments: bool, treasury: bool) -> dict:
    """Monthly segment rates and 30-year Treasury rates around ``as_of`` (either may be absent)."""
    out: dict = {}
    months = [add_months(date(as_of.year, as_of.month, 1), k) for k in range(-months_back, months_ahead + 1)]
    keys = [f"{m.year:04d}-{m.month:02d}" for m in months]
    if segments:
        out["segment_rates"] = {
            k: [f"{3 + i % 7 * 0.25:.2f}", "5.20", f"{5.5 + i % 3 * 0.1:.2f}"] for i, k in enumerate(keys)
        }
    if treasury:
        out["treasury_30y_monthly"] = {k: f"{4 + i % 5 * 0.2:.2f}" for i, k in enumerate(keys)}
    return out


def person(
    birth: date, hire: date, term: date | None, married: bool, spouse: date | None, pay: int, dates
) -> dict:
    last = (term or date(2026, 11, 1)).year
    out: dict = {
        "id": "P",
        "birth_date": birth.isoformat(),
        "hire_date": hire.isoformat(),
        "termination_date": term.isoformat() if term else None,
        "marital_status": "married" if married else "single",
        "hours": {str(y): 2080 if y % 4 else 900 for y in range(hire.year, last + 1)},
        "compensation": {str(y): str(pay + 1500 * (y - hire.year)) for y in range(hire.year, last + 1)},
        "commencement_dates": [d.isoformat() for d in dates],
        "plan_data": {"social_security_amount": "12000"},
    }
    if spouse:
        out["spouse_birth_date"] = spouse.isoformat()
    return out


@st.composite
def requests(draw):
    birth = draw(st.dates(date(1940, 1, 1), date(1975, 12, 31)))
    hire = draw(st.dates(max(birthday(birth, 18), date(1970, 1, 1)), date(2000, 6, 30)))
    as_of = draw(st.dates(max(hire, date(2003, 1, 1)), date(2026, 11, 30)))
    term = draw(st.one_of(st.none(), st.dates(hire, as_of)))
    married = draw(st.booleans())
    spouse = date(birth.year + draw(st.integers(-12, 12)), draw(st.integers(1, 12)), 1) if married else None
    first = date(as_of.year, as_of.month, 1)
    # every month of the modeler's grid, or a few dates anywhere (a day other than the 1st included)
    if draw(st.booleans()):
        dates = [add_months(first, k) for k in range(1, 12 * draw(st.integers(1, 15)))]
    else:
        dates = draw(st.lists(st.dates(first, add_months(first, 240)), min_size=1, max_size=8, unique=True))
    dates = [d for d in dates if hire < d <= birthday(birth, 99)]
    request = {
        "plan": "carver-db",
        "as_of": as_of.isoformat(),
        "assumptions": market(
            as_of,
            draw(st.integers(0, 30)),
            draw(st.integers(0, 240)),
            segments=draw(st.booleans()),
            treasury=draw(st.booleans()),
        ),
        "participants": [
            person(birth, hire, term, married, spouse, draw(st.integers(8_000, 300_000)), dates)
        ],
    }
    if draw(st.booleans()):
        request["settings"] = {"projected_cs_mode": "unfrozen_projection"}
    return request


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_every_date_form_and_market_data_is_byte_identical(request):
    assert untraced(request) == scalar(request)


def test_grid_dates_never_reach_the_scalar_estimate(no_scalar_dates):
    birth, as_of = date(1971, 4, 10), date(2026, 11, 21)
    dates = [r.commencement_date for r in PLAN.grid.price(_participant(birth), as_of, {}).rows]
    request = {
        "plan": "carver-db",
        "as_of": as_of.isoformat(),
        "assumptions": market(as_of, 25, 240, segments=True, treasury=True),
        "participants": [person(birth, date(1988, 2, 15), None, True, date(1973, 1, 1), 52_000, dates)],
    }
    out = json.loads(untraced(request))["results"][0]
    assert "error" not in out and len(out["estimates"]) == len(dates) > 170
    assert all("relative_value_basis" in e for e in out["estimates"])  # the §417(a)(3) part is priced
    # the traced path is the scalar one: there the patched estimate() stops the participant
    traced = calculate_request(copy.deepcopy(request))["results"][0]
    assert "scalar estimate" in traced["error"]["message"]


def test_the_one_pass_path_is_taken_only_without_traces(monkeypatch):
    calls = []
    original = PackagePlan._outputs

    def spy(self):
        fn = original(self)
        calls.append(fn is getattr(self.grid, "outputs", None))
        return fn

    monkeypatch.setattr(PackagePlan, "_outputs", spy)
    request = json.loads((EXAMPLES[0].parent / "carver-db.json").read_text())
    request.pop("options", None)
    untraced(request)
    scalar(request)
    assert calls[: len(calls) // 2] == [True] * (len(calls) // 2)
    assert calls[len(calls) // 2 :] == [False] * (len(calls) - len(calls) // 2)


def _participant(birth: date):
    from benefits.engine.request import parse_request

    request = {
        "plan": "carver-db",
        "as_of": "2026-11-21",
        "participants": [person(birth, date(1988, 2, 15), None, True, date(1973, 1, 1), 52_000, [])],
    }
    return parse_request(request).participants[0]
