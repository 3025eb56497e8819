"""Cross-check against the independent implementation ``actuarialmath`` (same conventions).

Grid: ages 55–75, rates 3%–8%, annual due and immediate, four tables; also deferred, certain-and-
life and monthly (UDD) factors. Agreement required: 1e-7 relative (at least six significant digits).
Both sides treat q at the table's last age as 1 (nobody survives past it).
"""

from __future__ import annotations

import sys
import types
from functools import cache

import pytest

from benefits.engine.actuarial import (
    Timing,
    certain_and_life_annuity,
    life_annuities,
    life_annuity,
    plan_basis,
)
from benefits.engine.mortality import get_table

TABLES = ["up1984", "gatt1983_unisex", "gam1983_male", "irs_417e_2024"]
RATES = [0.03, 0.04, 0.05, 0.06, 0.07, 0.08]
AGES = list(range(55, 76))
REL = 1e-7


def _actuarialmath():
    # actuarialmath imports IPython for notebook display only; stub it when IPython is absent.
    try:
        import IPython  # noqa: F401
    except ImportError:
        ipy = types.ModuleType("IPython")
        disp = types.ModuleType("IPython.display")
        disp.display = disp.display_latex = disp.display_pretty = lambda *a, **k: None
        disp.Latex = disp.Markdown = lambda *a, **k: None
        ipy.display = disp
        ipy.get_ipython = lambda: None
        sys.modules.setdefault("IPython", ipy)
        sys.modules.setdefault("IPython.display", disp)
    return pytest.importorskip("actuarialmath")


@cache
def _life_table(key: str, rate: float):
    am = _actuarialmath()
    t = get_table(key)
    q = {a: t.q(a) for a in range(t.min_age, t.max_age + 1)}
    q[t.max_age] = 1.0
    return am.LifeTable().set_table(q=q).set_interest(i=rate)


@pytest.mark.parametrize("key", TABLES)
@pytest.mark.parametrize("rate", RATES)
def test_annual_due_and_immediate_grid(key, rate):
    lt = _life_table(key, rate)
    due = plan_basis(get_table(key), rate, frequency=1)
    imm = plan_basis(get_table(key), rate, frequency=1, timing=Timing.IMMEDIATE)
    vec_due = life_annuities(due, AGES)
    for i, age in enumerate(AGES):
        expected_due = lt.whole_life_annuity(age)
        assert life_annuity(due, age) == pytest.approx(expected_due, rel=REL)
        assert vec_due[i] == pytest.approx(expected_due, rel=REL)
        assert life_annuity(imm, age) == pytest.approx(lt.immediate_annuity(age), rel=REL)


@pytest.mark.parametrize("key", ["up1984", "irs_417e_2024"])
@pytest.mark.parametrize("rate", [0.03, 0.055, 0.08])
def test_deferred_and_certain_and_life(key, rate):
    lt = _life_table(key, rate)
    b = plan_basis(get_table(key), rate, frequency=1)
    for age in (55, 60, 65):
        for n in (5, 10):
            assert life_annuity(b, age, deferral=n) == pytest.approx(lt.deferred_annuity(age, u=n), rel=REL)
    for age in (60, 65, 70):
        for n in (5, 10, 15):
            assert certain_and_life_annuity(b, age, n) == pytest.approx(
                lt.certain_life_annuity(age, u=n), rel=REL
            )


@pytest.mark.parametrize("key", TABLES)
@pytest.mark.parametrize("rate", [0.03, 0.05, 0.08])
def test_monthly_udd(key, rate):
    am = _actuarialmath()
    udd = am.UDD(m=12, life=_life_table(key, rate))
    b = plan_basis(get_table(key), rate)  # monthly, due, UDD
    for age in (55, 62, 65, 70, 75):
        assert life_annuity(b, age) == pytest.approx(udd.whole_life_annuity(age), rel=REL)
