"""Carver 401(k) plan data read from ``plan_data`` with JSON-pointer errors (money, yearly amounts,
payroll), the benefit settings in force and the vesting percentages from the service rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any

from benefits.engine import statement_input as si
from benefits.engine.core import ParticipantError
from benefits.engine.money import CENT, ZERO, to_decimal, to_money

from .contributions import PayPeriod
from .distributions import AnnuityQuote
from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import ALL_SOURCES, BEFORE_TAX, scheduled_sources


def _money(raw: Any, ptr: str) -> Decimal:
    try:
        if type(raw) is str:  # the usual value: what to_money does with a string, without its checks
            return Decimal(raw).quantize(CENT, ROUND_HALF_UP)
        if isinstance(raw, bool) or raw is None:
            raise TypeError
        return to_money(raw)
    except (TypeError, InvalidOperation, ValueError):
        raise ParticipantError(ptr, "must be a decimal string") from None


def _money_map(raw: Any, ptr: str, keys: tuple[str, ...] | None = None) -> dict[str, Decimal]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ParticipantError(ptr, "must be an object")
    out = {}
    for k, v in raw.items():
        if keys is not None and k not in keys:
            raise ParticipantError(f"{ptr}/{k}", f"unknown source {k!r}")
        try:  # the usual string without building its pointer (only an error names it)
            out[str(k)] = Decimal(v).quantize(CENT, ROUND_HALF_UP) if type(v) is str else _money(v, "")
        except (ParticipantError, InvalidOperation, ValueError):
            out[str(k)] = _money(v, f"{ptr}/{k}")  # raises the error, with its pointer
    return out


def _year_map(raw: Any, ptr: str) -> dict[int, Decimal]:
    out = {}
    for k, v in _money_map(raw, ptr).items():
        try:
            out[int(k)] = v
        except ValueError:
            raise ParticipantError(f"{ptr}/{k}", "key must be a year") from None
    return out


def _payroll(pd: Mapping[str, Any], year: int) -> list[PayPeriod]:
    """``plan_data.payroll``: {"YYYY": [{"start", "compensation", "deferral"}]}, the payroll detail
    the per-period match (A6) needs; without it the match is computed from the year's totals."""
    raw = (pd.get("payroll") or {}).get(str(year)) or []
    out = []
    for i, item in enumerate(raw):
        ptr = f"/plan_data/payroll/{year}/{i}"
        try:
            start = date.fromisoformat(item["start"])
        except (KeyError, TypeError, ValueError):
            raise ParticipantError(f"{ptr}/start", "must be an ISO date") from None
        out.append(
            PayPeriod(
                start,
                _money(item.get("compensation"), f"{ptr}/compensation"),
                deferral=_money(item.get("deferral", "0"), f"{ptr}/deferral"),
            )
        )
    return out


def _settings(core: Any) -> BenefitSettings:
    s = (getattr(core, "settings", None) or {}).get("benefits")
    return s if isinstance(s, BenefitSettings) else DEFAULT_SETTINGS


def _percents(core: Any, settings: BenefitSettings) -> tuple[Decimal, dict[str, Decimal]]:
    """The §4.1(c) percentage from the service rules, and any per-source percentage they give."""
    overall = to_decimal(core.vesting.percent) if core is not None else ZERO
    by = {}
    scheduled = scheduled_sources(settings)
    for src, res in (getattr(core, "by_source", None) or {}).items():
        if src in scheduled:
            by[src] = to_decimal(res.percent)
    return overall, by


def _quotes(assumptions: Mapping[str, Any], on: date) -> dict[str, AnnuityQuote]:
    """``assumptions.annuity_quotes``: {form: monthly per $1,000} or {date: {form: monthly per $1,000}}."""
    raw = assumptions.get("annuity_quotes") or {}
    if not isinstance(raw, Mapping):
        raise ParticipantError("/assumptions/annuity_quotes", "must be an object")
    dated = raw.get(on.isoformat())
    table = (
        dated if isinstance(dated, Mapping) else {k: v for k, v in raw.items() if not isinstance(v, Mapping)}
    )
    out = {}
    for form, v in table.items():
        try:
            out[form] = AnnuityQuote(form, to_decimal(str(v)))
        except (InvalidOperation, TypeError):
            raise ParticipantError(
                f"/assumptions/annuity_quotes/{form}", "must be a decimal string"
            ) from None
    return out


