"""Carver 401(k) results for the engine contract (docs/engine-cli.md). ``plan_outputs(participant, as_of,
assumptions, core)`` returns the contract keys as nested objects (``{"account": {"balance": ...}}``)
plus ``traces``: for each key, the list of trace steps behind it (plan sections in plain words);
contributions and estimates have one trace per year / date (``"contributions.2002"``,
``"estimates.2027-09-01"``). Inputs and shape: docs/plan-notes/carver-401k/benefits.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from benefits.engine import statement_input as si
from benefits.engine.account_options import account_options
from benefits.engine.core import ParticipantError
from benefits.engine.missing import Missing, MissingLog
from benefits.engine.money import ZERO, money_str, percent_str, to_decimal
from benefits.engine.plan_support import termination
from benefits.engine.relative_value import relative_value_json
from benefits.engine.trace import TraceBuilder, percent, recording

from .accounts import AccountVesting, vest_accounts
from .annuities import illustrate
from .contributions import (
    ROW_BOUND,
    PayPeriod,
    match_for_periods,
    no_deferral_row,
    no_deferral_rows,
    untraced_year_row,
    year_contributions,
)
from .distributions import (
    ACCOUNT_DISTRIBUTIONS,
    cash_out,
    estimate_forms,
    forms_offered,
    lump_sum_window,
    required_beginning_date,
)
from .hardship import hardship_available
from .inputs import Carver401kInputs, _percents, _quotes, _settings
from .limits import LimitUnavailable
from .loans import DOLLAR_CAP, maximum_new_loan
from .rules import core as core_fn
from .settings import BenefitSettings
from .sources import ALL_SOURCES, ROLLOVER
from .statement import Kind, Transaction, account_statement
from .withdrawals import withdrawal_at_59_half


def _source_out(v: AccountVesting) -> dict[str, Any]:
    return {
        s.source: {
            "balance": money_str(s.balance),
            "vested_percent": _percent_str(s.vested_percent),
            "vested_balance": money_str(s.vested_balance),
        }
        for s in v.by_source.values()
    }


# The vested percentages a census prints are a handful (the schedule's steps): each one's words once.
_PERCENT_STRS: dict[Decimal, str] = {}


def _percent_str(value: Decimal) -> str:
    """``percent_str``; equal nonzero Decimals print alike there (whatever their exponent), so a
    nonzero one's string is kept by value (zero is left out: 0 and -0 are equal and print apart)."""
    if type(value) is not Decimal or not value or not value.is_finite():  # (a NaN cannot be kept)
        return percent_str(value)
    try:
        return _PERCENT_STRS[value]
    except KeyError:
        text = percent_str(value)
        if len(_PERCENT_STRS) < 64:
            _PERCENT_STRS[value] = text
        return text


def _contributions(
    participant: Any,
    given: Carver401kInputs,
    term: date | None,
    settings: BenefitSettings,
    traces: dict[str, list[Any]],
) -> dict[str, dict[str, str]]:
    """Each year's contributions by source (and any excess deferrals), its trace into ``traces``."""
    comp = participant.compensation or {}
    deferrals = given.deferrals
    untraced = not recording()
    years = sorted(set(comp) | set(deferrals))
    if untraced and not given.year_details:
        usual = _usual_rows(years, comp, deferrals, settings)
        if usual is not None:
            rows, trace_keys = usual
            traces.update({key: [] for key in trace_keys})
            return rows
    out: dict[str, dict[str, str]] = {}
    for year in years:
        ec = given.employer_contributions[year]
        periods = given.payroll[year]
        if untraced and not ec and not periods:
            # the usual year, without a trace: its row in one step (None: the general path)
            try:
                row = untraced_year_row(year, comp.get(year, ZERO), deferrals.get(year, ZERO), settings)
            except (LimitUnavailable, ValueError) as exc:
                raise _year_error(year, exc) from None
            if row is not None:
                out[str(year)] = row
                traces[f"contributions.{year}"] = []
                continue
        out[str(year)], traces[f"contributions.{year}"] = _year_row(
            year, comp, deferrals, ec, periods, term, settings
        )
    return out


