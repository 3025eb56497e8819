"""Table A: the plan's fixed adjustment factors, and the forms of payment (§7.1–§7.3, §8.1–§8.3).

No interest or mortality basis is stated for these conversions: the plan uses Table A's fixed
factors (SPEC §7). Every form amount is the Life-No Death Benefit amount times a factor (§8.1, §8.2:
"assuming the normal form described in Section 7.2 is effective").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from benefits.engine.actuarial import Basis, Form, form_factor, form_factors, life_annuity, plan_basis
from benefits.engine.dates import age_on_birthday_in_year, completed_age, full_years_between, months_between
from benefits.engine.life_expectancy import TableNotInForce, single_life_expectancy, single_life_source
from benefits.engine.money import to_decimal, to_money, to_money_down
from benefits.engine.numpy_on_first_use import NumpyOnFirstUse
from benefits.engine.trace import Step, Trace, money, money_step, recording
from benefits.engine.trace import factor as factor_of
from benefits.engine.trace import years as years_of

from .settings import DEFAULT_SETTINGS, BenefitSettings

if TYPE_CHECKING:
    import numpy as np
else:
    np = NumpyOnFirstUse(globals())

CENT_FACTOR = Decimal("0.01")
ONE = Decimal(1)

# Table A, "Early Commencement Adjustment Factor" (also the "Social Security Option Adjustment
# Factor"): years prior to Normal Retirement Date → factor. Year 0 (at NRD) is 1.00 by implication.
EARLY_FACTORS = tuple(
    Decimal(x) for x in ("1.00", ".93", ".86", ".79", ".72", ".65", ".62", ".59", ".56", ".53", ".50")
)
# Table A, "Late Retirement Adjustment Factor", years after NRD (not beyond December 31, 2000).
LATE_FACTORS = tuple(
    Decimal(x)
    for x in ("1.00", "1.08", "1.17", "1.27", "1.38", "1.50", "1.63", "1.77", "1.92", "2.08", "2.25")
)

# Table A, J&S and Contingent Pensioner Option factors by "Age of Participant" band.
JS_PERCENTS = ("50", "66", "100")
_JS_TABLE = {
    0: {"50": Decimal(".92"), "66": Decimal(".89"), "100": Decimal(".85")},  # less than 55
    55: {"50": Decimal(".91"), "66": Decimal(".88"), "100": Decimal(".84")},
    60: {"50": Decimal(".90"), "66": Decimal(".87"), "100": Decimal(".82")},
    65: {"50": Decimal(".89"), "66": Decimal(".86"), "100": Decimal(".81")},  # 65 and over
}
JS_MAXIMUM = Decimal(".98")
SURVIVOR_SHARE = {"50": Decimal("0.5"), "66": Decimal(2) / Decimal(3), "100": Decimal(1)}

# Table A, Years Certain and Life Option factors by "Age of Benefit Commencement".
CERTAIN_YEARS = (5, 10, 15, 20)
_CC_TABLE = {
    0: {5: Decimal(".99"), 10: Decimal(".98"), 15: Decimal(".95"), 20: Decimal(".92")},
    55: {5: Decimal(".98"), 10: Decimal(".97"), 15: Decimal(".93"), 20: Decimal(".89")},
    60: {5: Decimal(".97"), 10: Decimal(".95"), 15: Decimal(".90"), 20: Decimal(".85")},
    65: {5: Decimal(".96"), 10: Decimal(".93"), 15: Decimal(".87"), 20: Decimal(".79")},
}


def _band(age: int) -> int:
    return 65 if age >= 65 else 60 if age >= 60 else 55 if age >= 55 else 0


def _interpolate(table: tuple[Decimal, ...], months: int, settings: BenefitSettings) -> Decimal:
    """Linear by month between whole-year factors, rounded to the nearest .01 half up (GAP-6)."""
    years, rest = divmod(months, 12)
    if years >= len(table) - 1:
        if years == len(table) - 1 and rest == 0:
            return table[-1]
        raise ValueError(
            f"{months} months is beyond Table A's 10 years; the plan gives no factor (refer, GAP-6)"
        )
    value = table[years] + (table[years + 1] - table[years]) * Decimal(rest) / 12
    return (
        value.quantize(CENT_FACTOR, rounding=ROUND_HALF_UP) if settings.round_interpolated_factors else value
    )


def table_a_places(settings: BenefitSettings) -> int:
    """The places a Table A factor is shown to: .01 as the plan states it; six when the interpolated
    factors are left unrounded (GAP-6)."""
    return 2 if settings.round_interpolated_factors else 6


def early_factor(months_before_nrd: int, settings: BenefitSettings = DEFAULT_SETTINGS) -> Decimal:
    """Early Commencement Adjustment Factor for a start ``months_before_nrd`` months before NRD."""
    if months_before_nrd <= 0:
        return ONE
    return _interpolate(EARLY_FACTORS, months_before_nrd, settings)


def late_factor(months_after_nrd: int, settings: BenefitSettings = DEFAULT_SETTINGS) -> Decimal:
    """Late Retirement Adjustment Factor for ``months_after_nrd`` (counted no later than 12/31/2000)."""
    if months_after_nrd <= 0:
        return ONE
    return _interpolate(LATE_FACTORS, months_after_nrd, settings)


def js_factor(
    participant_birth: date, annuitant_birth: date, retirement_date: date, percent: str
) -> tuple[Decimal, Trace]:
    """J&S / Contingent Pensioner factor: the band of the participant's completed age on the
    Retirement Date, less (plus) .01 for each full year the annuitant is younger (older) by more
    than 3, at most .98 (Table A footnote; GAP-9 readings)."""
    age = completed_age(participant_birth, retirement_date)
    diff = full_years_between(participant_birth, annuitant_birth)
    return _js_factor_at(age, diff, annuitant_birth > participant_birth, percent)


def _js_factor_at(age: int, diff: int, younger: bool, percent: str) -> tuple[Decimal, Trace]:
    """``js_factor`` from the participant's completed age and the full years apart (a date's forms
    work them out once)."""
    base = _JS_TABLE[_band(age)][percent]
    factor = _js_adjusted(base, diff, younger)
    trace = _table_a_step(
        ("js", percent, age, diff, younger),
        lambda: Trace().add(
            f"Joint and Survivor / Contingent Pensioner factor for {percent}% continuation: the age band "
            "factor, adjusted .01 for each full year the joint annuitant is younger (older) than the "
            "participant by more than 3 years, at most .98",
            section="Table A, §3.3(A), §8.1",
            result=factor_of(factor, 2),
            participant_age=age,
            band_factor=factor_of(base, 2),
            years_apart=diff,
            annuitant_is_younger=younger,
        ),
    )
    return factor, trace


def _js_adjusted(base: Decimal, years_apart: int, annuitant_is_younger: bool) -> Decimal:
    steps = Decimal(max(0, years_apart - 3)) * CENT_FACTOR
    return min(base - steps if annuitant_is_younger else base + steps, JS_MAXIMUM)


def certain_factor(participant_birth: date, retirement_date: date, years: int) -> tuple[Decimal, Trace]:
    """Years Certain and Life Option factor by age at benefit commencement (Table A)."""
    return _certain_factor_at(completed_age(participant_birth, retirement_date), years)


def _certain_factor_at(age: int, years: int) -> tuple[Decimal, Trace]:
    """``certain_factor`` from the completed age at commencement."""
    factor = _CC_TABLE[_band(age)][years]
    trace = _table_a_step(
        ("cc", years, age),
        lambda: Trace().add(
            f"Life and {years} Years Certain factor for age {age} at commencement",
            section="Table A, §8.2",
            result=factor_of(factor, 2),
        ),
    )
    return factor, trace


# A Table A factor's step for what determines it (the form, the age, the years apart): the same
# step for every date and participant with those, made once (``_table_a_step``).
_TABLE_A_STEPS: dict[tuple[object, ...], Step] = {}


def _table_a_step(key: tuple[object, ...], make: Callable[[], Trace]) -> Trace:
    """``make()``: a one-step trace that reads no regulatory value and depends on ``key`` alone,
    its step made once and shared (a traced request of 181 dates asks for each a dozen times)."""
    if not recording():
        return make()
    step = _TABLE_A_STEPS.get(key)
    if step is None:
        trace = make()
        if len(_TABLE_A_STEPS) >= 4096:
            _TABLE_A_STEPS.clear()
        _TABLE_A_STEPS[key] = trace.steps[0]
        return trace
    return Trace((step,))


def longest_certain_period(participant_birth: date, retirement_date: date) -> tuple[Decimal | None, Trace]:
    """§7.8(C): "a period certain not extending beyond the life expectancy of the Participant". The
    life expectancy is the Single Life Table's (Treas. Reg. §1.401(a)(9)-9; §7.9 applies the
    §401(a)(9) regulations from 2001) at the age on the birthday in the year payments start. None
    when the table in force on the date is not held (before 2002): no period is refused then."""
    age = age_on_birthday_in_year(participant_birth, retirement_date.year)
    try:
        le = single_life_expectancy(age, retirement_date)
    except TableNotInForce as exc:
        return None, Trace().add(
            "The years certain are not checked against the life expectancy: " + str(exc),
            section="§7.8(C)",
            result=None,
        )
    source = single_life_source(retirement_date)
    return le, _table_a_step(  # the same step for every date of the year (it reads no parameter)
        ("life expectancy", age, retirement_date.year, str(le), source),
        lambda: Trace().add(
            f"Life expectancy at age {age} (the age on the birthday in {retirement_date.year}): no Years "
            "Certain and Life Option longer than this is offered",
            section=f"§7.8(C), §7.9; {source}",
            result=years_of(le),
            age=age,
        ),
    )


# §6.1(C)(3): a form other than the Life-No Death Benefit and the Joint and Survivor form is tested as
# the greater of its Life-No Death equivalent on the plan's factors and on 5% with the GATT table.
# On the plan's factors every form is the (already limited) life amount × its Table A factor, so the
# binding test is the 5%/GATT one: the form's amount may not exceed the limit × ä(life) ÷ ä(form).
LIMIT_RATE = 0.05


@lru_cache(maxsize=1)
def gatt_basis() -> Basis:
    from benefits.engine.mortality import get_table

    return plan_basis(get_table("gatt1983_unisex"), LIMIT_RATE, label="GATT (1983 GAM 50/50) at 5%")


# limit_ratio's answers: (form key, age in months, annuitant's age in months) → ratio. Bounded like
# the lru_cache it replaces; a plain dict so that a request's dates can be priced into it together.
_LIMIT_RATIOS: dict[tuple[str, int, int | None], float] = {}
_LIMIT_RATIOS_MAX = 65536


def _limit_form(key: str) -> Form:
    return (
        Form.certain_and_life(int(key[2:]))
        if key.startswith("cc")
        else Form.contingent(SURVIVOR_SHARE[key[2:]])
    )


def limit_ratio(key: str, age_m: int, annuitant_m: int | None) -> float:
    """ä(life) ÷ ä(form) at 5% on the GATT table, at exact ages in months (``js*`` for a Contingent
    Pensioner, ``cc*`` for years certain)."""
    hit = _LIMIT_RATIOS.get((key, age_m, annuitant_m))
    if hit is None:
        basis = gatt_basis()
        age = age_m / 12.0
        spouse = None if key.startswith("cc") or annuitant_m is None else annuitant_m / 12.0
        hit = life_annuity(basis, age) / form_factor(basis, _limit_form(key), age, spouse)
        _remember(key, age_m, annuitant_m, hit)
    return hit


def _remember(key: str, age_m: int, annuitant_m: int | None, ratio: float) -> None:
    if len(_LIMIT_RATIOS) >= _LIMIT_RATIOS_MAX:
        _LIMIT_RATIOS.clear()
    _LIMIT_RATIOS[(key, age_m, annuitant_m)] = ratio


def prime_limit_ratios(
    participant_birth: date, annuitant_birth: date | None, married: bool, dates: Sequence[date]
) -> None:
    """Put every ``limit_ratio`` the §6.1(C)(3) test will ask for on ``dates`` into its memo, each
    form's ratios in one NumPy pass (``form_factors``: every element the scalar factor to the last
    bit, so the memo holds what ``limit_ratio`` would compute). Only a cache: an age the tables do
    not cover, or a factor of zero, is left to the scalar call (and its error)."""
    basis = gatt_basis()
    keys = [f"cc{years}" for years in CERTAIN_YEARS]
    if annuitant_birth is not None and not married:
        keys += [f"js{pct}" for pct in JS_PERCENTS]
    lives: dict[tuple[int, int | None], None] = {}
    for d in dates:
        age_m = months_between(participant_birth, d)
        spouse_m = None if annuitant_birth is None else months_between(annuitant_birth, d)
        if age_m >= basis.table.min_age * 12 and (
            spouse_m is None or spouse_m >= basis.beneficiary_table.min_age * 12
        ):
            lives[(age_m, spouse_m)] = None
    todo = [life for life in lives if any((k, *life) not in _LIMIT_RATIOS for k in keys)]
    if len(todo) < 2:  # nothing to share: the scalar call is as quick
        return
    ages = np.array([a for a, _ in todo], dtype=np.float64) / 12.0
    shared: dict[tuple[object, ...], np.ndarray] = {}  # one survival matrix for every form
    life = form_factors(basis, Form.life(), ages, survival_cache=shared)
    for key in keys:
        spouses = None
        if key.startswith("js"):
            spouses = np.array([s for _, s in todo], dtype=np.float64) / 12.0
        factors = form_factors(basis, _limit_form(key), ages, spouses, survival_cache=shared)
        for (age_m, spouse_m), num, den in zip(todo, life.tolist(), factors.tolist(), strict=True):
            if den != 0.0 and np.isfinite(num) and np.isfinite(den):
                _remember(key, age_m, spouse_m, num / den)


def limit_tested(key: str, married: bool) -> bool:
    """Forms §6.1(C)(3) converts before the limit: not the life form, not the Spouse's Joint and
    Survivor forms (§7.1; Code §415(b)(2)(B) leaves a QJSA's survivor portion out), and not the
    Social Security Option (its test needs the GATT Applicable Interest Rate: Enrolled Actuary)."""
    if key in ("life", "ss_level"):
        return False
    return not (key.startswith("js") and married)


def form_limit_annual(
    limit_annual: Decimal,
    key: str,
    *,
    participant_birth: date,
    retirement_date: date,
    annuitant_birth: date | None,
) -> Decimal:
    """The most form ``key`` may pay a year under §6.1(C)(3): the limit converted on 5%/GATT, in
    whole cents a month (rounded down)."""
    return _form_cap(
        limit_annual,
        key,
        months_between(participant_birth, retirement_date),
        months_between(annuitant_birth, retirement_date) if annuitant_birth is not None else None,
    )


def _form_cap(limit_annual: Decimal, key: str, age_m: int, annuitant_m: int | None) -> Decimal:
    """``form_limit_annual`` at the ages in months on the date (worked out once for a date's forms):
    to_money_down(limit × to_decimal(ratio) / 12) × 12."""
    return to_money_down(limit_annual * to_decimal(limit_ratio(key, age_m, annuitant_m)) / 12) * 12


def _hold_to_limit(
    forms: dict[str, FormAmount],
    limit_annual: Decimal,
    *,
    married: bool,
    participant_birth: date,
    retirement_date: date,
    annuitant_birth: date | None,
    traced: bool,
) -> None:
    """§6.1(C)(3): each form the test applies to (``limit_tested``) held, in ``forms``, to the §415
    limit converted to it; ``traced``: the reduction is a step of the form's trace."""
    age_m = months_between(participant_birth, retirement_date)
    annuitant_m = months_between(annuitant_birth, retirement_date) if annuitant_birth is not None else None
    for key, f in list(forms.items()):
        if not limit_tested(key, married):
            continue
        cap = _form_cap(limit_annual, key, age_m, annuitant_m)
        if f.annual <= cap:
            continue
        trace = f.trace
        if traced:
            trace = trace.with_step(
                money_step(
                    "Reduced to the Code §415 limit converted to this form: the limit × life annuity "
                    "factor ÷ form factor, at 5% with the GATT mortality table",
                    "§6.1(C)(3), Table A (GATT)",
                    cap,
                    annual_limit=limit_annual,
                    before_limit=f.annual,
                )
            )
        survivor_annual = None if f.survivor_share is None else cap * f.survivor_share
        forms[key] = replace(f, annual=cap, trace=trace, survivor_annual=survivor_annual)


@dataclass(frozen=True)
class FormAmount:
    """One form's annual amount (full precision) and its monthly payment (rounded to cents)."""

    form: str
    annual: Decimal
    factor: Decimal
    trace: Trace
    survivor_annual: Decimal | None = None  # J&S / contingent forms: what continues to the survivor
    annual_after: Decimal | None = None  # level income option: the reduced amount after SS starts
    note: str = ""
    survivor_share: Decimal | None = None  # J&S / contingent forms: the continuation percentage

    def with_trace(self, trace: Trace) -> FormAmount:
        """This form with ``trace``: ``dataclasses.replace(self, trace=trace)`` without re-running
        ``__init__`` field by field (every form of every date of a traced request makes one). The
        figures are the same, so a ``monthly`` already worked out is kept."""
        other = object.__new__(FormAmount)
        other.__dict__.update(self.__dict__)
        other.__dict__["trace"] = trace
        return other

    @staticmethod
    def quick(
        form: str,
        annual: Decimal,
        factor: Decimal,
        trace: Trace,
        survivor_annual: Decimal | None = None,
        annual_after: Decimal | None = None,
        note: str = "",
        survivor_share: Decimal | None = None,
    ) -> FormAmount:
        """``FormAmount(…)`` without the frozen dataclass's field-by-field ``__init__`` (both paths
        make one for every form of every date); the same fields, so an equal object."""
        other = object.__new__(FormAmount)
        other.__dict__.update(
            form=form,
            annual=annual,
            factor=factor,
            trace=trace,
            survivor_annual=survivor_annual,
            annual_after=annual_after,
            note=note,
            survivor_share=survivor_share,
        )
        return other

    @cached_property  # read for the result, the survivor's amount and the relative value
    def monthly(self) -> Decimal:
        return to_money(self.annual / 12)

    @property
    def monthly_after(self) -> Decimal | None:
        from benefits.engine.money import to_money

        return None if self.annual_after is None else to_money(self.annual_after / 12)

    @property
    def survivor_monthly(self) -> Decimal | None:
        """What the Spouse / Contingent Pensioner receives a month after the participant's death:
        the continuation percentage of the participant's monthly payment (§7.1, §8.1)."""
        from benefits.engine.money import to_money

        return None if self.survivor_share is None else to_money(self.monthly * self.survivor_share)


def form_amounts(
    life_annual: Decimal,
    *,
    participant_birth: date,
    retirement_date: date,
    married: bool,
    annuitant_birth: date | None,
    nrd: date,
    ss_option_amount: Decimal | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
    limit_annual: Decimal | None = None,
) -> dict[str, FormAmount]:
    """Every form the plan offers on a Retirement Date, from the Life-No Death Benefit amount.

    ``annuitant_birth`` is the Spouse's birth date for a married participant (J&S, §7.1) or a
    Contingent Pensioner's (§8.1) for an unmarried one; without it no joint form is priced.
    ``limit_annual``: the §415 limit the life amount was held to; every other form is held to it
    converted (§6.1(C)(3)). Years certain beyond the life expectancy are not offered (§7.8(C)).
    """
    forms: dict[str, FormAmount] = {}
    life_trace = Trace().with_step(
        money_step(
            "Life-No Death Benefit: level payments for life, nothing after death (factor 1.00)",
            "§7.2" if not married else "§7.3 (married: needs the Spouse's consent, §7.6)",
            life_annual,
        )
    )
    life_note = "needs the Spouse's consent (§7.6)" if married else ""
    forms["life"] = FormAmount.quick("life", life_annual, ONE, life_trace, note=life_note)
    age = completed_age(participant_birth, retirement_date)  # the Table A factors' age, read once
    if annuitant_birth is not None:
        diff = full_years_between(participant_birth, annuitant_birth)
        younger = annuitant_birth > participant_birth
        for pct in JS_PERCENTS:
            factor, trace = _js_factor_at(age, diff, younger, pct)
            annual = life_annual * factor
            survivor = annual * SURVIVOR_SHARE[pct]
            if married:
                section = "§7.1, §3.3(A)" if pct == "50" else "§7.1 (no spousal consent needed)"
                note = "normal form" if pct == "50" else ""
            else:
                section = "§8.1 Contingent Pensioner Option"
                note = "needs Plan Administrator review of the §7.5 more-than-50% test (GAP-11)"
            trace = trace.with_step(
                money_step(
                    f"{pct if pct != '66' else '66-2/3'}% joint and survivor amount",
                    section,
                    annual,
                    survivor_annual=survivor,
                )
            )
            forms[f"js{pct}"] = FormAmount.quick(
                f"js{pct}",
                annual,
                factor,
                trace,
                survivor_annual=survivor,
                note=note,
                survivor_share=SURVIVOR_SHARE[pct],
            )
    longest, le_trace = longest_certain_period(participant_birth, retirement_date)
    for years in CERTAIN_YEARS:
        if longest is not None and years > longest:
            continue  # §7.8(C): the period certain may not extend beyond the life expectancy
        factor, trace = _certain_factor_at(age, years)
        annual = life_annual * factor
        trace = le_trace.extend(trace).with_step(
            money_step(f"Life and {years} Years Certain amount", "§8.2", annual)
        )
        note = "" if not married else "needs the Spouse's consent (§7.6)"
        forms[f"cc{years}"] = FormAmount.quick(f"cc{years}", annual, factor, trace, note=note)
    if limit_annual is not None:
        _hold_to_limit(
            forms,
            limit_annual,
            married=married,
            participant_birth=participant_birth,
            retirement_date=retirement_date,
            annuitant_birth=annuitant_birth,
            traced=True,
        )
    level = social_security_option(
        life_annual,
        participant_birth=participant_birth,
        retirement_date=retirement_date,
        nrd=nrd,
        ss_amount=ss_option_amount,
        settings=settings,
    )
    if level is not None:
        forms["ss_level"] = level
    return forms


def form_monthly_amounts(
    life_annual: Decimal,
    *,
    participant_birth: date,
    retirement_date: date,
    married: bool,
    annuitant_birth: date | None,
    nrd: date,
    ss_option_amount: Decimal | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
    limit_annual: Decimal | None = None,
) -> dict[str, Decimal]:
    """``form_amounts``' monthly payments alone, the same keys in the same order, without the traces
    (the price grid: every month × every form). The property tests hold the two equal."""
    age = completed_age(participant_birth, retirement_date)
    band = _band(age)
    out = {"life": to_money(life_annual / 12)}
    if annuitant_birth is not None:
        diff = full_years_between(participant_birth, annuitant_birth)
        younger = annuitant_birth > participant_birth
        for pct in JS_PERCENTS:
            factor = _js_adjusted(_JS_TABLE[band][pct], diff, younger)
            out[f"js{pct}"] = to_money(life_annual * factor / 12)
    longest = _longest_years(participant_birth, retirement_date)
    for years in CERTAIN_YEARS:
        if longest is None or years <= longest:
            out[f"cc{years}"] = to_money(life_annual * _CC_TABLE[band][years] / 12)
    if limit_annual is not None:
        for key, amount in out.items():
            if limit_tested(key, married):
                cap = form_limit_annual(
                    limit_annual,
                    key,
                    participant_birth=participant_birth,
                    retirement_date=retirement_date,
                    annuitant_birth=annuitant_birth,
                )
                out[key] = min(amount, to_money(cap / 12))
    if ss_option_amount is not None and ss_option_amount > 0:
        from benefits.engine.dates import months_between_firsts

        if retirement_date < ss_commencement_date(participant_birth, settings):
            factor = early_factor(months_between_firsts(retirement_date, nrd), settings)
            increased = life_annual + ss_option_amount * factor
            if increased - ss_option_amount >= 0:
                out["ss_level"] = to_money(increased / 12)
    return out


def _longest_years(participant_birth: date, retirement_date: date) -> Decimal | None:
    """``longest_certain_period`` without its trace (the price grid)."""
    try:
        return single_life_expectancy(
            age_on_birthday_in_year(participant_birth, retirement_date.year), retirement_date
        )
    except TableNotInForce:
        return None


def ss_commencement_date(participant_birth: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> date:
    """§8.3(A)(2): first of the month on or after the expected start of Social Security (GAP-10)."""
    from benefits.engine.dates import date_attaining_age as birthday
    from benefits.engine.dates import first_of_month_on_or_after

    return first_of_month_on_or_after(birthday(participant_birth, settings.ss_option_commencement_age))


def social_security_option(
    life_annual: Decimal,
    *,
    participant_birth: date,
    retirement_date: date,
    nrd: date,
    ss_amount: Decimal | None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> FormAmount | None:
    """§8.3 level income: increased amount = life amount + SS Amount × factor until Social Security
    starts, then the increased amount − SS Amount. Offered only when the Retirement Date precedes
    the Social Security Commencement Date and the reduced amount is not negative (GAP-10)."""
    from benefits.engine.dates import months_between_firsts

    if ss_amount is None or ss_amount <= 0:
        return None
    ss_start = ss_commencement_date(participant_birth, settings)
    if retirement_date >= ss_start:
        return None
    months = months_between_firsts(retirement_date, nrd)  # "Years Prior to Normal Retirement Date"
    factor = early_factor(months, settings)
    increased = life_annual + ss_amount * factor
    reduced = increased - ss_amount
    if reduced < 0:
        return None
    trace = Trace().add(
        "Social Security Option: the life amount plus the Social Security Amount times the factor for "
        "the years before Normal Retirement Date, paid until Social Security starts; afterwards that "
        "amount less the Social Security Amount",
        section="§8.3(D), Table A",
        result=money(increased),
        social_security_amount=money(ss_amount),
        factor=factor_of(factor, table_a_places(settings)),
        months_before_nrd=months,
        social_security_commencement=ss_start,
        reduced_annual=money(reduced),
    )
    return FormAmount.quick("ss_level", increased, factor, trace, annual_after=reduced)


def untraced_form_amounts(
    life_annual: Decimal,
    *,
    participant_birth: date,
    retirement_date: date,
    married: bool,
    annuitant_birth: date | None,
    nrd: date,
    ss_option_amount: Decimal | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
    limit_annual: Decimal | None = None,
    ss_start: date | None = None,
) -> dict[str, FormAmount]:
    """``form_amounts`` without its traces (the one-pass path of every commencement date,
    ``dates.py``): the same keys in the same order, the same Decimal amounts, factors and notes.
    ``ss_start``: the Social Security Commencement Date, when the caller has it. The property tests
    hold the two equal."""
    empty = Trace()
    age = completed_age(participant_birth, retirement_date)
    band = _band(age)
    forms = {
        "life": FormAmount.quick(
            "life", life_annual, ONE, empty, note="needs the Spouse's consent (§7.6)" if married else ""
        )
    }
    if annuitant_birth is not None:
        diff = full_years_between(participant_birth, annuitant_birth)
        younger = annuitant_birth > participant_birth
        for pct in JS_PERCENTS:
            factor = _js_adjusted(_JS_TABLE[band][pct], diff, younger)
            annual = life_annual * factor
            if married:
                note = "normal form" if pct == "50" else ""
            else:
                note = "needs Plan Administrator review of the §7.5 more-than-50% test (GAP-11)"
            share = SURVIVOR_SHARE[pct]
            forms[f"js{pct}"] = FormAmount.quick(
                f"js{pct}",
                annual,
                factor,
                empty,
                survivor_annual=annual * share,
                note=note,
                survivor_share=share,
            )
    longest = _longest_years(participant_birth, retirement_date)
    for years in CERTAIN_YEARS:
        if longest is not None and years > longest:
            continue
        factor = _CC_TABLE[band][years]
        note = "" if not married else "needs the Spouse's consent (§7.6)"
        forms[f"cc{years}"] = FormAmount.quick(f"cc{years}", life_annual * factor, factor, empty, note=note)
    if limit_annual is not None:
        _hold_to_limit(
            forms,
            limit_annual,
            married=married,
            participant_birth=participant_birth,
            retirement_date=retirement_date,
            annuitant_birth=annuitant_birth,
            traced=False,
        )
    # social_security_option's figures without its trace (§8.3, GAP-10)
    if ss_option_amount is not None and ss_option_amount > 0:
        from benefits.engine.dates import months_between_firsts

        if ss_start is None:
            ss_start = ss_commencement_date(participant_birth, settings)
        if retirement_date < ss_start:
            factor = early_factor(months_between_firsts(retirement_date, nrd), settings)
            increased = life_annual + ss_option_amount * factor
            reduced = increased - ss_option_amount
            if reduced >= 0:
                forms["ss_level"] = FormAmount.quick(
                    "ss_level", increased, factor, empty, annual_after=reduced
                )
    return forms
