"""What an election form asks and why a spouse must consent, read from the draft's notice and the
plan's election rules. Pure: no writes, no queries beyond the rows given. Services, views and
presenters all read these."""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from benefits.engine.elections import Window, election_rules

ACCOUNT_CHOICE_FORMS = ("installments", "partial_lump_sum")


def today() -> date:
    """The plan's today (its time zone)."""
    return timezone.localdate()


def form_row(draft, form: str) -> dict | None:
    return next((r for r in draft.notice.content.get("forms", []) if r["form"] == form), None)


def needs_beneficiaries(form: str) -> str:
    """'annuitant' for a survivor form, 'beneficiaries' for a period-certain form, '' otherwise."""
    if form.startswith("js"):
        return "annuitant"
    if form.startswith("cc"):
        return "beneficiaries"
    return ""


def asks_beneficiaries_step(draft) -> bool:
    """Whether the election has a beneficiaries step: a period-certain form's beneficiaries, or the
    survivor of a joint and survivor form where the plan lets it be someone other than the spouse."""
    form = draft.answers.get("form", "")
    need = needs_beneficiaries(form)
    if need == "beneficiaries":
        return True
    return need == "annuitant" and form in election_rules(draft.membership.plan.key).annuitant_forms


def consent_reasons(
    draft_or_answers: dict,
    *,
    married: bool,
    rules,
    qjsa: str,
    spouse_name: str,
    participant_name: str = "",
) -> list[str]:
    """Why the spouse must consent (§417(a)(2); the plan's consent section), in plain words: to the
    participant ("You chose …"), or, given ``participant_name``, to the spouse on the consent form
    ("Pat Doe chose …")."""
    if not married or not rules.qjsa_applies:
        return []
    form = draft_or_answers.get("form", "")
    to_spouse = bool(participant_name)
    who = participant_name or "You"
    with_spouse = "with you" if to_spouse else "with your spouse"
    instead_of_spouse = "rather than you" if to_spouse else "rather than your spouse"
    reasons = []
    if form == "lump_sum":
        if rules.single_sum_needs_consent:
            reasons.append(
                f"{who} chose a single sum instead of the joint and survivor annuity {with_spouse}."
            )
    elif form not in rules.consent_free_forms and form != qjsa:
        reasons.append(
            f"{who} chose a form other than the joint and survivor annuity {with_spouse}"
            + (" (you would give up its survivor payments)." if to_spouse else " (you waive it).")
        )
    annuitant = draft_or_answers.get("annuitant") or {}
    if annuitant.get("who") == "other" and form.startswith("js"):
        reasons.append(
            f"{who} named {annuitant.get('name')} {instead_of_spouse} as the survivor: "
            + (
                "you would give up the survivor payments of the joint and survivor annuity."
                if to_spouse
                else "you give up the joint and survivor annuity with your spouse."
            )
        )
    for b in draft_or_answers.get("beneficiaries") or []:
        if b.get("kind") == "primary" and b.get("relationship") != "spouse":
            reasons.append(f"{who} named {b.get('name')} {instead_of_spouse} as beneficiary.")
            break
    return reasons


def election_window(election) -> Window:
    """The election's period: from its explanation to its start date (revocable until the later of
    the start date and 7 days after the explanation)."""
    rules = election_rules(election.membership.plan.key)
    return Window(election.notice.issued_on, election.asd, rules.period_days, rules.period_source)
