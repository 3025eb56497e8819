"""Relative value of each optional form against the QJSA, for the §417(a)(3) explanation.

Treas. Reg. §1.417(a)(3)-1(c)(2): each optional form's actuarial present value
(APV) as a percentage of the QJSA's APV, all forms valued on ONE basis. By default that basis is the law's for the ASD:
the §417(e)(3) applicable interest rate and applicable mortality table ((c)(2)(iv)(A): the single
sum is compared on them; (B): "the §417(e)(3) rate and table are reasonable" for the other forms) —
the 30-year Treasury rate of the look-back month for plan years before 2008, the PPA 2006 transition
blend for 2008-2011 and the segment rates from 2012. When the date's market data are absent the
values fall back to the plan's own rate (still one reasonable basis for every form), say so in a
plain sentence and name the missing input; a plan may also choose its own rate as its reading
(``ComparisonRules.interest = "plan_rate"``). Forms whose APV is 95%–105% of the QJSA's may be described
as "approximately equal in value" ((c)(2)(iii)(C)); forms within 5 points may be grouped ((A)).

The comparison form is the QJSA for a married participant and the single life annuity for an
unmarried one ((c)(2)(ii)). Which of the plan's form keys those are, the rate's look-back month and
the assumption keys are plan data (``ComparisonRules``); nothing here names a plan. Market data are
inputs: a missing rate omits the relative values with a note naming it (a rate is never invented).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal, cast

from benefits.engine.actuarial import (
    APPROX_EQUAL_HIGH,
    APPROX_EQUAL_LOW,
    APPROX_EQUAL_RULE_START,
    AgeMethod,
    Basis,
    FlatRate,
    Form,
    FormKind,
    Interest,
    RelativeValue,
    RelativeValueGroup,
    SegmentRates,
    attained_age,
    clear_groups,
    factors_from_rows,
    form_factor,
    form_factors,
    group_relative_values,
    groups_of,
    life_annuity,
    relative_value_of_apvs,
    temporary_life_annuity,
)
from benefits.engine.basis_memo import DATES, dates_memo
from benefits.engine.keyed_lists import KeyedLists, keys_and_index
from benefits.engine.level_income import deferred_life_annuities, temporary_life_annuities
from benefits.engine.minimum_present_value import PHASE_IN as _PHASE_IN
from benefits.engine.minimum_present_value import missing_segment_rates
from benefits.engine.money import to_decimal
from benefits.engine.mortality import (
    MortalityTable,
    applicable_417e_table,
    last_417e_year,
    latest_417e_table,
)
from benefits.engine.trace import Trace, money, percent

REGULATION = "Treas. Reg. §1.417(a)(3)-1(c)(2)"
HUNDRED = Decimal(100)

InterestSource = Literal["plan_rate", "segment_rates"]


class MissingNote(str):
    """A note that relative values were omitted, carrying the JSON pointer of the missing input
    (``field``) for the result's ``missing`` list; it reads as the plain note everywhere else."""

    field: str

    def __new__(cls, text: str, field: str) -> MissingNote:
        note = super().__new__(cls, text)
        note.field = field
        return note

    def __reduce__(self) -> tuple[type[MissingNote], tuple[str, str]]:  # copy and pickle keep the field
        return (MissingNote, (str(self), self.field))


@dataclass(frozen=True)
class ComparisonRules:
    """A plan's data for the relative-value comparison (no plan logic lives in this module).

    ``lookback_months``: the rate of the calendar month this many months before the ASD's month
    (e.g. 2: ASD March 1 → January). ``rate_key`` names the assumptions map ``{"YYYY-MM": percent}``
    of the plan's applicable (30-year Treasury) rate; ``rate_default_key`` an optional flat percent
    the plan accepts for months not listed. ``interest``: ``segment_rates`` (the default: the
    §417(e)(3) basis for the date — the segment rates of ``segment_rates_key`` from 2008, blended
    with the 30-year Treasury rate in 2008-2011, and before 2008 the plan's 30-year Treasury rate,
    which then was the §417(e)(3) rate; the plan's rate when the date's data are absent) or
    ``plan_rate`` (the plan's rate, flat, for every date).
    """

    qjsa_form: str
    single_life_form: str
    lookback_months: int
    rate_key: str
    section: str  # the plan's explanation section, e.g. "§7.4(E)"
    rate_default_key: str | None = None
    interest: InterestSource = "segment_rates"
    segment_rates_key: str = "segment_rates"
    places: int = 1
    # The explanation is given 30-90 days before the ASD; the "approximately equal" wording is not
    # available for explanations given before 1/1/2007 ((f)(2)(iii)). The latest day is assumed.
    explanation_days_before_asd: int = 30


@dataclass(frozen=True)
class OptionalForm:
    """One form as the comparison needs it: its shape and what it pays.

    ``amount``: the installment (monthly) for an annuity, the single sum for a lump sum.
    A level-income form pays ``amount`` for ``change_after_months`` months (while alive), then
    ``amount_after`` for life.
    """

    key: str
    form: Form
    amount: Decimal
    beneficiary_birth: date | None = None
    amount_after: Decimal | None = None
    change_after_months: int | None = None


def optional_form(
    key: str,
    form: Form,
    amount: Decimal,
    beneficiary_birth: date | None = None,
    amount_after: Decimal | None = None,
    change_after_months: int | None = None,
) -> OptionalForm:
    """``OptionalForm(...)`` without the frozen dataclass's field-by-field ``__init__`` (a grid's
    comparison makes one for every form of every date)."""
    option = object.__new__(OptionalForm)
    object.__setattr__(  # its fields as one dict
        option,
        "__dict__",
        {"key": key, "form": form, "amount": amount, "beneficiary_birth": beneficiary_birth,
         "amount_after": amount_after, "change_after_months": change_after_months},
    )  # fmt: skip
    return option


# Which basis a comparison used: the law's for the date, the plan's rate as the plan's reading, or
# the plan's rate because the date's market data were absent.
BasisReading = Literal["law", "plan_rate", "plan_rate_fallback"]


