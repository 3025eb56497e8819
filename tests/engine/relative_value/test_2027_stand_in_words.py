"""Issue 24: a 2027 annuity starting date says plainly that the 2026 §417(e)(3) table stands in."""

from datetime import date

from benefits.engine.relative_value import _table_for


def test_a_2027_asd_names_the_2026_table_standing_in():
    table, words = _table_for(date(2027, 3, 1))
    assert table.key == "irs_417e_2026"
    assert "the 2026 table stands in: the 2027 table is not loaded in the engine yet" in words


def test_a_2026_asd_uses_its_own_table_without_a_stand_in():
    table, words = _table_for(date(2026, 3, 1))
    assert table.key == "irs_417e_2026" and "stands in" not in words
