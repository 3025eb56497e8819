"""Forms for the election steps, beneficiaries and notice batches (a consent's are in
``elections/consents/forms.py``). Each error names the field and the rule; the service re-checks
everything when the election is signed."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from accounts.submissions import OneTimeTokenMixin
from benefits import formatting
from elections.benefit_elections.models import BatchRule, PaymentMethod

RELATIONSHIPS = (
    ("spouse", "Spouse"),
    ("child", "Child"),
    ("other_person", "Another person"),
    ("estate", "My estate"),
    ("trust", "A trust"),
)


def _choice_label(row: dict) -> str:
    """The form with its figures, so the choice can be made without the table (on a phone)."""
    if row.get("account_option") and not row.get("lump_sum"):
        return f"{row['label']}: {row['summary']}" if row.get("summary") else row["label"]
    if row.get("lump_sum"):
        return f"{row['label']}: {formatting.money(row['lump_sum'])} once"
    text = (
        f"{row['label']}: {formatting.money(row['monthly'])} a month" if row.get("monthly") else row["label"]
    )
    if row.get("survivor_monthly"):
        text += f", then {formatting.money(row['survivor_monthly'])} a month to your survivor"
    return text


class FormChoiceForm(forms.Form):
    form = forms.ChoiceField(label="Form of payment", widget=forms.RadioSelect)
    waive_30_days = forms.BooleanField(
        label="I choose to start payments less than 30 days after I received the explanation, and I know I "
        "have the right to at least 30 days to consider my choice.",
        required=False,
    )

    ACCOUNT_FIELDS = ("frequency", "years", "partial_amount")

    def __init__(self, *args, rows: list[dict], needs_waiver: bool, options: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["form"].choices = [(r["form"], _choice_label(r)) for r in rows]
        if not needs_waiver:
            del self.fields["waive_30_days"]
        self.options = options or {}
        inst = self.options.get("installments") or {}
        if any(r["form"] in ("installments", "partial_lump_sum") for r in rows) and inst.get("max_years"):
            self.fields["frequency"] = forms.ChoiceField(
                label="Installments: how often",
                choices=[("", "Choose"), *((f, f.capitalize()) for f in inst.get("frequencies") or [])],
                required=False,
                help_text="Only for installments, or for the rest after a partial lump sum.",
            )
            self.fields["years"] = forms.IntegerField(
                label=f"Installments: number of years (1 to {inst['max_years']})",
                required=False,
                help_text="Fewer than 10 years: each payment can be rolled over and 20% is withheld if paid to "
                "you. 10 years or more: the payments cannot be rolled over.",
            )
            self.fields["partial_amount"] = forms.DecimalField(
                label="Partial lump sum: the amount paid now ($)",
                required=False,
                max_digits=12,
                decimal_places=2,
                help_text="Only for a partial lump sum; less than your vested balance.",
            )

    def clean(self):
        from benefits.engine.account_options import check_choice

        d = super().clean()
        form = d.get("form")
        if form in ("installments", "partial_lump_sum"):
            for field, message in check_choice(form, self.choice(), self.options).items():
                self.add_error(field if field in self.fields else "form", message)
        return d

    def choice(self) -> dict:
        """The installment terms entered (strings, as the election keeps them)."""
        d = self.cleaned_data
        out = {}
        for name in self.ACCOUNT_FIELDS:
            value = d.get(name)
            if value not in (None, ""):
                out[name] = f"{value:.2f}" if name == "partial_amount" else str(value)
        if d.get("form") != "partial_lump_sum":
            out.pop("partial_amount", None)
        return out


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


W4P_STEPS = ("w4p_step2_jobs", "w4p_step2_pensions", "w4p_step3", "w4p_step4a", "w4p_step4b")


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
    # Form W-4P (2026) Steps 2 to 4, as the form asks them (Pub. 15-T (2026) Worksheet 1B reads them).
    w4p_step2_jobs = forms.DecimalField(
        label="Form W-4P Step 2(b)(i): if you or your spouse have a job, the total taxable yearly pay from all jobs ($)",
        min_value=Decimal(0),
        max_value=Decimal(100000000),
        max_digits=11,
        decimal_places=2,
        required=False,
    )
    w4p_step2_pensions = forms.DecimalField(
        label="Form W-4P Step 2(b)(ii): yearly taxable payments from your (and your spouse's) other pensions "
        "or annuities that pay less than this one ($)",
        min_value=Decimal(0),
        max_value=Decimal(100000000),
        max_digits=11,
        decimal_places=2,
        required=False,
    )
    w4p_step3 = forms.DecimalField(
        label="Form W-4P Step 3: credits you will claim for the year (child tax credit, other dependents, "
        "other credits) ($)",
        min_value=Decimal(0),
        max_value=Decimal(1000000),
        max_digits=9,
        decimal_places=2,
        required=False,
    )
    w4p_step4a = forms.DecimalField(
        label="Form W-4P Step 4(a): other income for the year with no withholding (interest, dividends, "
        "taxable social security) ($)",
        min_value=Decimal(0),
        max_value=Decimal(100000000),
        max_digits=11,
        decimal_places=2,
        required=False,
    )
    w4p_step4b = forms.DecimalField(
        label="Form W-4P Step 4(b): deductions you expect beyond the standard deduction ($)",
        min_value=Decimal(0),
        max_value=Decimal(100000000),
        max_digits=11,
        decimal_places=2,
        required=False,
    )
    w4p_extra = forms.DecimalField(
        label="Form W-4P Step 4(c): extra amount to withhold from each payment ($)",
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

    def __init__(self, *args, needs, **kwargs):
        super().__init__(*args, **kwargs)
        self.needs = needs
        self.single_sum = (
            needs.w4r
        )  # a W-4R rate is asked (a single sum or an eligible rollover distribution)
        methods = []
        if not needs.rollover_required:
            methods.append((PaymentMethod.DIRECT_DEPOSIT, PaymentMethod.DIRECT_DEPOSIT.label))
        if needs.rollover_allowed:
            methods.append((PaymentMethod.DIRECT_ROLLOVER, PaymentMethod.DIRECT_ROLLOVER.label))
        self.fields["payment_method"].choices = methods
        if not needs.w4p:
            for f in ("w4p", "w4p_extra", *W4P_STEPS):
                del self.fields[f]
        elif needs.w4r:
            self.fields["w4p"].label = "Federal income tax withholding on the installments (Form W-4P)"
        if not needs.rollover_allowed:
            for f in ("rollover_type", "rollover_institution", "rollover_account"):
                del self.fields[f]
        if not needs.w4r:
            del self.fields["w4r_rate"]
        else:
            self.fields[
                "w4r_rate"
            ].label = "Federal income tax withholding rate on the single sum or eligible rollover payments (Form W-4R), percent"

    def clean(self):
        d = super().clean()
        method = d.get("payment_method")
        bank = method == PaymentMethod.DIRECT_DEPOSIT or (method and self.needs.bank_always)
        if bank:
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
            if self.needs.w4p and not d.get("w4p"):
                self.add_error("w4p", "Withholding: choose a filing status, or no withholding.")
        if method == PaymentMethod.DIRECT_DEPOSIT and self.needs.w4r and d.get("w4r_rate") is None:
            self.add_error("w4r_rate", "Withholding rate: at least 20% (Code §3405(c)).")
        if method == PaymentMethod.DIRECT_ROLLOVER:
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
        payment: dict = {}
        withholding: dict = {}
        if method == PaymentMethod.DIRECT_DEPOSIT or self.needs.bank_always:
            payment = {
                "routing_number": d["routing_number"],
                "account_number": d["account_number"],
                "account_type": d["account_type"],
            }
        if method == PaymentMethod.DIRECT_ROLLOVER:
            payment.update(
                rollover_type=d["rollover_type"],
                institution=d["rollover_institution"].strip(),
                account=d["rollover_account"].strip(),
            )
        if method == PaymentMethod.DIRECT_DEPOSIT and self.needs.w4r:
            withholding = {"form": "W-4R", "w4r_rate": str(d["w4r_rate"])}
        if self.needs.w4p and (method == PaymentMethod.DIRECT_DEPOSIT or self.needs.bank_always):
            w4p = {"form": "W-4P", "w4p": d["w4p"], "w4p_extra": f"{d.get('w4p_extra') or 0:.2f}"}
            if d["w4p"] != "none":
                w4p.update({f: f"{d[f]:.2f}" for f in W4P_STEPS if d.get(f)})
            withholding = {**withholding, "installments": w4p} if withholding else w4p
        if not withholding:
            withholding = {"form": "none", "note": "No withholding on a direct rollover"}
        return {"payment_method": method, "payment": payment, "withholding": withholding}


class ExplanationReadForm(forms.Form):
    confirm = forms.BooleanField(
        label="I have read this explanation of my choices, my rights and the dates.", required=True
    )


class SignForm(OneTimeTokenMixin, forms.Form):
    password = forms.CharField(
        label="Your password",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        strip=False,
    )
    confirm = forms.BooleanField(label="I have read the explanation and I make this election.", required=True)


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


class DesignationForm(OneTimeTokenMixin, forms.Form):
    """A new beneficiary designation: up to ``ROWS`` beneficiaries, signed with the password. The
    field checks here are the input's shape; the plan's rules are the engine's (the service)."""

    ROWS = 4
    ROW_FIELDS = (
        "kind",
        "entity",
        "name",
        "relationship",
        "percent",
        "birth_date",
        "address",
        "trustee",
        "trust_date",
    )

    password = forms.CharField(
        label="Your password",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        strip=False,
    )
    confirm = forms.BooleanField(
        label="I name these beneficiaries for this plan, replacing any earlier designation once this one takes effect.",
        required=True,
    )

    def __init__(self, *args, relationships: dict[str, str], natural_persons_only: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        entities = [("person", "A person")]
        if not natural_persons_only:
            entities += [("trust", "A trust"), ("estate", "My estate")]
        people = [(k, v) for k, v in relationships.items() if k not in ("trust", "estate")]
        for i in range(1, self.ROWS + 1):
            who = f"Beneficiary {i}"
            self.fields[f"kind_{i}"] = forms.ChoiceField(
                label=f"{who}: primary or contingent",
                choices=(
                    ("primary", "Primary"),
                    ("contingent", "Contingent (only if no primary beneficiary survives you)"),
                ),
                required=False,
                initial="primary",
            )
            self.fields[f"entity_{i}"] = forms.ChoiceField(
                label=f"{who}: who is it?", choices=entities, required=False, initial="person"
            )
            self.fields[f"name_{i}"] = forms.CharField(
                label=f"{who}: full name (of the person, or of the trust)", max_length=200, required=False
            )
            self.fields[f"relationship_{i}"] = forms.ChoiceField(
                label=f"{who}: relationship to you (a person)",
                choices=(("", "Choose"), *people),
                required=False,
            )
            self.fields[f"percent_{i}"] = forms.DecimalField(
                label=f"{who}: share (percent)",
                required=False,
                min_value=Decimal("0.01"),
                max_value=Decimal(100),
                decimal_places=2,
            )
            self.fields[f"birth_date_{i}"] = forms.DateField(
                label=f"{who}: date of birth (a person)",
                required=False,
                widget=forms.DateInput(attrs={"type": "date"}),
            )
            self.fields[f"address_{i}"] = forms.CharField(
                label=f"{who}: mailing address (a person)", max_length=300, required=False
            )
            self.fields[f"trustee_{i}"] = forms.CharField(
                label=f"{who}: trustee's name (a trust)", max_length=200, required=False
            )
            self.fields[f"trust_date_{i}"] = forms.DateField(
                label=f"{who}: date the trust was made (a trust)",
                required=False,
                widget=forms.DateInput(attrs={"type": "date"}),
            )

    def row_fields(self):
        """The bound fields grouped by beneficiary, for the template's fieldsets."""
        return [(i, [self[f"{name}_{i}"] for name in self.ROW_FIELDS]) for i in range(1, self.ROWS + 1)]

    def rows(self) -> list[dict]:
        """The beneficiaries entered (a row counts when it has a name, a share, or names the estate)."""
        out = []
        d = self.cleaned_data
        for i in range(1, self.ROWS + 1):
            if not (
                d.get(f"name_{i}") or d.get(f"percent_{i}") is not None or d.get(f"entity_{i}") == "estate"
            ):
                continue
            row = {}
            for name in self.ROW_FIELDS:
                v = d.get(f"{name}_{i}")
                row[name] = (
                    "" if v is None else (v.isoformat() if hasattr(v, "isoformat") else str(v).strip())
                )
            if row["entity"] == "estate":
                row["name"], row["relationship"] = row["name"] or "My estate", "estate"
            elif row["entity"] == "trust":
                row["relationship"] = "trust"
            out.append(row)
        return out

    def add_service_errors(self, errors: dict[str, str]) -> None:
        """Put each of the service's ``row-N-field`` errors on its field; the rest on the form."""
        for key, message in errors.items():
            parts = key.split("-")
            field = f"{parts[2]}_{parts[1]}" if len(parts) == 3 and parts[0] == "row" else key
            self.add_error(field if field in self.fields else None, message)


class AnnuitantForm(forms.Form):
    """Who receives the survivor payments of a joint and survivor form: the spouse, or (where the plan
    allows it) someone else, with the details the engine prices the form on."""

    who = forms.ChoiceField(label="Who receives the survivor payments?", widget=forms.RadioSelect)
    name = forms.CharField(label="Survivor's full name", max_length=200, required=False)
    relationship = forms.ChoiceField(label="Survivor's relationship to you", required=False)
    birth_date = forms.DateField(
        label="Survivor's date of birth", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    FIELDS = {
        "annuitant_name": "name",
        "annuitant_relationship": "relationship",
        "annuitant_birth_date": "birth_date",
    }

    def __init__(self, *args, spouse_name: str = "", **kwargs):
        from elections.benefit_elections.annuitants import PERSON_RELATIONSHIPS

        super().__init__(*args, **kwargs)
        choices = [("spouse", f"My spouse, {spouse_name}")] if spouse_name else []
        choices.append(("other", "Someone else (a contingent annuitant)"))
        self.fields["who"].choices = choices
        self.fields["who"].initial = "spouse" if spouse_name else "other"
        self.fields["relationship"].choices = [("", "Choose"), *PERSON_RELATIONSHIPS.items()]

    def clean(self):
        data = super().clean()
        if data.get("who") == "other":
            if not (data.get("name") or "").strip():
                self.add_error("name", "Survivor's full name: give the name of the person you name.")
            if not data.get("relationship"):
                self.add_error("relationship", "Survivor's relationship to you: choose one.")
            if data.get("birth_date") is None and "birth_date" not in self.errors:
                self.add_error("birth_date", "Survivor's date of birth: give it; the payments depend on it.")
        return data

    def annuitant(self) -> dict:
        d = self.cleaned_data
        if d["who"] != "other":
            return {"who": "spouse"}
        return {
            "who": "other",
            "name": d["name"].strip(),
            "relationship": d["relationship"],
            "birth_date": d["birth_date"].isoformat(),
        }

    def field_for(self, key: str) -> str | None:
        """The field a service problem is about (``None``: the whole form)."""
        return self.FIELDS.get(key)
