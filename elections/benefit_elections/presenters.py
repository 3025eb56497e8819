"""Shape notices, elections and batches for templates: dates in words, money with "$"."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from elections.benefit_elections import services
from elections.benefit_elections.models import Election, NoticeBatchItem, PaymentMethod, SpousalConsent


def money(value) -> str:
    if value in (None, ""):
        return ""
    try:
        return f"${Decimal(str(value)):,.2f}"
    except InvalidOperation:
        return str(value)


def words(value) -> str:
    if not value:
        return ""
    d = date.fromisoformat(value) if isinstance(value, str) else value
    return f"{d:%B} {d.day}, {d.year}"


def notice_context(notice) -> dict:
    return present_content(notice.content)


def present_content(content: dict) -> dict:
    """The notice's content with figures and dates written for people (JSON-safe: the PDF's payload)."""
    c = dict(content)
    forms = []
    for r in c.get("forms", []):
        pct = r.get("relative_value_percent") or ""
        if pct and r.get("is_qjsa"):
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
    basis = dict(c.get("relative_value_basis") or {})
    if "PROVISIONAL" in basis.get("mortality", ""):
        basis["mortality"] = (
            basis["mortality"].split(" - PROVISIONAL")[0]
            + " (provisional: computed by the IRS's published method)"
        )
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
    c["amount_words"] = money(c.get("amount"))
    c["vested_words"] = money(c.get("vested_monthly_at_nrd"))
    c["nrd_words"] = words(c.get("normal_retirement_date"))
    return c


def step_list(draft, current: str) -> list[dict]:
    labels = {
        "form": "Form of payment",
        "beneficiaries": "Beneficiaries",
        "payment": "Payment and taxes",
        "review": "Review and sign",
    }
    need = services.needs_beneficiaries(draft.answers.get("form", ""))
    order = [
        s
        for s in ("form", "beneficiaries", "payment", "review")
        if s != "beneficiaries" or need == "beneficiaries"
    ]
    idx = order.index(current) if current in order else 0
    return [
        {"step": s, "label": labels[s], "state": "complete" if i < idx else ("current" if i == idx else "")}
        for i, s in enumerate(order)
    ]


def _payment_words(method: str, payment: dict) -> str:
    if method == PaymentMethod.DIRECT_DEPOSIT:
        acct = payment.get("account_number", "")
        return f"Direct deposit to {payment.get('account_type', '')} account ending {acct[-4:]} (routing {payment.get('routing_number', '')})"
    if method == PaymentMethod.DIRECT_ROLLOVER:
        acct = payment.get("account", "")
        return f"Direct rollover to {payment.get('institution', '')}, account ending {acct[-4:]}"
    return ""


def _withholding_words(w: dict) -> str:
    if w.get("form") == "W-4R":
        return f"Form W-4R: {w.get('w4r_rate')}% federal income tax withheld (at least 20% is required on a single sum paid to you)"
    if w.get("form") == "W-4P":
        if w.get("w4p") == "none":
            return "Form W-4P: no federal income tax withheld"
        status = {
            "single": "single or married filing separately",
            "married": "married filing jointly",
            "head_of_household": "head of household",
        }.get(w.get("w4p"), "")
        extra = Decimal(w.get("w4p_extra") or 0)
        return f"Form W-4P: withheld as for {status}" + (f", plus {money(extra)} a payment" if extra else "")
    if w.get("form") == "none":
        return "No federal income tax withheld on a direct rollover"
    return ""


def review(draft) -> dict:
    a = draft.answers
    row = services.form_row(draft, a.get("form", "")) or {}
    p = draft.participant
    married = p.marital_status == p.MaritalStatus.MARRIED
    rules = services.election_rules(draft.membership.plan.key)
    reasons = services.consent_reasons(
        a,
        married=married,
        rules=rules,
        qjsa=draft.notice.content.get("qjsa_form", ""),
        spouse_name=p.spouse_name,
    )
    return {
        "form": row.get("label", ""),
        "monthly": money(row.get("monthly")),
        "survivor": money(row.get("survivor_monthly")),
        "lump_sum": money(row.get("lump_sum")),
        "annuitant": p.spouse_name
        if services.needs_beneficiaries(row.get("form", "")) == "annuitant"
        else "",
        "beneficiaries": a.get("beneficiaries") or [],
        "payment": _payment_words(a.get("payment_method", ""), a.get("payment") or {}),
        "withholding": _withholding_words(a.get("withholding") or {}),
        "waive_30_days": a.get("waive_30_days"),
        "asd": words(draft.asd),
        "consent_reasons": reasons,
        "spouse": p.spouse_name,
    }


def election_context(election: Election, user) -> dict:
    window = services._window(election)
    consents = list(election.consents.select_related("form_document").all())
    open_consent = next(
        (
            c
            for c in consents
            if c.state in (SpousalConsent.State.AWAITING_FORM, SpousalConsent.State.REJECTED)
        ),
        None,
    )
    from elections.benefit_elections.forms import ConsentUploadForm, ExceptionForm

    return {
        "election": election,
        "figures": {k: money(v) if k != "relative_value_percent" else v for k, v in election.figures.items()},
        "payment": _payment_words(election.payment_method, election.payment),
        "withholding": _withholding_words(election.withholding),
        "asd": words(election.asd),
        "revocable_until": words(window.revocable_until),
        "can_revoke": user.is_participant_role
        and election.state not in (Election.State.REVOKED, Election.State.SUPERSEDED)
        and window.can_revoke(services.today()),
        "consents": [
            {
                "c": c,
                "problems": {
                    k: v for k, v in services.consent_validity(c, election).items() if k != "verified"
                },
            }
            for c in consents
        ],
        "open_consent": open_consent if user.is_participant_role else None,
        "upload_form": ConsentUploadForm() if user.is_participant_role else None,
        "exception_form": ExceptionForm()
        if user.is_administrator and election.state == Election.State.AWAITING_CONSENT
        else None,
        "is_owner": user.is_participant_role,
    }


def batch_summary(batch, items: bool = False) -> dict:
    counts = services.batch_counts(batch)
    total = sum(counts.values())
    done = total - counts[NoticeBatchItem.State.PENDING]
    out = {
        "batch": batch,
        "counts": counts,
        "total": total,
        "done": done,
        "percent": int(done * 100 / total) if total else (100 if batch.state == batch.State.DONE else 0),
        "running": batch.state != batch.State.DONE,
    }
    if items:
        out["failed"] = list(
            batch.items.filter(state=NoticeBatchItem.State.FAILED).select_related("membership__participant")
        )
        out["issued"] = list(
            batch.items.exclude(
                state__in=[NoticeBatchItem.State.FAILED, NoticeBatchItem.State.PENDING]
            ).select_related("membership__participant", "notice")
        )
    return out


def in_pay_rows(participant) -> list[Election]:
    from elections.benefit_elections.selectors import benefits_in_pay

    rows = benefits_in_pay(participant)
    for e in rows:
        e.money = {k: money(v) for k, v in e.figures.items() if k != "relative_value_percent"}
    return rows


def electable_dates(membership, result: dict) -> list[tuple[str, str]]:
    """The modeler's dates a participant can elect for now: inside the plan's election period and more
    than 7 days away (Treas. Reg. §1.417(e)-1(b)(3)(ii)(D)); none for a plan outside §417."""
    rules = services.election_rules(membership.plan.key)
    if not rules.qjsa_applies:
        return []
    today = services.today()
    out = []
    for e in result.get("estimates") or []:
        d = date.fromisoformat(e["commencement_date"])
        if e.get("forms") and today + timedelta(days=7) < d <= today + timedelta(days=rules.period_days):
            out.append((d.isoformat(), words(d)))
    return out
