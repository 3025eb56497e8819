"""The tax questions a withdrawal claim asks (issue 27): how to be paid and how much federal income tax
to withhold (Form W-4R). An age-59½ withdrawal is an eligible rollover distribution (Code §402(c)(4)):
the participant chooses payment, a direct rollover (where to, which kind of account) or a split, and a
rate of at least 20% on what is paid to them (§3405(c)). A hardship distribution cannot be rolled over
(§402(c)(4)(C)) and has a 10% default the participant may change to any rate from 0% to 100%
(§3405(b)). A loan is not a distribution (unless it defaults), so a loan claim asks neither."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from elections.claims.models import ClaimType

ROLLOVER_TYPES = (
    ("traditional_ira", "Traditional IRA"),
    ("qualified_plan", "Another employer's 401(k) or qualified plan"),
    ("403b_plan", "A 403(b) plan"),
    ("governmental_457b", "A governmental 457(b) plan"),
)
METHODS = (
    ("direct_payment", "Pay it to me (by check)"),
    ("direct_rollover", "Roll it all over directly to an IRA or another plan"),
    ("split", "Roll over part, pay me the rest"),
)
TAX_KEYS = (
    "payment_method",
    "rollover_type",
    "rollover_institution",
    "rollover_account",
    "rollover_amount",
    "w4r_rate",
    "waive_30_days",
)


def add(form: forms.Form, claim_type: str) -> None:
    f = form.fields
    if claim_type == ClaimType.WITHDRAWAL_59HALF:
        f["payment_method"] = forms.ChoiceField(
            label="How to pay the withdrawal",
            choices=(("", "- Select -"), *METHODS),
            help_text="Read the rollover notice (§402(f)) on your documents page: it explains each choice. "
            "It is sent when your claim is approved, and the plan pays at least 30 days after it.",
        )
        f["rollover_type"] = forms.ChoiceField(
            label="Rollover: kind of account", choices=(("", "- Select -"), *ROLLOVER_TYPES), required=False
        )
        f["rollover_institution"] = forms.CharField(
            label="Rollover: IRA trustee or plan", max_length=120, required=False
        )
        f["rollover_account"] = forms.CharField(
            label="Rollover: receiving account number", max_length=40, required=False
        )
        f["rollover_amount"] = forms.DecimalField(
            label="Rollover: amount to roll over if you split it (dollars)",
            min_value=Decimal("0.01"),
            max_digits=12,
            decimal_places=2,
            required=False,
            widget=forms.TextInput(attrs={"inputmode": "decimal"}),
        )
        f["w4r_rate"] = forms.IntegerField(
            label="Federal income tax withholding on what is paid to you (Form W-4R), percent",
            min_value=20,
            max_value=100,
            initial=20,
            required=False,
            help_text="At least 20%: the law requires 20% on an eligible rollover distribution paid to you.",
        )
        f["waive_30_days"] = forms.BooleanField(
            label="I have read the rollover notice on this page. I know I may take at least 30 days after "
            "receiving it to decide, and I choose to be paid sooner.",
            required=False,
            help_text="Leave this unticked to keep your 30 days: the plan then pays no earlier than 30 days "
            "after the notice.",
        )
    elif claim_type == ClaimType.HARDSHIP:
        f["w4r_rate"] = forms.IntegerField(
            label="Federal income tax withholding (Form W-4R), percent",
            min_value=0,
            max_value=100,
            initial=10,
            help_text="10% unless you choose another rate from 0% to 100%. A hardship distribution cannot be "
            "rolled over.",
        )


def clean(form: forms.Form, claim_type: str, cleaned: dict) -> None:
    if claim_type != ClaimType.WITHDRAWAL_59HALF:
        return
    method = cleaned.get("payment_method")
    if method in ("direct_rollover", "split"):
        for name, words in (
            ("rollover_type", "choose the kind of account that receives it"),
            ("rollover_institution", "name the IRA trustee or plan"),
            ("rollover_account", "give the receiving account number"),
        ):
            if not (cleaned.get(name) or "").strip():
                form.add_error(name, f"Rollover: {words}.")
    if method == "split":
        amount, total = cleaned.get("rollover_amount"), cleaned.get("amount")
        if amount is None or (total is not None and amount >= total):
            form.add_error(
                "rollover_amount",
                "Rollover amount: more than $0 and less than the amount you ask for (to roll over all of it, "
                "choose a direct rollover).",
            )
    if method in ("direct_payment", "split") and cleaned.get("w4r_rate") is None:
        form.add_error("w4r_rate", "Withholding rate: at least 20% on what is paid to you (Code §3405(c)).")


def payment_choices(details: dict) -> dict:
    """What the payment record takes from a claim's stored answers: method, destination, withholding
    (the election's shapes: ``taxes.facts``). Empty for a claim that asked nothing."""
    method = details.get("payment_method")
    rate = details.get("w4r_rate")
    if not method and rate in (None, ""):
        return {}
    out: dict = {
        "withholding_election": {"form": "W-4R", "w4r_rate": str(rate)} if rate not in (None, "") else {}
    }
    if method in ("direct_rollover", "split"):
        dest = {
            "rollover_type": details.get("rollover_type", ""),
            "institution": details.get("rollover_institution", ""),
            "account": details.get("rollover_account", ""),
        }
        if method == "split":
            dest["rollover_amount"] = details.get("rollover_amount")
        out.update(method=method, destination=dest)
        if method == "direct_rollover":
            out["withholding_election"] = {"form": "none", "note": "No withholding on a direct rollover"}
    return out


def notice_context(membership) -> dict:
    """The §402(f) notice as the withdrawal claim page shows it, before the amount and date are known
    (the notice for the payment itself follows on the documents page when it is scheduled)."""
    from benefits.engine.plans import get_plan

    plan = get_plan(membership.plan.key)
    return {
        "participant": {"name": membership.participant.full_name},
        "plan": {"name": membership.plan.name},
        "payment_words": "the withdrawal you ask for on this page",
        "employer_stock": plan.share_accounts is not None,
        "loans": plan.loans is not None,
    }
