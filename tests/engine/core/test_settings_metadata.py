"""Every plan setting documents itself: plan section in its metadata, and ``describe()`` lists it.

The web app shows each reading with its plan section, GAP number, default and alternative; a field
declared without ``setting(...)`` would appear with no section at all.
"""

import dataclasses
import typing

import pytest

from benefits.engine.plans import plan_keys, settings_classes
from benefits.engine.settings import describe, override

GROUPS = [(key, group, cls) for key in plan_keys() for group, cls in settings_classes(key).items()]
IDS = [f"{key}:{group}" for key, group, _ in GROUPS]


def test_every_plan_has_settings_groups():
    assert {key for key, _, _ in GROUPS} == set(plan_keys())


@pytest.mark.parametrize(("key", "group", "cls"), GROUPS, ids=IDS)
def test_every_field_names_its_plan_section(key, group, cls):
    missing = [f.name for f in dataclasses.fields(cls) if not str(f.metadata.get("section", "")).strip()]
    assert missing == [], f"{key} {group}: fields without a plan section: {missing}"


@pytest.mark.parametrize(("key", "group", "cls"), GROUPS, ids=IDS)
def test_describe_lists_every_field_with_its_documentation(key, group, cls):
    rows = describe(cls)
    fields = dataclasses.fields(cls)
    assert [r["name"] for r in rows] == [f.name for f in fields]
    for row, f in zip(rows, fields, strict=True):
        assert row["default"] == f.default
        assert row["section"] and row["type"]
        assert {"gap", "alternative", "required", "help"} <= row.keys()


@pytest.mark.parametrize(("key", "group", "cls"), GROUPS, ids=IDS)
def test_literal_defaults_are_allowed_values_and_defaults_are_immutable(key, group, cls):
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        assert not isinstance(f.default, list | dict | set), f.name
        tp = hints[f.name]
        if typing.get_origin(tp) is typing.Literal:
            assert f.default in typing.get_args(tp), f.name


@pytest.mark.parametrize(("key", "group", "cls"), GROUPS, ids=IDS)
def test_defaults_survive_an_override_round_trip(key, group, cls):
    # Each Literal value the annotation lists is accepted by override(), and the default object stays equal.
    default = cls()
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        if typing.get_origin(tp) is typing.Literal:
            for value in typing.get_args(tp):
                assert getattr(override(default, {f.name: value}), f.name) == value
    assert override(default, {}) == default


def test_a_list_of_dated_amounts_overrides_position_by_position():
    """Carver ESOP GAP D2.2 alternative: the statute's thresholds, entered as [[date, amount], ...]."""
    from datetime import date
    from decimal import Decimal

    from benefits.engine.plans.carver_esop.settings import BenefitSettings
    from benefits.engine.settings import SettingError, override

    s = override(
        BenefitSettings(), {"statutory_thresholds": [["1998-01-01", "5000"], ["2024-01-01", "7000"]]}
    )
    assert s.statutory_thresholds == (
        (date(1998, 1, 1), Decimal("5000")),
        (date(2024, 1, 1), Decimal("7000")),
    )
    with pytest.raises(SettingError, match="list of 2 values"):
        override(BenefitSettings(), {"statutory_thresholds": [["1998-01-01"]]})
