"""Forms for the election steps, the consent upload and the administrator's actions. Each error
names the field and the rule; the service re-checks everything when the election is signed."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from accounts.submissions import OneTimeTokenMixin
from elections.benefit_elections.models import BatchRule, PaymentMethod, SpousalConsent

RELATIONSHIPS = (
    ("spouse", "Spouse"),
    ("child", "Child"),
    ("other_person", "Another person"),
    ("estate", "My estate"),
    ("trust", "A trust"),
)


def _choice_label(row: dict) -> str:
    """The form with its figures, so the choice can be made without the table (on a phone)."""
    if row.get("lump_sum"):
        return f"{row['label']}: ${Decimal(row['lump_sum']):,.2f} once"
    text = f"{row['label']}: ${Decimal(row['monthly']):,.2f} a month" if row.get("monthly") else row["label"]
    if row.get("survivor_monthly"):
        text += f", then ${Decimal(row['survivor_monthly']):,.2f} a month to your survivor"
    return text


class FormChoiceForm(forms.Form):
    form = forms.ChoiceField(label="Form of payment", widget=forms.RadioSelect)
    waive_30_days = forms.BooleanField(
        label="I choose to start payments less than 30 days after I received the explanation, and I know I "
        "have the right to at least 30 days to consider my choice.",
        required=False,
    )

    def __init__(self, *args, rows: list[dict], needs_waiver: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["form"].choices = [(r["form"], _choice_label(r)) for r in rows]
        if not needs_waiver:
            del self.fields["waive_30_days"]


class BeneficiariesForm(forms.Form):
    ROWS = 3

    def __init__(self, *args, spouse_name: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        for i in range(1, self.ROWS + 1):
            self.fields[f"name_{i}"] = forms.CharField(
                label=f"Beneficiary {i}: full name", max_length=200, required=i == 1
            )
            self.fields[f"relationship_{i}"] = forms.ChoiceField(
                label=f"Beneficiary {i}: relationship",
                choices=(("", "Choose"), *RELATIONSHIPS),
                required=False,
            )
            self.fields[f"percent_{i}"] = forms.DecimalField(
                label=f"Beneficiary {i}: share (%)",
                min_value=Decimal("1"),
                max_value=Decimal("100"),
                max_digits=5,
                decimal_places=2,
                required=False,
            )
        if spouse_name and not self.is_bound:
            self.initial.update(
                {"name_1": spouse_name, "relationship_1": "spouse", "percent_1": Decimal(100)}
            )

    def clean(self):
        data = super().clean()
        for i in range(1, self.ROWS + 1):
            if data.get(f"name_{i}"):
                if not data.get(f"relationship_{i}"):
                    self.add_error(f"relationship_{i}", f"Beneficiary {i}: choose the relationship.")
                if data.get(f"percent_{i}") is None:
                    self.add_error(f"percent_{i}", f"Beneficiary {i}: give the share, in percent.")
        return data

    def beneficiaries(self) -> list[dict]:
        d = self.cleaned_data
        return [
            {
                "name": d[f"name_{i}"].strip(),
                "relationship": d[f"relationship_{i}"],
                "percent": f"{d[f'percent_{i}']:f}",
                "kind": "primary",
            }
            for i in range(1, self.ROWS + 1)
            if d.get(f"name_{i}")
        ]


def aba_valid(routing: str) -> bool:
    """The ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10)."""
    if len(routing) != 9 or not routing.isdigit():
        return False
    d = [int(c) for c in routing]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


class PaymentForm(forms.Form):
    payment_method = forms.ChoiceField(
        label="How should the plan pay you?", choices=PaymentMethod.choices, widget=forms.RadioSelect
    )
    routing_number = forms.CharField(label="Bank routing number (9 digits)", max_length=9, required=False)
    account_number = forms.CharField(label="Account number", max_length=17, required=False)
    account_type = forms.ChoiceField(
        label="Account type", choices=(("checking", "Checking"), ("savings", "Savings")), required=False
    )
    rollover_type = forms.ChoiceField(
        label="Where should the rollover go?",
        choices=(
            ("", "Choose"),
            ("ira", "A traditional IRA (Code §408(a) or (b))"),
            ("roth_ira", "A Roth IRA (the amount is taxable this year)"),
            ("qualified_plan", "Another employer's qualified plan (Code §401(a) or §403(a))"),
            ("403b", "A 403(b) plan"),
            ("457b", "A governmental 457(b) plan"),
        ),
        required=False,
    )
    rollover_institution = forms.CharField(
        label="Name of the IRA trustee or plan", max_length=200, required=False
    )
    rollover_account = forms.CharField(
        label="Account number at that trustee or plan", max_length=40, required=False
    )
    w4p = forms.ChoiceField(
        label="Federal income tax withholding on monthly payments (Form W-4P)",
        choices=(
            ("", "Choose"),
            ("single", "Withhold as for a single filer or married filing separately"),
            ("married", "Withhold as for married filing jointly"),
            ("head_of_household", "Withhold as for head of household"),
            ("none", "Do not withhold federal income tax"),
        ),
        required=False,
    )
    w4p_extra = forms.DecimalField(
        label="Extra amount to withhold from each payment ($)",
        min_value=Decimal(0),
        max_value=Decimal(100000),
        max_digits=9,
        decimal_places=2,
        required=False,
    )
    w4r_rate = forms.IntegerField(
        label="Federal income tax withholding rate on the single sum (Form W-4R), percent",
        min_value=20,
        max_value=100,
        required=False,
        help_text="At least 20%: the law requires 20% withholding on an eligible rollover distribution paid to you.",
    )

    def __init__(self, *args, single_sum: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.single_sum = single_sum
        if single_sum:
            del self.fields["w4p"], self.fields["w4p_extra"]
        else:
            self.fields["payment_method"].choices = [
                (PaymentMethod.DIRECT_DEPOSIT, PaymentMethod.DIRECT_DEPOSIT.label)
            ]
            for f in ("rollover_type", "rollover_institution", "rollover_account", "w4r_rate"):
                del self.fields[f]

    def clean(self):
        d = super().clean()
        method = d.get("payment_method")
        if method == PaymentMethod.DIRECT_DEPOSIT:
            routing = (d.get("routing_number") or "").strip()
            if not aba_valid(routing):
                self.add_error(
                    "routing_number",
                    "Bank routing number: 9 digits, as printed on your checks (the check digit did not match).",
                )
            account = (d.get("account_number") or "").strip()
            if not (4 <= len(account) <= 17 and account.isdigit()):
                self.add_error("account_number", "Account number: 4 to 17 digits.")
            if not d.get("account_type"):
                self.add_error("account_type", "Account type: choose checking or savings.")
            if self.single_sum and d.get("w4r_rate") is None:
                self.add_error("w4r_rate", "Withholding rate: at least 20% (Code §3405(c)).")
            if not self.single_sum and not d.get("w4p"):
                self.add_error("w4p", "Withholding: choose a filing status, or no withholding.")
        elif method == PaymentMethod.DIRECT_ROLLOVER:
            if not d.get("rollover_type"):
                self.add_error("rollover_type", "Rollover: choose the kind of account that receives it.")
            if not (d.get("rollover_institution") or "").strip():
                self.add_error("rollover_institution", "Rollover: name the IRA trustee or plan.")
            if not (d.get("rollover_account") or "").strip():
                self.add_error("rollover_account", "Rollover: give the receiving account number.")
        return d

    def answers(self) -> dict:
        d = self.cleaned_data
        method = d["payment_method"]
        if method == PaymentMethod.DIRECT_DEPOSIT:
            payment = {
                "routing_number": d["routing_number"],
                "account_number": d["account_number"],
                "account_type": d["account_type"],
            }
            if self.single_sum:
                withholding = {"form": "W-4R", "w4r_rate": str(d["w4r_rate"])}
            else:
                withholding = {"form": "W-4P", "w4p": d["w4p"], "w4p_extra": f"{d.get('w4p_extra') or 0:.2f}"}
        else:
            payment = {
                "rollover_type": d["rollover_type"],
                "institution": d["rollover_institution"].strip(),
                "account": d["rollover_account"].strip(),
            }
            withholding = {"form": "none", "note": "No withholding on a direct rollover"}
        return {"payment_method": method, "payment": payment, "withholding": withholding}


class SignForm(OneTimeTokenMixin, forms.Form):
    password = forms.CharField(
        label="Your password",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        strip=False,
    )
    confirm = forms.BooleanField(label="I have read the explanation and I make this election.", required=True)


class ConsentUploadForm(forms.Form):
    document = forms.FileField(label="The signed, witnessed consent form (PDF, JPEG or PNG)")
    signed_on = forms.DateField(
        label="Date your spouse signed", widget=forms.DateInput(attrs={"type": "date"})
    )
    witness = forms.ChoiceField(
        label="Who witnessed the signature?", choices=SpousalConsent.Witness.choices, widget=forms.RadioSelect
    )
    witness_name = forms.CharField(label="Witness's full name", max_length=200)
    notary_commission_number = forms.CharField(
        label="Notary's commission number", max_length=60, required=False
    )
    notary_commission_state = forms.CharField(
        label="State of commission (2 letters)", max_length=2, required=False
    )
    notary_commission_expires = forms.DateField(
        label="Commission expires", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    witnessing = forms.ChoiceField(
        label="How was it witnessed?",
        choices=SpousalConsent.Witnessing.choices,
        widget=forms.RadioSelect,
        initial="in_person",
    )
    remote_live_audio_video = forms.BooleanField(
        label="The witness saw and heard your spouse sign, live, by audio-video", required=False
    )
    remote_identity_shown = forms.BooleanField(
        label="Your spouse showed photo identification live to the witness", required=False
    )
    remote_same_day_transmission = forms.BooleanField(
        label="The signed form was sent to the witness the same day", required=False
    )

    def details(self) -> dict:
        d = self.cleaned_data
        return {k: (v.strip() if isinstance(v, str) else v) for k, v in d.items() if k != "document"}


class BatchForm(forms.Form):
    plan = forms.ChoiceField(label="Plan")
    rule = forms.ChoiceField(
        label="Who receives a notice?",
        choices=BatchRule.choices,
        widget=forms.RadioSelect,
        initial=BatchRule.ASD_WITHIN,
    )
    within_days = forms.IntegerField(
        label="Days ahead",
        min_value=1,
        max_value=366,
        initial=90,
        required=False,
        help_text="For the start-date rule: payment start dates from tomorrow through this many days ahead.",
    )

    def __init__(self, *args, plans, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["plan"].choices = [(p.key, p.name) for p in plans]


class RejectForm(forms.Form):
    reason = forms.CharField(
        label="What is wrong with the form", widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )


class ExceptionForm(forms.Form):
    exception = forms.ChoiceField(
        label="Circumstance", choices=SpousalConsent.ExceptionReason.choices, widget=forms.RadioSelect
    )
    certification = forms.CharField(
        label="Your certification of the facts",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=4000,
        help_text="For example: the court order's court, number and date, or the search made for the spouse.",
    )
