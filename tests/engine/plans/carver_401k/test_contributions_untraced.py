"""Without traces a year's contributions skip the trace steps' words and arguments (issue 29, item 5):
the amounts (source by source, in the same order, every digit), the excess deferrals and any error
are the traced path's, over random years, pay, deferrals and employer contributions (§3.1, §3.2(c),
§3.4(a), §3.5, §3.6, §3.13)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.parameters import recorded_reads
from benefits.engine.plans.carver_401k.contributions import _year_traced, _year_untraced, year_contributions
from benefits.engine.plans.carver_401k.limits import _lookup
from benefits.engine.plans.carver_401k.settings import BenefitSettings
from benefits.engine.trace import traces_off

amounts = st.decimals(min_value=0, max_value=600000, places=3, allow_nan=False, allow_infinity=False)
cases = st.tuples(
    st.integers(1995, 2026),  # years the plan states limits for, the parameters' years, and none
    st.one_of(amounts, st.integers(0, 600000)),
    st.one_of(amounts, st.integers(0, 60000)),
    st.booleans(),
    st.booleans(),
    st.one_of(st.none(), st.decimals(min_value=-1, max_value=20, places=1, allow_nan=False)),
    st.one_of(st.none(), amounts),
    st.one_of(st.none(), st.sampled_from([Decimal("10500"), 19500, "23000"])),
    st.one_of(st.none(), st.sampled_from([Decimal("170000"), 330000])),
    st.builds(
        BenefitSettings,
        safe_harbor_2002_adopted=st.booleans(),
    ),
)


def _outcome(fn, args):
    try:
        yc = fn(*args)
    except Exception as exc:  # noqa: BLE001 - both must refuse the same way
        return type(exc), str(exc)
    return [(k, str(v)) for k, v in yc.amounts.items()], str(yc.excess_deferrals), yc.trace.as_list()


@settings(max_examples=400, deadline=None)
@given(cases)
def test_untraced_year_contributions_are_the_traced_figures(args):
    with traces_off():
        assert _outcome(_year_untraced, args) == _outcome(_year_traced, args)
        assert _outcome(lambda *a: year_contributions(a[0], a[1], a[2], employed_last_day=a[3],
                                                      nonelective_made=a[4], discretionary_percent=a[5],
                                                      special=a[6], irs_402g_limit=a[7], irs_comp_limit=a[8],
                                                      settings=a[9]), args) == _outcome(_year_traced, args)  # fmt: skip


@given(
    st.sampled_from(
        [
            "irs_401a17_compensation_limit",
            "irs_402g_elective_deferral_limit",
            "irs_415c_annual_additions_limit",
        ]
    ),
    st.lists(st.dates(date(1960, 1, 1), date(2060, 12, 31)), min_size=1, max_size=6),
)
def test_a_limit_looked_up_once_without_a_trace_is_the_recorded_lookup(name, days):
    def outcome(on):
        try:
            return str(_lookup(name, on))
        except Exception as exc:  # noqa: BLE001 - a limit not in force raises the same each time
            return type(exc), str(exc)

    for on in days:
        with recorded_reads():
            recorded = outcome(on)
        with traces_off():
            assert outcome(on) == recorded
            assert outcome(on) == recorded  # the memoized answer