def _usual_rows(
    years: list[int], comp: Mapping[int, Decimal], deferrals: Mapping[int, Decimal], settings: BenefitSettings
) -> tuple[dict[str, dict[str, str]], list[str]] | None:
    """Every year's row without a trace, when no year has employer contributions or payroll, and the
    years' trace keys; None as soon as one year is not usual or cannot be computed (the caller then
    goes year by year, and meets and reports the same in the same order)."""
    out = {}
    trace_keys = []
    kept = no_deferral_rows(settings)
    for year in years:
        if kept is not None and year not in deferrals and type(year) is int:
            # the usual year: no deferrals, and the same row for everyone's pay the row takes
            pay = comp.get(year, ZERO)
            entry = kept[year] if year in kept else no_deferral_row(kept, year, settings)
            if entry is not None and type(pay) is Decimal and pay.is_finite() and ZERO <= pay < ROW_BOUND:
                out[entry[0]] = entry[2].copy()
                trace_keys.append(entry[1])
                continue
        try:
            row = untraced_year_row(year, comp.get(year, ZERO), deferrals.get(year, ZERO), settings)
        except Exception:  # noqa: BLE001 - the year-by-year path raises it as it always has
            return None
        if row is None:
            return None
        key, trace_key = _year_keys(year)
        out[key] = row
        trace_keys.append(trace_key)
    return out, trace_keys


# Each year's key and trace key, written once (a census writes them for every year of everyone).
_YEAR_KEYS: dict[int, tuple[str, str]] = {}


def _year_keys(year: int) -> tuple[str, str]:
    if type(year) is not int:  # (a bool is equal to an int and prints apart)
        return str(year), f"contributions.{year}"
    keys = _YEAR_KEYS.get(year)
    if keys is None:
        keys = (str(year), f"contributions.{year}")
        if len(_YEAR_KEYS) < 1024:
            _YEAR_KEYS[year] = keys
    return keys


def _year_error(year: int, exc: Exception) -> ParticipantError:
    return ParticipantError(f"/plan_data/employer_contributions/{year}", str(exc))


def _year_row(
    year: int,
    comp: Mapping[int, Decimal],
    deferrals: Mapping[int, Decimal],
    ec: Mapping[str, Any],
    periods: tuple[PayPeriod, ...],
    term: date | None,
    settings: BenefitSettings,
) -> tuple[dict[str, str], list[Any]]:
    """A year's contributions from its totals (``year_contributions``), the match from the payroll
    periods when they are given, as the contract's money strings; and the year's trace."""
    try:
        yc = year_contributions(
            year,
            comp.get(year, ZERO),
            deferrals.get(year, ZERO),
            employed_last_day=term is None or term >= date(year, 12, 31),
            nonelective_made=bool(ec.get("nonelective", False)),
            discretionary_percent=ec.get("discretionary_percent"),
            special=ec.get("special"),
            settings=settings,
        )
    except (LimitUnavailable, ValueError) as exc:
        raise _year_error(year, exc) from None
    amounts = dict(yc.amounts)
    year_trace = yc.trace.as_list()
    if periods:
        mr = match_for_periods(periods, settings=settings)
        amounts[mr.source] = amounts["matching"] = mr.match
        year_trace += mr.trace.as_list()
    row = {k: money_str(v) for k, v in amounts.items()}
    if yc.excess_deferrals > ZERO:
        row["excess_deferrals"] = money_str(yc.excess_deferrals)
    return row, year_trace


