"""The whipsaw projection (GAP-3) of many commencement dates at once, for the one-pass path.

``estimates.projection_value`` for each date before NRD: the vested balance before the date rolled to
NRD with Interest Credits only (``projected_balance_before``, the same Decimal steps), converted to
the NRD life annuity on NRD's Applicable basis, and valued back at the date on the date's basis. The
roll-forward and the conversion are shared by the dates of one quarter with the same balance; the
deferred annuity factors of every date are one vectorized pass per basis (each the same float as
``life_annuity(basis, age, deferral=...)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from benefits.engine.actuarial import Form, form_factors, life_annuity
from benefits.engine.core import CoreResult
from benefits.engine.dates import months_between
from benefits.engine.money import to_decimal, to_money
from benefits.engine.types import Participant

from .annuity import age_at, applicable_basis
from .inputs import _settings, vested_amount
from .interest import projected_balance_before
from .market import MarketData, MarketDataError, Rate
from .pricing import DateRow


def projection_values(
    p: Participant, as_of: date, market: MarketData, core: CoreResult, rows: Sequence[DateRow]
) -> list[Decimal | None]:
    """Each row's projection value (None: on or after NRD, nothing vested, or the market data for
    it missing, as ``projection_value`` returns None)."""
    nrd = core.normal_retirement_date
    settings = _settings(core)

    def treasury(y: int) -> Rate:
        return market.treasury_rate(y, allow_estimate=y > as_of.year)

    at_nrd: dict[tuple[Decimal, date], Decimal | None] = {}  # (opening, quarter) → NRD monthly
    quarterly: dict[int, Decimal] = {}  # Plan Year → quarterly Interest Credit rate
    wanted: list[tuple[int, Decimal]] = []
    nrd_factor: list[Decimal] = []  # 12 × ä(12) at NRD on NRD's Applicable basis, formed once it can be
    for i, r in enumerate(rows):
        if r.basis is None or r.d >= nrd:
            continue
        # The balance before the ASD is the balance at the end of the previous quarter (§4.4(b)).
        start = date(r.d.year, 3 * ((r.d.month - 1) // 3) + 1, 1)
        key = (vested_amount(r.balance, r.percent), start)
        if key not in at_nrd:
            try:
                balance = projected_balance_before(
                    key[0],
                    start=start,
                    before=nrd,
                    treasury_rate=treasury,
                    settings=settings,
                    quarterly=quarterly,
                )
                if not nrd_factor:
                    basis = applicable_basis(nrd, market)
                    nrd_factor.append(12 * to_decimal(life_annuity(basis.basis, age_at(p.birth_date, nrd))))
                # ``balance_to_life_annuity(balance, start=nrd, ...).monthly``, without its trace step
                at_nrd[key] = to_money(to_decimal(balance) / nrd_factor[0])
            except MarketDataError:
                at_nrd[key] = None
        monthly = at_nrd[key]
        if monthly is not None:
            wanted.append((i, monthly))
    factors = _deferred_factors(rows, [i for i, _ in wanted], nrd)
    out: list[Decimal | None] = [None] * len(rows)
    for (i, monthly), factor in zip(wanted, factors, strict=True):
        out[i] = to_money(to_decimal(monthly) * 12 * to_decimal(factor))  # ``deferred_annuity_value``
    return out


def _deferred_factors(rows: Sequence[DateRow], idx: list[int], nrd: date) -> list[float]:
    """``_Factors().by_basis`` of the rows ``idx`` (each row's life annuity at its age, deferred to
    NRD), the rows grouped by their basis object rather than by its field-by-field hash (the rows of
    one basis share the object; equal bases under two objects are priced apart, to the same floats)."""
    groups: dict[int, list[int]] = {}
    for i in idx:
        groups.setdefault(id(rows[i].basis.basis), []).append(i)  # type: ignore[union-attr]
    out: dict[int, float] = {}
    for members in groups.values():
        basis = rows[members[0]].basis.basis  # type: ignore[union-attr]
        values = form_factors(
            basis,
            _LIFE,
            [rows[i].age for i in members],
            deferrals=[months_between(rows[i].d, nrd) / 12.0 for i in members],
        )
        for i, v in zip(members, values.tolist(), strict=True):
            out[i] = v
    return [out[i] for i in idx]


_LIFE = Form.life()
