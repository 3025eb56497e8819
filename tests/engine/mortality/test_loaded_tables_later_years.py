"""Issue 24: once the 2027 §417(e)(3) table is loaded, a start in a later year not yet loaded stands on
the 2027 table (the latest), and says so, as a 2027 start stood on the 2026 table before."""

from __future__ import annotations

from tests.engine.mortality.test_loaded_tables import PARTICIPANT, _quaker, _spec


def test_a_2028_start_stands_on_the_loaded_2027_table():
    later = dict(PARTICIPANT, commencement_dates=["2028-04-01"])
    import tests.engine.mortality.test_loaded_tables as base

    saved, base.PARTICIPANT = base.PARTICIPANT, later
    try:
        r = _quaker({"mortality_417e_tables": _spec()})
    finally:
        base.PARTICIPANT = saved
    # nothing is blocked (the segment rates' absence only falls back to the plan's rate)
    assert "error" not in r and not any(m["blocks"] for m in r.get("missing", [])), r.get("missing")
    (est,) = r["estimates"]
    mortality = est["relative_value_basis"]["mortality"]
    assert "IRS 2027 §417(e)(3) applicable mortality table as loaded" in mortality
    assert "the 2027 table stands in: the 2028 table is not loaded" in mortality
    assert "IRS 2027 §417(e)(3) applicable mortality table as loaded" in str(
        r["traces"]["estimates[0].forms.life"]
    )