@dataclass(frozen=True)
class ComparisonBasis:
    basis: Basis
    form: str  # the key of the comparison form (QJSA or single life annuity)
    interest: str
    mortality: str
    source: str
    lookback_month: str
    reading: BasisReading = "law"
    words: str = ""  # one plain sentence saying which basis was used (for the explanation)

    def as_json(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "interest": self.interest,
            "mortality": self.mortality,
            "source": self.source,
            "lookback_month": self.lookback_month,
            "reading": self.reading,
            "words": self.words,
        }


@dataclass(frozen=True)
class RelativeValues:
    """The relative value of every form on one ASD (empty with a ``note`` when omitted). With a
    ``basis`` and a ``note``, the values stand on the plan's rate because the law's market data for
    the date were absent: the note (a ``MissingNote``) says so and names the missing input."""

    basis: ComparisonBasis | None
    values: Mapping[str, RelativeValue] = field(default_factory=lambda: MappingProxyType({}))
    traces: Mapping[str, Trace] = field(default_factory=lambda: MappingProxyType({}))
    groups: tuple[RelativeValueGroup, ...] = ()
    note: str = ""


# ------------------------------------------------------------------------------------------ basis


def lookback_month(asd: date, months: int) -> str:
    """``YYYY-MM`` of the calendar month ``months`` before the ASD's month."""
    index = asd.year * 12 + asd.month - 1 - months
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _percent(raw: object) -> Decimal | None:
    if raw is None or raw == "":
        return None
    try:
        return Decimal(str(raw))
    except (InvalidOperation, ValueError):
        return None


def _table_for(asd: date) -> tuple[MortalityTable, str]:
    """The §417(e)(3) table in force on the ASD; after the last published year, the latest one."""
    if asd.year > last_417e_year():
        table = latest_417e_table(asd.year)
        # Issue 24: say plainly which year's table stands in, and that the ASD's own is not loaded.
        return table, (
            f"{table.name} (the {last_417e_year()} table stands in: the {asd.year} table is not "
            "loaded in the engine yet)"
        )
    table = applicable_417e_table(asd)
    return table, table.name


def _plan_rate(
    a: Mapping[str, Any],
    rules: ComparisonRules,
    month: str,
    parsed: dict[tuple[Any, ...], Any] | None = None,
) -> tuple[Interest, str, str] | MissingNote:
    """The plan's applicable (30-year Treasury) rate for ``month`` as (interest, words, source), or a
    note naming the missing input. ``parsed``: a dict the caller owns, where a rate given as a string
    is read once (the months of a grid given one flat rate share it)."""
    given = a.get(rules.rate_key) or {}
    rate, interest = _rate(given.get(month) if isinstance(given, Mapping) else None, parsed)
    source = f"assumptions.{rules.rate_key}"
    if rate is None and rules.rate_default_key is not None:
        rate, interest = _rate(a.get(rules.rate_default_key), parsed)
        source = f"assumptions.{rules.rate_default_key}"
        words = f"{rate}% (flat rate given for {month}: {source})"
    else:
        words = f"{rate}% (30-year Treasury rate for {month})"
    if interest is None:
        return MissingNote(
            f"relative values omitted: the 30-year Treasury rate for {month} "
            f"(assumptions.{rules.rate_key}.{month}) is missing",
            f"/assumptions/{rules.rate_key}/{month}",
        )
    return interest, words, source


def _rate(raw: object, parsed: dict[tuple[Any, ...], Any] | None) -> tuple[Decimal | None, Interest | None]:
    """A percent as given and its flat rate (None, None: not given or unreadable), a string read
    once when the caller keeps ``parsed``."""
    known = parsed.get(("rate", raw)) if parsed is not None and type(raw) is str else None
    if known is None:
        rate = _percent(raw)
        known = (rate, None if rate is None else FlatRate(float(rate / HUNDRED)))
        if parsed is not None and type(raw) is str:
            parsed[("rate", raw)] = known
    return known


def _law_rates(
    a: Mapping[str, Any],
    rules: ComparisonRules,
    asd: date,
    month: str,
    memo: dict[tuple[Any, ...], Any] | None = None,
) -> tuple[Interest, str, str] | MissingNote:
    """The §417(e)(3) applicable interest rate for an ASD in a plan year from 2008: the segment rates
    of the look-back month (PPA 2006 transition blend with the 30-year Treasury rate for 2008-2011)."""
    given = a.get(rules.segment_rates_key)
    raw = given.get(month) if isinstance(given, Mapping) and asd.year not in _PHASE_IN else None
    # The months given the same three rates read the same numbers: parsed once (``memo``).
    key = ("law", *raw) if type(raw) is list and all(type(x) is str for x in raw) else None
    if key is not None and memo is not None and key in memo:
        interest, words = memo[key]
        return interest, words + month, f"assumptions.{rules.segment_rates_key}"
    if raw is None and asd.year not in _PHASE_IN:
        # ``segment_rates``' error for a month not given, without raising it (most of a modeler
        # grid's months are projected, with no rates)
        missing = missing_segment_rates(month)
        return MissingNote(missing.message, missing.field)
    from benefits.engine.minimum_present_value import (
        PHASE_IN,
        MissingMarketData,
        phase_in_rates,
        segment_rates,
        treasury_rate,
    )

    try:
        seg = segment_rates({"segment_rates": given}, month)
        if asd.year in PHASE_IN:
            seg = phase_in_rates(
                asd.year, seg, treasury_rate({"treasury_30y_monthly": a.get(rules.rate_key)}, month)
            )
    except MissingMarketData as exc:
        return MissingNote(exc.message, exc.field)
    r1, r2, r3 = (float(r / HUNDRED) for r in seg)
    interest = SegmentRates(r1, r2, r3)
    words = f"segment rates {seg[0]:f}% / {seg[1]:f}% / {seg[2]:f}% for "
    if key is not None and memo is not None:
        memo[key] = (interest, words)
    words += month + (
        f" ({asd.year} PPA transition blend with the 30-year Treasury rate)" if asd.year in PHASE_IN else ""
    )
    return interest, words, f"assumptions.{rules.segment_rates_key}"


