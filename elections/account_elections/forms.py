"""Forms of the account elections: each creates a record, so each carries the one-time token."""

from __future__ import annotations

from django import forms

from accounts.submissions import OneTimeTokenMixin
from benefits import formatting


class DiversificationForm(OneTimeTokenMixin, forms.Form):
    shares = forms.CharField(
        label="Shares to diversify",
        max_length=24,
        widget=forms.TextInput(attrs={"class": "usa-input", "inputmode": "decimal", "autocomplete": "off"}),
    )
    confirm = forms.BooleanField(
        label="I elect to diversify this number of shares, and I understand this election replaces any "
        "earlier one I made in this election period.",
        required=True,
        widget=forms.CheckboxInput(attrs={"class": "usa-checkbox__input"}),
    )

    def __init__(self, *args, max_shares=None, **kwargs):
        super().__init__(*args, **kwargs)
        if max_shares is not None:
            self.fields["shares"].help_text = f"Up to {formatting.shares(max_shares)} shares."


class DeferralRateForm(OneTimeTokenMixin, forms.Form):
    percent = forms.CharField(
        label="New contribution rate (percent of your pay)",
        max_length=8,
        widget=forms.TextInput(
            attrs={"class": "usa-input usa-input--small", "inputmode": "numeric", "autocomplete": "off"}
        ),
    )

    def __init__(self, *args, program=None, **kwargs):
        super().__init__(*args, **kwargs)
        if program is not None:
            self.fields[
                "percent"
            ].help_text = f"A whole number from {program.min_percent} to {program.max_percent}, or 0 to stop."
