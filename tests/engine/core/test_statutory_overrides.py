"""The plan readings page can say where the statute overrides a plan's pre-2006 words (issue 12)."""

from __future__ import annotations

import pytest

from benefits.engine.overrides import statutory_overrides
from benefits.engine.plans import UnknownPlan, plan_keys


@pytest.mark.parametrize("key", ["carver-db", "quaker-cash-balance"])
def test_plans_with_30_year_treasury_words_list_the_ppa_override(key):
    (first, *_) = statutory_overrides(key)
    assert "30-year Treasury" in first.plan_words
    assert "§417(e)(3)" in first.citation and "2008" in first.effective


def test_every_plan_answers_and_an_unknown_plan_is_refused():
    for key in plan_keys():
        assert isinstance(statutory_overrides(key), tuple)
    with pytest.raises(UnknownPlan):
        statutory_overrides("no-such-plan")
