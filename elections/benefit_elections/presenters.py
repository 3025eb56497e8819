"""Shape notices, elections and batches for templates: dates in words, money with "$"."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from benefits import formatting
from benefits.engine.beneficiaries import RELATIONSHIPS
from benefits.presenters.labels import form_label
from elections.benefit_elections.form_rules import consent_reasons, form_row, needs_beneficiaries, today
from elections.benefit_elections.provisional import final_words, interest_words, provisional_words
from elections.consents.presenters import consent_words, open_consent

if TYPE_CHECKING:
    from benefits.engine.elections import ElectionRules, Window
    from elections.benefit_elections.review_figures import ReviewFigures


def money(value) -> str:
    return formatting.money(value)


def words(value) -> str:
    if not value:
        return ""
    d = date.fromisoformat(value) if isinstance(value, str) else value
    return f"{formatting.date_words(d)}"


def notice_context(notice) -> dict:
    return present_content(notice.content)


def present_content(content: dict) -> dict:
    """The notice's content with figures and dates written for people (JSON-safe: the PDF's payload)."""
    c = dict(content)
    forms = []
    for r in c.get("forms", []):
        pct = r.get("relative_value_percent") or ""
        if r.get("account_option"):
            value_words = r.get("value_note", "")
        elif pct and r.get("is_qjsa"):
            value_words = "100% (the comparison form)" if c.get("comparison_form") == r["form"] else f"{pct}%"
        elif pct:
            value_words = f"{pct}%"
        else:
            value_words = ""
        forms.append(
            {
                **r,
                "monthly_words": money(r.get("monthly")),
                "survivor_words": money(r.get("survivor_monthly")),
                "after_ss_words": money(r.get("monthly_after_social_security")),
                "lump_sum_words": money(r.get("lump_sum")),
                "value_words": value_words,
            }
        )
    c["forms_view"] = forms
    c["options_view"] = _options_view(c.get("account_options") or {})
    c["shows_relative_values"] = bool(c.get("defined_benefit")) or any(f["value_words"] for f in forms)
    basis = dict(c.get("relative_value_basis") or {})
    if "PROVISIONAL" in basis.get("mortality", ""):
        basis["mortality"] = (
            basis["mortality"].split(" - PROVISIONAL")[0]
            + " (provisional: computed by the IRS's published method)"
        )
    if basis.get("interest"):  # months in words, and the stand-in month of a provisional explanation
        basis["interest"] = interest_words(basis["interest"], content)
    c["relative_value_basis"] = basis
    w = c.get("window") or {}
    c["dates"] = {
        k: words(w.get(k))
        for k in ("period_opens", "thirty_days_end", "seven_day_period_end", "revocable_until")
    }
    c["asd_words"] = words(c.get("asd"))
    c["explained_words"] = words(c.get("explained_on"))
    d = c.get("deferral") or {}
    c["deferral_words"] = {
        "date": words(d.get("date")),
        "monthly": money(d.get("monthly")),
        "nrd": words(d.get("normal_retirement_date")),
    }
    c["comparison_label"] = next(
        (f["label"] for f in forms if f["form"] == c.get("comparison_form")), c.get("qjsa_label", "")
    )
    # Issue 25: an explanation on stand-in rates says so; the final one names the one it replaces.
    c["provisional_view"] = provisional_words(content) if content.get("asd") else {}
    c["final_words"] = final_words(content)
    c["amount_words"] = money(c.get("amount"))
    c["vested_words"] = money(c.get("vested_monthly_at_nrd") or c.get("vested_balance"))
    c["nrd_words"] = words(c.get("normal_retirement_date"))
    return c


PER = {"monthly": "a month", "quarterly": "a quarter", "annual": "a year"}
MONEY_FIGURES = (
    "monthly",
    "survivor_monthly",
    "lump_sum",
    "monthly_after_social_security",
    "rest",
    "first_installment",
)


def installment_words(figures: dict) -> str:
    """An installment election in words: "monthly installments over 10 years (120 payments), the first $2,029.38"."""
    if not figures.get("first_installment"):
        return ""
    years = int(figures.get("years") or 0)
    text = (
        f"{figures.get('frequency', '')} installments over {years} year{'s' if years != 1 else ''} "
        f"({figures.get('installments')} payments), the first {money(figures['first_installment'])} "
        f"{PER.get(figures.get('frequency', ''), '')}"
    )
    if figures.get("lump_sum"):
        text = f"{money(figures['lump_sum'])} now, then {money(figures.get('rest'))} in {text}"
    return text[0].upper() + text[1:]


def figure_words(figures: dict) -> dict:
    """The money figures of an election with "$" (other keys left out)."""
    return {k: money(v) for k, v in figures.items() if k in MONEY_FIGURES}


def _options_view(opts: dict) -> dict:
    """The installment examples and the deferral of an account plan's explanation, in words."""
    if not opts:
        return {}
    inst = opts.get("installments") or {}
    frequencies = inst.get("frequencies") or []
    examples = [
        {
            "years": e["years"],
            "first": [money(e["first"].get(f)) for f in frequencies],
            "rollover": "Yes" if e.get("rollover_eligible") else "No",
            "withholding": (
                "20% withheld if paid to you (Form W-4R)"
                if e.get("withholding_form") == "W-4R"
                else "You choose (Form W-4P)"
            ),
        }
        for e in inst.get("examples") or []
    ]
    d = opts.get("deferral") or {}
    return {
        "balance": money(opts.get("vested_balance")),
        "frequency_labels": [
            {"monthly": "Monthly", "quarterly": "Quarterly", "annual": "Annual"}[f] for f in frequencies
        ],
        "examples": examples,
        "max_years": inst.get("max_years"),
        "deferral": {
            "available": d.get("available"),
            "nrd": words(d.get("normal_retirement_date")),
            "beyond": d.get("beyond_normal_retirement"),
            "until": words(d.get("until")),
        },
    }