_NONE_MADE: Mapping[str, Any] = MappingProxyType({})  # a year without employer contributions made


@dataclass(frozen=True)
class Carver401kInputs:
    """The participant's ``plan_data``, parsed once per calculation (in the order the contract has
    always read it, so the first bad value is the one reported)."""

    balances: Mapping[str, Decimal]
    withdrawn: Mapping[str, Decimal]
    loaned_out: Mapping[str, Decimal]
    outstanding_loan: Decimal
    highest_loan_last_12_months: Decimal
    # the principal of a loan approved and not yet paid out (§8.2(b), §8.4(f)): counted as outstanding
    loan_approved_not_disbursed: Decimal
    in_pay_status: bool
    deferrals: Mapping[int, Decimal]
    # §7.4: ``before_tax_contributions`` when given, else the deferrals by year, else the balance
    before_tax_contributions: Decimal
    prior_hardship_before_tax: Decimal
    # by contribution year (each year of compensation or deferrals): the employer's contributions
    # made (``plan_data.employer_contributions``) and the payroll periods (``plan_data.payroll``)
    employer_contributions: Mapping[int, Mapping[str, Any]]
    payroll: Mapping[int, tuple[PayPeriod, ...]]
    year_details: bool  # False: no year has employer contributions made or payroll periods
    statement: Mapping[str, Any] | None  # ``plan_data.statement``; None when no statement is asked for

    @classmethod
    def parse(cls, participant: Any) -> Carver401kInputs:
        pd = participant.plan_data or {}
        balances = _money_map(pd.get("balances"), "/plan_data/balances", ALL_SOURCES)
        withdrawn = _money_map(pd.get("withdrawn"), "/plan_data/withdrawn", ALL_SOURCES)
        loaned_out = _money_map(pd.get("loaned_out"), "/plan_data/loaned_out", ALL_SOURCES)
        loans = pd.get("loans") or {}
        if not isinstance(loans, Mapping):
            raise ParticipantError("/plan_data/loans", "must be an object")
        outstanding = _money(loans.get("outstanding_balance", "0"), "/plan_data/loans/outstanding_balance")
        highest = _money(
            loans.get("highest_balance_last_12_months", "0"),
            "/plan_data/loans/highest_balance_last_12_months",
        )
        approved = _money(
            pd.get("loan_approved_not_disbursed", "0"), "/plan_data/loan_approved_not_disbursed"
        )
        deferrals = _year_map(pd.get("deferrals"), "/plan_data/deferrals")
        if "before_tax_contributions" in pd:
            made = _money(pd["before_tax_contributions"], "/plan_data/before_tax_contributions")
        elif deferrals:
            made = sum(deferrals.values(), ZERO)
        else:
            made = balances.get(BEFORE_TAX, ZERO)
        prior_hs = _money(pd.get("prior_hardship_before_tax", "0"), "/plan_data/prior_hardship_before_tax")
        employer = pd.get("employer_contributions") or {}
        years = sorted(set(participant.compensation or {}) | set(deferrals))
        year_details = bool(employer or pd.get("payroll"))
        if not year_details:  # the usual plan data: nothing to read by year
            by_year: dict[int, Mapping[str, Any]] = dict.fromkeys(years, _NONE_MADE)
            payroll: dict[int, tuple[PayPeriod, ...]] = dict.fromkeys(years, ())
            years = []
        else:
            by_year, payroll = {}, {}
        for year in years:
            ec = employer.get(str(year)) or {}
            if not isinstance(ec, Mapping):
                raise ParticipantError(f"/plan_data/employer_contributions/{year}", "must be an object")
            by_year[year] = ec
            payroll[year] = tuple(_payroll(pd, year))
        return cls(
            balances=balances,
            withdrawn=withdrawn,
            loaned_out=loaned_out,
            outstanding_loan=outstanding,
            highest_loan_last_12_months=highest,
            loan_approved_not_disbursed=approved,
            in_pay_status=bool(pd.get("in_pay_status", False)),
            deferrals=deferrals,
            before_tax_contributions=made,
            prior_hardship_before_tax=prior_hs,
            employer_contributions=by_year,
            payroll=payroll,
            year_details=year_details,
            statement=si.section(pd),
        )
