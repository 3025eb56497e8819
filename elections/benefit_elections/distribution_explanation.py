"""The explanation of an account distribution in shares and cash, for a plan outside the joint and survivor
rules (Code §401(a)(11) and §417 do not apply): the notice of the right to defer and of the choices
(Treas. Reg. §1.411(a)-11(c)), given 30 to 180 days before the payment, with each form the plan offers
from the engine's ``distribution`` object (whole shares, cash, their value), the right to demand stock
where the plan gives it, why installments are or are not offered, and the rollover and withholding rules.

The content has the shape the election steps read (``forms`` rows, ``window``), so the same election
pages, payment step and signature serve it; ``kind`` tells the pages which words to show.
"""

from __future__ import annotations

from datetime import date

from benefits import formatting
from benefits.engine import ENGINE_VERSION
from benefits.engine.elections import Window, election_rules
from benefits.engine_adapter import CalculationError, membership_calculate
from elections.benefit_elections.explanation_common import ExplanationUnavailable
from elections.benefit_elections.explanation_common import fingerprint as _fingerprint

KIND = "distribution_explanation"


def offer_for(membership, *, as_of: date) -> dict:
    """The engine's ``distribution`` object for this membership ({} when the plan gives none)."""
    try:
        result = membership_calculate(membership, as_of=as_of)
    except CalculationError:
        return {}
    return dict(result.get("distribution") or {})


def offers_distribution(membership, *, as_of: date) -> bool:
    return bool(offer_for(membership, as_of=as_of).get("forms"))


def _row(f: dict) -> dict:
    shares = int(f.get("shares") or 0)
    parts = []
    if shares:
        parts.append(
            f"{formatting.shares(shares, places=0)} shares of stock ({formatting.money(f['shares_value'])})"
        )
    if f.get("cash") and f["cash"] != "0.00":
        parts.append(f"{formatting.money(f['cash'])} in cash")
    return {
        "form": f["form"],
        "label": f["label"],
        "description": f["description"],
        "eligibility": f"Available after you leave the company ({f['section']}).",
        "monthly": "",
        "survivor_monthly": "",
        "monthly_after_social_security": "",
        "lump_sum": f["value"],
        "summary": " and ".join(parts) + f", worth {formatting.money(f['value'])} in all",
        "survivor_percent": None,
        "relative_value_percent": "",
        "approximately_equal": False,
        "is_qjsa": bool(f.get("default")),
        "consent_needed": False,
        "distribution": {
            k: f.get(k)
            for k in (
                "shares",
                "shares_value",
                "cash",
                "value",
                "share_value",
                "section",
                "postings",
                "plan_data_after",
            )
        },
    }


def distribution_explanation(membership, *, asd: date, explained_on: date) -> dict:
    participant = membership.participant
    plan = membership.plan
    offer = offer_for(membership, as_of=explained_on)
    if not offer.get("forms"):
        raise ExplanationUnavailable(
            offer.get("unavailable") or f"{plan.name} offers no distribution of your account now."
        )
    rules = election_rules(plan.key)
    window = Window(explained_on, asd, rules.period_days, rules.period_source)
    rows = [_row(f) for f in offer["forms"]]
    default = next((r["form"] for r in rows if r["is_qjsa"]), rows[0]["form"])
    return {
        "kind": KIND,
        "plan": {"key": plan.key, "name": plan.name},
        "participant": {
            "name": participant.full_name,
            "number": participant.participant_number,
            "married": False,  # no spouse's consent to a participant's own distribution here
            "spouse_name": "",
        },
        "asd": asd.isoformat(),
        "explained_on": explained_on.isoformat(),
        "defined_benefit": False,
        "window": {
            "period_days": rules.period_days,
            "period_source": rules.period_source,
            "period_opens": window.period_opens.isoformat(),
            "thirty_days_end": window.thirty_days_end.isoformat(),
            "seven_day_period_end": window.seven_day_period_end.isoformat(),
            "revocable_until": window.revocable_until.isoformat(),
            "needs_waiver": window.needs_waiver,
        },
        "qjsa_form": default,
        "qjsa_label": "",
        "forms": rows,
        "vested_balance": offer.get("vested_balance", ""),
        "installments_words": offer.get("installments", ""),
        "rollover_in_kind": bool(offer.get("rollover_in_kind")),
        "notes": list(offer.get("notes") or []),
        "account_options": {},
        "provisional": {},
        "engine_version": ENGINE_VERSION,
        "fingerprint": _fingerprint(membership, as_of=explained_on, dates=[]),
    }


def refused_form_words(content: dict) -> str:
    """Why a form not in the explanation is refused, naming the field and the plan's rule."""
    offered = ", ".join(r["label"].lower() for r in content.get("forms", []))
    return (
        f"Form of payment: the plan offers {offered} for this distribution. "
        f"Installments: {content.get('installments_words', '')}"
    ).strip()