def _plan_rate_of(
    a: Mapping[str, Any], rules: ComparisonRules, month: str, memo: dict[tuple[int | None, str], Any] | None
) -> tuple[Interest, str, str] | MissingNote:
    """``_plan_rate``, read once a month when the caller keeps a ``memo``."""
    if memo is None:
        return _plan_rate(a, rules, month)
    plan = memo.get((None, month))
    if plan is None:
        plan = memo[(None, month)] = _plan_rate(a, rules, month, memo)
    return plan


def _day(on: date) -> str:
    """``f"{on:%B} {on.day}, {on.year}"`` ("August 1, 2043"), the month's English name from a table
    (the engine's words are English whatever the process's locale; ``%B`` reads the locale)."""
    return f"{_MONTHS[on.month - 1]} {on.day}, {on.year}"


_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


_RATE_WORDS = {
    "law": "the §417(e)(3) applicable interest rate for the date",
    "plan_rate": "the plan's applicable interest rate",
    "plan_rate_fallback": "the plan's applicable interest rate (the §417(e)(3) rate for the "
    "date was not supplied)",
}


def comparison_basis(
    asd: date,
    assumptions: Mapping[str, Any] | None,
    rules: ComparisonRules,
    *,
    married: bool,
    table: MortalityTable | None = None,
    _years: dict[tuple[int, MortalityTable], tuple[bool, str]] | None = None,
    _rates: dict[tuple[Any, ...], Any] | None = None,
) -> tuple[ComparisonBasis | None, str]:
    """The single basis for every form on ``asd`` and a note: (basis, "") on the chosen basis;
    (basis, note) on the plan's rate because the law's market data for the date are absent (the note,
    a ``MissingNote``, names the missing input); (None, note) when no basis can be formed.

    ``table`` pins the mortality table (a plan that prices with a pinned table); by default the
    §417(e)(3) applicable table for the ASD. ``_years``: a dict the caller owns, to share the
    stand-in table's words between the dates of one year (``relative_values_of_dates``); ``_rates``
    likewise shares the law's rates read for one year and look-back month, and the plan's rate read
    for one month (the dates of a stability period read the same month).
    """
    a = assumptions or {}
    month = lookback_month(asd, rules.lookback_months)
    form = rules.qjsa_form if married else rules.single_life_form
    stand_in = False
    last = last_417e_year()
    if table is not None:
        mortality = table.name
        if asd.year > last:
            # the plan priced on the latest table for want of the ASD's own: say so, plainly (the
            # year's answer depends on the year alone: a grid's dates of one year share it)
            known = None if _years is None else _years.get((asd.year, table))
            if known is None:
                known = (table is latest_417e_table(asd.year), _table_for(asd)[1])
                if _years is not None:
                    _years[(asd.year, table)] = known
            if known[0]:
                stand_in, mortality = True, known[1]
    else:
        try:
            table, mortality = _table_for(asd)
        except LookupError as exc:
            return None, MissingNote(f"relative values omitted: {exc}", "/engine/mortality/417e")
        stand_in = asd.year > last
    fallback: MissingNote | None = None
    on = ""  # the ASD in words, made once if read
    reading: BasisReading
    if rules.interest == "segment_rates" and asd.year >= 2008:
        # _law_rates reads the ASD's year and the month only
        law = None if _rates is None else _rates.get((asd.year, month))
        if law is None:
            law = _law_rates(a, rules, asd, month, _rates)
            if _rates is not None:
                _rates[(asd.year, month)] = law
        if isinstance(law, MissingNote):
            plan = _plan_rate_of(a, rules, month, _rates)
            if isinstance(plan, MissingNote):
                return None, MissingNote(f"relative values omitted: {law}", law.field)
            on = _day(asd)
            fallback = MissingNote(
                f"relative values use the plan's 30-year Treasury rate for {month} because the "
                f"law's basis for {on} cannot be formed: {law}",
                law.field,
            )
            (interest, words, source), reading = plan, "plan_rate_fallback"
        else:
            (interest, words, source), reading = law, "law"
    else:
        plan = _plan_rate_of(a, rules, month, _rates)
        if isinstance(plan, MissingNote):
            return None, plan
        interest, words, source = plan
        # Before 2008 the §417(e)(3) rate was the 30-year Treasury rate of the plan's look-back
        # month, which is the plan's rate (unless only the plan's flat default stands in for it).
        law_before_2008 = rules.interest == "segment_rates" and source == f"assumptions.{rules.rate_key}"
        reading = "law" if law_before_2008 else "plan_rate"
    basis = _basis(table, interest, f"{mortality}, {words}")
    said = None if _rates is None else _rates.get(("source", reading, source))
    if said is None:
        said = (
            f"{REGULATION}(iv): the §417(e)(3) applicable mortality table and "
            + _RATE_WORDS[reading]
            + f" for the look-back month, one basis for every form ({source})"
        )
        if _rates is not None:
            _rates[("source", reading, source)] = said
    source = said
    made = _dated_basis(asd, basis, form, words, mortality, source, month, reading, stand_in, last, on)
    return made, fallback or ""


def _basis(table: MortalityTable, interest: Interest, label: str) -> Basis:
    """``Basis(table, interest, label=label)``, its other fields the defaults (which its check
    accepts), set as one dict rather than by the frozen dataclass's field-by-field ``__init__`` (a
    grid forms a basis for every date)."""
    made = object.__new__(Basis)
    object.__setattr__(
        made, "__dict__", _BASIS_DEFAULTS | {"table": table, "interest": interest, "label": label}
    )
    return made


_BASIS_DEFAULTS = {f.name: f.default for f in fields(Basis) if f.default is not MISSING}


