"""The comparison basis made without ``Basis.__init__`` is the basis ``__init__`` makes: equal, the
same hash and repr, every field the same."""

from __future__ import annotations

import dataclasses

from benefits.engine.actuarial import Basis, FlatRate, SegmentRates
from benefits.engine.mortality import applicable_417e_table
from benefits.engine.relative_value import _basis


def test_the_fast_basis_is_the_dataclasss():
    table = applicable_417e_table(2026)
    for interest in (FlatRate(0.046), SegmentRates(0.0445, 0.052, 0.0585)):
        fast, made = _basis(table, interest, "a label"), Basis(table, interest, label="a label")
        assert fast == made and hash(fast) == hash(made) and repr(fast) == repr(made)
        assert {f.name: getattr(fast, f.name) for f in dataclasses.fields(Basis)} == {
            f.name: getattr(made, f.name) for f in dataclasses.fields(Basis)
        }
        assert dataclasses.replace(fast, label="") == dataclasses.replace(made, label="")
