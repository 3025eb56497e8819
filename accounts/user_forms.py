"""The administrators' forms for roles and access."""

from __future__ import annotations

from django import forms

from accounts.models import User


class RoleForm(forms.Form):
    role = forms.ChoiceField(label="Role", choices=User.Role.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].widget.attrs["class"] = "usa-select"


class ActiveForm(forms.Form):
    active = forms.TypedChoiceField(
        choices=[("1", "Active"), ("0", "Deactivated")], coerce=lambda v: v == "1", label="Access"
    )
