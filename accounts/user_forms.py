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


class StaffLoginForm(forms.Form):
    """A new staff login, made only when a second person approves it."""

    email = forms.EmailField(
        label="Email address",
        max_length=254,
        error_messages={"max_length": "Email address: at most 254 characters."},
        widget=forms.EmailInput(attrs={"class": "usa-input", "autocomplete": "off"}),
    )
    role = forms.ChoiceField(
        label="Role",
        choices=[
            (User.Role.COMMITTEE, User.Role.COMMITTEE.label),
            (User.Role.ADMINISTRATOR, User.Role.ADMINISTRATOR.label),
        ],
        widget=forms.Select(attrs={"class": "usa-select"}),
    )


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", "Approve"), ("refuse", "Refuse")], label="Decision")
