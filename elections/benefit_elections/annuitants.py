"""Contingent annuitants: a survivor other than the spouse for a joint and survivor form, where the plan
allows one (the plan's ``election_rules.annuitant_forms``).

* The engine prices the form on that person's life (``engine_adapter.annuitant_forms``), for the same
  participant, start date and explanation date as the explanation's figures.
* The survivor's share is limited by the minimum distribution incidental benefit rule for a non-spouse
  (Treas. Reg. §1.401(a)(9)-6, Q&A-2(c): ``benefits.engine.mdib``).
* Naming someone other than the spouse gives up the QJSA: a married participant needs the spouse's
  consent (Code §417(a)(2)), which ``services.consent_reasons`` asks for.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits import formatting
from benefits.engine.beneficiaries import RELATIONSHIPS
from benefits.engine.elections import election_rules
from benefits.engine.mdib import incidental_limit
from benefits.engine_adapter import CalculationError, annuitant_forms
from benefits.presenters.plain import people_date

# The survivor's payment as a percent of the participant's, by form.
SURVIVOR_PERCENT = {
    "js50": Decimal(50),
    "js66": Decimal(200) / 3,
    "js75": Decimal(75),
    "js100": Decimal(100),
}
PERSON_RELATIONSHIPS = {k: v for k, v in RELATIONSHIPS.items() if k not in ("spouse", "trust", "estate")}


def _pct(value: Decimal) -> str:
    return "66⅔%" if value == Decimal(200) / 3 else formatting.percent(value)


def is_non_spouse(annuitant: dict | None) -> bool:
    return bool(annuitant) and annuitant.get("who") == "other"


def _priced(draft, born: date) -> dict:
    """The engine's forms on the annuitant's life, asked once per draft object and birth date: the review
    page (its figures and its checks) and the signature (its checks and the election's figures) each
    ask twice within one request."""
    memo = draft.__dict__.setdefault("_annuitant_priced", {})
    key = (draft.membership_id, draft.notice_id, draft.asd, born)
    if key not in memo:
        memo[key] = annuitant_forms(
            draft.membership, as_of=draft.notice.issued_on, asd=draft.asd, annuitant_birth=born
        )
    return memo[key]


def check(draft, form: str, annuitant: dict | None) -> tuple[dict[str, str], dict]:
    """(problems by field, the engine's figures for this form on the annuitant's life). The spouse
    as survivor needs no figures beyond the explanation's."""
    p = draft.participant
    married = p.marital_status == p.MaritalStatus.MARRIED
    rules = election_rules(draft.membership.plan.key)
    allowed = form in rules.annuitant_forms
    if not is_non_spouse(annuitant):
        if married:
            return {}, {}
        if not allowed:
            return {
                "form": "Form of payment: this plan pays a survivor form only with your spouse as the survivor."
            }, {}
        return {"annuitant": "Survivor: name the person who receives the survivor payments."}, {}
    a = annuitant or {}
    if not allowed:
        return {
            "annuitant": "Survivor: this plan lets only your spouse be the survivor of this form of payment."
        }, {}
    problems: dict[str, str] = {}
    if not str(a.get("name") or "").strip():
        problems["annuitant_name"] = "Survivor's full name: give the name of the person you name."
    if a.get("relationship") not in PERSON_RELATIONSHIPS:
        problems["annuitant_relationship"] = "Survivor's relationship to you: choose one."
    try:
        born = date.fromisoformat(str(a.get("birth_date") or ""))
    except ValueError:
        problems["annuitant_birth_date"] = "Survivor's date of birth: give it; the payments depend on it."
        return problems, {}
    if born >= draft.asd:
        problems["annuitant_birth_date"] = (
            "Survivor's date of birth: it must be before the payment start date (the survivor must be living "
            "then)."
        )
        return problems, {}
    limit = incidental_limit(p.birth_date, born, draft.asd)
    share = SURVIVOR_PERCENT.get(form)
    if share is not None and share > limit.max_percent:
        within = [
            f for f in sorted(rules.annuitant_forms) if SURVIVOR_PERCENT.get(f, 101) <= limit.max_percent
        ]
        problems["annuitant"] = (
            f"Survivor: for someone other than your spouse who is {limit.age_difference} years younger than you "
            f"(adjusted for your age: {limit.adjusted_difference}), the survivor payment can be at most "
            f"{limit.max_percent}% of yours ({limit.source}); this form pays {_pct(share)}."
            + (
                " Choose " + " or ".join(_pct(SURVIVOR_PERCENT[f]) for f in within) + " continuation instead."
                if within
                else ""
            )
        )
    if problems:
        return problems, {}
    try:
        forms = _priced(draft, born)
    except CalculationError as exc:
        return {"annuitant": f"Survivor: the plan cannot price this form on that person's life ({exc})."}, {}
    row = forms.get(form) or {}
    if not row.get("monthly"):
        return {
            "annuitant": f"Survivor: the plan does not pay this form with that survivor from {people_date(draft.asd)}; "
            "ask the plan administrator."
        }, {}
    return {}, {
        "monthly": row["monthly"],
        "survivor_monthly": row.get("survivor_monthly", ""),
        "max_survivor_percent": limit.max_percent,
        "adjusted_age_difference": limit.adjusted_difference,
    }
