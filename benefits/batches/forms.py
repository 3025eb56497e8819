from __future__ import annotations

from django import forms

from benefits.models import Plan


class BatchStartForm(forms.Form):
    plan = forms.ModelChoiceField(label="Plan", queryset=Plan.objects.order_by("name"), to_field_name="key")
    year = forms.IntegerField(
        label="Plan year",
        min_value=2000,
        max_value=2100,
        help_text="The statements are dated December 31 of this year. Starting the same plan and year "
        "again finishes the earlier batch instead of printing statements twice.",
    )