def _beneficiary_birth(participant: Any) -> date | None:
    """The survivor of a joint and survivor annuity: the spouse (§7.5(a)); for an unmarried
    participant the contingent annuitant named in ``plan_data.contingent_annuitant_birth_date``."""
    if participant.is_married:
        return participant.spouse_birth_date  # type: ignore[no-any-return]
    raw = (participant.plan_data or {}).get("contingent_annuitant_birth_date")
    if not raw:
        return None
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        raise ParticipantError(
            "/plan_data/contingent_annuitant_birth_date", "must be a date (YYYY-MM-DD)"
        ) from None


def plan_outputs(
    participant: Any,
    as_of: date,
    assumptions: Mapping[str, Any] | None,
    core: Any,
) -> dict[str, Any]:
    settings = _settings(core)
    assumptions = assumptions or {}
    given = Carver401kInputs.parse(participant)
    traces: dict[str, list[Any]] = {}
    out: dict[str, Any] = {}

    # Accounts and vesting (§1.1, §4.1).
    balances = given.balances
    overall, by_pct = _percents(core, settings)
    vesting = vest_accounts(
        balances,
        overall,
        percent_by_source=by_pct,
        withdrawn=given.withdrawn,
        loaned_out=given.loaned_out,
        settings=settings,
    )
    out["account"] = {
        "balance": money_str(vesting.balance),
        "vested_balance": money_str(vesting.vested_balance),
        "by_source": _source_out(vesting),
    }
    traces["account"] = vesting.trace.as_list()

    # Loans (§8.1, §8.2, §8.4(f)).
    lm = maximum_new_loan(
        vesting,
        highest_balance_last_12_months=given.highest_loan_last_12_months,
        outstanding_balance=given.outstanding_loan,
        approved_not_disbursed=given.loan_approved_not_disbursed,
        in_installment_or_annuity_pay=given.in_pay_status,
        settings=settings,
    )
    out["loan"] = {
        "maximum_new_loan": money_str(lm.amount),
        "base": money_str(lm.base),  # §8.2(a): the accounts 50% is taken of
        "dollar_cap": money_str(DOLLAR_CAP),  # §8.2(b): $50,000 less the highest balance of 12 months
        "highest_balance_last_12_months": money_str(given.highest_loan_last_12_months),
        "outstanding_balance": money_str(given.outstanding_loan),
        "approved_not_disbursed": money_str(given.loan_approved_not_disbursed),
        "eligible": lm.eligible,
        "reasons": list(lm.reasons),
    }
    traces["loan"] = lm.trace.as_list()

    # Hardship (§7.4).
    ha = hardship_available(
        vesting,
        before_tax_contributions_made=given.before_tax_contributions,
        prior_hardship_from_before_tax=given.prior_hardship_before_tax,
        settings=settings,
    )
    out["hardship"] = {"maximum_available": money_str(ha.total)}
    traces["hardship"] = ha.trace.as_list()

    # In-service withdrawal at 59½ (§7.3).
    w = withdrawal_at_59_half(
        vesting,
        birth_date=participant.birth_date,
        on=as_of,
        married=participant.is_married,
        settings=settings,
    )
    out["withdrawal"] = {
        "eligible_from": w.eligible_from.isoformat(),
        "maximum": money_str(w.maximum),
        "spousal_consent_required": w.spousal_consent_required,
    }
    traces["withdrawal"] = w.trace.as_list()

    # Contributions by year (§3.1, §3.4, §3.6, §3.13).
    term = termination(participant, as_of)
    contributions = _contributions(participant, given, term, settings, traces)
    if contributions:
        out["contributions"] = contributions

    # Cash-out (§7.5(g)) and the distribution timing (§7.5(a), §7.6(c)).
    co = cash_out(
        vesting.vested_balance,
        terminated=term is not None,
        on=term or as_of,
        rollover_balance=balances.get(ROLLOVER, ZERO),
        settings=settings,
    )
    out["cash_out"] = {
        "required": co.required,
        "threshold": money_str(co.threshold),
        "mandatory_distribution": co.required,
        "automatic_rollover": False,  # the plan has no automatic IRA rollover (GAP-15)
    }
    traces["cash_out"] = co.trace.as_list()
    if term is not None:
        win = lump_sum_window(term, settings)
        out["distribution"] = {
            "normal_form": "js50" if participant.is_married else "life",
            "lump_sum_last_valuation_date": win.last_valuation_date.isoformat(),
        }
        traces["distribution"] = win.trace.as_list()

    # Estimates for the commencement dates asked (§7.5, §7.6): annuities priced from an insurer's quote,
    # else illustrated on the §417(e)(3) basis (annuities.py), with their relative values.
    estimates = []
    missing = MissingLog()
    for i, cd in enumerate(participant.commencement_dates or ()):
        quotes = _quotes(assumptions, cd)
        quoted_years = {int(f[2:]) for f in quotes if f.startswith("cc") and f[2:].isdigit()}
        offered = forms_offered(
            married=participant.is_married,
            commencement_date=cd,
            # an active participant is modelled as leaving the day before the commencement date
            termination_date=term or cd - timedelta(days=1),
            normal_retirement_date=core.normal_retirement_date,
            early_retirement_date=core.earliest_retirement_date,
            disability_date=participant.disability_date,
            period_certain_years=tuple(sorted(quoted_years | set(settings.annuity_period_certain_years))),
            settings=settings,
        )
        # At NRD the scheduled accounts are fully vested (§4.1(b)): X = 100% × (AB + D) − D = AB.
        vested = vesting.balance if cd >= core.normal_retirement_date else vesting.vested_balance
        forms, t = estimate_forms(vested, offered, quotes)
        shown = illustrate(
            vested,
            offered.forms,
            forms,
            asd=cd,
            birth_date=participant.birth_date,
            married=participant.is_married,
            beneficiary_birth=_beneficiary_birth(participant),
            assumptions=assumptions,
            settings=settings,
        )
        priced = {k: shown.forms[k] for k in offered.forms if k in shown.forms}
        item: dict[str, Any] = {
            "commencement_date": cd.isoformat(),
            "normal_form": offered.normal_form,
            "forms": {f: {k: money_str(v) for k, v in amt.items()} for f, amt in priced.items()},
        }
        quoted = sorted(k for k in quotes if k in priced)
        illustrated = [k for k in priced if k != "lump_sum" and k not in quotes]
        if quoted or illustrated:
            # §7.1(d): the plan buys annuities from an insurer; what the figures rest on, for the notice.
            item["annuity_purchase"] = {
                "from_insurer": True,
                "quoted": quoted,
                "illustrated": illustrated,
                "basis": shown.basis_words,
            }
        rv = shown.relative
        if rv is not None:
            item["relative_value_basis"] = rv.basis_json()
            for k, value in rv.values.items():
                item["forms"][k]["relative_value"] = relative_value_json(value)
                traces[f"estimates.{cd.isoformat()}.forms.{k}.relative_value"] = rv.traces[k].as_list()
        # §7.6(d)-(g): installments, a partial lump sum, a direct rollover and deferral, with figures.
        rbd, _ = required_beginning_date(
            birth_date=participant.birth_date,
            termination_date=term or cd - timedelta(days=1),
            settings=settings,
        )
        opts = account_options(
            ACCOUNT_DISTRIBUTIONS,
            vested,
            birth_date=participant.birth_date,
            asd=cd,
            normal_retirement_date=core.normal_retirement_date,
            deferral_until=rbd,
        )
        item["account_options"] = opts.as_json()
        traces[f"estimates.{cd.isoformat()}.account_options"] = opts.trace.as_list()
        if shown.notes:
            item["notes"] = list(shown.notes)
        for pointer, message in shown.missing:
            missing.items.append(Missing(pointer, message, (f"/estimates/{i}/forms",)))
        estimates.append(item)
        traces[f"estimates.{cd.isoformat()}"] = t.extend(shown.trace).as_list()
    if missing.items:
        out["missing"] = missing.as_json()
    if estimates:
        out["estimates"] = estimates

    # Account statement for a period (GAP-35; project-added ``plan_data.statement``).
    raw_statement = given.statement
    if raw_statement is not None:
        out["statement"], traces["statement"] = _statement(participant, as_of, core, raw_statement, settings)

    out["traces"] = traces
    return out


