import secrets

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.contrib.auth.hashers import make_password
from django.urls import reverse

MAX_EMAIL_LENGTH = 254


class AccountAdapter(DefaultAccountAdapter):
    """Everyone lands on their role's home page after login."""

    def get_login_redirect_url(self, request):
        return reverse("home")

    def clean_email(self, email):
        # RFC 5321 allows at most 254 characters in an address; a longer one was stored cut (without
        # its "@") and made the next sign-up answer 500 (issue 26). Every allauth form asks here.
        if len(email) > MAX_EMAIL_LENGTH:
            raise forms.ValidationError(f"Email: an address has at most {MAX_EMAIL_LENGTH} characters.")
        return super().clean_email(email)

    def send_account_already_exists_mail(self, email):
        # A new address's sign-up hashes its password; an address already registered does the same
        # work, so the time of the answer does not tell the two apart (issue 26).
        make_password(secrets.token_urlsafe(16))
        return super().send_account_already_exists_mail(email)
