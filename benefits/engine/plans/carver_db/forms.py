"""Table A: the plan's fixed adjustment factors, and the forms of payment (§7.1–§7.3, §8.1–§8.3).

No interest or mortality basis is stated for these conversions: the plan uses Table A's fixed
factors (SPEC §7). Every form amount is the Life-No Death Benefit amount times a factor (§8.1, §8.2:
"assuming the normal form described in Section 7.2 is effective").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from benefits.engine.dates import completed_age, full_years_between
from benefits.engine.money import to_money
from benefits.engine.trace import Trace, money
from benefits.engine.trace import factor as factor_of

from .settings import DEFAULT_SETTINGS, BenefitSettings

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
    base = _JS_TABLE[_band(age)][percent]
    diff = full_years_between(participant_birth, annuitant_birth)
    younger = annuitant_birth > participant_birth
    factor = _js_adjusted(base, diff, younger)
    trace = Trace().add(
        f"Joint and Survivor / Contingent Pensioner factor for {percent}% continuation: the age band "
        "factor, adjusted .01 for each full year the joint annuitant is younger (older) than the "
        "participant by more than 3 years, at most .98",
        section="Table A, §3.3(A), §8.1",
        result=factor_of(factor, 2),
        participant_age=age,
        band_factor=factor_of(base, 2),
        years_apart=diff,
        annuitant_is_younger=younger,
    )
    return factor, trace


def _js_adjusted(base: Decimal, years_apart: int, annuitant_is_younger: bool) -> Decimal:
    steps = Decimal(max(0, years_apart - 3)) * CENT_FACTOR
    return min(base - steps if annuitant_is_younger else base + steps, JS_MAXIMUM)


def certain_factor(participant_birth: date, retirement_date: date, years: int) -> tuple[Decimal, Trace]:
    """Years Certain and Life Option factor by age at benefit commencement (Table A)."""
    age = completed_age(participant_birth, retirement_date)
    factor = _CC_TABLE[_band(age)][years]
    trace = Trace().add(
        f"Life and {years} Years Certain factor for age {age} at commencement",
        section="Table A, §8.2",
        result=factor_of(factor, 2),
    )
    return factor, trace


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

    @property
    def monthly(self) -> Decimal:
        from benefits.engine.money import to_money

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
) -> dict[str, FormAmount]:
    """Every form the plan offers on a Retirement Date, from the Life-No Death Benefit amount.

    ``annuitant_birth`` is the Spouse's birth date for a married participant (J&S, §7.1) or a
    Contingent Pensioner's (§8.1) for an unmarried one; without it no joint form is priced.
    """
    forms: dict[str, FormAmount] = {}
    life_trace = Trace().add(
        "Life-No Death Benefit: level payments for life, nothing after death (factor 1.00)",
        section="§7.2" if not married else "§7.3 (married: needs the Spouse's consent, §7.6)",
        result=money(life_annual),
    )
    life_note = "needs the Spouse's consent (§7.6)" if married else ""
    forms["life"] = FormAmount("life", life_annual, ONE, life_trace, note=life_note)
    if annuitant_birth is not None:
        for pct in JS_PERCENTS:
            factor, trace = js_factor(participant_birth, annuitant_birth, retirement_date, pct)
            annual = life_annual * factor
            survivor = annual * SURVIVOR_SHARE[pct]
            if married:
                section = "§7.1, §3.3(A)" if pct == "50" else "§7.1 (no spousal consent needed)"
                note = "normal form" if pct == "50" else ""
            else:
                section = "§8.1 Contingent Pensioner Option"
                note = "needs Plan Administrator review of the §7.5 more-than-50% test (GAP-11)"
            trace = trace.add(
                f"{pct if pct != '66' else '66-2/3'}% joint and survivor amount",
                section=section,
                result=money(annual),
                survivor_annual=money(survivor),
            )
            forms[f"js{pct}"] = FormAmount(
                f"js{pct}",
                annual,
                factor,
                trace,
                survivor_annual=survivor,
                note=note,
                survivor_share=SURVIVOR_SHARE[pct],
            )
    for years in CERTAIN_YEARS:
        factor, trace = certain_factor(participant_birth, retirement_date, years)
        annual = life_annual * factor
        trace = trace.add(f"Life and {years} Years Certain amount", section="§8.2", result=money(annual))
        note = "" if not married else "needs the Spouse's consent (§7.6)"
        forms[f"cc{years}"] = FormAmount(f"cc{years}", annual, factor, trace, note=note)
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
    for years in CERTAIN_YEARS:
        out[f"cc{years}"] = to_money(life_annual * _CC_TABLE[band][years] / 12)
    if ss_option_amount is not None and ss_option_amount > 0:
        from benefits.engine.dates import months_between_firsts

        if retirement_date < ss_commencement_date(participant_birth, settings):
            factor = early_factor(months_between_firsts(retirement_date, nrd), settings)
            increased = life_annual + ss_option_amount * factor
            if increased - ss_option_amount >= 0:
                out["ss_level"] = to_money(increased / 12)
    return out


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
    return FormAmount("ss_level", increased, factor, trace, annual_after=reduced)
