from __future__ import annotations

from django import forms

from benefits.plan_identity.models import PlanContact


class PlanContactForm(forms.ModelForm):
    class Meta:
        model = PlanContact
        fields = list(PlanContact.FIELDS)
        labels = {
            "plan_number": "Plan number (three digits, as on Form 5500)",
            "sponsor_name": "Plan sponsor",
            "sponsor_address": "Sponsor's address",
            "administrator_name": "Plan administrator",
            "administrator_address": "Administrator's address",
            "administrator_phone": "Administrator's telephone",
        }
        widgets = {
            "sponsor_address": forms.Textarea(attrs={"rows": 3}),
            "administrator_address": forms.Textarea(attrs={"rows": 3}),
        }

    def clean_administrator_phone(self):
        phone = self.cleaned_data["administrator_phone"].strip()
        if sum(ch.isdigit() for ch in phone) < 10:
            raise forms.ValidationError("Give the telephone number with its area code (ten digits).")
        return phone
