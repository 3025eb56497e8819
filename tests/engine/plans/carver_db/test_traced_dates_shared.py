"""Issue 29: a traced request of many commencement dates shares what does not change with the date
(the §415 inputs, the §6.1(C)(3) 5%/GATT ratios priced together, a Table A factor's step), and every
date's figures and steps are still those of the date asked for alone.

Each date of a many-date traced request is compared with a request for that date alone, made after
the shared caches are emptied: the same estimate and the same trace of every figure, key for key
and step for step (the trace keys renumbered). The ratios priced together are the scalar ones to the
last bit.
"""

from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings

from benefits.engine.actuarial import form_factor, life_annuity
from benefits.engine.dates import add_months, months_between
from benefits.engine.plans.carver_db import forms
from benefits.engine.request import calculate_request

from .test_dates_one_pass import market, person, requests


def _cold() -> None:
    forms._LIMIT_RATIOS.clear()
    forms._TABLE_A_STEPS.clear()


def _per_date(result: dict, i: int) -> tuple[dict, dict]:
    """Estimate ``i`` and its traces, keyed as if it were estimate 0."""
    prefix = f"estimates[{i}]"
    traces = {
        "estimates[0]" + k[len(prefix) :]: v
        for k, v in result["traces"].items()
        if k == prefix or k.startswith(prefix + ".")
    }
    return result["estimates"][i], traces


def _each_date_alone_is_the_same(request: dict) -> None:
    request = {**request, "options": {}}
    _cold()
    together = calculate_request(json.loads(json.dumps(request)))["results"][0]
    p = request["participants"][0]
    if "error" in together:
        return
    assert len(together["estimates"]) == len(p["commencement_dates"])
    for i, d in enumerate(p["commencement_dates"]):
        _cold()
        alone = calculate_request({**request, "participants": [{**p, "commencement_dates": [d]}]})["results"][
            0
        ]
        assert _per_date(together, i) == _per_date(alone, 0), d
        assert (
            together["traces"]["accrued_benefit.monthly_at_nrd"]
            == alone["traces"]["accrued_benefit.monthly_at_nrd"]
        )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_each_date_of_a_traced_request_is_the_date_alone(request):
    p = request["participants"][0]
    p["commencement_dates"] = p["commencement_dates"][:30]
    _each_date_alone_is_the_same(request)


@pytest.mark.parametrize(
    "married, spouse, annuitant, term",
    [
        (True, date(1973, 1, 1), None, None),  # the Spouse's J&S forms: not converted (§7.1)
        (False, None, date(1980, 6, 5), date(2019, 3, 31)),  # a Contingent Pensioner's: converted
        (False, None, None, None),
    ],
)
def test_the_grid_participants_dates_alone_are_the_same(married, spouse, annuitant, term):
    as_of = date(2026, 11, 21)
    dates = [add_months(date(2027, 5, 1), k) for k in range(0, 120, 5)]
    who = person(date(1966, 4, 10), date(1988, 2, 15), term, married, spouse, 240_000, dates)
    if annuitant:
        who["plan_data"]["contingent_pensioner_birth_date"] = annuitant.isoformat()
    request = {
        "plan": "carver-db",
        "as_of": as_of.isoformat(),
        "assumptions": market(as_of, 25, 60, segments=True, treasury=True),
        "participants": [who],
    }
    _each_date_alone_is_the_same(request)


def test_ratios_priced_together_are_the_scalar_ones_to_the_last_bit():
    birth, annuitant = date(1961, 7, 19), date(1958, 2, 3)
    dates = [add_months(date(2016, 8, 1), k) for k in range(0, 200)]
    _cold()
    forms.prime_limit_ratios(birth, annuitant, False, dates)
    basis = forms.gatt_basis()
    checked = 0
    for d in dates:
        age_m, spouse_m = months_between(birth, d), months_between(annuitant, d)
        for key in ("cc5", "cc10", "cc15", "cc20", "js50", "js66", "js100"):
            spouse = None if key.startswith("cc") else spouse_m / 12.0
            scalar = life_annuity(basis, age_m / 12.0) / form_factor(
                basis, forms._limit_form(key), age_m / 12.0, spouse
            )
            assert forms._LIMIT_RATIOS[(key, age_m, spouse_m)] == scalar
            checked += 1
    assert checked == 1400
