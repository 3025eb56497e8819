from django import forms


class IdentityLinkForm(forms.Form):
    participant_number = forms.CharField(
        label="Participant number",
        max_length=20,
        help_text="Printed on your plan statements.",
    )
    birth_date = forms.DateField(
        label="Date of birth",
        help_text="For example: 1961-04-28",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    ssn_last4 = forms.RegexField(
        label="Last four digits of your Social Security number",
        regex=r"^\d{4}$",
        max_length=4,
        error_messages={"invalid": "Enter exactly four digits."},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