def _dated_basis(
    asd: date,
    basis: Basis,
    form: str,
    words: str,
    mortality: str,
    source: str,
    month: str,
    reading: BasisReading,
    stand_in: bool,
    last: int,
    on: str = "",
) -> ComparisonBasis:
    """``comparison_basis``'s result for ``asd``: its plain sentence names the date (``on``, the ASD
    in words if made; ``last``: the last year with a §417(e)(3) table)."""
    on = on or _day(asd)
    if reading == "law":  # only the reading's words are made (a grid forms a basis for every date)
        plain = f"the interest rate and mortality table the law prescribes for payments starting {on}"
    elif reading == "plan_rate":
        plain = "the plan's own interest rate with the law's mortality table"
    else:
        plain = (
            f"the plan's own interest rate, because the rates the law prescribes for payments "
            f"starting {on} are not loaded yet, with the law's mortality table"
        )
    words_sentence = f"Relative values are worked out on {plain}."
    if stand_in:  # the IRS table for the year is not in the engine yet: the latest one stands in
        words_sentence = words_sentence[:-1] + (
            f", except that the latest IRS mortality table the calculator has ({last}) "
            f"stands in for the {asd.year} table."
        )
    # ComparisonBasis(basis, form, words, mortality, source, month, reading, words_sentence), its
    # fields set directly (the frozen dataclass's __init__ sets them one by one; a grid makes one a date)
    made = object.__new__(ComparisonBasis)
    made.__dict__.update(
        basis=basis,
        form=form,
        interest=words,
        mortality=mortality,
        source=source,
        lookback_month=month,
        reading=reading,
        words=words_sentence,
    )
    return made


# ------------------------------------------------------------------------------------------ values


def _apv(option: OptionalForm, basis: Basis, age: float, asd: date) -> Decimal:
    """APV at the ASD of what ``option`` pays (unrounded Decimal)."""
    if option.form.kind is FormKind.LUMP_SUM:
        return to_decimal(option.amount)
    m = basis.frequency
    if option.change_after_months is not None and option.amount_after is not None:
        years = option.change_after_months / 12
        before = temporary_life_annuity(basis, age, years)
        after = life_annuity(basis, age, deferral=years)
        return to_decimal(option.amount) * to_decimal(before * m) + to_decimal(
            option.amount_after
        ) * to_decimal(after * m)
    spouse_age = (
        attained_age(option.beneficiary_birth, asd, AgeMethod.EXACT_MONTHS)
        if option.beneficiary_birth is not None and option.form.needs_spouse
        else None
    )
    factor = form_factor(basis, option.form, age, spouse_age)
    return to_decimal(option.amount) * to_decimal(factor * m)


def relative_values(
    forms: Sequence[OptionalForm] | Callable[[], Sequence[OptionalForm]],
    *,
    birth_date: date,
    asd: date,
    married: bool,
    assumptions: Mapping[str, Any] | None,
    rules: ComparisonRules,
    table: MortalityTable | None = None,
    single_sum: str | None = "lump_sum",
) -> RelativeValues:
    """Relative value of each of ``forms`` against the comparison form, all on one basis.

    Amounts are what the plan pays (rounded installments); APVs stay unrounded. The comparison form
    itself is 100%. Ages are completed years and months on the ASD. ``forms`` may be given as a
    function that makes them: it is called only when the date's basis can be formed (a modeled date
    whose look-back month is not published has none).
    """
    basis, note = comparison_basis(asd, assumptions, rules, married=married, table=table)
    if basis is None:
        return RelativeValues(None, note=note)
    if callable(forms):
        forms = forms()
    by_key = {f.key: f for f in forms}
    qjsa = by_key.get(basis.form)
    if qjsa is None:
        return RelativeValues(
            None, note=f"relative values omitted: the comparison form {basis.form} is not priced"
        )
    age = attained_age(birth_date, asd, AgeMethod.EXACT_MONTHS)
    qjsa_apv = _apv(qjsa, basis.basis, age, asd)
    if qjsa_apv <= 0:
        return RelativeValues(None, note=f"relative values omitted: the {basis.form} has no value")
    explained = asd - timedelta(days=rules.explanation_days_before_asd)
    values: dict[str, RelativeValue] = {}
    traces: dict[str, Trace] = {}
    who = "the QJSA" if married else "the single life annuity (the QJSA of an unmarried participant)"
    which = {
        "law": "the §417(e)(3) applicable interest rate and mortality table for the date",
        "plan_rate": "the plan's applicable interest rate (the plan's reading) and the §417(e)(3) table",
        "plan_rate_fallback": f"the plan's applicable interest rate and the §417(e)(3) table ({note})",
    }[basis.reading]
    for option in forms:
        apv = _apv(option, basis.basis, age, asd)
        rv = relative_value_of_apvs(apv, qjsa_apv, places=rules.places, explanation_date=explained)
        values[option.key] = rv
        words = (
            f"Relative value of {option.key} compared with {who} ({basis.form}): its actuarial "
            f"present value as a percentage of the {basis.form}'s, both on {basis.basis.describe()}"
        )
        if rv.approximately_equal:
            words += "; approximately equal in value (95%-105%)"
        traces[option.key] = (
            Trace()
            .add(
                f"Comparison basis: {which}",
                section=f"{REGULATION}(iv)",
                result=basis.basis.describe(),
                reading=basis.reading,
                lookback_month=basis.lookback_month,
            )
            .add(
                words,
                section=f"{rules.section}; {REGULATION}",
                result=percent(rv.percent),
                option_present_value=money(round(apv, 2)),
                comparison_present_value=money(round(qjsa_apv, 2)),
                approximately_equal=rv.approximately_equal,
            )
        )
    present = {k: v for k, v in values.items()}
    groups = group_relative_values(
        list(present.items()), single_sum=single_sum if single_sum in present else None
    )
    return RelativeValues(basis, MappingProxyType(values), MappingProxyType(traces), groups, note)


