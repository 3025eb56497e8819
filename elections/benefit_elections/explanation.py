"""The content of each notice, computed from the engine for one participant and one date.

§417(a)(3) explanation (Treas. Reg. §1.417(a)(3)-1(c)(1)): for the QJSA and every optional form
available on the ASD — a description, its eligibility conditions, the monthly amount to the participant
and to the survivor, and (defined benefit plans) its relative value against the QJSA as a percent,
"approximately equal in value" only within 95%–105% ((c)(2)(iii)(C)); the rights to waive, revoke and
defer, the spouse's rights, the QOSA (§417(g)) and the 30-day/7-day rules. Every figure is the engine's
for that participant on that date; nothing here prices anything.

The content is JSON (stored on the ``Notice``), shown as a page and rendered into the PDF.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits import formatting
from benefits.engine import ENGINE_VERSION
from benefits.engine.elections import Window, election_rules
from benefits.engine_adapter import (
    CalculationError,
    assumptions_standing_in,
    membership_calculate,
)
from benefits.presenters.labels import FORM_LABELS, form_label
from benefits.start_rates import month_code, start_pricing
from elections.benefit_elections.distribution_explanation import distribution_explanation
from elections.benefit_elections.explanation_common import ExplanationUnavailable
from elections.benefit_elections.explanation_common import fingerprint as _fingerprint

APPROX_LOW, APPROX_HIGH = Decimal("95"), Decimal("105")  # Treas. Reg. §1.417(a)(3)-1(c)(2)(iii)(C)


def _survivor_share(form: str) -> int | None:
    if form.startswith("js") and form[2:].isdigit():
        return {"50": 50, "66": 66, "75": 75, "100": 100}.get(form[2:])
    return None


def describe(form: str, *, married: bool = True) -> tuple[str, str]:
    """A plain description of a form and its eligibility condition (for the explanation's list); an
    unmarried participant's explanation says nothing of a spouse."""
    share = _survivor_share(form)
    if form == "life":
        return (
            "A monthly payment for your lifetime only. Payments stop when you die; nothing is paid to anyone after.",
            "Available to everyone. Your spouse must consent in writing."
            if married
            else "Available to everyone.",
        )
    if share is not None:
        part = "two-thirds" if share == 66 else f"{share}%"
        return (
            f"A reduced monthly payment for your lifetime; after your death, {part} of that payment continues "
            "for the rest of your survivor's life.",
            "Your survivor (contingent annuitant) must be living on the payment start date.",
        )
    if form.startswith("cc") and form[2:].isdigit():
        years = int(form[2:])
        return (
            f"A monthly payment for your lifetime, guaranteed for at least {years} years: if you die sooner, "
            "your beneficiary receives the same payment for the rest of those years.",
            "Available to everyone; naming anyone but your spouse needs your spouse's consent."
            if married
            else "Available to everyone.",
        )
    if form == "ss_level":
        return (
            "A larger monthly payment until your Social Security benefit is expected to start, then a smaller "
            "one, so that your total income stays about level.",
            "Available before your Social Security starting age.",
        )
    if form == "lump_sum":
        return (
            "One payment of the whole value of your benefit; nothing more is paid later. It can be rolled over "
            "to an IRA or another plan.",
            "An eligible rollover distribution: see the rollover notice.",
        )
    return (form_label(form), "")


def _money(value) -> str:
    return formatting.money(value)


FREQUENCY_WORDS = {"monthly": "monthly", "quarterly": "quarterly", "annual": "annual"}
PER = {"monthly": "a month", "quarterly": "a quarter", "annual": "a year"}


def account_option_rows(opts: dict, *, married: bool, consent_free: frozenset[str]) -> list[dict]:
    """Rows for an account plan's non-annuity forms (the engine's ``account_options``), in plain words.

    These forms are not annuities: their financial effect is the account balance they pay out and the
    timing (Treas. Reg. §1.417(a)(3)-1(c)(1)(iii)); no relative value against the QJSA is given ((c)(1)(iv)
    requires it of defined benefit plans, and an account paid out has nothing to compare beyond its value)."""
    balance = _money(opts.get("vested_balance"))
    inst = opts.get("installments") or {}
    rows = []
    not_annuity = f"Not an annuity: it pays out your account balance of {balance}"

    def row(
        key: str, label: str, description: str, eligibility: str, summary: str, lump_sum: str = ""
    ) -> dict:
        return {
            "form": key,
            "label": label,
            "description": description,
            "eligibility": eligibility,
            "monthly": "",
            "survivor_monthly": "",
            "monthly_after_social_security": "",
            "lump_sum": lump_sum,
            "summary": summary,
            "survivor_percent": None,
            "relative_value_percent": "",
            "value_note": not_annuity,
            "approximately_equal": False,
            "is_qjsa": False,
            "consent_needed": married and key not in consent_free,
            "account_option": True,
        }

    max_years = int(inst.get("max_years") or 0)
    if inst.get("available") and max_years > 0:
        longest = next((e for e in inst.get("examples") or [] if e["years"] == max_years), None)
        first = _money((longest or {}).get("first", {}).get("monthly"))
        if inst.get("limited_by") == "life_expectancy":
            limit = (
                f"no more than {max_years} years: the plan allows up to {inst.get('plan_max_years')} years, but not "
                f"beyond your life expectancy ({inst.get('life_expectancy')} years at age {inst.get('age')}; "
                f"{inst.get('life_expectancy_table')})"
            )
        else:
            limit = (
                f"no more than {max_years} years (the plan's limit; your life expectancy, "
                f"{inst.get('life_expectancy')} years at age {inst.get('age')}, is longer)"
                if inst.get("life_expectancy")
                else f"no more than {max_years} years"
            )
        rows.append(
            row(
                "installments",
                "Installments",
                "Equal monthly, quarterly or annual payments from your account for the number of years you "
                f"choose, {limit}. {inst.get('rule', '')} What is not yet paid stays invested in the plan; if "
                "you die before the last payment, your beneficiary receives the rest. Installments are not an "
                "annuity: they stop when your account is paid out, not when you die. Installments over fewer "
                "than 10 years can be rolled over to an IRA or another plan, and 20% federal income tax is "
                "withheld from each one paid to you; installments over 10 years or more cannot be rolled "
                "over, and you choose the withholding (Form W-4P).",
                "Available after you leave the company, as of the valuation dates you choose each year.",
                f"For example, {first} {PER['monthly']} over {max_years} years (first payment)"
                if first
                else "",
            )
        )
    partial = opts.get("partial_lump_sum") or {}
    if partial.get("available") and max_years > 0:
        rest = partial.get("remainder") or []
        rest_words = " or ".join(
            w
            for k, w in (("installments", "installments"), ("annuity", "an annuity bought from an insurer"))
            if k in rest
        )
        rows.append(
            row(
                "partial_lump_sum",
                "Partial lump sum with installments",
                f"Part of your account paid now as one payment, and the rest paid as {rest_words}. The single "
                "payment can be rolled over to an IRA or another plan (20% federal income tax is withheld if "
                f"it is paid to you). For example, {_money(partial.get('example_amount'))} now and the other "
                f"{_money(partial.get('example_rest'))} in monthly installments over {partial.get('example_rest_years')} "
                f"years: the first would be {_money(partial.get('example_rest_monthly_first'))}. The rest as an "
                "annuity is priced by the insurer when it is bought; ask the plan administrator for a quote.",
                f"Available after you leave the company. The single payment must be less than your vested balance "
                f"of {balance}.",
                f"You choose the amount now (less than {balance}) and how the rest is paid",
            )
        )
    roll = opts.get("direct_rollover") or {}
    if roll.get("available"):
        rows.append(
            row(
                "direct_rollover",
                "Direct rollover",
                "Your whole vested balance paid straight from the plan to an IRA or another employer's plan. "
                "Nothing is withheld and no tax is due until you take money out of the IRA or plan.",
                "Available after you leave the company, as of the valuation date the plan receives your "
                "completed forms. See the rollover notice.",
                f"{balance} once, to an IRA or plan",
                lump_sum=str(roll.get("amount", "")),
            )
        )
    return rows


def _later_date(asd: date, nrd: date | None) -> date:
    """The date deferral is shown for: the NRD if the ASD is before it, else one year later."""
    if nrd and nrd > asd:
        return nrd
    return date(asd.year + 1, asd.month, 1)


def _iso(d: date) -> str:
    return d.isoformat()


def qjsa_explanation(membership, *, asd: date, explained_on: date) -> dict:
    """The §417(a)(3) explanation's content for this membership and ASD, as of ``explained_on``."""
    participant = membership.participant
    plan = membership.plan
    rules = election_rules(plan.key)
    if not rules.qjsa_applies:
        raise ExplanationUnavailable(
            f"{plan.name} is not subject to the joint and survivor rules (Code §401(a)(11)); no explanation is due."
        )
    # A start whose look-back rates are not published yet is explained on the latest published rates,
    # and says so (issue 25; reasonable estimates, Treas. Reg. §1.417(a)(3)-1(c)(3)): a final
    # explanation follows once the rates are loaded.
    pricing = start_pricing(plan, asd)
    stand_in = assumptions_standing_in(membership, pricing.stand_ins) if pricing.stand_ins else None
    try:
        first = membership_calculate(
            membership, as_of=explained_on, commencement_dates=[asd], assumptions=stand_in
        )
    except CalculationError as exc:
        raise ExplanationUnavailable(f"The plan's calculation stopped: {exc}") from None
    nrd = date.fromisoformat(first["normal_retirement_date"]) if first.get("normal_retirement_date") else None
    later = _later_date(asd, nrd)
    result = membership_calculate(
        membership, as_of=explained_on, commencement_dates=[asd, later], assumptions=stand_in
    )
    estimates = result.get("estimates") or []
    if not estimates or estimates[0].get("error"):
        why = estimates[0].get("error") if estimates else "no estimate for that date"
        raise ExplanationUnavailable(f"The plan cannot price a start on {formatting.date_words(asd)}: {why}.")
    e = estimates[0]
    forms = e.get("forms") or {}
    married = participant.marital_status == participant.MaritalStatus.MARRIED
    basis = e.get("relative_value_basis") or {}
    qjsa = e.get("normal_form") or e.get("default_form") or basis.get("form") or ""
    if married and qjsa not in forms:
        raise ExplanationUnavailable(
            "The plan's calculation does not give the joint and survivor annuity for this date, so the "
            "explanation cannot state its amounts."
        )
    defined_benefit = plan.kind in (plan.Kind.FINAL_AVERAGE_PAY, plan.Kind.CASH_BALANCE)
    if defined_benefit and not basis and len(forms) > 1:
        notes = "; ".join(e.get("notes") or []) or "the relative values were not computed"
        raise ExplanationUnavailable(
            f"Relative values are required for a defined benefit plan (Treas. Reg. §1.417(a)(3)-1(c)(1)(iv)), "
            f"and the calculation could not give them: {notes}."
        )
    window = Window(explained_on, asd, rules.period_days, rules.period_source)
    rows = []
    order = [k for k in FORM_LABELS if k in forms] + sorted(set(forms) - set(FORM_LABELS))
    for key in order:
        f = forms[key]
        rv = f.get("relative_value") if isinstance(f.get("relative_value"), dict) else None
        percent = Decimal(rv["percent"]) if rv and rv.get("percent") not in (None, "") else None
        approx = (
            bool(rv and rv.get("approximately_equal"))
            and percent is not None
            and (APPROX_LOW <= percent <= APPROX_HIGH)
        )
        description, eligibility = describe(key, married=married)
        share = _survivor_share(key)
        consent = (
            married
            and (key not in rules.consent_free_forms)
            and (key != "lump_sum" or rules.single_sum_needs_consent)
        )
        rows.append(
            {
                "form": key,
                "label": form_label(key),
                "description": description,
                "eligibility": eligibility,
                "monthly": f.get("monthly", ""),
                "survivor_monthly": f.get("survivor_monthly", ""),
                "monthly_after_social_security": f.get("monthly_after_social_security", ""),
                "lump_sum": f.get("lump_sum", ""),
                "survivor_percent": share,
                "relative_value_percent": f"{percent:f}" if percent is not None else "",
                "approximately_equal": approx,
                "is_qjsa": key == qjsa,
                "consent_needed": consent,
            }
        )
    account_options = dict(e.get("account_options") or {})
    if account_options:
        rows += account_option_rows(account_options, married=married, consent_free=rules.consent_free_forms)
    qjsa_share = _survivor_share(qjsa) or 50
    qosa_share = 75 if qjsa_share < 75 else 50  # Code §417(g)
    qosa_form = next((k for k in forms if _survivor_share(k) == qosa_share), "")
    deferred = estimates[1] if len(estimates) > 1 else {}
    deferred_forms = deferred.get("forms") or {}
    deferred_amount = (deferred_forms.get(qjsa) or deferred_forms.get("life") or {}).get("monthly", "")
    return {
        "kind": "qjsa_explanation",
        "plan": {"key": plan.key, "name": plan.name},
        "participant": {
            "name": participant.full_name,
            "number": participant.participant_number,
            "married": married,
            "spouse_name": participant.spouse_name if married else "",
        },
        "asd": _iso(asd),
        "explained_on": _iso(explained_on),
        "defined_benefit": defined_benefit,
        "window": {
            "period_days": rules.period_days,
            "period_source": rules.period_source,
            "period_opens": _iso(window.period_opens),
            "thirty_days_end": _iso(window.thirty_days_end),
            "seven_day_period_end": _iso(window.seven_day_period_end),
            "revocable_until": _iso(window.revocable_until),
            "needs_waiver": window.needs_waiver,
        },
        "qjsa_form": qjsa,
        "qjsa_label": form_label(qjsa) if qjsa else "",
        "comparison_form": basis.get("form", qjsa),
        "forms": rows,
        "relative_value_basis": {
            "interest": basis.get("interest", ""),
            "mortality": basis.get("mortality", ""),
            "words": basis.get("words", ""),  # which basis: the law's for the date, or the plan's rate
        },
        "qosa": {
            "survivor_percent": qosa_share,
            "form": qosa_form,
            "label": form_label(qosa_form) if qosa_form else f"{qosa_share}% joint and survivor",
        },
        "deferral": {
            "date": _iso(later),
            "monthly": deferred_amount,
            "form_label": form_label(qjsa if qjsa in deferred_forms else "life"),
            "normal_retirement_date": _iso(nrd) if nrd else "",
        },
        # An account plan that buys annuities from an insurer: what the amounts rest on (quote or estimate).
        "annuity_purchase": dict(e.get("annuity_purchase") or {}),
        # An account plan's installments, partial lump sum, direct rollover and deferral (the engine's figures).
        "account_options": account_options,
        "consent_source": rules.consent_source,
        "consent_free_forms": sorted(rules.consent_free_forms),
        "engine_notes": list(e.get("notes") or []),
        "provisional": provisional_facts(pricing),
        "engine_version": ENGINE_VERSION,
        "fingerprint": _fingerprint(membership, as_of=explained_on, dates=[asd, later], assumptions=stand_in),
    }


def provisional_facts(pricing) -> dict:
    """What a provisional explanation stands in for ({} when the start date's rates are all published):
    the look-back months not yet published, the month whose rates were used, the month the last is
    published. Month codes are stored data; the presenter writes them in words."""
    if pricing.priceable or not pricing.stand_ins:
        return {}
    return {
        "months": [month_code(m) for m in pricing.missing],
        "stand_in": month_code(pricing.stand_in),
        "published_by": month_code(pricing.published_by),
    }


def qpsa_explanation(membership, *, asd: date, explained_on: date) -> dict:
    """The QPSA explanation (§417(a)(3)(B); §1.401(a)-20 Q&A-35): the survivor benefit before retirement,
    the right to waive it from the plan year of age 35 with the spouse's consent, and to revoke."""
    participant = membership.participant
    plan = membership.plan
    rules = election_rules(plan.key)
    if not rules.qjsa_applies:
        raise ExplanationUnavailable(f"{plan.name} is not subject to the survivor annuity rules.")
    try:
        result = membership_calculate(membership, as_of=explained_on)
    except CalculationError as exc:
        raise ExplanationUnavailable(f"The plan's calculation stopped: {exc}") from None
    accrued = result.get("accrued_benefit") or {}
    return {
        "kind": "qpsa_explanation",
        "plan": {"key": plan.key, "name": plan.name},
        "participant": {
            "name": participant.full_name,
            "number": participant.participant_number,
            "married": participant.marital_status == participant.MaritalStatus.MARRIED,
            "spouse_name": participant.spouse_name,
        },
        "asd": _iso(asd),  # the first day of the plan year of age 35
        "explained_on": _iso(explained_on),
        "vested_monthly_at_nrd": accrued.get("vested_monthly_at_nrd", ""),
        "normal_retirement_date": result.get("normal_retirement_date") or "",
        "engine_version": ENGINE_VERSION,
        "fingerprint": _fingerprint(membership, as_of=explained_on, dates=[]),
    }


def rollover_notice(membership, *, asd: date, explained_on: date, facts: dict | None = None) -> dict:
    """The §402(f) notice for an eligible rollover distribution paid on ``asd``: the choices (direct
    rollover, payment with 20% withheld, the 60-day rollover), the 10% additional tax and its
    exceptions, and the special rules that can apply in this plan (company stock, loan offsets,
    beneficiaries). ``facts`` describes a payment record's distribution (amount, payee, kind in words);
    without it the amount is the engine's single sum on ``asd``."""
    from benefits.engine.plans import get_plan

    participant = membership.participant
    plan = membership.plan
    facts = dict(facts or {})
    amount = facts.get("amount", "")
    if not amount:
        try:
            result = membership_calculate(membership, as_of=explained_on, commencement_dates=[asd])
        except CalculationError as exc:
            raise ExplanationUnavailable(f"The plan's calculation stopped: {exc}") from None
        estimates = result.get("estimates") or []
        forms = (estimates[0].get("forms") or {}) if estimates else {}
        amount = (forms.get("lump_sum") or {}).get("lump_sum", "")
    if not amount:
        raise ExplanationUnavailable(
            f"No single sum is payable from {plan.name} on {formatting.date_words(asd)}, so there is no eligible rollover "
            "distribution to explain."
        )
    engine_plan = get_plan(plan.key)
    return {
        "kind": "rollover_402f",
        "plan": {"key": plan.key, "name": plan.name},
        "participant": {"name": participant.full_name, "number": participant.participant_number},
        "payee_name": facts.get("payee_name", participant.full_name),
        "payment_words": facts.get("payment_words", ""),
        "payment_id": facts.get("payment_id"),
        "asd": _iso(asd),
        "explained_on": _iso(explained_on),
        "amount": str(amount),
        "mandatory_withholding_percent": "20",  # Code §3405(c)(1)
        # The special rules that can apply in this plan (Notice 2020-62's "Special rules and options").
        "employer_stock": engine_plan.share_accounts is not None,
        "loans": engine_plan.loans is not None,
        "engine_version": ENGINE_VERSION,
        "fingerprint": _fingerprint(membership, as_of=explained_on, dates=[asd]),
    }


def _distribution_explanation(membership, *, asd: date, explained_on: date) -> dict:
    return distribution_explanation(membership, asd=asd, explained_on=explained_on)


BUILDERS = {
    "qjsa_explanation": qjsa_explanation,
    "distribution_explanation": _distribution_explanation,
    "qpsa_explanation": qpsa_explanation,
    "rollover_402f": rollover_notice,
}


def build(kind: str, membership, *, asd: date, explained_on: date, facts: dict | None = None) -> dict:
    if facts is not None:
        return rollover_notice(membership, asd=asd, explained_on=explained_on, facts=facts)
    return BUILDERS[kind](membership, asd=asd, explained_on=explained_on)
