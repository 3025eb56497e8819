"""Issue 24: the engine now gives partial results (vesting and dates, and a ``missing`` entry) where
it used to give an error; a claim check that needs a figure left out says so instead of failing."""

import pytest

from benefits.models import PlanMembership
from elections.claims.checks import ClaimInvalid, check_esop_distribution

from .conftest import AS_OF, start_date


def test_esop_distribution_without_a_vested_value_is_refused_in_plain_words(demo):
    m = PlanMembership.objects.get(participant__participant_number="CBI-50001", plan__key="carver-esop")
    check_esop_distribution(m, {"commencement_date": start_date(AS_OF)}, AS_OF)  # the demo's data
    m.plan_data = {k: v for k, v in m.plan_data.items() if k != "vested_account_value"}
    m.save(update_fields=["plan_data"])
    with pytest.raises(ClaimInvalid) as err:
        check_esop_distribution(m, {"commencement_date": start_date(AS_OF)}, AS_OF)
    assert "cannot be worked out yet" in str(err.value.errors["claim_type"])