def relative_values_of_dates(
    dates: Sequence[tuple[date, Sequence[OptionalForm] | Callable[[], Sequence[OptionalForm]]]],
    *,
    birth_date: date,
    married: bool,
    assumptions: Mapping[str, Any] | None,
    rules: ComparisonRules,
    table: MortalityTable | None = None,
    single_sum: str | None = "lump_sum",
    survival_cache: dict[tuple[Any, ...], Any] | None = None,
) -> list[RelativeValues | Exception]:
    """``relative_values`` for many ASDs at once (a price grid, without traces): element ``i`` equals
    ``relative_values(dates[i][1], asd=dates[i][0], ...)``, figures, basis, groups and note, or is
    the exception that call raises. Each date keeps its own basis (the §417(e)(3) table and rates of
    its stability period and look-back month); the annuity factors of every date on the same basis
    and form are one ``form_factors`` pass (each the same float as ``form_factor``'s), the survival
    matrices shared between the forms (and with the caller's pricing: ``survival_cache``). No trace step is made (the traces map holds empty traces).
    A date's forms may be given as a function that makes them: it is called only when the date's
    basis can be formed (most projected dates of a modeler grid have no market data)."""
    out: list[RelativeValues | Exception] = []
    # (date index, option index) → APV, for the options priced together; the rest priced one by one
    # keyed by the ids of the basis and the form's shape (a Form is hashed field by field; the
    # forms of a grid's dates share their shapes)
    requests: dict[tuple[int, int], list[tuple[int, int, float, float | None]]] = {}
    shapes: dict[int, Form] = {}
    pending: list[tuple[int, ComparisonBasis, float, str, list[str]]] = []
    made: dict[int, Sequence[OptionalForm]] = {}
    # One basis object for the dates that share one (their labels aside): the requests are keyed by
    # its id, so a Basis is hashed once a date, not once a form.
    canonical: dict[tuple[Any, ...], Basis] = {}
    same: dict[tuple[int, ...], Basis] = {}  # the ids of a basis' parts → its shared basis
    years: dict[tuple[int, MortalityTable], tuple[bool, str]] = {}
    rates: dict[tuple[Any, ...], Any] = {}
    factors: dict[int, list[float | None]] = {}  # date index → each option's factor (None: on its own)
    # the level-income options, by the id of their basis: (date index, option index, age, years)
    levels: dict[int, list[tuple[int, int, float, float]]] = {}
    pricers: dict[int, Any] = {}  # id of a shared basis → its pricer on the caller's rows (or None)
    lump_sum, contingent, joint = FormKind.LUMP_SUM, FormKind.CONTINGENT, FormKind.JOINT
    memo = dates_memo(assumptions, rules, married=married, table=table)  # bases kept between requests
    for i, (asd, given) in enumerate(dates):
        try:
            found = None if memo is None else memo.get(asd)
            if found is None:
                found = comparison_basis(
                    asd, assumptions, rules, married=married, table=table, _years=years, _rates=rates
                )
                if memo is not None and len(memo) < DATES:
                    memo[asd] = found
            basis, note = found
        except Exception as exc:  # noqa: BLE001 - the scalar call would raise it: that date's outcome
            out.append(exc)
            continue
        if basis is None:
            out.append(RelativeValues(None, note=note))
            continue
        try:
            forms = made[i] = given() if callable(given) else given
        except Exception as exc:  # noqa: BLE001 - the scalar call would raise it
            out.append(exc)
            continue
        keys = [f.key for f in forms]
        if basis.form not in keys:
            out.append(
                RelativeValues(
                    None, note=f"relative values omitted: the comparison form {basis.form} is not priced"
                )
            )
            continue
        age = attained_age(birth_date, asd, AgeMethod.EXACT_MONTHS)
        b = basis.basis
        # The dates of a grid share their interest object (a rate read once): found by identity
        # first (``shared`` holds the objects whose ids are the key, so no id is reused while it
        # lives), the field-by-field hash of the numbers only for a new object.
        parts = (id(b.table), id(b.interest), b.frequency, id(b.timing), id(b.convention), id(b.spouse_table))
        shared = same.get(parts)
        if shared is None:
            numbers = (id(b.table), b.interest, b.frequency, b.timing, b.convention, id(b.spouse_table))
            shared = canonical.get(numbers)
            if shared is None:  # the numbers do not read the label
                shared = canonical[numbers] = replace(b, label="")
            if shared.interest is b.interest and shared.spouse_table is b.spouse_table:
                same[parts] = shared
        spouse_ages: dict[date, float] = {}  # the same beneficiary for every survivor form of a date
        price = pricers.get(id(shared), False)
        if price is False:
            price = pricers[id(shared)] = (
                None if survival_cache is None else factors_from_rows(shared, survival_cache)
            )
        wanted: list[int] = []  # the options priced on factors
        asked: list[tuple[Form, float | None]] = []  # and their (shape, spouse's age)
        for j, option in enumerate(forms):
            form = option.form
            kind = form.kind
            if kind is lump_sum:
                continue  # a single sum is its amount
            if option.change_after_months is not None:
                if option.amount_after is not None:  # ``_apv``'s level-income branch: its two factors
                    levels.setdefault(id(shared), []).append((i, j, age, option.change_after_months / 12))
                continue  # (without an amount after, priced on its own)
            spouse = None
            if kind is contingent or kind is joint:  # ``form.needs_spouse``
                if option.beneficiary_birth is None:
                    continue  # the scalar path raises its error
                spouse = spouse_ages.get(option.beneficiary_birth)
                if spouse is None:
                    spouse = spouse_ages[option.beneficiary_birth] = attained_age(
                        option.beneficiary_birth, asd, AgeMethod.EXACT_MONTHS
                    )
            wanted.append(j)
            asked.append((form, spouse))
        row: list[float | None] = [None] * len(forms)
        factors[i] = row
        # the factors the caller's pricing has the survival rows for, priced here life by life
        got = price(age, asked) if price is not None and wanted else [None] * len(wanted)
        for j, (form, spouse), v in zip(wanted, asked, got, strict=True):
            if v is not None:
                row[j] = v
                continue
            form_id = id(form)
            if form_id not in shapes:
                shapes[form_id] = form
            requests.setdefault((id(shared), form_id), []).append((i, j, age, spouse))
        out.append(_PENDING)  # replaced below
        pending.append((i, basis, age, note, keys))
    survival: dict[tuple[Any, ...], Any] = {} if survival_cache is None else survival_cache
    # Survivor forms first: their payment grids are the longest, so each survival matrix is made once.
    by_id = {id(b): b for b in canonical.values()}
    for (basis_id, form_id), items in sorted(
        requests.items(), key=lambda r: not shapes[r[0][1]].needs_spouse
    ):
        form = shapes[form_id]
        spouses = [s for _, _, _, s in items if s is not None] if form.needs_spouse else None
        try:
            values = form_factors(
                by_id[basis_id], form, [a for _, _, a, _ in items], spouses, survival_cache=survival
            ).tolist()
        except Exception:  # noqa: BLE001, S112 - priced one by one below, where each date meets its own error
            continue
        for (i, j, _, _), v in zip(items, values, strict=True):
            factors[i][j] = v
    apvs = _level_apvs(levels, by_id, made)
    for i, basis, age, note, keys in pending:
        try:
            out[i] = _values_of_date(
                dates[i][0], made[i], keys, basis, age, note, factors.get(i), rules, single_sum, apvs.get(i)
            )
        except Exception as exc:  # noqa: BLE001 - as the scalar call would raise it
            out[i] = exc
    return out