def step_list(current: str, *, asks_beneficiaries: bool) -> list[dict]:
    """The election's steps, ``current`` marked (``asks_beneficiaries``: ``form_rules.asks_beneficiaries_step``)."""
    labels = {
        "explanation": "Your explanation",
        "form": "Form of payment",
        "beneficiaries": "Beneficiaries",
        "payment": "Payment and taxes",
        "review": "Review and sign",
    }
    order = [
        s
        for s in ("explanation", "form", "beneficiaries", "payment", "review")
        if s != "beneficiaries" or asks_beneficiaries
    ]
    idx = order.index(current) if current in order else 0
    return [
        {"step": s, "label": labels[s], "state": "complete" if i < idx else ("current" if i == idx else "")}
        for i, s in enumerate(order)
    ]


def _payment_words(method: str, payment: dict) -> str:
    if method == "direct_deposit":
        acct = payment.get("account_number", "")
        return f"Direct deposit to {payment.get('account_type', '')} account ending {acct[-4:]} (routing {payment.get('routing_number', '')})"
    if method == "direct_rollover":
        acct = payment.get("account", "")
        return f"Direct rollover to {payment.get('institution', '')}, account ending {acct[-4:]}"
    return ""


def _withholding_words(w: dict) -> str:
    if isinstance(w.get("installments"), dict):
        return (
            _withholding_words({k: v for k, v in w.items() if k != "installments"})
            + "; installments: "
            + (_withholding_words(w["installments"]))
        )
    if w.get("form") == "W-4R":
        return f"Form W-4R: {w.get('w4r_rate')}% federal income tax withheld (at least 20% is required on a single sum or an eligible rollover distribution paid to you)"
    if w.get("form") == "W-4P":
        if w.get("w4p") == "none":
            return "Form W-4P: no federal income tax withheld"
        status = {
            "single": "single or married filing separately",
            "married": "married filing jointly",
            "head_of_household": "head of household",
        }.get(w.get("w4p"), "")
        extra = Decimal(w.get("w4p_extra") or 0)
        steps = [
            (label, Decimal(w.get(key) or 0))
            for key, label in (
                ("w4p_step2_jobs", "other jobs' yearly pay"),
                ("w4p_step2_pensions", "lower-paying pensions' yearly payments"),
                ("w4p_step3", "credits"),
                ("w4p_step4a", "other income"),
                ("w4p_step4b", "deductions"),
            )
        ]
        told = "; ".join(f"{label} {money(v)}" for label, v in steps if v)
        return (
            f"Form W-4P: withheld as for {status}"
            + (f" ({told})" if told else "")
            + (f", plus {money(extra)} a payment" if extra else "")
        )
    if w.get("form") == "none":
        return "No federal income tax withheld on a direct rollover"
    return ""


