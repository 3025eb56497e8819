from __future__ import annotations

from django import forms

from accounts.submissions import OneTimeTokenMixin


class ConsentForm(OneTimeTokenMixin, forms.Form):
    email = forms.EmailField(
        label="Email address for the notices",
        max_length=254,
        error_messages={
            "required": "Email address: enter the address the emails should go to.",
            "invalid": "Email address: enter an address like name@example.com.",
        },
    )
    code = forms.CharField(
        label="Code printed in the test document",
        max_length=12,
        error_messages={"required": "Code: open the test document and enter the code printed in it."},
    )
    acknowledged = forms.BooleanField(
        label="I have read what electronic delivery means, and I consent to it.",
        error_messages={
            "required": "Confirm that you have read what electronic delivery means before consenting."
        },
    )


class WithdrawForm(OneTimeTokenMixin, forms.Form):
    pass


class MarkMailedForm(forms.Form):
    mailed_on = forms.DateField(
        label="Date mailed",
        error_messages={
            "required": "Date mailed: enter the date the paper copy was mailed.",
            "invalid": "Date mailed: enter a date like 2026-11-24.",
        },
    )
