"""What the election's review page shows that the plan's rules and the engine work out: read by the view
and handed to the presenter, which only puts it into words."""

from __future__ import annotations

from dataclasses import dataclass, field

from benefits.engine.account_options import check_choice, choice_figures
from benefits.engine.elections import ElectionRules, election_rules
from elections.benefit_elections import annuitants
from elections.benefit_elections.form_rules import ACCOUNT_CHOICE_FORMS, form_row, needs_beneficiaries


@dataclass(frozen=True)
class ReviewFigures:
    """``priced``: the chosen survivor form on a named survivor's life (the explanation's figures assume
    the spouse), empty while the survivor's details have problems; ``installments``: an account choice's
    figures, empty while the choice has problems or the form is not one."""

    rules: ElectionRules
    priced: dict = field(default_factory=dict)
    installments: dict = field(default_factory=dict)


def review_figures(draft) -> ReviewFigures:
    a = draft.answers
    row = form_row(draft, a.get("form", "")) or {}
    form = row.get("form", "")
    priced: dict = {}
    named = a.get("annuitant") or {}
    if needs_beneficiaries(form) == "annuitant" and named.get("who") == "other":
        priced = annuitants.check(draft, form, named)[1]
    installments: dict = {}
    if form in ACCOUNT_CHOICE_FORMS:
        choice = a.get("installments") or {}
        options = draft.notice.content.get("account_options") or {}
        if not check_choice(form, choice, options):
            installments = choice_figures(form, choice, options)
    return ReviewFigures(
        rules=election_rules(draft.membership.plan.key), priced=priced, installments=installments
    )
