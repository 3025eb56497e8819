from django import forms
from django.utils import timezone

from benefits.engine.dates import age_on
from benefits.engine.input_ranges import MAX_AGE_AT_PLAN_DATES, MIN_AGE_AT_PLAN_DATES


class IdentityLinkForm(forms.Form):
    participant_number = forms.CharField(
        label="Participant number",
        max_length=20,
        help_text="Printed on your plan statements.",
        widget=forms.TextInput(attrs={"class": "usa-input", "autocomplete": "off"}),
    )
    birth_date = forms.DateField(
        label="Date of birth",
        help_text="Month, day and year, for example 04/28/1961",
        widget=forms.DateInput(attrs={"type": "date", "class": "usa-input"}),
    )
    ssn_last4 = forms.RegexField(
        label="Last four digits of your Social Security number",
        regex=r"^\d{4}$",
        max_length=4,
        error_messages={"invalid": "Enter exactly four digits."},
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "class": "usa-input usa-input--small"}
        ),
    )

    def clean_birth_date(self):
        born = self.cleaned_data["birth_date"]
        today = timezone.localdate()
        if born >= today or not MIN_AGE_AT_PLAN_DATES <= age_on(born, today) <= MAX_AGE_AT_PLAN_DATES:
            raise forms.ValidationError(
                f"Date of birth: a plan member is between {MIN_AGE_AT_PLAN_DATES} and {MAX_AGE_AT_PLAN_DATES} "
                "years old. Check the year."
            )
        return born
