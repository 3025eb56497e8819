"""Claim forms. Each claim type asks only for what its plan needs; the engine check runs in the service,
and its messages are put back on the fields they name."""

from __future__ import annotations

from datetime import date

from django import forms

from accounts.submissions import OneTimeTokenMixin
from benefits import formatting
from benefits.engine.plans.base import HardshipRules
from elections import uploads
from elections.claims import tax_fields
from elections.claims.models import ClaimDetermination, ClaimType

FORM_LABELS = {
    "life": "Single life annuity",
    "js50": "50% joint and survivor annuity",
    "js66": "66⅔% joint and survivor annuity",
    "js75": "75% joint and survivor annuity",
    "js100": "100% joint and survivor annuity",
    "cc5": "Life annuity, 5 years certain",
    "cc10": "Life annuity, 10 years certain",
    "cc15": "Life annuity, 15 years certain",
    "cc20": "Life annuity, 20 years certain",
    "ss_level": "Level income option",
    "lump_sum": "Lump sum",
}

_DATE = {"type": "date"}
# Claims whose outcome can turn on a finding of disability (a disability retirement, or vesting and
# distribution rules that change on disability); loans, hardship and age-59½ withdrawals never do.
DISABILITY_CAN_MATTER = (
    ClaimType.COMMENCEMENT,
    ClaimType.TERMINATION_DISTRIBUTION,
    ClaimType.ESOP_DISTRIBUTION,
    ClaimType.LUMP_SUM,
)


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".pdf,.jpg,.jpeg,.png"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        items = data if isinstance(data, (list, tuple)) else ([data] if data else [])
        if not items and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        cleaned = [super(MultipleFileField, self).clean(d, initial) for d in items]
        try:
            return uploads.check_uploads(cleaned)
        except uploads.UploadRefused as exc:
            raise forms.ValidationError(str(exc)) from exc


def _documents_field(required: bool = False, label: str = "Documents") -> MultipleFileField:
    return MultipleFileField(
        label=label,
        required=required,
        help_text=f"PDF, JPEG or PNG; up to {uploads.MAX_FILES} files of at most "
        f"{uploads.MAX_UPLOAD_BYTES // (1024 * 1024)} MB each.",
    )


class UswdsMixin:
    """USWDS classes on the widgets (the shared includes/form_fields.html renders them)."""

    def _style(self) -> None:
        for name, field in self.fields.items():
            w = field.widget
            if field.help_text:
                w.attrs["aria-describedby"] = f"id_{name}-hint"  # the hint includes/form_fields.html renders
            if isinstance(w, forms.CheckboxInput):
                w.attrs["class"] = "usa-checkbox__input"
                continue
            if isinstance(w, forms.FileInput):
                continue
            if isinstance(w, forms.Textarea):
                w.attrs["class"] = "usa-textarea"
            elif isinstance(w, forms.Select):
                w.attrs["class"] = "usa-select"
            else:
                w.attrs["class"] = "usa-input"

    def full_clean(self):
        super().full_clean()
        for name in self.errors:
            widget = self.fields[name].widget if name in self.fields else None
            if (
                widget is not None
                and "class" in widget.attrs
                and "usa-input--error" not in widget.attrs["class"]
            ):
                widget.attrs["class"] += " usa-input--error"