def review(draft, worked: ReviewFigures) -> dict:
    """The review page's words (``worked``: ``review_figures.review_figures(draft)``)."""
    a = draft.answers
    row = form_row(draft, a.get("form", "")) or {}
    p = draft.participant
    married = p.marital_status == p.MaritalStatus.MARRIED
    reasons = consent_reasons(
        a,
        married=married,
        rules=worked.rules,
        qjsa=draft.notice.content.get("qjsa_form", ""),
        spouse_name=p.spouse_name,
    )
    figures = {"monthly": row.get("monthly"), "survivor_monthly": row.get("survivor_monthly")}
    annuitant = p.spouse_name if needs_beneficiaries(row.get("form", "")) == "annuitant" else ""
    named = a.get("annuitant") or {}
    if annuitant and named.get("who") == "other":
        annuitant = named.get("name", "")
        figures = {
            "monthly": worked.priced.get("monthly"),
            "survivor_monthly": worked.priced.get("survivor_monthly"),
        }
    return {
        "form": row.get("label", ""),
        "monthly": money(figures["monthly"]),
        "survivor": money(figures["survivor_monthly"]),
        "lump_sum": money(row.get("lump_sum")),
        "receive": row.get("summary", "") if row.get("distribution") else "",
        "installments": installment_words(worked.installments),
        "annuitant": annuitant,
        "beneficiaries": a.get("beneficiaries") or [],
        "payment": _payment_words(a.get("payment_method", ""), a.get("payment") or {}),
        "withholding": _withholding_words(a.get("withholding") or {}),
        "waive_30_days": a.get("waive_30_days"),
        "asd": words(draft.asd),
        "consent_reasons": reasons,
        "spouse": p.spouse_name,
    }


def election_context(election, user, *, consents: list[tuple], window: Window) -> dict:
    """``consents``: each consent to the election with its problems (what stops it counting);
    ``window``: its election period (``form_rules.election_window``)."""
    waiting_form = open_consent([c for c, _ in consents])
    return {
        "election": election,
        "figures": figure_words(election.figures)
        | {"relative_value_percent": election.figures.get("relative_value_percent", "")},
        "installments": installment_words(election.figures),
        "payment": _payment_words(election.payment_method, election.payment),
        "withholding": _withholding_words(election.withholding),
        "asd": words(election.asd),
        "revocable_until": words(window.revocable_until),
        "can_revoke": user.is_participant_role
        and election.state not in (election.State.REVOKED, election.State.SUPERSEDED)
        and window.can_revoke(today()),
        "consents": [{"c": c, "problems": problems} for c, problems in consents],
        "open_consent": waiting_form if user.is_participant_role else None,
        "takes_exception": user.is_administrator and election.state == election.State.AWAITING_CONSENT,
        "is_owner": user.is_participant_role,
    }


def batch_summary(progress: dict) -> dict:
    """A batch's progress for the page (``progress``: ``selectors.batch_progress``)."""
    batch, counts = progress["batch"], progress["counts"]
    total = sum(counts.values())
    done = total - counts["pending"]
    return progress | {
        "total": total,
        "done": done,
        "percent": int(done * 100 / total) if total else (100 if batch.state == batch.State.DONE else 0),
        "running": batch.state != batch.State.DONE,
    }


def electable_dates(rules: ElectionRules, result: dict) -> list[tuple[str, str]]:
    """The modeler's dates a participant can elect for now: inside the plan's election period and more
    than 7 days away (Treas. Reg. §1.417(e)-1(b)(3)(ii)(D)); none for a plan outside §417 (``rules``:
    the membership's plan's election rules)."""
    if not rules.qjsa_applies:
        return []
    on = today()
    out = []
    for e in result.get("estimates") or []:
        d = date.fromisoformat(e["commencement_date"])
        if e.get("forms") and on + timedelta(days=7) < d <= on + timedelta(days=rules.period_days):
            out.append((d.isoformat(), words(d)))
    return out