_PENDING = RelativeValues(None)  # a priced date's place in the result until its values are made


def _level_apvs(
    levels: Mapping[int, list[tuple[int, int, float, float]]],
    bases: Mapping[int, Basis],
    forms: Mapping[int, Sequence[OptionalForm]],
) -> dict[int, dict[int, Decimal]]:
    """Date index → option index → the APV of each level-income option, ``_apv``'s sum of its two
    parts, each factor from one pass over the dates on its basis (``level_income``: the same floats
    as the scalar calls). A basis the pass cannot price leaves its options to ``_apv``."""
    out: dict[int, dict[int, Decimal]] = {}
    for basis_id, items in levels.items():
        b = bases[basis_id]
        ages, years = [a for _, _, a, _ in items], [y for _, _, _, y in items]
        try:
            before = temporary_life_annuities(b, ages, years)
            after = deferred_life_annuities(b, ages, years)
        except Exception:  # noqa: BLE001, S112 - valued one by one, where each date meets its own error
            continue
        m = b.frequency
        for (i, j, _, _), x, y in zip(items, before, after, strict=True):
            o = forms[i][j]
            out.setdefault(i, {})[j] = to_decimal(o.amount) * to_decimal(x * m) + to_decimal(
                o.amount_after
            ) * to_decimal(y * m)
    return out


def _values_of_date(
    asd: date,
    forms: Sequence[OptionalForm],
    form_keys: list[str],
    basis: ComparisonBasis,
    age: float,
    note: str,
    factors: Sequence[float | None] | None,
    rules: ComparisonRules,
    single_sum: str | None,
    level: Mapping[int, Decimal] | None = None,
) -> RelativeValues:
    """One date's values from its factors (``factors[j]`` for ``forms[j]``, None: priced on its own;
    ``form_keys[j]``: its key; ``level[j]``: a level-income option's APV made with the other dates'),
    ``relative_values``' steps in its order, without traces."""
    b = basis.basis
    m = b.frequency
    # Each form's APV: its amount (to_decimal's steps: the amount as it is) × the factor × m through
    # the float's repr; a form without a factor (a single sum, a level-income form, a factor the pass
    # could not make) valued on its own, as ``relative_values`` values it (the comparison form's
    # first, then the others in order).
    given = factors or [None] * len(forms)
    amounts = [o.amount if type(o.amount) is Decimal else to_decimal(o.amount) for o in forms]
    qi = form_keys.index(basis.form)  # the first form with the comparison form's key
    f = given[qi]
    own: Mapping[int, Decimal] = level or {}
    known = own.get(qi)
    if known is not None:
        qjsa_apv = known
    else:
        qjsa_apv = _apv(forms[qi], b, age, asd) if f is None else amounts[qi] * Decimal(repr(f * m))
    if qjsa_apv <= 0:
        return RelativeValues(None, note=f"relative values omitted: the {basis.form} has no value")
    explained = asd - timedelta(days=rules.explanation_days_before_asd)
    # relative_value_of_apvs' arithmetic, without the trace step it would make for each form
    q = float(qjsa_apv)
    quantum = _QUANTA.get(rules.places) or Decimal(1).scaleb(-rules.places)
    allowed = explained >= APPROX_EQUAL_RULE_START
    keys, index = keys_and_index(tuple(form_keys))
    # the APVs not made from a factor: a single sum's (its amount) and a level-income form's
    lump_sum = FormKind.LUMP_SUM
    kept_: list[Decimal | None] = [
        None if g is not None else own.get(j, a if o.form.kind is lump_sum else None)
        for j, (o, a, g) in enumerate(zip(forms, amounts, given, strict=True))
    ]
    if len(index) == len(keys) and 0 <= rules.places <= 6:
        fast = _values_in_floats(forms, amounts, given, m, q, qi, rules.places, kept_)
        groups = (
            None
            if fast is None
            else clear_groups(
                keys, fast[0], fast[1], _CLOSE, single_sum=single_sum if single_sum in index else None
            )
        )
        if fast is not None and groups is not None:
            # every other form's APV is made from its factor when read
            return _result(
                basis,
                _date_values(keys, index, fast[0], fast[1], (amounts, given, m, kept_), qjsa_apv, allowed),
                keys,
                groups,
                note,
            )
    kept: list[Decimal | None] = []  # the APVs not made from a factor (the others made again if read)
    ratios: list[float] = []
    percents: list[Decimal] = []
    for j, (option, a, f) in enumerate(zip(forms, amounts, given, strict=True)):
        if f is not None:
            opt = a * Decimal(repr(f * m))
            kept.append(None)
        else:
            if j == qi:
                opt = qjsa_apv
            elif option.form.kind is lump_sum:  # ``_apv`` of a single sum: its amount
                opt = a
            elif j in own:
                opt = own[j]
            else:
                opt = _apv(option, b, age, asd)
            kept.append(opt)
        ratios.append(float(opt) / q)
        percents.append((opt / qjsa_apv * 100).quantize(quantum, ROUND_HALF_UP))
    values: Mapping[str, RelativeValue]
    if len(index) == len(keys):
        values = _date_values(keys, index, ratios, percents, (amounts, given, m, kept), qjsa_apv, allowed)
    else:  # a key given twice: the last value stands, as in the dict
        made = {
            k: _relative_value(
                r, p, allowed and APPROX_EQUAL_LOW <= r <= APPROX_EQUAL_HIGH, _apv_of(a, f, m, o), qjsa_apv
            )
            for k, r, p, a, f, o in zip(keys, ratios, percents, amounts, given, kept, strict=True)
        }
        values = MappingProxyType(made)
        keys = tuple(made)
        ratios, percents = [v.ratio for v in made.values()], [v.percent for v in made.values()]
    # ``group_relative_values(values.items(), ...)`` on the lists just made
    groups = groups_of(keys, ratios, percents, single_sum=single_sum if single_sum in values else None)
    return _result(basis, values, keys, groups, note)


