"""``PackagePlan.calculate`` enters its three table blocks (Rev. Rul. 2001-62 reading, loaded
§417(e)(3) tables, loaded Single Life Tables) only when they would change what is in force (issue 29):
a census at the defaults gives, result for result, what entering them every time gave. Likewise the
default settings resolved once for a plan (``_all_defaults``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine import life_expectancy, mortality
from benefits.engine.plans import base
from benefits.engine.request import calculate_request

_spec = importlib.util.spec_from_file_location(
    "bench_census", Path(__file__).parents[2] / "bench" / "census.py"
)
assert _spec is not None and _spec.loader is not None
census = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(census)

readings = st.sampled_from([None, "unloaded", "loaded"])


@settings(max_examples=25, deadline=None)
@given(plan=st.sampled_from(sorted(census.AS_OF)), seed=st.integers(0, 10**6), traces=st.booleans())
def test_census_results_equal_the_general_path(plan, seed, traces):
    req = census.request(plan, 3, seed) | {"options": {"traces": traces}}
    fast = calculate_request(req)
    with (
        mock.patch.object(mortality, "tables_in_force", return_value=False),
        mock.patch.object(base, "_all_defaults", return_value=None),
    ):
        general = calculate_request(req)
    assert fast == general


@given(outer=readings, reading=readings)
def test_in_force_only_when_the_block_would_set_the_same_reading(outer, reading):
    with mortality.revrul_2001_62_reading(outer):
        before = mortality.revrul_2001_62_state()
        with mortality.revrul_2001_62_reading(reading):
            inside = mortality.revrul_2001_62_state()
        assert mortality.tables_in_force(reading, {}) == (inside == before)


def test_any_loaded_table_or_unknown_reading_takes_the_general_path():
    table = mortality.parse_loaded_417e_tables(None)
    assert mortality.tables_in_force(None, table)
    assert not mortality.tables_in_force("sideways", {})  # the block raises the usual error
    assert not mortality.tables_in_force(None, {2027: object()})  # type: ignore[dict-item]
    with mortality.loaded_417e_tables({2027: object()}):  # type: ignore[dict-item]
        assert not mortality.tables_in_force(None, {})
    assert life_expectancy.no_loaded_single_life_tables(())
    assert not life_expectancy.no_loaded_single_life_tables((object(),))  # type: ignore[arg-type]
    with life_expectancy.loaded_single_life_tables((object(),)):  # type: ignore[arg-type]
        assert not life_expectancy.no_loaded_single_life_tables(())


def test_defaults_resolved_once_only_for_frozen_settings():
    class Open:  # not a frozen dataclass: each calculation gets its own instance
        pass

    assert base._all_defaults(Open, Open) is None
