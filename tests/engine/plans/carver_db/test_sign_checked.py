"""The carver-db contract marks its estimates for ``input_ranges.negative_benefit`` (``SignChecked``)
only when no string it wrote into them starts with "-": for random requests, traced or not, the
check's answer is the full look's (on the result read back as plain JSON), and a marked result
holds no string starting with "-" anywhere in its estimates; a negative amount, note or error
leaves the estimates unmarked, for the full look to find it and its pointer.
"""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings

from benefits.engine.input_ranges import SignChecked, negative_benefit
from benefits.engine.plans.carver_db.contract import outputs_json
from benefits.engine.plans.carver_db.dates import grid_benefits
from benefits.engine.plans.carver_db.forms import FormAmount
from benefits.engine.request import calculate_request, parse_request

from .test_dates_one_pass import PLAN, requests


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list | tuple):
        for v in node:
            yield from _strings(v)


def _full_look(result: dict) -> str | None:
    """``negative_benefit`` on the same result read back from its JSON (plain lists)."""
    return negative_benefit(json.loads(json.dumps(result)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_the_mark_gives_the_full_looks_answer(request):
    for options in ({"traces": False}, {}):  # the one-pass path, then the traced scalar path
        out = calculate_request({**request, "options": options})["results"][0]
        if "estimates" not in out:
            continue
        assert negative_benefit(out) == _full_look(out)
        if out["estimates"].__class__ is SignChecked:
            assert not any(s.startswith("-") for s in _strings(list(out["estimates"])))


REQUEST = {
    "plan": "carver-db",
    "as_of": "2026-11-21",
    "assumptions": {},
    "participants": [
        {
            "id": "P", "birth_date": "1962-03-10", "hire_date": "1990-05-01", "marital_status": "single",
            "hours": {str(y): 2080 for y in range(1990, 2027)},
            "compensation": {str(y): str(40000 + 1000 * (y - 1990)) for y in range(1990, 2027)},
            "commencement_dates": ["2027-04-01", "2028-04-01"],
            "plan_data": {"social_security_amount": "12000"},
        }
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    "change",
    [
        lambda f: dataclasses.replace(f, annual=Decimal("-120")),
        lambda f: dataclasses.replace(f, note="-5 a month"),
        lambda f: dataclasses.replace(f, annual_after=Decimal("-24")),
    ],
)
def test_a_negative_string_leaves_the_estimates_for_the_full_look(change):
    parsed = parse_request(REQUEST)
    p = parsed.participants[0]
    b = grid_benefits(p, parsed.as_of, PLAN.core_result(p, parsed.as_of), parsed.assumptions)
    assert outputs_json(b, traces_key=False)["estimates"].__class__ is SignChecked
    e = b.estimates[1]
    forms = {k: (change(f) if k == "life" else f) for k, f in e.forms.items()}
    assert isinstance(forms["life"], FormAmount)
    out = outputs_json(
        dataclasses.replace(b, estimates=(b.estimates[0], dataclasses.replace(e, forms=forms)))
    )
    assert out["estimates"].__class__ is not SignChecked
    assert negative_benefit(out) == _full_look(out)
    if forms["life"].annual < 0:
        assert negative_benefit(out) == "/estimates/1/forms/life/monthly"