# Movement columns of the statement, with the sign that makes opening + movements = closing.
STATEMENT_MOVEMENTS = (
    ("contributions", 1),
    ("earnings", 1),
    ("forfeitures", -1),
    ("distributions", -1),
    ("fees", -1),
    ("loan_activity", 1),
)


def _signed(sign: int, value: Decimal) -> Decimal:
    return value if sign > 0 else ZERO - value  # ZERO - 0 is 0, where -0 would print "-0.00"


def statement_transactions(raw: Mapping[str, Any]) -> list[Transaction]:
    """``plan_data.statement.transactions``: [{date, source, kind, amount}]; amounts positive except
    earnings (a loss is negative), as ``statement.account_statement`` takes them."""
    out = []
    for ptr, item in si.get_items(raw, "transactions", si.BASE):
        on = si.get_date(item, "date", ptr)
        source = si.get_choice(item, "source", ptr, ALL_SOURCES)
        kind = Kind(si.get_choice(item, "kind", ptr, tuple(Kind)))
        amount = si.get_money(item, "amount", ptr)
        if amount < ZERO and kind is not Kind.EARNINGS:
            raise ParticipantError(f"{ptr}/amount", f"a {kind} is given as a positive amount")
        out.append(Transaction(on, source, kind, amount))
    return out


