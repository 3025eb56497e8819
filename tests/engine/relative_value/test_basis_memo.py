"""Issue 29: the comparison bases kept between requests (``basis_memo``) are the bases formed afresh.

A grid's dates compared under market data written several ways (the same rates as "4.60", "4.6",
4.6 and Decimal("4.60"), whose words differ), in turn and twice each (the second time from the kept
bases): every date's basis, values, groups and note are what the date alone gives under that
writing. Nothing is kept while regulatory reads are recorded or a table is loaded as an input, nor
for market data a key cannot hold. A 2003-2007 ASD's table is the plan's reading of Rev. Rul.
2001-62: a basis kept under one reading is never given under another.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import Form
from benefits.engine.basis_memo import dates_memo, forget, memo_of
from benefits.engine.mortality import latest_417e_table, loaded_417e_tables, revrul_2001_62_reading
from benefits.engine.parameters import recorded_reads
from benefits.engine.relative_value import OptionalForm, relative_values, relative_values_of_dates

from .test_relative_values_of_dates import BIRTH, RULES, figures, grids, outcome

WRITINGS = ["text", "short", "float", "decimal"]


def rewritten(value, how):
    """A rate's percent written another way: the same number, another text or type."""
    if isinstance(value, list):
        return [rewritten(v, how) for v in value]
    if how == "short":
        return value.rstrip("0").rstrip(".") if "." in value else value
    if how == "float":
        return float(value)
    return Decimal(value)


def written_as(assumptions, how):
    """Market data (each key a map of months to rates) with every rate ``rewritten`` (as given: "text")."""
    if how == "text":
        return assumptions
    return {key: {m: rewritten(v, how) for m, v in months.items()} for key, months in assumptions.items()}


@settings(max_examples=40, deadline=None)
@given(grids(), st.lists(st.sampled_from(WRITINGS), min_size=1, max_size=4))
def test_a_kept_basis_is_the_basis_formed_afresh(grid, writings):
    dates, forms, married, assumptions = grid
    for how in writings:
        a = written_as(assumptions, how)
        for _ in range(2):  # the second pass reads the bases the first kept
            together = relative_values_of_dates(
                list(zip(dates, forms, strict=True)), birth_date=BIRTH, married=married, assumptions=a, rules=RULES
            )  # fmt: skip
            for d, options, rv in zip(dates, forms, together, strict=True):
                alone = outcome(
                    lambda d=d, options=options, a=a: relative_values(
                        options, birth_date=BIRTH, asd=d, married=married, assumptions=a, rules=RULES
                    )
                )
                got = (type(rv), str(rv)) if isinstance(rv, Exception) else rv
                assert figures(got) == figures(alone)


def test_nothing_is_kept_where_a_basis_may_not_be_reused():
    a = {"segment_rates": {"2029-10": ["4.45", "5.20", "5.85"]}}
    assert dates_memo(a, RULES, married=True, table=None) is not None
    with recorded_reads():
        assert dates_memo(a, RULES, married=True, table=None) is None
    with loaded_417e_tables({2027: latest_417e_table(2026)}):
        assert dates_memo(a, RULES, married=True, table=None) is None
    assert dates_memo({"segment_rates": {"2029-10": [[4.45]]}}, RULES, married=True, table=None) is None
    assert dates_memo({"segment_rates": {"2029-10": {4.45}}}, RULES, married=True, table=None) is None


def test_the_same_rates_written_differently_are_kept_apart():
    memos = [
        dates_memo({"treasury_30y_monthly": {"2029-10": v}}, RULES, married=True, table=None)
        for v in ("4.60", "4.6", 4.6, Decimal("4.60"), Decimal("4.6"))
    ]
    assert len({id(m) for m in memos}) == len(memos)
    again = dates_memo({"treasury_30y_monthly": {"2029-10": "4.60"}}, RULES, married=True, table=None)
    assert again is memos[0]
    assert (
        dates_memo({"treasury_30y_monthly": {"2029-10": "4.60"}}, RULES, married=False, table=None)
        is not again
    )


def test_a_basis_kept_under_one_reading_of_revrul_2001_62_is_not_given_under_another():
    """A 2005 ASD is valued on the Rev. Rul. 2001-62 table of the plan's reading (unloaded or loaded,
    confirmed or not): each reading in turn, twice, gives what the date alone gives under it."""
    forget()
    asd, spouse = date(2005, 6, 1), date(1964, 1, 1)
    forms = [
        OptionalForm("life", Form.life(), Decimal("1000.00")),
        OptionalForm("js50", Form.contingent(0.5), Decimal("900.00"), spouse),
    ]
    a = {"treasury_30y_monthly": {"2005-03": "4.75"}}
    seen = {}
    for reading in ("unloaded", "loaded", None, "loaded", "unloaded"):
        with revrul_2001_62_reading(reading):
            together = relative_values_of_dates(
                [(asd, forms)], birth_date=BIRTH, married=True, assumptions=a, rules=RULES
            )[0]
            alone = relative_values(
                forms, birth_date=BIRTH, asd=asd, married=True, assumptions=a, rules=RULES
            )
        assert figures(together) == figures(alone)
        seen[reading] = (together.basis.basis.table.name, together.values["life"].percent)
    # the readings' tables differ, and so does the life annuity's value against the QJSA
    assert seen["loaded"][0] != seen["unloaded"][0] != seen[None][0]
    assert seen["loaded"][1] != seen["unloaded"][1]


def test_each_reading_of_revrul_2001_62_keeps_its_own_bases():
    """Every memo (the comparison bases', carver-db's cash-out bases') is the reading's own."""
    a = {"treasury_30y_monthly": {"2005-03": "4.75"}}
    memos = {}
    for reading in ("unloaded", "loaded", None):
        with revrul_2001_62_reading(reading):
            memos[reading] = memo_of(("cash-out basis",), a, ("treasury_30y_monthly",))
            assert memo_of(("cash-out basis",), a, ("treasury_30y_monthly",)) is memos[reading]
    assert len({id(m) for m in memos.values()}) == 3
