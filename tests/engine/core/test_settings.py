"""Plan settings: listing, overriding, REQUIRED settings left unconfirmed."""

from datetime import date

import pytest

from benefits.engine.plans import get_plan, plan_keys, settings_classes
from benefits.engine.plans.fairport_esop import rules as fairport
from benefits.engine.settings import SettingError, describe, override, unconfirmed


def test_every_plan_lists_service_vesting_settings():
    for key in plan_keys():
        classes = settings_classes(key)
        assert "service_vesting" in classes
        rows = describe(classes["service_vesting"])
        assert rows and all("section" in r for r in rows)
        assert key == get_plan(key).key


def test_fairport_pre_plan_cap_is_required_and_unconfirmed_by_default():
    s = fairport.ServiceVestingSettings()
    assert unconfirmed(s) == ("pre_plan_vesting_cap_years",)
    assert unconfirmed(override(s, {"pre_plan_vesting_cap_years": 3})) == ()


def test_override_converts_json_values():
    s = override(
        fairport.ServiceVestingSettings(),
        {
            "pre_plan_vesting_cap_years": 5,
            "plan_termination_date": "2020-01-01",
            "early_retirement_service": "vesting_years",
        },
    )
    assert s.plan_termination_date == date(2020, 1, 1)
    with pytest.raises(SettingError):
        override(s, {"early_retirement_service": "nonsense"})
    with pytest.raises(SettingError):
        override(s, {"pre_plan_vesting_cap_years": "three"})
    with pytest.raises(SettingError):
        override(s, {"no_such_setting": 1})


def test_registry_maps_every_contract_key_and_rejects_others():
    from benefits.engine.plans import UnknownPlan

    assert plan_keys() == ("carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop")
    with pytest.raises(UnknownPlan):
        get_plan("acme-pension")
