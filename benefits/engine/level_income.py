"""A level-income form's two factors for many lives at once: the temporary life annuity paid until the
change and the life annuity deferred to it (``relative_value._apv``'s level-income branch).

``relative_value.relative_values_of_dates`` compares every date of a price grid; a plan with a
Social Security level-income option (carver-db) has one on most dates, and its scalar factors were
the comparison's largest single cost. Each factor here is the same float as the scalar call:
the temporary annuity sums the first payments of the life annuity's own cached discount and survival
vectors (the scalar path computes the same elements afresh on the shorter grid, and sums them with
the same ``dot``), and the deferred annuity is ``form_factors``' (element for element
``life_annuity(basis, age, deferral=years)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from benefits.engine.actuarial import (
    _EPS,
    Basis,
    Form,
    FractionalConvention,
    Timing,
    _grid,
    _grid_discount,
    _grid_survival,
    form_factors,
    temporary_life_annuity,
)
from benefits.engine.numpy_on_first_use import NumpyOnFirstUse

if TYPE_CHECKING:
    import numpy as np
else:
    np = NumpyOnFirstUse(globals())  # a plan without annuities never imports NumPy

_LIFE = Form.life()


def temporary_life_annuities(basis: Basis, ages: Sequence[float], years: Sequence[float]) -> list[float]:
    """``temporary_life_annuity(basis, ages[i], years[i])`` for each life (no deferral)."""
    if basis.convention is not FractionalConvention.UDD:  # the (m) correction: the scalar steps
        return [temporary_life_annuity(basis, a, y) for a, y in zip(ages, years, strict=True)]
    m, timing, table = basis.frequency, basis.timing, basis.table
    due = timing is Timing.DUE
    top = max(table.max_age, basis.beneficiary_table.max_age) + 1
    out: list[float] = []
    for age, term in zip(ages, years, strict=True):
        horizon = max(top - age, 0.0)  # ``_annuity``'s horizon without a certain period
        t = _grid(horizon, 0.0, m, timing)
        # ``_annuity`` keeps the payments before the term ends: a prefix of the grid (times grow)
        n = int(np.count_nonzero(t < term - _EPS if due else t <= term + _EPS))
        s = _grid_survival(table, age, horizon, 0.0, m, timing)[:n]
        out.append(float(np.dot(_grid_discount(basis.interest, horizon, 0.0, m, timing)[:n], s)) / m)
    return out


def deferred_life_annuities(basis: Basis, ages: Sequence[float], years: Sequence[float]) -> list[float]:
    """``life_annuity(basis, ages[i], deferral=years[i])`` for each life, one vectorized pass."""
    return form_factors(basis, _LIFE, ages, deferrals=years).tolist()  # type: ignore[no-any-return]
