"""The per-participant overheads a census no longer pays give what they replaced.

* ``core.with_settings`` is ``dataclasses.replace(core, settings=...)`` for every plan's core result;
* ``trace.traces_off_unless_off`` is ``traces_off()`` wherever it is not already in force, and inside
  it leaves the block as it is (nothing recorded, no read listed);
* a JSON Lines census without traces switches them off once: every result is the one ``run`` gives.
"""

from __future__ import annotations

import dataclasses
import io
import json
from datetime import date

import pytest

from benefits.engine.core import with_settings
from benefits.engine.parameters import current_reads, recorded_reads
from benefits.engine.plans import get_plan, plan_keys
from benefits.engine.request import parse_request, run
from benefits.engine.streaming import write_jsonl
from benefits.engine.trace import recording, traces_off, traces_off_unless_off
from benefits.engine.types import Participant

PERSON = Participant(
    id="p1",
    birth_date=date(1962, 4, 9),
    hire_date=date(1995, 7, 1),
    hours={y: 2000 for y in range(1995, 2026)},
)


@pytest.mark.parametrize("key", plan_keys())
def test_with_settings_is_dataclasses_replace(key):
    plan = get_plan(key)
    core = plan.core_result(PERSON, date(2025, 11, 1))
    settings = plan.default_settings() | {"marker": object()}
    fast, slow = with_settings(core, settings), dataclasses.replace(core, settings=settings)
    assert type(fast) is type(slow)
    for f in dataclasses.fields(slow):
        assert getattr(fast, f.name) is getattr(slow, f.name)
    assert fast == slow and fast is not core and core.settings is not settings


def test_traces_off_unless_off():
    with traces_off_unless_off():
        assert not recording() and current_reads() is None
    assert recording()
    with recorded_reads(), traces_off_unless_off():  # reads were being listed: they stop
        assert not recording() and current_reads() is None
    with traces_off():
        with traces_off_unless_off():
            assert not recording() and current_reads() is None
        assert not recording()
        with recorded_reads() as reads, traces_off_unless_off():  # a read list inside: switched off
            assert current_reads() is None
        assert reads == []


@pytest.mark.parametrize("key", ["carver-esop", "fairport-esop", "carver-db"])
def test_census_without_traces_is_run_result_for_result(key):
    header = {"plan": key, "as_of": "2026-11-21", "options": {"traces": False}}
    people = [
        {"id": f"p{i}", "birth_date": f"19{60 + i}-03-0{i + 1}", "hire_date": f"20{10 + i}-05-01",
         "hours": {str(y): 2080 - 300 * i for y in range(2010 + i, 2027)},
         "compensation": {str(y): "50000.00" for y in range(2010 + i, 2027)},
         "plan_data": {"shares": "100", "cash": "10.00", "share_value": "12.40",
                       "social_security_amount": "12000.00", "vested_account_value": "100.00"}}
        for i in range(4)
    ]  # fmt: skip
    text = "\n".join(json.dumps(x) for x in [header, *people]) + "\n"
    out = io.StringIO()
    write_jsonl(io.BytesIO(text.encode()), out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines == run(parse_request(header | {"participants": people}))["results"]
    assert recording()


def test_the_table_blocks_set_their_value_and_reset_it_however_they_end():
    from benefits.engine.life_expectancy import loaded_single_life_tables
    from benefits.engine.mortality import loaded_417e_signature, revrul_2001_62_reading, revrul_2001_62_state

    before = revrul_2001_62_state()
    with revrul_2001_62_reading("loaded"):
        assert revrul_2001_62_state() == ("loaded", True)
        with revrul_2001_62_reading(None):
            assert revrul_2001_62_state() == (before[0], False)
        assert revrul_2001_62_state() == ("loaded", True)
    assert revrul_2001_62_state() == before
    with pytest.raises(ValueError, match="unknown reading"):
        revrul_2001_62_reading("sideways")
    with pytest.raises(KeyError), revrul_2001_62_reading("loaded"), loaded_single_life_tables(()):
        raise KeyError("x")
    assert revrul_2001_62_state() == before and loaded_417e_signature() == ()
