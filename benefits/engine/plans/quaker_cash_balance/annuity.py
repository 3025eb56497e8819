"""Conversion of the Cash Balance Account into a monthly annuity (§1.2(g), §5.3(a), §5.5(b), §5.9).

§1.2(g): the monthly benefit is the balance times "the actuarial equivalency factor" for a benefit
payable on the first day of each month for life, on (i) the Applicable Interest Rate (the 30-year
Treasury rate for the 2nd month before the distribution, §1.2(e)) and (ii) the Applicable Mortality
Table (§1.2(f)). Monthly benefit = balance / (12 · ä(12)x). There is no separate early-retirement
reduction: an earlier start simply has a larger factor.

Conventions the plan leaves open (GAP-5), as in the SPEC's examples: the age is exact in completed
years and months at the ASD, survival between integer ages is UDD, the rate is annual effective, and
the monthly benefit is rounded half up to the cent. The factor math is the shared ``actuarial`` module.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache, lru_cache
from typing import cast

from benefits.engine.actuarial import Basis, FlatRate, life_annuity
from benefits.engine.dates import age_in_years_months, months_between
from benefits.engine.money import to_decimal, to_money
from benefits.engine.mortality import (
    LAST_417E_YEAR,
    REVRUL_2001_62_TABLES,
    MortalityTable,
    TableNotAvailable,
    applicable_417e_table,
    blend,
    get_table,
    latest_417e_table,
    loaded_417e_signature,
    revrul_2001_62_state,
    revrul_2001_62_table,
)
from benefits.engine.parameters import current_reads, replaying_reads
from benefits.engine.trace import Trace, money, recording
from benefits.engine.trace import factor as factor_of

from .market import MarketData, Rate

# The SPEC's assumption A3: Rev. Rul. 95-6 computed as 50% 1983 GAM male + 50% female, unrounded.
GAM83_BLEND = "gam1983_50_50_blend"
TABLE_ALIASES = {"rev-rul-95-6": GAM83_BLEND}


@cache
def mortality_table(key: str) -> MortalityTable:
    """A table by catalog key, or the computed 1983 GAM 50/50 blend of the SPEC's examples."""
    key = TABLE_ALIASES.get(key, key)
    if key == GAM83_BLEND:
        return blend(
            get_table("gam1983_male"),
            get_table("gam1983_female"),
            0.5,
            key=GAM83_BLEND,
            name="Rev. Rul. 95-6 (50% 1983 GAM male / 50% female, computed)",
        )
    return get_table(key)


def age_at(birth_date: date, on: date) -> float:
    """Exact age in completed years and months (GAP-5 reading), as a fraction of years."""
    return age_in_years_months(birth_date, on)


def age_words(birth_date: date, on: date) -> str:
    m = months_between(birth_date, on)
    return f"{m // 12}y {m % 12}m"


@dataclass(frozen=True)
class ApplicableBasis:
    """The §1.2(d)-(g) basis for a distribution date: AIR and the Applicable Mortality Table."""

    basis: Basis
    rate: Rate
    table: MortalityTable

    def describe(self) -> str:
        # Worked out once for the instance (a census shares one a date: ``applicable_basis``).
        text = self.__dict__.get("_described")
        if text is None:
            text = f"{self.table.name} at {self.rate.value * 100:.2f}% ({self.rate.source})"
            object.__setattr__(self, "_described", text)
        return cast(str, text)


@lru_cache(maxsize=2048)
def _basis(table_key: str, rate: Decimal) -> Basis:
    table = mortality_table(table_key)
    return Basis(table, FlatRate(float(rate)), label=f"{table.name} at {rate * 100:.2f}%")


