"""The comparison basis made without ``Basis.__init__`` is the basis ``__init__`` makes, and an
optional form made without ``OptionalForm.__init__`` the one it makes: equal, the same hash and repr,
every field the same."""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal

from benefits.engine.actuarial import Basis, FlatRate, Form, SegmentRates
from benefits.engine.mortality import applicable_417e_table
from benefits.engine.relative_value import OptionalForm, _basis, optional_form


def test_the_fast_basis_is_the_dataclasss():
    table = applicable_417e_table(2026)
    for interest in (FlatRate(0.046), SegmentRates(0.0445, 0.052, 0.0585)):
        fast, made = _basis(table, interest, "a label"), Basis(table, interest, label="a label")
        assert fast == made and hash(fast) == hash(made) and repr(fast) == repr(made)
        assert {f.name: getattr(fast, f.name) for f in dataclasses.fields(Basis)} == {
            f.name: getattr(made, f.name) for f in dataclasses.fields(Basis)
        }
        assert dataclasses.replace(fast, label="") == dataclasses.replace(made, label="")


def test_the_fast_optional_form_is_the_dataclasss():
    args = ("ss_level", Form.life(), Decimal("812.40"), date(1965, 3, 1), Decimal("402.10"), 37)
    made, made_by_init = optional_form(*args), OptionalForm(*args)
    assert made == made_by_init and repr(made) == repr(made_by_init) and hash(made) == hash(made_by_init)
    assert vars(made) == vars(made_by_init)
    assert optional_form("life", Form.life(), Decimal(1)) == OptionalForm("life", Form.life(), Decimal(1))