class ClaimForm(OneTimeTokenMixin, UswdsMixin, forms.Form):
    """Built for one claim type: only its fields are present."""

    def __init__(
        self,
        *args,
        claim_type: str,
        forms_offered: list[str] | None = None,
        hardship: HardshipRules | None = None,
        representation_section: str = "",
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.claim_type = claim_type
        self.hardship = hardship  # the plan's hardship reasons (Plan.hardship)
        f = self.fields
        if claim_type in (
            ClaimType.COMMENCEMENT,
            ClaimType.TERMINATION_DISTRIBUTION,
            ClaimType.LUMP_SUM,
            ClaimType.ESOP_DISTRIBUTION,
        ):
            f["commencement_date"] = forms.DateField(
                label="Date you want payments to start",
                widget=forms.DateInput(attrs=_DATE),
                help_text="Usually the first day of a month.",
            )
        if claim_type in (ClaimType.COMMENCEMENT, ClaimType.TERMINATION_DISTRIBUTION):
            offered = forms_offered or list(FORM_LABELS)
            f["form"] = forms.ChoiceField(
                label="Form of payment",
                choices=[("", "- Select -")] + [(k, FORM_LABELS.get(k, k)) for k in offered],
                help_text="The forms the plan offers; the plan checks them for the date you choose.",
            )
        if claim_type == ClaimType.HARDSHIP and hardship is not None:
            f["reason"] = forms.ChoiceField(
                label="Reason for the hardship",
                choices=[("", "- Select -")]
                + [(r.value, f"{r.label} ({r.section})") for r in hardship.reasons],
            )
        if claim_type in (ClaimType.HARDSHIP, ClaimType.WITHDRAWAL_59HALF, ClaimType.LOAN):
            f["amount"] = forms.DecimalField(
                label="Amount (dollars)",
                min_value=1,
                max_digits=12,
                decimal_places=2,
                widget=forms.TextInput(attrs={"inputmode": "decimal"}),
            )
        if claim_type in (ClaimType.HARDSHIP, ClaimType.WITHDRAWAL_59HALF):
            f["payment_date"] = forms.DateField(
                label="Requested payment date",
                widget=forms.DateInput(attrs=_DATE),
                help_text="At least 10 days after today (ten days' written notice).",
            )
        tax_fields.add(self, claim_type)  # how to pay and withhold (issue 27)
        if claim_type == ClaimType.LOAN:
            f["term_months"] = forms.IntegerField(
                label="Term (months)",
                min_value=1,
                max_value=180,
                help_text="At most 60 months; up to 180 for buying your principal residence.",
            )
            f["principal_residence"] = forms.BooleanField(
                label="The loan is to buy my principal residence", required=False
            )
        if claim_type == ClaimType.HARDSHIP:
            f["representation"] = forms.BooleanField(
                label="I represent that the need cannot be met by insurance, by reasonably selling my assets, by "
                "stopping my Before-Tax Contributions, or by other plan distributions, loans or commercial borrowing"
                + (f" ({representation_section})." if representation_section else "."),
                required=False,
            )
        f["statement"] = forms.CharField(
            label="Your statement of the claim",
            required=claim_type == ClaimType.DEATH_BENEFIT,
            widget=forms.Textarea(attrs={"rows": 4}),
            max_length=5000,
            help_text="What you are claiming and why, in your own words.",
        )
        if claim_type in DISABILITY_CAN_MATTER:
            f["disability_based"] = forms.BooleanField(
                label="My claim depends on a finding that I am disabled",
                required=False,
                help_text="If so, the regulation's disability deadlines apply (a decision within 45 days; "
                "180 days to appeal).",
            )
        f["documents"] = _documents_field(
            required=claim_type == ClaimType.HARDSHIP,
            label="Evidence of the need"
            if claim_type == ClaimType.HARDSHIP
            else "Supporting documents (optional)",
        )
        self._style()

    def clean(self):
        cleaned = super().clean()
        start = cleaned.get("commencement_date")
        if self.claim_type == ClaimType.COMMENCEMENT and start and start.day != 1:
            nxt = date(start.year + (start.month == 12), start.month % 12 + 1, 1)
            self.add_error(
                "commencement_date",
                f"Date you want payments to start: payments start on the first of a month; choose "
                f"{nxt:%B} 1, {nxt.year} (or {start:%B} 1, {start.year} if that is still open to you).",
            )
        tax_fields.clean(self, self.claim_type, cleaned)
        return cleaned

    def details(self) -> dict:
        skip = {"statement", "disability_based", "documents", "submission_token"}
        return {k: v for k, v in self.cleaned_data.items() if k not in skip}

    def evidence_list(self) -> dict[str, tuple[str, ...]]:
        return {r.label: r.evidence for r in self.hardship.reasons} if self.hardship else {}


class DecisionForm(OneTimeTokenMixin, UswdsMixin, forms.Form):
    outcome = forms.ChoiceField(
        label="Decision", choices=[("", "- Select -"), *ClaimDetermination.Outcome.choices]
    )
    reasons = forms.CharField(
        label="Reasons",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=5000,
        help_text="Required for a denial: the specific reasons, in words the claimant can follow. "
        "Optional for an approval.",
    )
    provisions = forms.CharField(
        label="Plan provisions relied on",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        help_text="Required for a denial: cite the plan's sections the decision rests on.",
    )
    perfecting_material = forms.CharField(
        label="Material that would perfect the claim, and why",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=3000,
        help_text="Required for an initial denial; say “None” with the reason if nothing would.",
    )

    def __init__(self, *args, review: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if review:
            del self.fields["perfecting_material"]
        self._style()


class ExtensionForm(OneTimeTokenMixin, UswdsMixin, forms.Form):
    reason = forms.CharField(
        label="Special circumstances requiring more time",
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._style()


class InformationRequestForm(OneTimeTokenMixin, UswdsMixin, forms.Form):
    """The committee chooses, before sending, whether the request goes with an extension for the
    missing information (the clock stops until the answer, 2560.503-1(f)(4)) or without one (the
    clock keeps running to the date shown)."""

    what = forms.CharField(
        label="Information needed, and why", widget=forms.Textarea(attrs={"rows": 3}), max_length=3000
    )
    respond_by = forms.DateField(label="Answer by", widget=forms.DateInput(attrs=_DATE))
    extend = forms.ChoiceField(label="The time to decide", widget=forms.RadioSelect)

    def __init__(self, *args, due=None, extension_days: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        running = "Ask without an extension: the clock keeps running" + (
            f" and the decision is still due by {formatting.date_words(due)}" if due else ""
        )
        choices = [("no", running)]
        if extension_days:
            choices.insert(
                0,
                (
                    "yes",
                    f"Extend the time by {extension_days} days because this information is missing: "
                    "the clock stops from today until the claimant answers",
                ),
            )
        self.fields["extend"].choices = choices
        self._style()
        self.fields["extend"].widget.attrs["class"] = "usa-radio__input"


class AnswerForm(OneTimeTokenMixin, UswdsMixin, forms.Form):
    response = forms.CharField(
        label="Your answer", required=False, widget=forms.Textarea(attrs={"rows": 4}), max_length=5000
    )
    documents = _documents_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._style()


class AppealForm(OneTimeTokenMixin, UswdsMixin, forms.Form):
    statement = forms.CharField(
        label="Why the decision should change",
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=10000,
        help_text="Your comments, and anything the committee should consider.",
    )
    documents = _documents_field(label="Documents for the review (optional)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._style()


class AddDocumentsForm(OneTimeTokenMixin, UswdsMixin, forms.Form):
    documents = _documents_field(required=True, label="Add documents")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._style()