def applicable_basis(distribution: date, market: MarketData) -> ApplicableBasis:
    """AIR for the 2nd month before ``distribution`` (§1.2(e)) and the table in force (§1.2(f)).

    With no reads recorded and no table loaded as an input, the one answer for the market data, the
    date and the plan's Rev. Rul. 2001-62 reading is made once (a census asks for the same NRDs)."""
    if current_reads() is None and not loaded_417e_signature():
        key = ("applicable basis", distribution, revrul_2001_62_state())
        return market.derived(key, lambda: _applicable_basis(distribution, market))
    return _applicable_basis(distribution, market)


def _applicable_basis(distribution: date, market: MarketData) -> ApplicableBasis:
    rate = market.applicable_interest_rate_for(distribution)
    if market.applicable_mortality_table:
        basis = _basis(market.applicable_mortality_table, rate.value)
    else:
        reading, confirmed = revrul_2001_62_state()
        key = _table_in_force(distribution, reading, confirmed, loaded_417e_signature())
        if key in REVRUL_2001_62_TABLES.values():  # named with the plan's reading and its status
            basis = _table_basis(revrul_2001_62_table(reading, confirmed), rate.value)
        elif key.endswith("_loaded"):  # a table loaded as an input (its name says which version)
            try:
                table = applicable_417e_table(distribution, record=False)
            except TableNotAvailable:  # a later year than any loaded: the latest loaded one stands in
                table = latest_417e_table(distribution.year)
            basis = _table_basis(table, rate.value)
        else:
            basis = _basis(key, rate.value)
    return ApplicableBasis(basis, rate, basis.table)


@lru_cache(maxsize=512)
def _table_basis(table: MortalityTable, rate: Decimal) -> Basis:
    return Basis(table, FlatRate(float(rate)), label=f"{table.name} at {rate * 100:.2f}%")


@replaying_reads  # the same few NRDs and ASDs recur across a census
def _table_in_force(
    distribution: date,
    reading: str = "unloaded",
    confirmed: bool = False,
    loaded: tuple[tuple[int, str], ...] = (),
) -> str:
    """§1.2(f), §8.20: the table prescribed for the ASD (recorded in the trace); for an ASD beyond
    the last table published, the latest one (a projection, GAP-4). A date with no table (before
    1995) is an error, never a neighbouring table; the Rev. Rul. 2001-62 years take the plan's reading.
    ``reading``, ``confirmed`` (the plan's reading of Rev. Rul. 2001-62) and ``loaded`` (the tables
    loaded as inputs) are arguments so the memo keeps one answer per table choice."""
    try:
        return applicable_417e_table(distribution).key
    except TableNotAvailable:
        if distribution.year <= LAST_417E_YEAR:
            raise
        return latest_417e_table(distribution.year).key


@dataclass(frozen=True)
class LifeAnnuity:
    """A monthly life annuity bought by an account balance on the §1.2(g) basis."""

    balance: Decimal
    start: date
    age: float
    factor: float  # ä(12) at the age: APV of 1 a year paid monthly in advance
    monthly: Decimal
    basis: str
    trace: Trace


def balance_to_life_annuity(
    balance: Decimal,
    *,
    birth_date: date,
    start: date,
    basis: ApplicableBasis,
    section: str = "§1.2(g)",
    what: str = "monthly life annuity",
) -> LifeAnnuity:
    """``balance`` / (12 · ä(12)) at the exact age on ``start``, rounded to the cent."""
    age = age_at(birth_date, start)
    factor = life_annuity(basis.basis, age)
    monthly = to_money(to_decimal(balance) / (12 * to_decimal(factor)))
    described = basis.describe()
    trace = Trace()
    if recording():  # the step's words only for a trace that keeps them
        trace = trace.add(
            f"Convert the account to a {what}: balance ÷ (12 × annuity factor)",
            section=section,
            result=money(monthly),
            balance=money(balance),
            start=start,
            age=age_words(birth_date, start),
            annuity_factor=factor_of(round(factor, 6), 6),
            basis=described,
        )
    return LifeAnnuity(balance, start, age, factor, monthly, described, trace)
