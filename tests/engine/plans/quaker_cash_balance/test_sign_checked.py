"""The Quaker contract marks its estimates for ``input_ranges.negative_benefit`` (``SignChecked``)
only when no string it wrote into them starts with "-": the check's answer, pointer included, is
the full look's for every result, a negative amount anywhere in the estimates included.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benefits.engine.input_ranges import SignChecked, negative_benefit
from benefits.engine.plans import get_plan
from benefits.engine.plans.quaker_cash_balance import contract
from benefits.engine.plans.quaker_cash_balance.dates import grid_benefits
from benefits.engine.relative_value import RelativeValueGroup
from benefits.engine.request import calculate_request, parse_request

EXAMPLE = Path(__file__).resolve().parents[4] / "examples" / "quaker-cash-balance.json"
PLAN = get_plan("quaker-cash-balance")


def _parsed():
    request = json.loads(EXAMPLE.read_text())
    person = request["participants"][0]
    person["commencement_dates"] = [f"{y}-{m:02d}-01" for y in range(2027, 2031) for m in (1, 7)]
    parsed = parse_request({**request, "participants": [person]})
    return parsed.participants[0], parsed.as_of, request.get("assumptions") or {}


P, AS_OF, ASSUMPTIONS = _parsed()
CORE = PLAN.core_result(P, AS_OF)


def _full_look(result: dict) -> str | None:
    """``negative_benefit`` on the same result read back from its JSON (plain lists)."""
    return negative_benefit(json.loads(json.dumps(result)))


def test_a_result_without_a_negative_string_is_marked():
    out = contract.contract_outputs(P, AS_OF, ASSUMPTIONS, CORE, grid_benefits, traces_map=False)
    assert out["estimates"].__class__ is SignChecked and len(out["estimates"]) == 8
    assert negative_benefit(out) is None and _full_look(out) is None
    assert json.dumps(out["estimates"]) == json.dumps(list(out["estimates"]))


_NEGATIVE = {"commencement_date": "2031-01-01", "forms": {"life": {"monthly": "-1.00"}}}


@pytest.mark.parametrize(
    "change",
    [
        lambda e: e.append(_NEGATIVE),
        lambda e: e.extend([_NEGATIVE]),
        lambda e: e.insert(0, _NEGATIVE),
        lambda e: e.__setitem__(0, _NEGATIVE),
        lambda e: e.__setitem__(slice(0, 0), [_NEGATIVE]),
        lambda e: e.__iadd__([_NEGATIVE]),
        lambda e: e.__delitem__(0),
        lambda e: e.pop(),
        lambda e: e.clear(),
    ],
)
def test_marked_estimates_cannot_be_changed_past_the_check(change):
    """The mark vouches for the estimates as made: adding, replacing or removing one raises."""
    out = contract.contract_outputs(P, AS_OF, ASSUMPTIONS, CORE, grid_benefits, traces_map=False)
    before = json.dumps(out["estimates"])
    with pytest.raises(TypeError):
        change(out["estimates"])
    assert json.dumps(out["estimates"]) == before


@pytest.mark.parametrize("copy_of", [list, copy.copy, copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))])  # noqa: S301 - its own bytes
def test_a_copy_of_marked_estimates_gets_the_full_look(copy_of):
    """A copy is a plain list: a negative amount put in it is found, with its pointer."""
    out = contract.contract_outputs(P, AS_OF, ASSUMPTIONS, CORE, grid_benefits, traces_map=False)
    estimates = copy_of(out["estimates"])
    assert estimates.__class__ is list and estimates == out["estimates"]
    estimates.append(_NEGATIVE)
    assert negative_benefit({**out, "estimates": estimates}) == "/estimates/8/forms/life/monthly"


def _with(b, i: int, where: str, key: str, value: Decimal):
    """``b`` with one figure of estimate ``i`` replaced by ``value``."""
    e = b.estimates[i]
    if where == "form" and key in e.forms:
        f = e.forms[key]
        field = "lump_sum" if f.monthly is None else "monthly"
        e = dataclasses.replace(e, forms={**e.forms, key: dataclasses.replace(f, **{field: value})})
    elif where == "survivor" and key in e.forms and e.forms[key].survivor_monthly is not None:
        f = dataclasses.replace(e.forms[key], survivor_monthly=value)
        e = dataclasses.replace(e, forms={**e.forms, key: f})
    elif where == "percent" and e.relative_values is not None and key in e.relative_values.values:
        rv = e.relative_values
        v = dataclasses.replace(rv.values[key], percent=value)
        e = dataclasses.replace(e, relative_values=dataclasses.replace(rv, values={**rv.values, key: v}))
    elif where == "group" and e.relative_values is not None and e.relative_values.groups:
        rv = e.relative_values
        g = rv.groups[0]
        groups = (RelativeValueGroup(g.members, value, g.high, g.disclosed), *rv.groups[1:])
        e = dataclasses.replace(e, relative_values=dataclasses.replace(rv, groups=groups))
    elif where == "note":
        e = dataclasses.replace(e, notes=(*e.notes, str(value)))
    estimates = list(b.estimates)
    estimates[i] = e
    return dataclasses.replace(b, estimates=tuple(estimates))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    i=st.integers(0, 7),
    where=st.sampled_from(["form", "survivor", "percent", "group", "note"]),
    key=st.sampled_from(["life", "js50", "js100", "c10", "lump_sum"]),
    value=st.decimals(min_value=-1000, max_value=1000, places=3, allow_nan=False),
)
def test_the_mark_gives_the_full_looks_answer(i, where, key, value):
    def benefits_of(*args, **kwargs):
        return _with(grid_benefits(*args, **kwargs), i, where, key, value)

    out = contract.contract_outputs(P, AS_OF, ASSUMPTIONS, CORE, benefits_of, traces_map=False)
    assert negative_benefit(out) == _full_look(out)
    if out["estimates"].__class__ is SignChecked:
        assert '"-' not in json.dumps(out["estimates"])


def test_a_negative_amount_still_gives_its_error_and_pointer(monkeypatch):
    """Through the request, a negative amount in the one pass's estimates is the participant's error."""
    real = contract.contract_outputs

    def negative_life(*args, **kwargs):
        def benefits_of(*a, **k):
            return _with(grid_benefits(*a, **k), 3, "form", "life", Decimal("-2.5"))

        return real(*args[:4], benefits_of, **kwargs)

    request = json.loads(EXAMPLE.read_text())
    request["participants"] = request["participants"][:1]
    request["participants"][0]["commencement_dates"] = [d.isoformat() for d in P.commencement_dates]
    monkeypatch.setattr("benefits.engine.plans.quaker_cash_balance.dates.contract_outputs", negative_life)
    result = calculate_request({**request, "options": {"traces": False}})["results"][0]
    assert result["error"] == {
        "field": "/participants/0/estimates/3/forms/life/monthly",
        "message": "cannot calculate: a benefit came out negative",
    }
