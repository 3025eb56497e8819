from django import forms


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
