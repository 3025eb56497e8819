"""The one pass's forms (``grid_forms.GridForms``: amounts in lists, each ``FormAmount`` made when
read) are the dict of ``FormAmount`` the scalar path makes, key for key and in order, and the
contract writes the same form objects, survivors' amounts and strings from either."""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.plans.quaker_cash_balance.contract import _forms_json
from benefits.engine.plans.quaker_cash_balance.forms import (
    CERTAIN_FORMS,
    FORM_NAMES,
    SURVIVOR_FORMS,
    FormAmount,
)
from benefits.engine.plans.quaker_cash_balance.grid_forms import GridForms

KEYS = ["life", *CERTAIN_FORMS, *SURVIVOR_FORMS]
amounts = st.decimals(min_value=-(10**7), max_value=10**7, places=2, allow_nan=False, allow_infinity=False)


@st.composite
def priced(draw):
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=len(KEYS)))
    monthly = [draw(amounts) for _ in keys]
    survivors = [draw(st.one_of(st.none(), amounts)) if k in SURVIVOR_FORMS else None for k in keys]
    lump = draw(st.one_of(amounts, st.decimals(allow_nan=False, allow_infinity=False)))
    return keys, monthly, survivors, lump


def eager(keys, monthly, survivors, lump):
    """The forms as ``FormAmount``s made one by one (the scalar path's dict)."""
    out = {
        k: FormAmount(k, FORM_NAMES[k], monthly=m, survivor_monthly=s)
        for k, m, s in zip(keys, monthly, survivors, strict=True)
    }
    out["lump_sum"] = FormAmount("lump_sum", "Lump sum", lump_sum=lump)
    return out


@given(priced())
def test_grid_forms_are_the_scalar_paths_forms_and_json(forms):
    keys, monthly, survivors, lump = forms
    grid = GridForms((*keys, "lump_sum"), monthly, survivors, lump)
    plain = eager(keys, monthly, survivors, lump)
    assert dict(grid) == plain and list(grid) == list(plain) and len(grid) == len(plain)
    assert grid == plain and all(k in grid for k in plain) and "js75" not in grid
    assert [grid[k] for k in plain] == list(plain.values())
    written, written_plain = [], []
    assert grid.contract_json(written) == _forms_json(grid, []) == _forms_json(plain, written_plain)
    assert written == written_plain
    assert copy.deepcopy(grid) == plain and type(copy.copy(grid)) is dict
    assert pickle.loads(pickle.dumps(grid)) == plain  # noqa: S301 - its own bytes


def test_grid_forms_are_read_only_and_refuse_a_misshapen_list():
    grid = GridForms(("life", "lump_sum"), [Decimal("10.00")], [None], Decimal("1000.00"))
    with pytest.raises(TypeError):
        grid["life"] = None  # type: ignore[index]
    for keys, monthly in ((("life",), [Decimal(1)]), (("life", "life", "lump_sum"), [Decimal(1)] * 2)):
        with pytest.raises(ValueError, match="lump sum"):
            GridForms(keys, monthly, [None] * len(monthly), Decimal(1))