def _statement(
    participant: Any, as_of: date, core: Any, raw: Mapping[str, Any], settings: BenefitSettings
) -> tuple[dict[str, Any], list[Any]]:
    start, end = si.get_period(raw, as_of)
    transactions = statement_transactions(raw)
    opening = si.get_money_map(raw, "opening", si.BASE, ALL_SOURCES)
    at_end = si.core_at(core, participant, as_of, end, core_fn, uses_benefit_settings=True)
    tb = TraceBuilder()
    tb.step(
        "The vesting percentage on the last day of the period, from the service rules",
        section="§4.1(c)",
        result=percent(to_decimal(at_end.vesting.percent)),
        on=end,
    )
    st = account_statement(
        start=start,
        end=end,
        opening=opening,
        transactions=transactions,
        scheduled_percent=at_end.vesting.percent,
        loan_opening=si.get_money(raw, "loan_opening", si.BASE, ZERO),
        withdrawn_before=si.get_money_map(raw, "withdrawn_before", si.BASE, ALL_SOURCES),
        loaned_out_before=si.get_money_map(raw, "loaned_out_before", si.BASE, ALL_SOURCES),
        settings=settings,
    )
    tb.include(st.trace)
    lines = st.lines
    result = {
        "start": start.isoformat(),
        "end": end.isoformat(),
        "opening": {ln.source: money_str(ln.opening) for ln in lines},
        "movements": {
            name: {ln.source: money_str(_signed(sign, getattr(ln, name))) for ln in lines}
            for name, sign in STATEMENT_MOVEMENTS
        },
        "closing": {ln.source: money_str(ln.closing) for ln in lines},
        "vested_percent": {ln.source: percent_str(ln.vested_percent) for ln in lines},
        "vested_balance": {ln.source: money_str(ln.vested_balance) for ln in lines},
        "totals": {
            "opening": money_str(st.total("opening")),
            **{name: money_str(_signed(sign, st.total(name))) for name, sign in STATEMENT_MOVEMENTS},
            "closing": money_str(st.closing),
            "vested_balance": money_str(st.vested_balance),
        },
        "loan": {"opening": money_str(st.loan_opening), "closing": money_str(st.loan_closing)},
    }
    return result, tb.build().as_list()