def _result(
    basis: ComparisonBasis,
    values: Mapping[str, RelativeValue],
    keys: tuple[str, ...],
    groups: tuple[RelativeValueGroup, ...],
    note: str,
) -> RelativeValues:
    """RelativeValues(basis, values, traces, groups, note), its fields set directly (one a date)."""
    result = object.__new__(RelativeValues)
    result.__dict__.update(
        basis=basis,
        values=values,
        traces=_empty_traces(keys),
        groups=groups,
        note=note,
    )
    return result


# How far (relative) a ratio formed in floats may lie from the one the Decimal steps give: each is
# a few roundings of 2**-53 from the exact quotient of the two present values, so this is a
# thousand times that; a decision nearer than this to its boundary takes the Decimal steps.
_CLOSE = 1e-12


def _values_in_floats(
    forms: Sequence[OptionalForm],
    amounts: Sequence[Decimal],
    factors: Sequence[float | None],
    m: int,
    q: float,
    qi: int,
    places: int,
    kept: Sequence[Decimal | None] | None = None,
) -> tuple[list[float], list[Decimal]] | None:
    """Each form's ratio to the comparison form (``q``: its APV's float) formed in floats, the
    amount's float × (factor × m) / q, or for a form without a factor the float of its APV made on
    its own / q (``kept[j]``: a level-income form's sum; by default a single sum's, its amount), and
    its percent; or None when a percent or the "approximately equal" test could differ from the
    Decimal steps' (a ratio × 10^(places + 2) within ``_CLOSE`` of a rounding half, or a ratio within
    it of 95% or 105%), or a form has neither a factor nor such an APV. The percent is then the
    Decimal steps' to the digit: ``(apv / qjsa_apv * 100).quantize(10^-places, ROUND_HALF_UP)``."""
    scale = 10.0**places * 100
    lump_sum = FormKind.LUMP_SUM
    ratios: list[float] = []
    percents: list[Decimal] = []
    for j, (option, a, f) in enumerate(zip(forms, amounts, factors, strict=True)):
        if j == qi:
            r = 1.0  # the comparison form: its APV over itself
        elif f is not None:
            r = float(a) * (f * m) / q
        else:
            apv = (a if option.form.kind is lump_sum else None) if kept is None else kept[j]
            if apv is None:
                return None
            r = float(apv) / q  # the APV made on its own: this is the Decimal steps' float
        y = r * scale
        if not 1.0 <= y < 1e12:  # no percent below the last place (or a NaN): the Decimal steps
            return None
        k = math.floor(y + 0.5)
        margin = y * _CLOSE
        if not (y - (k - 0.5) > margin and (k + 0.5) - y > margin):
            return None
        if not (abs(r - APPROX_EQUAL_LOW) > _CLOSE and abs(r - APPROX_EQUAL_HIGH) > _CLOSE):
            return None
        ratios.append(r)
        percent_ = _PERCENTS.get(k * 8 + places)  # places is 0 to 6
        if percent_ is None:
            percent_ = Decimal(k).scaleb(-places)
            if len(_PERCENTS) < 4096:
                _PERCENTS[k * 8 + places] = percent_
        percents.append(percent_)
    return ratios, percents


# A grid's percents repeat (a hundred forms at 100.0%): each made once (a Decimal is immutable).
_PERCENTS: dict[int, Decimal] = {}


def _relative_value(
    ratio: float, percent_: Decimal, approx: bool, option_apv: Decimal, qjsa_apv: Decimal
) -> RelativeValue:
    """``RelativeValue(ratio, percent_, approx, option_apv, qjsa_apv, <empty trace>)``, its fields set
    as one dict (the frozen dataclass's ``__init__`` sets them one by one)."""
    value = object.__new__(RelativeValue)
    object.__setattr__(
        value,
        "__dict__",
        {
            "ratio": ratio,
            "percent": percent_,
            "approximately_equal": approx,
            "option_apv": option_apv,
            "qjsa_apv": qjsa_apv,
            "trace": _EMPTY_TRACE,
        },
    )
    return value


