"""Forms for a spouse's consent: the signed form uploaded with what it says, the administrator's
refusal, a certified exception. Each error names the field and the rule; the service re-checks."""

from __future__ import annotations

from django import forms

from elections.consents.models import SpousalConsent


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
