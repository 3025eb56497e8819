"""Input for the payments pages: a pay date, and a new bank account for a returned payment."""

from __future__ import annotations

from django import forms

from elections.benefit_elections.forms import aba_valid


class PayDateForm(forms.Form):
    date = forms.DateField(label="Pay date (YYYY-MM-DD)", input_formats=["%Y-%m-%d"])

    def clean_date(self):
        d = self.cleaned_data["date"]
        if d.day != 1:
            raise forms.ValidationError(
                "Pay date: the plans pay on the first day of a month (for example 2027-01-01)."
            )
        return d


class BankAccountForm(forms.Form):
    routing_number = forms.CharField(label="Bank routing number (9 digits)", max_length=9)
    account_number = forms.CharField(label="Account number", max_length=17)
    account_type = forms.ChoiceField(
        label="Account type", choices=(("checking", "Checking"), ("savings", "Savings"))
    )

    def clean_routing_number(self):
        routing = self.cleaned_data["routing_number"].strip()
        if not aba_valid(routing):
            raise forms.ValidationError(
                "Bank routing number: 9 digits, as printed on your checks (the check digit did not match)."
            )
        return routing

    def clean_account_number(self):
        account = self.cleaned_data["account_number"].strip()
        if not (4 <= len(account) <= 17 and account.isdigit()):
            raise forms.ValidationError("Account number: 4 to 17 digits.")
        return account

    def destination(self) -> tuple[dict, str]:
        d = self.cleaned_data
        dest = {
            "routing_number": d["routing_number"],
            "account_number": d["account_number"],
            "account_type": d["account_type"],
        }
        return dest, f"{d['account_type'].title()} account ending {d['account_number'][-4:]}"


class DeathForm(forms.Form):
    """The death of a payee in pay: the date and the evidence (a document, or its reference)."""

    died_on = forms.DateField(
        label="Date of death (YYYY-MM-DD)",
        input_formats=["%Y-%m-%d"],
        error_messages={
            "required": "Date of death: enter the date of death.",
            "invalid": "Date of death: a date as YYYY-MM-DD.",
        },
    )
    evidence_reference = forms.CharField(
        label="Evidence reference (for example the death certificate number)", max_length=200, required=False
    )
    evidence = forms.FileField(
        label="Evidence document (death certificate: PDF, JPEG or PNG)", required=False
    )