class DateValues(KeyedLists[RelativeValue]):
    """One date's relative values made without traces (``relative_values_of_dates``): the read-only
    mapping of form key → ``RelativeValue``, each made when read from the lists the comparison made.
    A contract reads its strings with ``value_items`` without making the objects (a modeler grid has
    thousands: their making and the garbage collector's walks over them were a tenth of its cost).
    Equal, as a mapping, to the dict of the values ``relative_values`` makes."""

    __slots__ = ("_allowed", "_apvs", "_percents", "_qjsa", "_ratios")

    _ratios: Sequence[float]
    _percents: Sequence[Decimal]
    # (amounts, factors, m, kept): each APV, made again from its amount and factor (the same steps,
    # the same Decimal) unless kept (a form valued on its own); not kept, fewer objects live
    _apvs: tuple[Sequence[Decimal], Sequence[float | None], int, Sequence[Decimal | None]]
    _qjsa: Decimal
    _allowed: bool

    def __getitem__(self, key: str) -> RelativeValue:
        i = self._index[key]
        amounts, factors, m, kept = self._apvs
        apv = _apv_of(amounts[i], factors[i], m, kept[i])
        # the ratio as ``_values_of_date``'s Decimal steps make it (``_ratios`` may hold the one
        # formed in floats, which decides every test it is read for)
        ratio = float(apv) / float(self._qjsa)
        approx = self._allowed and APPROX_EQUAL_LOW <= ratio <= APPROX_EQUAL_HIGH
        return _relative_value(ratio, self._percents[i], approx, apv, self._qjsa)

    def __reduce__(self) -> tuple[Any, ...]:  # a copy or pickle is the plain read-only mapping
        return (MappingProxyType, (dict(self),))


def _apv_of(amount: Decimal, factor: float | None, m: int, kept: Decimal | None) -> Decimal:
    """A form's APV: ``kept``, or its amount × the factor × m through the float's repr (as
    ``_values_of_date`` made it)."""
    return kept if kept is not None else amount * Decimal(repr(cast(float, factor) * m))


def _date_values(
    keys: tuple[str, ...],
    index: Mapping[str, int],
    ratios: Sequence[float],
    percents: Sequence[Decimal],
    apvs: tuple[Sequence[Decimal], Sequence[float | None], int, Sequence[Decimal | None]],
    qjsa: Decimal,
    allowed: bool,
) -> DateValues:
    made = object.__new__(DateValues)
    made._keys, made._index, made._ratios, made._percents = keys, index, ratios, percents
    made._apvs, made._qjsa, made._allowed = apvs, qjsa, allowed
    return made


def value_items(values: Mapping[str, RelativeValue]) -> Iterator[tuple[str, str, bool]]:
    """(form key, percent as the contract writes it, approximately equal) of each relative value:
    ``relative_value_json``'s two fields, read from a ``DateValues``' lists without making its objects."""
    if isinstance(values, DateValues):
        v = values
        allowed = v._allowed
        for k, ratio, percent_ in zip(v._keys, v._ratios, v._percents, strict=True):
            yield k, f"{percent_:f}", allowed and APPROX_EQUAL_LOW <= ratio <= APPROX_EQUAL_HIGH
        return
    for k, value in values.items():
        yield k, f"{value.percent:f}", value.approximately_equal


def write_values(
    values: Mapping[str, RelativeValue], forms: Mapping[str, dict[str, Any]], written: list[str]
) -> None:
    """``forms[k]["relative_value"] = relative_value_json(values[k])`` for each form in order, each
    percent string added to ``written``: ``value_items`` in one call (a modeler grid writes every
    date's values, and a generator's step for each form was a fifth of it)."""
    if type(values) is not DateValues:
        for k, text, approx in value_items(values):
            forms[k]["relative_value"] = {"percent": text, "approximately_equal": approx}
            written.append(text)
        return
    allowed = values._allowed
    low, high = APPROX_EQUAL_LOW, APPROX_EQUAL_HIGH
    for k, ratio, percent_ in zip(values._keys, values._ratios, values._percents, strict=True):
        text = f"{percent_:f}"
        forms[k]["relative_value"] = {
            "percent": text,
            "approximately_equal": allowed and low <= ratio <= high,
        }
        written.append(text)


def write_basis_and_groups(
    basis: ComparisonBasis, groups: Sequence[RelativeValueGroup], item: dict[str, Any], written: list[str]
) -> None:
    """A date's ``relative_value_basis`` and ``relative_value_groups`` in its contract ``item``, each
    string they hold added to ``written`` (``input_ranges.sign_checked``)."""
    said = item["relative_value_basis"] = basis.as_json()
    listed = item["relative_value_groups"] = groups_json(groups)
    written += said.values()
    for g in listed:
        written += g["forms"]
        written += (g["low"], g["high"], g["disclosed"])


_EMPTY_TRACE = Trace()


@lru_cache(maxsize=256)
def _empty_traces(keys: tuple[str, ...]) -> Mapping[str, Trace]:
    """The traces map of values made without traces: each key's empty trace, one read-only view
    for every date with the same forms (a grid's dates share a few; fewer objects for the GC)."""
    return MappingProxyType(dict.fromkeys(keys, _EMPTY_TRACE))


_QUANTA = {places: Decimal(1).scaleb(-places) for places in range(4)}


def relative_value_json(rv: RelativeValue) -> dict[str, Any]:
    """The contract-style object for one form: ``{"percent": "97.3", "approximately_equal": true}``."""
    return {"percent": f"{rv.percent:f}", "approximately_equal": rv.approximately_equal}


def groups_json(groups: Sequence[RelativeValueGroup]) -> list[dict[str, Any]]:
    return [
        {
            "forms": list(g.members),
            "low": f"{g.low:f}",
            "high": f"{g.high:f}",
            "disclosed": g.disclosed,
        }
        for g in groups
    ]


__all__ = [
    "ComparisonBasis",
    "ComparisonRules",
    "DateValues",
    "OptionalForm",
    "RelativeValues",
    "comparison_basis",
    "groups_json",
    "lookback_month",
    "optional_form",
    "relative_value_json",
    "relative_values",
    "relative_values_of_dates",
    "value_items",
    "write_basis_and_groups",
    "write_values",
]