def start_form_choices(result: dict) -> list[tuple[str, str]]:
    """The forms of payment the modeler shows, in the order first seen, for the claim it files."""
    seen: dict[str, str] = {}
    for e in result.get("estimates") or []:
        forms = e.get("forms")
        for key in forms if isinstance(forms, list | dict) else ():
            seen.setdefault(key, form_label(key))
    return list(seen.items())


# ------------------------------------------------------------------------------------ beneficiaries


def beneficiary_rows(rows: list[dict]) -> list[dict]:
    """A designation's beneficiaries in words: who, primary or contingent, relationship, share, and the
    person's birth date and address or the trust's trustee and date."""
    out = []
    for r in rows:
        if r.get("entity") == "trust":
            details = f"Trustee {r.get('trustee', '')}; trust made {words(r.get('trust_date'))}"
        elif r.get("entity") == "estate":
            details = ""
        else:
            details = "; ".join(
                x
                for x in (
                    f"born {words(r.get('birth_date'))}" if r.get("birth_date") else "",
                    r.get("address", ""),
                )
                if x
            )
        out.append(
            {
                "name": r.get("name", ""),
                "kind": "Primary" if r.get("kind") == "primary" else "Contingent",
                "relationship": RELATIONSHIPS.get(r.get("relationship", ""), ""),
                "percent": r.get("percent", ""),
                "details": details,
            }
        )
    return out


def designation_rows(designation) -> dict:
    consents = list(designation.consents.all())
    waiting_form = open_consent(consents)
    return {
        "d": designation,
        "rows": beneficiary_rows(designation.beneficiaries),
        "consents": consents,
        "open_consent": waiting_form,
    }


def beneficiaries_context(plans: list[dict], user) -> list[dict]:
    """For each plan that takes designations: the plan's default, what is in effect, what waits for
    consent, and every earlier version (``plans``: membership, rules, designations newest first)."""
    out = []
    for entry in plans:
        designations = entry["designations"]
        effective = next((d for d in designations if d.state == d.State.EFFECTIVE), None)
        waiting = next((d for d in designations if d.state == d.State.AWAITING_CONSENT), None)
        out.append(
            {
                "membership": entry["membership"],
                "rules": entry["rules"],
                "effective": designation_rows(effective) if effective else None,
                "waiting": designation_rows(waiting) if waiting else None,
                "history": [designation_rows(d) for d in designations if d not in (effective, waiting)],
            }
        )
    return out


def consent_status(
    claim,
    *,
    election,
    claim_consents: list,
    consent_to_claim: bool,
    election_required: bool,
    rules: ElectionRules,
) -> str:
    """Whether the spouse's consent is on file for this claim, read from the stored records: the
    consent to a loan or withdrawal claim itself, else the consent to the claim's standing election.
    Before an election is signed, it says when consent will be needed rather than guessing
    (``consent_to_claim``: the spouse consents to this kind of claim itself, a loan or withdrawal;
    ``election_required``: the plan asks an election for this kind of claim; ``rules``: the plan's
    election rules)."""
    if claim_consents:
        return consent_words(claim_consents[0])
    participant = claim.participant
    if election is not None:
        signed = f"the election signed on {words(election.signed_on)} ({election.form_label})"
        if not election.needs_consent:
            why = "the participant was not married" if not election.married else "the form needs none"
            return f"Not needed for {signed}: {why}."
        consents = sorted(election.consents.all(), key=lambda c: (c.created_at, c.pk), reverse=True)
        if not consents:
            return f"Needed for {signed}, and not yet requested."
        return consent_words(consents[0])
    if participant.marital_status != "married":
        return "Not needed: the participant is not married."
    if not election_required or claim.claimant_relationship != "participant":
        return "Not needed for this kind of claim."
    if not rules.qjsa_applies:
        return "Not needed: the plan does not ask for the spouse's consent to the participant's own distribution."
    if consent_to_claim:
        return (
            "Needed once the claim is approved: the consent form is issued then, and nothing is paid "
            "before the spouse's signed, witnessed consent is verified."
        )
    return (
        "No election signed yet. If the participant chooses anything other than a joint and survivor "
        "annuity with the spouse, the spouse must consent in writing before payment starts."
    )
